//! Replays in a battle: watching one (its recorded commands played frame by frame, checked
//! against its checkpoints and final hash, with states kept on the way so the watcher can seek
//! back and forth) and recording the battle being played.
//!
//! Must not: change how the game plays (a watched replay only feeds recorded commands).

use std::collections::BTreeMap;

use glam::Vec2;

use crate::content::ContentRoots;
use crate::lockstep::{PaceChange, PaceMark};
use crate::session::replay::{REPLAY_VERSION, ReplayOrigin};
use crate::session::start::start_local_from;
use crate::session::{CommandScript, Difficulty, Replay, SlotKind, start_local};
use crate::sim::PlayerId;

use super::{Battle, BattleError};

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
    /// Worlds as they were after some frames (always the start).
    snapshots: BTreeMap<u32, crate::sim::World>,
    /// Frames between kept states now.
    every: u32,
    /// The replay itself (what a take-over starts from) and its file name.
    source: Replay,
    name: String,
}

impl Watching {
    /// True once the replay has played to its end or stopped matching.
    pub fn done(&self, frame: u32) -> bool {
        frame >= self.frames || self.failed_at.is_some()
    }

    /// Where a seek to `frame` goes (at most the end), and the kept state to start from when
    /// that lies behind `now` (none: run forward from where the playback stands).
    pub fn seek_from(&self, frame: u32, now: u32) -> Option<(u32, Option<crate::sim::World>)> {
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

    /// Keeps `world` for seeking back when its frame is on the spacing (which doubles as
    /// states pile up, so a long replay keeps a bounded number).
    pub fn keep(&mut self, world: &crate::sim::World) {
        let frame = world.frame().0;
        if !frame.is_multiple_of(self.every) || self.snapshots.contains_key(&frame) {
            return;
        }
        self.snapshots.insert(frame, world.clone());
        if self.snapshots.len() > MAX_SNAPSHOTS {
            // Twice the spacing: keep the start and every state on the new spacing.
            self.every *= 2;
            let every = self.every;
            self.snapshots.retain(|&f, _| f == 0 || f.is_multiple_of(every));
        }
    }
}

impl Battle {
    /// Plays a replay (`name`: its file name): every player is driven by the recorded
    /// commands, through the same stream; the view is the recording player's.
    pub fn watch(roots: &ContentRoots, replay: &Replay, name: &str, screen: Vec2) -> Result<Battle, BattleError> {
        let mut game = start_local(roots, &replay.setup.for_playback(), &CommandScript::default())?;
        game.session.play_back(&replay.commands);
        let mut battle = Battle::from_match(roots, game, screen)?;
        battle.play.local = PlayerId(replay.local);
        let start_index =
            battle.play.game.session.world().players().get(battle.play.local.index()).map_or(0, |p| p.start as usize);
        let start = battle.scene.start_camera(start_index);
        battle.pic.view.set_camera(start, &battle.scene);
        battle.pic.shroud.update(battle.play.game.session.world(), battle.play.local);
        battle.play.pace = super::pace::Pace::replay();
        let start = battle.play.game.session.world().clone();
        battle.play.watching = Some(Watching {
            frames: replay.frames,
            final_hash: replay.final_hash.clone(),
            checkpoints: replay.checkpoints.iter().cloned().collect(),
            failed_at: None,
            snapshots: BTreeMap::from([(start.frame().0, start)]),
            every: SNAPSHOT_EVERY,
            source: replay.clone(),
            name: name.to_string(),
        });
        Ok(battle)
    }

    /// Tells the watcher of the recorded pauses and speed changes stamped for `frame`.
    pub(super) fn tell_replay_pace(&mut self, frame: u32) {
        let Some(w) = &self.play.watching else { return };
        let marks: Vec<PaceMark> =
            w.source.pace.iter().filter(|m| m.frame == frame && m.change != PaceChange::Resume).copied().collect();
        for mark in marks {
            self.tell_pace(mark);
        }
    }

    /// The watched replay's position: the frame shown and its last frame.
    pub fn replay_position(&self) -> Option<(u32, u32)> {
        self.play.watching.as_ref().map(|w| (self.world().frame().0, w.frames))
    }

    /// Moves a watched replay to `frame` (at most its end): back to the nearest kept state at
    /// or before it, then the recorded commands run forward to it, exactly as they did. The
    /// picture jumps; nothing else changes.
    pub fn seek(&mut self, frame: u32) -> Result<(), BattleError> {
        if !self.play.seek(frame)? {
            return Ok(());
        }
        let world = self.play.game.session.world();
        self.pic.previous = super::super::scene::poses(world);
        self.hud.power = world.power(self.play.local);
        self.pic.shroud.update(world, self.play.local);
        if self.pic.see_all {
            self.pic.shroud.reveal_all();
        }
        Ok(())
    }

    /// "Take over": a skirmish from the watched replay's moment, with the person in the seat
    /// whose view is shown (`name` theirs) and computers in the others — each recorded
    /// computer at its difficulty, the other people's seats at normal. The new game runs the
    /// recorded commands up to this frame first, so its own replay plays the whole game from
    /// the start; it records where it came from.
    pub fn take_over(&self, roots: &ContentRoots, name: &str, screen: Vec2) -> Result<Battle, BattleError> {
        let Some(w) = &self.play.watching else { return Err(BattleError::TakeOver("this is not a replay")) };
        if self.pic.see_all {
            return Err(BattleError::TakeOver("choose a player's view to take over first"));
        }
        let frame = self.world().frame().0;
        let mut setup = w.source.setup.clone();
        for (player, slot) in setup.slots.iter_mut().filter(|s| s.kind != SlotKind::Closed).enumerate() {
            slot.machine = None;
            if player == self.play.local.index() {
                slot.kind = SlotKind::Human;
                slot.name = Some(name.to_string());
            } else if !matches!(slot.kind, SlotKind::Ai { .. }) {
                slot.kind = SlotKind::Ai { difficulty: Difficulty::Normal };
                slot.name = None;
            }
        }
        let (game, hashes) = start_local_from(roots, &setup, &CommandScript::default(), &w.source.commands, frame)?;
        let mut battle = Battle::from_match(roots, game, screen)?;
        battle.pic.view.set_camera(self.pic.view.camera, &battle.scene);
        battle.play.checkpoints = hashes.into_iter().map(|(f, h)| (f, format!("{h:016x}"))).collect();
        battle.play.origin = Some(ReplayOrigin {
            replay: w.name.clone(),
            final_hash: w.final_hash.clone(),
            frame,
            seat: self.play.local.0,
        });
        Ok(battle)
    }

    /// True when a watched replay shows one player's view, whose seat Take over would give.
    pub fn can_take_over(&self) -> bool {
        self.play.watching.is_some() && !self.pic.see_all
    }

    /// Where this game came from, when it was taken over from a replay.
    pub fn origin(&self) -> Option<&ReplayOrigin> {
        self.play.origin.as_ref()
    }

    /// A watched replay's next view: each player's in turn (their shroud, their alerts), then
    /// everything; then the first player's again. Nothing happens outside a replay.
    pub fn cycle_view(&mut self) {
        if self.play.watching.is_none() {
            return;
        }
        let players = self.world().players().len() as u8;
        if self.pic.see_all {
            self.pic.see_all = false;
            self.play.local = PlayerId(0);
        } else if self.play.local.0 + 1 < players {
            self.play.local = PlayerId(self.play.local.0 + 1);
        } else {
            self.pic.see_all = true;
        }
        self.hud.alerts = super::Alerts::default();
        self.pic.shroud.update(self.play.game.session.world(), self.play.local);
        if self.pic.see_all {
            self.pic.shroud.reveal_all();
        }
    }

    /// Whose view a watched replay shows, in words ("Everything" without a shroud).
    pub fn view_label(&self) -> String {
        if self.pic.see_all {
            return "Everything".to_string();
        }
        self.player_name(self.play.local)
    }

    /// True when this battle is a replay being watched.
    pub fn is_replay(&self) -> bool {
        self.play.is_replay()
    }

    /// For a replay that has played to its end, or missed a checkpoint on the way: whether it
    /// passed through and reached the recorded states.
    pub fn replay_verdict(&self) -> Option<bool> {
        let w = self.play.watching.as_ref()?;
        if w.failed_at.is_some() {
            return Some(false);
        }
        let world = self.world();
        (world.frame().0 >= w.frames).then(|| format!("{:016x}", world.state_hash().total) == w.final_hash)
    }

    /// The frame at which a watched replay stopped matching its recording, if it did.
    pub fn replay_failed_at(&self) -> Option<u32> {
        self.play.watching.as_ref().and_then(|w| w.failed_at)
    }

    /// The game so far as a replay (played back, it gives this very game).
    pub fn replay(&self) -> Replay {
        let world = self.world();
        Replay {
            version: REPLAY_VERSION,
            setup: self.play.game.setup.clone(),
            local: self.play.local.0,
            frames: world.frame().0,
            final_hash: format!("{:016x}", world.state_hash().total),
            commands: self.play.game.log.borrow().clone(),
            checkpoints: self.play.checkpoints.clone(),
            pace: self.play.game.session.stream().pace_log().to_vec(),
            origin: self.play.origin.clone(),
        }
    }
}
