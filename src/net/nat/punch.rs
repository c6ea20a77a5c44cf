//! One peer's hole punching, as an I/O-free state machine: when punches go out, which ones are
//! believed, and when a direct path counts as open.
//!
//! Only the friend can steer it: it starts once both ends hold the key of the QUIC connection
//! they already share through the relay ([`PunchKey`]); every punch and acknowledgement carries
//! that key's code, punches carry a nonce never used twice (replays are refused), and a path
//! opens only on an authenticated acknowledgement that echoes a punch sent to *that exact
//! address*. Whatever else arrives changes nothing here.
//!
//! It survives routers that accept unsolicited packets to themselves: a punch that reaches the
//! other router before its own side sent anything there becomes a router-local conntrack entry,
//! and masquerade then moves that side's punches to a new port. So each side first sends
//! *scouts*, punches with a small TTL ([`SCOUT_TTL`]) that open its own NAT's mapping towards
//! the other and die before the other router; the host then pauses ([`SCOUT_PAUSE`]) before
//! punching in earnest, and the joiner (which holds its key first) punches in earnest only
//! once the host's punch reached it, or after [`JOINER_WAIT`]. An address a punch really came
//! from is punched back at once (it came through, so the way back is open).
//!
//! Must not: read the clock or a socket; believe an address no authenticated message proved.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use super::punch_key::{PunchFields, PunchKey, PunchKind};
use crate::net::codec::relay::{MAC_LEN, RelayMessage, RoomId};

/// How often a punch is sent while no direct path is known.
pub const PUNCH_EVERY: Duration = Duration::from_millis(200);
/// How long punching goes on (from the key) before the relayed path is kept for good.
pub const PUNCH_FOR: Duration = Duration::from_secs(10);
/// The host's pause between its scouts and its first real punch.
pub const SCOUT_PAUSE: Duration = Duration::from_millis(300);
/// How long a joiner waits for the host's punch before punching in earnest anyway.
pub const JOINER_WAIT: Duration = Duration::from_secs(1);
/// The TTL of scouts: past this machine's own router, not as far as the other's.
pub const SCOUT_TTL: u32 = 2;
/// The most addresses one peer is punched at.
const MAX_TARGETS: usize = 8;
/// Punches remembered for their acknowledgements.
const OUTSTANDING: usize = 256;

/// Who punches whom, in which room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    /// The shared room.
    pub room: RoomId,
    /// This machine's number (0: the host).
    pub me: u8,
    /// The peer's number.
    pub them: u8,
}

/// Why a punch message was not believed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No key for this peer yet (no QUIC connection to it).
    NoKey,
    /// Its code is not the key's.
    BadCode,
    /// A punch whose nonce was already seen.
    Replayed,
    /// An acknowledgement of no punch sent to the address it came from.
    Unasked,
}

impl Refusal {
    /// What it means, for a log line.
    pub fn describe(self) -> &'static str {
        match self {
            Refusal::NoKey => "before a connection keyed the punching",
            Refusal::BadCode => "with a wrong authentication code",
            Refusal::Replayed => "replayed",
            Refusal::Unasked => "answering no punch sent there",
        }
    }
}

/// The nonces seen from the peer: the highest and the 64 below it.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    top: u64,
    bits: u64,
}

impl Seen {
    /// Records `n`; false if it was seen before or is too old to tell.
    fn fresh(&mut self, n: u64) -> bool {
        if n > self.top {
            let shift = n - self.top;
            self.bits = if shift >= 64 { 0 } else { self.bits << shift };
            self.bits |= 1;
            self.top = n;
            return true;
        }
        let back = self.top - n;
        if n == 0 || back >= 64 || self.bits & (1 << back) != 0 {
            return false;
        }
        self.bits |= 1 << back;
        true
    }
}

/// One peer's punching.
#[derive(Debug, Default)]
pub struct Punching {
    key: Option<PunchKey>,
    /// Where punches go: the address the relay saw, then any a believed punch came from.
    targets: Vec<SocketAddr>,
    /// The proven direct address.
    direct: Option<SocketAddr>,
    /// Punching ends then (set by the key).
    until: Option<Instant>,
    next: Option<Instant>,
    /// Real punches go out from then on (scouts before).
    loud_from: Option<Instant>,
    /// Addresses already scouted.
    scouted: Vec<SocketAddr>,
    nonce: u64,
    sent: VecDeque<(u64, SocketAddr)>,
    seen: Seen,
}

/// A datagram punching wants sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    /// Where.
    pub to: SocketAddr,
    /// What.
    pub message: RelayMessage,
    /// Sent with [`SCOUT_TTL`].
    pub scout: bool,
}

impl Punching {
    /// The proven direct address, if one opened.
    pub fn direct(&self) -> Option<SocketAddr> {
        self.direct
    }

    /// Punch at `to` too (the address the relay saw).
    pub fn aim(&mut self, to: SocketAddr) {
        if !self.targets.contains(&to) && self.targets.len() < MAX_TARGETS {
            self.targets.push(to);
        }
    }

    /// The addresses punched at.
    pub fn targets(&self) -> &[SocketAddr] {
        &self.targets
    }

    /// Whether this peer's punching is keyed.
    pub fn keyed(&self) -> bool {
        self.key.is_some()
    }

    /// The connection's key arrived: scouts go out now, real punches after the pause (host)
    /// or once the host's punch is heard (joiner). A second key is ignored.
    pub fn key(&mut self, key: PunchKey, host: bool, now: Instant) {
        if self.key.is_some() {
            return;
        }
        self.key = Some(key);
        self.until = Some(now + PUNCH_FOR);
        self.next = Some(now);
        self.loud_from = Some(now + if host { SCOUT_PAUSE } else { JOINER_WAIT });
    }

    /// When [`Punching::on_timeout`] wants to run.
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.direct.is_some() || self.targets.is_empty() {
            return None;
        }
        let (next, until) = (self.next?, self.until?);
        (next <= until).then_some(next)
    }

    fn punch(&mut self, ends: Ends, to: SocketAddr, scout: bool) -> Option<Shot> {
        let key = self.key.as_ref()?;
        self.nonce += 1;
        let nonce = self.nonce;
        let f = PunchFields { kind: PunchKind::Punch, room: ends.room, from: ends.me, to: ends.them, nonce };
        let mac = key.sign(&f);
        if self.sent.len() >= OUTSTANDING {
            self.sent.pop_front();
        }
        self.sent.push_back((nonce, to));
        Some(Shot { to, message: RelayMessage::Punch { room: ends.room, peer: ends.me, nonce, mac }, scout })
    }

    /// The punches due at `now`: scouts to addresses not yet scouted, real ones once loud.
    pub fn on_timeout(&mut self, ends: Ends, now: Instant) -> Vec<Shot> {
        let mut out = Vec::new();
        let (Some(next), Some(until), Some(loud_from)) = (self.next, self.until, self.loud_from) else { return out };
        if self.direct.is_some() || now < next || now > until {
            return out;
        }
        let loud = now >= loud_from;
        for to in self.targets.clone() {
            // Scouts until loud (repeated, one may be lost), and first to any new address.
            let scout = !loud || !self.scouted.contains(&to);
            if !self.scouted.contains(&to) {
                self.scouted.push(to);
            }
            out.extend(self.punch(ends, to, scout));
        }
        self.next = Some(if loud { now + PUNCH_EVERY } else { loud_from.min(now + PUNCH_EVERY) });
        out
    }

    /// A punch arrived from `from`: believed, it is answered there (and punched back at once if
    /// the address is new); otherwise why not.
    pub fn on_punch(
        &mut self,
        ends: Ends,
        from: SocketAddr,
        nonce: u64,
        mac: &[u8; MAC_LEN],
        now: Instant,
    ) -> Result<Vec<Shot>, Refusal> {
        let key = self.key.as_ref().ok_or(Refusal::NoKey)?;
        let f = PunchFields { kind: PunchKind::Punch, room: ends.room, from: ends.them, to: ends.me, nonce };
        if !key.verify(&f, mac) {
            return Err(Refusal::BadCode);
        }
        if !self.seen.fresh(nonce) {
            return Err(Refusal::Replayed);
        }
        let ack = PunchFields { kind: PunchKind::Ack, from: ends.me, to: ends.them, ..f };
        let mac = key.sign(&ack);
        let mut out = vec![Shot {
            to: from,
            message: RelayMessage::PunchAck { room: ends.room, peer: ends.me, nonce, mac },
            scout: false,
        }];
        // The peer's punch came through: its side is open, so punching in earnest is safe now.
        self.loud_from = self.loud_from.map(|t| t.min(now));
        if self.direct.is_none() && !self.targets.contains(&from) && self.targets.len() < MAX_TARGETS {
            // From an address the relay did not see (a NAT that maps per destination): punch
            // back there at once; it came through, so no scout is needed.
            self.targets.push(from);
            self.scouted.push(from);
            out.extend(self.punch(ends, from, false));
        }
        if let Some(until) = self.until.as_mut() {
            *until = (*until).max(now + PUNCH_FOR);
        }
        if self.direct.is_none() {
            self.next = Some(now);
        }
        Ok(out)
    }

    /// An acknowledgement arrived from `from`: believed, the direct path to `from` is open
    /// (returns true the first time); otherwise why not.
    pub fn on_ack(&mut self, ends: Ends, from: SocketAddr, nonce: u64, mac: &[u8; MAC_LEN]) -> Result<bool, Refusal> {
        let key = self.key.as_ref().ok_or(Refusal::NoKey)?;
        let f = PunchFields { kind: PunchKind::Ack, room: ends.room, from: ends.them, to: ends.me, nonce };
        if !key.verify(&f, mac) {
            return Err(Refusal::BadCode);
        }
        if !self.sent.iter().any(|&(n, to)| n == nonce && to == from) {
            return Err(Refusal::Unasked);
        }
        if self.direct.is_some() {
            return Ok(false);
        }
        self.direct = Some(from);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_taken_once_and_only_within_the_window() {
        let mut s = Seen::default();
        assert!(!s.fresh(0), "nonces start at 1");
        assert!(s.fresh(5));
        assert!(!s.fresh(5));
        assert!(s.fresh(3), "late but new");
        assert!(!s.fresh(3));
        assert!(s.fresh(100));
        assert!(!s.fresh(36), "too old to tell");
        assert!(s.fresh(37));
        assert!(!s.fresh(37));
    }
}
