//! What each peer has broken of the lockstep protocol, in fixed space: a score per peer
//! (each refusal adds its severity, see `StreamError::severity`), the first reason, and the
//! peers whose score passed [`VIOLATION_BUDGET`] — cut off, named once to the driver that
//! closes their connections.
//!
//! Must not: keep anything per message (a flood is a count), or close connections itself (the
//! session's driver does, through its control transport).

use std::collections::BTreeMap;

use crate::lockstep::stream::VIOLATION_BUDGET;
use crate::lockstep::transport::PeerId;

/// A peer cut off for breaking the lockstep protocol: who, and the refusal that used up its
/// budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violator {
    /// The peer.
    pub peer: PeerId,
    /// Why, for the log and the other players.
    pub reason: String,
}

#[derive(Clone, Debug, Default)]
struct Score {
    points: u32,
    refused: u64,
    first: Option<String>,
    cut: bool,
}

/// Every peer's protocol violations.
#[derive(Clone, Debug, Default)]
pub struct Violations {
    scores: BTreeMap<PeerId, Score>,
    newly_cut: Vec<Violator>,
}

impl Violations {
    /// A message from `peer` was refused; `severity` points count against it (0: counted only),
    /// `reason` says why (asked for only when it is kept or logged).
    pub fn note(&mut self, peer: PeerId, severity: u32, reason: impl FnOnce() -> String) {
        let score = self.scores.entry(peer).or_default();
        score.refused += 1;
        if severity == 0 || score.cut {
            return;
        }
        let reason = score.first.get_or_insert_with(reason).clone();
        score.points = score.points.saturating_add(severity);
        if score.points >= VIOLATION_BUDGET {
            score.cut = true;
            log::error!("{peer} broke the lockstep protocol ({reason}; {} messages refused); cut off", score.refused);
            self.newly_cut.push(Violator { peer, reason });
        }
    }

    /// True once `peer` is cut off: nothing more it sends is taken.
    pub fn is_cut(&self, peer: PeerId) -> bool {
        self.scores.get(&peer).is_some_and(|s| s.cut)
    }

    /// Messages refused from `peer` in all.
    pub fn refused(&self, peer: PeerId) -> u64 {
        self.scores.get(&peer).map_or(0, |s| s.refused)
    }

    /// `peer` is a new machine (a number given again after its holder left): its slate is clean.
    pub fn forget(&mut self, peer: PeerId) {
        self.scores.remove(&peer);
    }

    /// Peers cut off since the last call.
    pub fn take_cut(&mut self) -> Vec<Violator> {
        std::mem::take(&mut self.newly_cut)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_is_cut_once_its_budget_is_spent_and_named_once() {
        let mut v = Violations::default();
        for _ in 0..1000 {
            v.note(PeerId(1), 0, || "late".to_string());
        }
        assert!(!v.is_cut(PeerId(1)), "late data is counted, not held against a peer");
        for i in 0..VIOLATION_BUDGET - 1 {
            v.note(PeerId(1), 1, || format!("spoofed {i}"));
        }
        assert!(!v.is_cut(PeerId(1)));
        assert!(v.take_cut().is_empty());
        v.note(PeerId(1), 1, || "the last straw".to_string());
        assert!(v.is_cut(PeerId(1)));
        let cut = v.take_cut();
        assert_eq!(cut, vec![Violator { peer: PeerId(1), reason: "spoofed 0".to_string() }]);
        v.note(PeerId(1), VIOLATION_BUDGET, || "more".to_string());
        assert!(v.take_cut().is_empty(), "named once");
        assert_eq!(v.refused(PeerId(1)), 1000 + u64::from(VIOLATION_BUDGET) + 1);
        assert!(!v.is_cut(PeerId(2)));
        v.forget(PeerId(1));
        assert!(!v.is_cut(PeerId(1)), "a number given to a new machine starts clean");
    }

    #[test]
    fn one_message_beyond_the_window_cuts_at_once() {
        let mut v = Violations::default();
        v.note(PeerId(3), VIOLATION_BUDGET, || "frame 1000000".to_string());
        assert!(v.is_cut(PeerId(3)));
        assert_eq!(v.take_cut().len(), 1);
    }
}
