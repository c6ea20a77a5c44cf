//! Pause and game speed as control messages of the stream. They change when frames run on
//! every machine, never what a frame computes, so a paused or sped-up game has the same hash
//! log as the same game played straight.
//!
//! A pause or a speed change is stamped for a future frame like a command and takes effect
//! after that frame runs, on every machine alike. A resume names the pause it ends and takes
//! effect as soon as it arrives (frames stand still until then, so nothing can differ). Pauses
//! are counted per player in frame order — the same count on every machine — and a player
//! past the limit is ignored everywhere.
//!
//! Must not: read the clock or touch the world.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::sim::ids::{Frame, PlayerId};

/// Slowest speed a stream accepts, in percent of 30 frames a second.
pub const MIN_SPEED: u16 = 25;
/// Fastest speed a stream accepts, in percent.
pub const MAX_SPEED: u16 = 400;
/// Pauses each player has in a game between machines.
pub const ONLINE_PAUSES: u32 = 3;

/// A change of pace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaceChange {
    /// Frames stop after the stamped frame.
    Pause,
    /// The pause stamped for this frame ends.
    Resume,
    /// Frames run at this percent of normal speed from the stamped frame on.
    Speed(u16),
}

/// A change of pace that took effect, for the replay and the players' messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaceMark {
    /// The frame it was stamped for (a resume: the pause's frame).
    pub frame: u32,
    /// Who asked.
    pub player: u8,
    /// What changed.
    pub change: PaceChange,
}

/// What a game allows its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PaceRules {
    /// Pauses each player may call (`u32::MAX`: as many as they like).
    pub pauses_each: u32,
    /// Whether players may change the game speed.
    pub speed: bool,
}

impl PaceRules {
    /// A game on one machine: pause at will, any speed.
    pub const LOCAL: PaceRules = PaceRules { pauses_each: u32::MAX, speed: true };
    /// A game between machines: a few pauses each, the speed fixed.
    pub const ONLINE: PaceRules = PaceRules { pauses_each: ONLINE_PAUSES, speed: false };
}

impl Default for PaceRules {
    fn default() -> PaceRules {
        PaceRules::LOCAL
    }
}

/// The stream's pace: changes waiting for their frame, the pause in force, the speed.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PaceState {
    rules: PaceRules,
    /// Pauses and speed changes by the frame they take effect after.
    pending: BTreeMap<Frame, Vec<(PlayerId, PaceChange)>>,
    /// Pause frames whose resume has arrived.
    resumed: BTreeSet<Frame>,
    /// The pause in force: its frame and who called it.
    active: Option<(Frame, PlayerId)>,
    /// Pauses each player has called (counted alike on every machine).
    used: BTreeMap<PlayerId, u32>,
    speed: u16,
    log: Vec<PaceMark>,
}

impl PaceState {
    /// No pause, normal speed.
    pub fn new(rules: PaceRules) -> PaceState {
        PaceState {
            rules,
            pending: BTreeMap::new(),
            resumed: BTreeSet::new(),
            active: None,
            used: BTreeMap::new(),
            speed: 100,
            log: Vec::new(),
        }
    }

    /// What the game allows.
    pub fn rules(&self) -> PaceRules {
        self.rules
    }

    /// Takes in a change stamped for `frame` (from this machine or a peer). A resume ends
    /// its pause at once (or before it begins, if this machine has not reached it yet).
    pub fn note(&mut self, player: PlayerId, frame: Frame, change: PaceChange) {
        match change {
            PaceChange::Resume => {
                if self.resumed.insert(frame) && self.active.is_some_and(|(f, _)| f == frame) {
                    self.active = None;
                    self.log.push(PaceMark { frame: frame.0, player: player.0, change });
                }
            }
            PaceChange::Pause | PaceChange::Speed(_) => {
                let changes = self.pending.entry(frame).or_default();
                // A player's later speed for the same frame replaces the earlier one.
                if matches!(change, PaceChange::Speed(_)) {
                    changes.retain(|(p, c)| !(*p == player && matches!(c, PaceChange::Speed(_))));
                }
                if !changes.contains(&(player, change)) {
                    changes.push((player, change));
                }
            }
        }
    }

    /// `frame` has run: its changes take effect in player order. The first pause of a player
    /// with pauses left counts and stops the game (unless already resumed here); speed changes
    /// within the rules set the speed.
    pub fn ran(&mut self, frame: Frame) {
        let Some(mut changes) = self.pending.remove(&frame) else { return };
        changes.sort_by_key(|(p, c)| (*p, matches!(c, PaceChange::Speed(_))));
        let mut paused = false;
        for (player, change) in changes {
            match change {
                PaceChange::Pause if !paused => {
                    let used = self.used.entry(player).or_insert(0);
                    if *used >= self.rules.pauses_each {
                        continue;
                    }
                    *used += 1;
                    paused = true;
                    self.log.push(PaceMark { frame: frame.0, player: player.0, change });
                    if !self.resumed.contains(&frame) {
                        self.active = Some((frame, player));
                    }
                }
                PaceChange::Speed(percent) if self.rules.speed && (MIN_SPEED..=MAX_SPEED).contains(&percent) => {
                    self.speed = percent;
                    self.log.push(PaceMark { frame: frame.0, player: player.0, change });
                }
                _ => {}
            }
        }
        // Resumes of pauses long past are kept only while a pause might still need them.
        self.resumed = self.resumed.split_off(&Frame(frame.0.saturating_sub(600)));
    }

    /// The pause in force: its frame and who called it.
    pub fn paused(&self) -> Option<(Frame, PlayerId)> {
        self.active
    }

    /// The speed in force, in percent.
    pub fn speed(&self) -> u16 {
        self.speed
    }

    /// Pauses `player` has left (`u32::MAX` when unlimited).
    pub fn pauses_left(&self, player: PlayerId) -> u32 {
        if self.rules.pauses_each == u32::MAX {
            return u32::MAX;
        }
        self.rules.pauses_each.saturating_sub(self.used.get(&player).copied().unwrap_or(0))
    }

    /// Every change that took effect, in order.
    pub fn log(&self) -> &[PaceMark] {
        &self.log
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pause_stops_after_its_frame_and_a_resume_ends_it() {
        let mut p = PaceState::new(PaceRules::ONLINE);
        p.note(PlayerId(1), Frame(10), PaceChange::Pause);
        p.ran(Frame(9));
        assert_eq!(p.paused(), None);
        p.ran(Frame(10));
        assert_eq!(p.paused(), Some((Frame(10), PlayerId(1))));
        assert_eq!(p.pauses_left(PlayerId(1)), ONLINE_PAUSES - 1);
        p.note(PlayerId(0), Frame(10), PaceChange::Resume);
        assert_eq!(p.paused(), None);
        assert_eq!(
            p.log(),
            &[
                PaceMark { frame: 10, player: 1, change: PaceChange::Pause },
                PaceMark { frame: 10, player: 0, change: PaceChange::Resume }
            ]
        );
    }

    #[test]
    fn a_resume_that_comes_first_still_counts_the_pause_but_never_stops() {
        let mut p = PaceState::new(PaceRules::ONLINE);
        p.note(PlayerId(1), Frame(10), PaceChange::Pause);
        p.note(PlayerId(0), Frame(10), PaceChange::Resume);
        p.ran(Frame(10));
        assert_eq!(p.paused(), None);
        assert_eq!(p.pauses_left(PlayerId(1)), ONLINE_PAUSES - 1, "counted as on the machine that paused");
    }

    #[test]
    fn pauses_past_the_limit_and_speeds_online_are_ignored() {
        let mut p = PaceState::new(PaceRules::ONLINE);
        for f in 0..5 {
            p.note(PlayerId(0), Frame(f), PaceChange::Pause);
            p.note(PlayerId(0), Frame(f), PaceChange::Speed(300));
            p.ran(Frame(f));
            if p.paused().is_some() {
                p.note(PlayerId(0), Frame(f), PaceChange::Resume);
            }
        }
        assert_eq!(p.log().iter().filter(|m| m.change == PaceChange::Pause).count(), ONLINE_PAUSES as usize);
        assert_eq!((p.pauses_left(PlayerId(0)), p.speed()), (0, 100));
    }

    #[test]
    fn two_pauses_in_one_frame_count_once_and_speeds_outside_the_range_are_ignored() {
        let mut p = PaceState::new(PaceRules::LOCAL);
        p.note(PlayerId(1), Frame(4), PaceChange::Pause);
        p.note(PlayerId(0), Frame(4), PaceChange::Pause);
        p.note(PlayerId(0), Frame(4), PaceChange::Speed(150));
        p.note(PlayerId(1), Frame(4), PaceChange::Speed(9_000));
        p.ran(Frame(4));
        assert_eq!(p.paused(), Some((Frame(4), PlayerId(0))), "the lower player's pause");
        assert_eq!(p.speed(), 150);
        assert_eq!(p.log().len(), 2);
    }
}
