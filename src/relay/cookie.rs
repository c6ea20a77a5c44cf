//! Stateless address validation for the relay (as QUIC's Retry tokens, RFC 9000 §8.1): a
//! cookie is an HMAC, under a secret the relay draws at start, of the sender's address and a
//! time bucket, so checking one needs no memory of having sent it. A cookie is good for the
//! bucket it was made in and the next ([`PERIOD`] to twice that). The same secret keys the
//! short hashes that stand for client addresses in the logs.
//!
//! Must not: read the clock (callers pass `now`), or keep anything per address.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use ring::hmac;

use crate::net::codec::relay::{Cookie, TOKEN_LEN};

/// How long a time bucket lasts.
pub const PERIOD: Duration = Duration::from_secs(20);

/// Makes and checks cookies.
pub struct Cookies {
    key: hmac::Key,
    started: Instant,
}

impl std::fmt::Debug for Cookies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cookies").finish_non_exhaustive()
    }
}

/// An address as one kind: IPv4-mapped IPv6 addresses (a dual-stack socket's view of IPv4
/// senders) become plain IPv4.
pub fn canonical(a: SocketAddr) -> SocketAddr {
    SocketAddr::new(a.ip().to_canonical(), a.port())
}

impl Cookies {
    /// Cookies keyed by `secret`, with buckets counted from `started`.
    pub fn new(secret: &[u8; 32], started: Instant) -> Cookies {
        Cookies { key: hmac::Key::new(hmac::HMAC_SHA256, secret), started }
    }

    fn bucket(&self, now: Instant) -> u64 {
        now.saturating_duration_since(self.started).as_secs() / PERIOD.as_secs()
    }

    fn mac(&self, bucket: u64, addr: SocketAddr) -> Cookie {
        let addr = canonical(addr);
        let ip = match addr.ip() {
            IpAddr::V4(ip) => ip.to_ipv6_mapped().octets(),
            IpAddr::V6(ip) => ip.octets(),
        };
        let mut ctx = hmac::Context::with_key(&self.key);
        ctx.update(b"cookie");
        ctx.update(&bucket.to_le_bytes());
        ctx.update(&ip);
        ctx.update(&addr.port().to_le_bytes());
        let mut out = [0u8; TOKEN_LEN];
        out.copy_from_slice(&ctx.sign().as_ref()[..TOKEN_LEN]);
        // All zero means "no cookie" on the wire.
        if out == [0; TOKEN_LEN] {
            out[0] = 1;
        }
        out
    }

    /// The cookie for `addr` now.
    pub fn make(&self, now: Instant, addr: SocketAddr) -> Cookie {
        self.mac(self.bucket(now), addr)
    }

    /// True when `cookie` was made for `addr` in this bucket or the one before.
    pub fn check(&self, now: Instant, addr: SocketAddr, cookie: &Cookie) -> bool {
        let b = self.bucket(now);
        let same = |c: Cookie| c.iter().zip(cookie).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0;
        same(self.mac(b, addr)) || (b > 0 && same(self.mac(b - 1, addr)))
    }

    /// A short keyed hash standing for `ip` in the logs: the same address gives the same
    /// hash for the life of this relay, and nothing else can be learned from it.
    pub fn hide(&self, ip: IpAddr) -> String {
        let tag = hmac::sign(&self.key, format!("log {}", ip.to_canonical()).as_bytes());
        tag.as_ref()[..4].iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cookie_is_for_one_address_and_a_while() {
        let t = Instant::now();
        let c = Cookies::new(&[7; 32], t);
        let a: SocketAddr = "203.0.113.7:51000".parse().unwrap();
        let cookie = c.make(t, a);
        assert!(c.check(t + Duration::from_secs(5), a, &cookie));
        assert!(c.check(t + PERIOD + Duration::from_secs(5), a, &cookie), "the next bucket still");
        assert!(!c.check(t + PERIOD * 2, a, &cookie), "expired");
        assert!(!c.check(t, "203.0.113.7:51001".parse().unwrap(), &cookie), "another port");
        assert!(!c.check(t, "203.0.113.8:51000".parse().unwrap(), &cookie), "another address");
        let mapped: SocketAddr = "[::ffff:203.0.113.7]:51000".parse().unwrap();
        assert!(c.check(t, mapped, &cookie), "the same sender seen through a dual-stack socket");
        let other = Cookies::new(&[8; 32], t);
        assert!(!other.check(t, a, &cookie), "a restarted relay (a new secret) knows no old cookie");
        assert_eq!(c.hide(a.ip()), c.hide(mapped.ip()));
        assert_ne!(c.hide(a.ip()), other.hide(a.ip()));
        assert!(!c.hide(a.ip()).contains("203"));
    }
}
