//! The host's peer numbers (1 to 254; 0 is the host, 255 a joiner not yet welcomed): each
//! connection that opens its stream takes one, and gives it back once the game has handled
//! its departure. A number given back is reused last (the longest free goes first), so a
//! departed peer's number comes round again only after every other free number did, and never
//! while the game may still act on the old peer (its `Left` not yet handled). Connections that
//! come and go cost nothing for good: only the live ones hold numbers.
//!
//! Must not: know anything of seats or players (a returning player is proved by its token,
//! never by its number), or do I/O.

use std::collections::{BTreeSet, VecDeque};

use crate::lockstep::transport::PeerId;

/// The highest number a joiner can have (255 stands for "not yet welcomed").
pub const LAST: u8 = 254;

/// Which numbers are free, in the order they were given back, and which are held.
#[derive(Debug)]
pub struct PeerNumbers {
    /// Free numbers, the longest free first.
    free: VecDeque<u8>,
    /// Numbers held by a connection, or by a departed one whose `Left` the game has not handled.
    held: BTreeSet<u8>,
}

impl Default for PeerNumbers {
    fn default() -> PeerNumbers {
        PeerNumbers { free: (1..=LAST).collect(), held: BTreeSet::new() }
    }
}

impl PeerNumbers {
    /// A number for a new connection; None while every number is held (254 connections live,
    /// or gone and not yet handled).
    pub fn take(&mut self) -> Option<PeerId> {
        let n = self.free.pop_front()?;
        self.held.insert(n);
        Some(PeerId(n))
    }

    /// The game has handled `peer`'s departure: its number may be used again, after every
    /// number free now. A number not held is ignored (given back twice, or never taken).
    pub fn give_back(&mut self, peer: PeerId) {
        if self.held.remove(&peer.0) {
            self.free.push_back(peer.0);
        }
    }

    /// Numbers held now.
    pub fn held(&self) -> usize {
        self.held.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_of_connections_that_come_and_go_never_run_the_numbers_out() {
        let mut n = PeerNumbers::default();
        for _ in 0..10_000 {
            let p = n.take().unwrap();
            assert!((1..=LAST).contains(&p.0));
            n.give_back(p);
        }
        assert_eq!(n.held(), 0);
        assert!(n.take().is_some());
    }

    #[test]
    fn a_number_given_back_comes_round_last_and_a_held_one_never() {
        let mut n = PeerNumbers::default();
        let a = n.take().unwrap();
        let b = n.take().unwrap();
        n.give_back(a);
        // Every other free number goes before `a` comes round again; `b` is held throughout.
        let mut seen = Vec::new();
        for _ in 0..(LAST as usize - 1) {
            seen.push(n.take().unwrap());
        }
        assert_eq!(seen.last(), Some(&a), "the one given back is the last free one");
        assert!(!seen.contains(&b));
        assert_eq!(n.take(), None, "every number is held");
        n.give_back(b);
        n.give_back(b);
        assert_eq!(n.take(), Some(b));
        assert_eq!(n.take(), None, "given back twice, free once");
    }
}
