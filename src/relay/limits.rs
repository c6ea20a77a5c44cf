//! The relay's abuse limits: how many rooms and seats an address may hold, how fast it may ask,
//! how many bytes a room may push through, how much the relay says to addresses it has not
//! validated, and how long silence lasts before a room or a member is forgotten; the token
//! bucket that meters rates; and [`prefix`], the unit limits count by (an IPv4 address, an
//! IPv6 /64, since one home gets a whole /64).
//!
//! Must not: read the clock (callers pass `now`), so limits are tested with simulated time.

use std::net::{IpAddr, Ipv6Addr};
use std::time::{Duration, Instant};

/// What limits count by: an IPv4 address (IPv4-mapped IPv6 ones as IPv4), or an IPv6 /64.
pub fn prefix(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// The limits one relay enforces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rooms one IP address (IPv6: one /64) may hold at once.
    pub rooms_per_address: u32,
    /// Seats (as a joiner) one address or /64 may hold at once, over all rooms.
    pub seats_per_address: u32,
    /// Seats one address or /64 may hold in one room (two siblings behind one router).
    pub seats_per_address_in_room: u8,
    /// Addresses (or /64s) the relay keeps counters for; past it, new ones are refused.
    pub addresses: usize,
    /// Rooms the relay holds at once.
    pub rooms: usize,
    /// Joiners a room takes.
    pub joiners_per_room: u8,
    /// Requests (register, lookup) one IP address may make per second, sustained.
    pub requests_per_second: u32,
    /// Requests one address may make in a burst.
    pub request_burst: u32,
    /// Refusals one validated address is told per second (beyond, it is told nothing).
    pub refusals_per_second: u32,
    /// Answers (challenges, refusals) the relay sends per second, in all, to addresses it has
    /// not validated; each is smaller than its request, and beyond this rate none is sent.
    pub unvalidated_answers_per_second: u32,
    /// Bytes a room may relay per second, sustained (a lockstep match needs a few KB/s).
    pub room_bytes_per_second: u32,
    /// Bytes a room may relay in a burst (a rejoin's catch-up, a QUIC handshake).
    pub room_byte_burst: u32,
    /// A room whose host is silent this long is gone; a silent joiner leaves its seat.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rooms_per_address: 4,
            seats_per_address: 16,
            seats_per_address_in_room: 2,
            addresses: 200_000,
            rooms: 50_000,
            joiners_per_room: 7,
            requests_per_second: 2,
            request_burst: 10,
            refusals_per_second: 1,
            unvalidated_answers_per_second: 20_000,
            room_bytes_per_second: 256 * 1024,
            room_byte_burst: 2 * 1024 * 1024,
            idle: Duration::from_secs(60),
        }
    }
}

/// A token bucket: `rate` tokens a second, at most `burst` saved up.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: u32, burst: u32, now: Instant) -> Bucket {
        Bucket { tokens: f64::from(burst), rate: f64::from(rate), burst: f64::from(burst), at: now }
    }

    /// Takes `n` tokens if there are that many; false (and nothing taken) otherwise.
    pub fn take(&mut self, n: u32, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= f64::from(n) {
            self.tokens -= f64::from(n);
            true
        } else {
            false
        }
    }

    /// True when the bucket is full again at `now` (the address may be forgotten).
    pub fn is_full(&self, now: Instant) -> bool {
        self.tokens + now.saturating_duration_since(self.at).as_secs_f64() * self.rate >= self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let t0 = Instant::now();
        let mut b = Bucket::new(2, 10, t0);
        assert_eq!((0..12).filter(|_| b.take(1, t0)).count(), 10, "the burst, no more");
        assert!(!b.take(1, t0 + Duration::from_millis(400)), "0.8 tokens after 400 ms");
        assert!(b.take(1, t0 + Duration::from_millis(600)), "1.2 tokens after 600 ms");
        assert!(!b.is_full(t0 + Duration::from_secs(2)));
        assert!(b.is_full(t0 + Duration::from_secs(6)));
        assert!(!b.take(11, t0 + Duration::from_secs(60)), "never more than the burst at once");
    }

    #[test]
    fn limits_count_ipv4_addresses_and_ipv6_64s() {
        let p = |s: &str| prefix(s.parse().unwrap());
        assert_eq!(p("203.0.113.7"), p("::ffff:203.0.113.7"));
        assert_ne!(p("203.0.113.7"), p("203.0.113.8"));
        assert_eq!(p("2001:db8:1:2::1"), p("2001:db8:1:2:ffff::9"), "one home's /64");
        assert_ne!(p("2001:db8:1:2::1"), p("2001:db8:1:3::1"));
    }
}
