//! The relay's abuse limits: how many rooms an address may hold, how fast it may ask, how many
//! bytes a room may push through, and how long silence lasts before a room or a member is
//! forgotten; and the token bucket that meters rates.
//!
//! Must not: read the clock (callers pass `now`), so limits are tested with simulated time.

use std::time::{Duration, Instant};

/// The limits one relay enforces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rooms one IP address may hold at once.
    pub rooms_per_address: u32,
    /// Rooms the relay holds at once.
    pub rooms: usize,
    /// Joiners a room takes.
    pub joiners_per_room: u8,
    /// Requests (register, lookup) one IP address may make per second, sustained.
    pub requests_per_second: u32,
    /// Requests one address may make in a burst.
    pub request_burst: u32,
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
            rooms: 50_000,
            joiners_per_room: 7,
            requests_per_second: 2,
            request_burst: 10,
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
}
