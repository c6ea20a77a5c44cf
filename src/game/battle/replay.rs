//! A replay being watched in a battle (`Watching`): its recorded commands played frame by
//! frame, checked against its checkpoints and final hash, with states kept on the way so the
//! watcher can seek back and forth, and the setup a take-over starts from. (Recording the battle
//! being played is `Play::replay`.)
//!
//! Must not: change how the game plays (a watched replay only feeds recorded commands).

use std::collections::BTreeMap;

use crate::lockstep::{PaceChange, PaceMark};
use crate::session::replay::{REPLAY_VERSION, ReplayOrigin};
use crate::session::script::ScriptEntry;
use crate::session::{Difficulty, MatchSetup, Replay, SlotKind};
use crate::sim::{PlayerId, World};

use super::score::Score;

/// Frames between the states kept for seeking, at first (the spacing doubles whenever
/// [`MAX_SNAPSHOTS`] would be passed, so a long replay keeps a bounded number).
const SNAPSHOT_EVERY: u32 = 300;
/// States kept for seeking, at most.
const MAX_SNAPSHOTS: usize = 48;

/// A replay being watched: where it ends, the states it must pass through and reach, and the
/// states kept on the way so the watcher can seek back.
#[derive(Clone)]
pub(super) struct Watching {
    frames: u32,
    final_hash: String,
    checkpoints: BTreeMap<u32, String>,
    /// The first checkpoint the playback missed.
    failed_at: Option<u32>,
    /// Worlds as they were after some frames (always the start), each with the score counted
    /// up to it, so a seek lands on the right counts too.
    snapshots: BTreeMap<u32, (World, Score)>,
    /// Frames between kept states now.
    every: u32,
    /// The replay itself (what a take-over starts from) and its file name.
    source: Replay,
    name: String,
}

impl Watching {
    /// Watching `replay` (`name`: its file name) from `start`, the world at its first frame.
    pub fn new(replay: &Replay, name: &str, start: World) -> Watching {
        Watching {
            frames: replay.frames,
            final_hash: replay.final_hash.clone(),
            checkpoints: replay.checkpoints.iter().cloned().collect(),
            failed_at: None,
            snapshots: BTreeMap::from([(start.frame().0, (start.clone(), Score::new(start.players().len())))]),
            every: SNAPSHOT_EVERY,
            source: replay.clone(),
            name: name.to_string(),
        }
    }

    /// The replay's last frame.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// The frame at which the playback stopped matching its recording, if it did.
    pub fn failed_at(&self) -> Option<u32> {
        self.failed_at
    }

    /// Whether the playback, now at `world`, passed through and reached the recorded states:
    /// none until it has played to its end or missed a checkpoint.
    pub fn verdict(&self, world: &World) -> Option<bool> {
        if self.failed_at.is_some() {
            return Some(false);
        }
        (world.frame().0 >= self.frames).then(|| format!("{:016x}", world.state_hash().total) == self.final_hash)
    }

    /// The recorded pauses and speed changes stamped for `frame` (resumes are not told).
    pub fn marks_at(&self, frame: u32) -> Vec<PaceMark> {
        self.source.pace.iter().filter(|m| m.frame == frame && m.change != PaceChange::Resume).copied().collect()
    }

    /// "Take over" at `frame` in `seat`: the setup with the person (`name`) in that seat and
    /// computers in the others — each recorded computer at its difficulty, the other people's
    /// seats at normal —, the recorded commands to run up to the frame, and where the new game
    /// comes from.
    pub fn take_over(&self, frame: u32, seat: PlayerId, name: &str) -> (MatchSetup, &[ScriptEntry], ReplayOrigin) {
        let mut setup = self.source.setup.clone();
        for (player, slot) in setup.slots.iter_mut().filter(|s| s.kind != SlotKind::Closed).enumerate() {
            slot.machine = None;
            if player == seat.index() {
                slot.kind = SlotKind::Human;
                slot.name = Some(name.to_string());
            } else if !matches!(slot.kind, SlotKind::Ai { .. }) {
                slot.kind = SlotKind::Ai { difficulty: Difficulty::Normal };
                slot.name = None;
            }
        }
        let origin =
            ReplayOrigin { replay: self.name.clone(), final_hash: self.final_hash.clone(), frame, seat: seat.0 };
        (setup, &self.source.commands, origin)
    }

    /// True once the replay has played to its end or stopped matching.
    pub fn done(&self, frame: u32) -> bool {
        frame >= self.frames || self.failed_at.is_some()
    }

    /// Where a seek to `frame` goes (at most the end), and the kept state to start from when
    /// that lies behind `now` (none: run forward from where the playback stands).
    pub fn seek_from(&self, frame: u32, now: u32) -> Option<(u32, Option<(World, Score)>)> {
        let target = frame.min(self.frames);
        if target >= now {
            return Some((target, None));
        }
        let (_, state) = self.snapshots.range(..=target).next_back()?;
        Some((target, Some(state.clone())))
    }

    /// The state hash `hex` the playback reached at checkpoint `frame`: a mismatch with the
    /// recording marks where the replay stopped matching.
    pub fn check(&mut self, frame: u32, hex: &str) {
        if self.checkpoints.get(&frame).is_some_and(|h| h != hex) {
            self.failed_at.get_or_insert(frame);
        }
    }

    /// Keeps `world` and the `score` counted up to it for seeking back when its frame is on
    /// the spacing (which doubles as states pile up, so a long replay keeps a bounded number).
    pub fn keep(&mut self, world: &World, score: &Score) {
        let frame = world.frame().0;
        if !frame.is_multiple_of(self.every) || self.snapshots.contains_key(&frame) {
            return;
        }
        self.snapshots.insert(frame, (world.clone(), score.clone()));
        if self.snapshots.len() > MAX_SNAPSHOTS {
            // Twice the spacing: keep the start and every state on the new spacing.
            self.every *= 2;
            let every = self.every;
            self.snapshots.retain(|&f, _| f == 0 || f.is_multiple_of(every));
        }
    }
}

/// A game so far as a replay (played back, it gives this very game): `game`'s setup and every
/// command executed, its pace marks and final hash, seen by `local`, with its `checkpoints`
/// and, when taken over from a replay, its `origin`.
pub(super) fn record(
    game: &crate::session::start::LocalMatch,
    local: PlayerId,
    checkpoints: &[(u32, String)],
    origin: Option<&ReplayOrigin>,
) -> Replay {
    let world = game.session.world();
    Replay {
        version: REPLAY_VERSION,
        setup: game.setup.clone(),
        local: local.0,
        frames: world.frame().0,
        final_hash: format!("{:016x}", world.state_hash().total),
        commands: game.log.borrow().clone(),
        checkpoints: checkpoints.to_vec(),
        pace: game.session.stream().pace_log().to_vec(),
        origin: origin.cloned(),
        winner: world.winner().map(|p| p.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Frame;

    #[test]
    fn a_ten_hour_replay_keeps_a_bounded_number_of_states_spread_over_its_whole_length() {
        let start = crate::sim::test_support::world(64, Vec::new());
        let end = crate::content::limits::MAX_FRAMES;
        let replay = Replay {
            version: REPLAY_VERSION,
            setup: MatchSetup {
                map: "proving_grounds".into(),
                seed: 1,
                slots: Vec::new(),
                run_ahead: None,
                map_hash: None,
                content_hash: None,
            },
            local: 0,
            frames: end,
            final_hash: "0123456789abcdef".into(),
            commands: Vec::new(),
            checkpoints: Vec::new(),
            winner: None,
            pace: Vec::new(),
            origin: None,
        };
        let mut watching = Watching::new(&replay, "ten.ron", start.clone());
        let mut world = start;
        for frame in (SNAPSHOT_EVERY..=end).step_by(SNAPSHOT_EVERY as usize) {
            world.frame = Frame(frame);
            watching.keep(&world, &Score::default());
            assert!(watching.snapshots.len() <= MAX_SNAPSHOTS, "{} states at frame {frame}", watching.snapshots.len());
        }
        // Ten hours are 3,600 spacings of 300 frames: the spacing doubled seven times (300 × 128
        // = 38,400 frames, 28 states after the start).
        assert_eq!(watching.every, 38_400);
        assert_eq!(watching.snapshots.len(), 29);
        let kept: Vec<u32> = watching.snapshots.keys().copied().collect();
        assert_eq!(kept.first(), Some(&0));
        assert!(kept.windows(2).all(|w| w[1] - w[0] == 38_400), "evenly spread: {kept:?}");
        assert_eq!(kept.last(), Some(&1_075_200));
        // A seek back from the end starts from the kept state just before the target.
        let (target, from) = watching.seek_from(500_000, end).unwrap();
        assert_eq!((target, from.map(|(w, _)| w.frame().0)), (500_000, Some(499_200)));
    }
}
