//! The message stream: stamps local commands, collects everyone's commands per frame, decides
//! when a frame may run, hands its commands over in deterministic order, and compares state
//! hashes with peers.
//!
//! An I/O-free state machine: messages go out through [`Stream::poll_outgoing`] and come in
//! through [`Stream::receive`]; a transport carries them. Must not: read the clock, touch
//! the world, or execute anything.

use std::collections::{BTreeMap, VecDeque};

use crate::sim::command::{Command, StampedCommand};
use crate::sim::ids::{CommandId, Frame, PlayerId};

use super::frame_data::{FrameData, FrameState};
use super::message::Message;
use super::pace::{PaceChange, PaceMark, PaceRules, PaceState};
use super::refusals::Refusals;

pub use super::error::{StreamError, VIOLATION_BUDGET};
pub use super::limits::{MAX_PENDING_BYTES, MAX_RUN_AHEAD, WINDOW};

/// Frames of hash history kept for comparison.
const HASH_HISTORY: u32 = 600;

/// The bytes a command is taken to hold while it waits (a fixed part and its selection).
pub fn command_weight(command: &Command) -> usize {
    match command {
        Command::Select { objects, .. } => 64 + std::mem::size_of::<crate::sim::ids::ObjectId>() * objects.len(),
        _ => 64,
    }
}

/// What a stream holds (see [`Stream::held`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Frames with data stored.
    pub frames: usize,
    /// Commands stored, every player's.
    pub commands: usize,
    /// Bytes of peers' commands stored (by [`command_weight`]).
    pub pending_bytes: usize,
    /// Frames with hashes kept for comparison.
    pub hashes: usize,
}

/// Two machines disagree about the state after a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Desync {
    /// The first frame found to differ.
    pub frame: Frame,
    /// The peer (its first player) whose hash differs.
    pub peer: PlayerId,
    /// This machine's hash.
    pub local: u64,
    /// The peer's hash.
    pub remote: u64,
}

/// Who plays and how far ahead commands are scheduled.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StreamConfig {
    /// Every player in the game.
    pub players: Vec<PlayerId>,
    /// The players whose commands originate on this machine.
    pub local: Vec<PlayerId>,
    /// Frames between submitting a command and executing it (at least 1).
    pub run_ahead: u32,
    /// What players may do with pause and game speed.
    pub pace: PaceRules,
}

#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct HashCheck {
    local: Option<u64>,
    remote: BTreeMap<PlayerId, u64>,
}

/// The lockstep message stream of one machine.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Stream {
    config: StreamConfig,
    next_frame: Frame,
    next_id: BTreeMap<PlayerId, u32>,
    last_exec: BTreeMap<PlayerId, Frame>,
    frames: BTreeMap<Frame, FrameData>,
    outbox: VecDeque<Message>,
    hashes: BTreeMap<Frame, HashCheck>,
    /// Not saved: a restored stream's log begins where it was restored (it only grows).
    #[serde(skip)]
    hash_log: Vec<(Frame, u64)>,
    desync: Option<Desync>,
    /// Not saved: what peers did wrong is told and counted, never read back to run a frame.
    #[serde(skip)]
    refusals: Refusals,
    /// Bytes of each peer player's commands stored for frames not yet run.
    pending_bytes: BTreeMap<PlayerId, usize>,
    /// The most of those bytes kept for one player ([`MAX_PENDING_BYTES`], or more where
    /// another machine judges the sender: see [`Stream::defer_judgement`]).
    pending_limit: usize,
    /// Players who left: the first frame that no longer needs their data, and the first that
    /// needs it again when they came back.
    gone: BTreeMap<PlayerId, (Frame, Option<Frame>)>,
    /// Run-ahead changes to apply when their frame executes (every machine is told the same).
    changes: BTreeMap<Frame, u32>,
    /// The last frame this machine has closed (declared its players' counts for).
    last_closed: Option<Frame>,
    /// Frames before this one need no counts (nobody could schedule anything for them).
    implicit_before: Frame,
    /// A machine coming back into a running game: only its own players' first frames need
    /// no counts, and the others' messages for frames before `first` (it ran those from the
    /// host's history) are let go.
    rejoining: Option<Frame>,
    /// Pause and game speed.
    pace: PaceState,
}

impl Stream {
    /// A stream at frame 0. Frames before `run_ahead` need no counts: nobody can have
    /// scheduled anything for them.
    pub fn new(config: StreamConfig) -> Stream {
        Stream::starting_at(config, Frame(0))
    }

    /// A stream whose first frame to run is `start` (a game taken over from a replay's
    /// moment). Frames before `start + run_ahead` need no counts.
    pub fn starting_at(mut config: StreamConfig, start: Frame) -> Stream {
        config.run_ahead = config.run_ahead.max(1);
        config.players.sort();
        config.players.dedup();
        config.local.retain(|p| config.players.contains(p));
        let implicit_before = start.plus(config.run_ahead);
        Stream {
            next_id: config.local.iter().map(|p| (*p, 0)).collect(),
            last_exec: BTreeMap::new(),
            pace: PaceState::new(config.pace),
            config,
            next_frame: start,
            frames: BTreeMap::new(),
            outbox: VecDeque::new(),
            hashes: BTreeMap::new(),
            hash_log: Vec::new(),
            desync: None,
            refusals: Refusals::default(),
            pending_bytes: BTreeMap::new(),
            pending_limit: MAX_PENDING_BYTES,
            gone: BTreeMap::new(),
            changes: BTreeMap::new(),
            last_closed: implicit_before.0.checked_sub(1).map(Frame),
            implicit_before,
            rejoining: None,
        }
    }

    /// The stream of a machine coming back into a running game at frame `first`: its own
    /// players' frames before `first + run_ahead` need no counts (it could not schedule any),
    /// everyone else's are waited for as usual.
    pub fn rejoining(config: StreamConfig, first: Frame) -> Stream {
        let mut s = Stream::starting_at(config, first);
        s.rejoining = Some(first);
        s
    }

    /// From frame `at` on, commands are scheduled `value` frames ahead (1..=60). Every machine
    /// must be told the same change before it executes `at`; refused once `at` has passed.
    pub fn schedule_run_ahead(&mut self, at: Frame, value: u32) -> Result<(), StreamError> {
        if at < self.next_frame {
            return Err(StreamError::Late {
                player: self.config.local.first().copied().unwrap_or(PlayerId(0)),
                frame: at,
            });
        }
        self.changes.insert(at, value.clamp(1, MAX_RUN_AHEAD));
        Ok(())
    }

    /// From frame `from` on, nobody waits for `player` (they left). Every machine must be
    /// told the same frame; data already stored for earlier frames still counts.
    pub fn drop_player(&mut self, player: PlayerId, from: Frame) {
        match self.gone.get_mut(&player) {
            // Gone again after coming back: a new departure.
            Some(g) if g.1.is_some_and(|back| from >= back) => *g = (from, None),
            Some(g) => g.0 = g.0.min(from),
            None => {
                self.gone.insert(player, (from, None));
            }
        }
    }

    /// `player`, dropped, is back: from frame `back` on, its data is waited for again. False
    /// if it was not dropped.
    pub fn readmit(&mut self, player: PlayerId, back: Frame) -> bool {
        match self.gone.get_mut(&player) {
            Some(g) => {
                g.1 = Some(back.max(g.0));
                true
            }
            None => false,
        }
    }

    /// The frame from which `player` was dropped, if they were and have not come back.
    pub fn dropped_from(&self, player: PlayerId) -> Option<Frame> {
        self.gone.get(&player).filter(|g| g.1.is_none()).map(|g| g.0)
    }

    /// The last frame for which `player`'s command count is known, if any.
    pub fn declared_through(&self, player: PlayerId) -> Option<Frame> {
        self.frames
            .iter()
            .rev()
            .find(|(_, f)| f.players.get(&player).is_some_and(|pf| pf.declared.is_some()))
            .map(|(frame, _)| *frame)
            .or_else(|| self.next_frame.0.checked_sub(1).map(Frame))
    }

    /// True when no player of the game is on this machine: it only watches (an observer).
    /// Nobody waits for a watcher's data, and it sends none.
    pub fn is_watching(&self) -> bool {
        self.config.local.is_empty()
    }

    /// The last frame every player still in the game has declared its count for, as far as
    /// this machine has heard (the frame before the next one to run when nothing is ahead): a
    /// watcher that is behind runs up to here as fast as it can.
    pub fn known_through(&self) -> Option<Frame> {
        let declared = self.config.players.iter().filter(|p| self.dropped_from(**p).is_none());
        declared.filter_map(|p| self.declared_through(*p)).min().or_else(|| self.next_frame.0.checked_sub(1).map(Frame))
    }

    /// This machine is not the one that judges its peers (a joiner: the host removes a liar,
    /// at a frame every machine then agrees on). It keeps up to four times
    /// [`MAX_PENDING_BYTES`] of a player's waiting commands, so what the host took within its
    /// budget — while it ran a few frames ahead or behind — is never refused here.
    pub fn defer_judgement(&mut self) {
        self.pending_limit = 4 * MAX_PENDING_BYTES;
    }

    /// The next frame to execute.
    pub fn next_frame(&self) -> Frame {
        self.next_frame
    }

    /// Frames of input delay.
    pub fn run_ahead(&self) -> u32 {
        self.config.run_ahead
    }

    /// Stamps a local player's command for frame `next + run_ahead` (never earlier than one
    /// already stamped) and queues it for the peers.
    pub fn submit(&mut self, player: PlayerId, command: Command) -> Result<StampedCommand, StreamError> {
        if !self.config.local.contains(&player) {
            return Err(StreamError::NotLocal(player));
        }
        let mut frame = self.next_frame.plus(self.config.run_ahead);
        if let Some(last) = self.last_exec.get(&player) {
            frame = frame.max(*last);
        }
        // After the run-ahead shrank, frames already closed take no more commands.
        if let Some(closed) = self.last_closed {
            frame = frame.max(closed.next());
        }
        self.last_exec.insert(player, frame);
        let counter = self.next_id.entry(player).or_insert(0);
        let id = CommandId(*counter);
        *counter += 1;
        let stamped = StampedCommand { frame, player, id, command };
        self.store(stamped.clone());
        self.outbox.push_back(Message::Command(stamped.clone()));
        Ok(stamped)
    }

    /// A local player asks to pause, resume or change the speed. A pause or speed change is
    /// stamped like a command (for a frame no peer has been told is closed) and takes effect
    /// after that frame runs; a resume ends the pause in force at once. Returns the frame
    /// stamped.
    pub fn submit_pace(&mut self, player: PlayerId, change: PaceChange) -> Result<Frame, StreamError> {
        if !self.config.local.contains(&player) {
            return Err(StreamError::NotLocal(player));
        }
        let frame = match change {
            PaceChange::Resume => self.pace.paused().ok_or(StreamError::NotPaused(player))?.0,
            PaceChange::Pause | PaceChange::Speed(_) => {
                let frame = self.next_frame.plus(self.config.run_ahead);
                self.last_closed.map_or(frame, |closed| frame.max(closed.next()))
            }
        };
        self.pace.note(player, frame, change);
        self.outbox.push_back(Message::Pace { player, frame, change });
        Ok(frame)
    }

    /// The pause in force: the frame it came after and who called it.
    pub fn paused(&self) -> Option<(Frame, PlayerId)> {
        self.pace.paused()
    }

    /// The game speed in force, in percent of 30 frames a second.
    pub fn speed_percent(&self) -> u16 {
        self.pace.speed()
    }

    /// Pauses `player` has left (`u32::MAX` when unlimited).
    pub fn pauses_left(&self, player: PlayerId) -> u32 {
        self.pace.pauses_left(player)
    }

    /// Every change of pace that took effect, in order (recorded in replays).
    pub fn pace_log(&self) -> &[PaceMark] {
        self.pace.log()
    }

    /// What players may do with pause and speed.
    pub fn pace_rules(&self) -> PaceRules {
        self.pace.rules()
    }

    /// Stores a command; true when it is new (a duplicate replaces nothing).
    fn store(&mut self, c: StampedCommand) -> bool {
        let pf = self.frames.entry(c.frame).or_default().players.entry(c.player).or_default();
        match pf.commands.entry(c.id) {
            std::collections::btree_map::Entry::Occupied(_) => false,
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(c);
                true
            }
        }
    }

    /// Takes in a message from a peer. Bad data is refused with an error naming player and
    /// frame (counted, and logged as [`Refusals`] says); nothing already accepted is lost, and
    /// nothing is kept for a frame outside the window a peer may speak for.
    pub fn receive(&mut self, message: Message) -> Result<(), StreamError> {
        let result = self.receive_inner(message);
        if let Err(e) = &result {
            self.refusals.note(e);
        }
        result
    }

    fn receive_inner(&mut self, message: Message) -> Result<(), StreamError> {
        let (player, frame) = match &message {
            Message::Command(c) => (c.player, c.frame),
            Message::FrameCount { player, frame, .. }
            | Message::Hash { player, frame, .. }
            | Message::Pace { player, frame, .. } => (*player, *frame),
        };
        if !self.config.players.contains(&player) {
            return Err(StreamError::UnknownPlayer { player, frame });
        }
        if self.config.local.contains(&player) {
            return Err(StreamError::Spoofed { player, frame });
        }
        if self.rejoining.is_some_and(|first| frame < first) {
            // Sent live while this machine was still catching up from the history.
            return Ok(());
        }
        if frame.0 > self.next_frame.0.saturating_add(WINDOW) {
            return Err(StreamError::TooFarAhead { player, frame, next: self.next_frame });
        }
        match message {
            Message::Command(c) => {
                if c.frame < self.next_frame {
                    return Err(StreamError::Late { player, frame });
                }
                let weight = command_weight(&c.command);
                let pending = self.pending_bytes.get(&player).copied().unwrap_or(0);
                if pending + weight > self.pending_limit {
                    return Err(StreamError::TooManyCommands { player, frame });
                }
                let pf = self.frames.get(&frame).and_then(|f| f.players.get(&player));
                if let Some(pf) = pf
                    && pf.declared.is_some_and(|n| pf.commands.len() >= n as usize)
                    && !pf.commands.contains_key(&c.id)
                {
                    // More commands than the player declared: not kept, so the frame runs
                    // with what the count promised.
                    return Err(StreamError::Inconsistent { player, frame });
                }
                if self.store(c) {
                    self.pending_bytes.insert(player, pending + weight);
                }
            }
            Message::FrameCount { count, .. } => {
                if frame < self.next_frame {
                    return Err(StreamError::Late { player, frame });
                }
                let pf = self.frames.entry(frame).or_default().players.entry(player).or_default();
                match pf.declared {
                    Some(n) if n != count => return Err(StreamError::Inconsistent { player, frame }),
                    _ => pf.declared = Some(count),
                }
                if pf.commands.len() > count as usize {
                    // More commands came than the count says: the frame keeps the lowest
                    // numbers (every machine got the same messages in the same order, so
                    // every machine keeps the same ones) and the sender is in breach.
                    let mut dropped = 0;
                    while pf.commands.len() > count as usize {
                        if let Some((_, c)) = pf.commands.pop_last() {
                            dropped += command_weight(&c.command);
                        }
                    }
                    if let Some(bytes) = self.pending_bytes.get_mut(&player) {
                        *bytes = bytes.saturating_sub(dropped);
                    }
                    return Err(StreamError::Inconsistent { player, frame });
                }
            }
            Message::Hash { hash, .. } => {
                if frame.0 + HASH_HISTORY < self.next_frame.0 {
                    return Err(StreamError::Late { player, frame });
                }
                let check = self.hashes.entry(frame).or_default();
                check.remote.insert(player, hash);
                self.compare(frame);
            }
            Message::Pace { change, .. } => {
                // A resume names the pause it ends, which has run here or is about to.
                if change != PaceChange::Resume && frame < self.next_frame {
                    return Err(StreamError::Late { player, frame });
                }
                self.pace.note(player, frame, change);
            }
        }
        Ok(())
    }

    /// True when every player's part of the next frame has arrived.
    pub fn is_ready(&self) -> bool {
        self.config.players.iter().all(|p| self.player_state(*p, self.next_frame) == FrameState::Ready)
    }

    /// True when `player` is dropped at `frame`: nobody waits for its data, and nothing it
    /// sent for that frame runs (every machine agrees on the frame, not on what arrived after).
    fn gone_at(&self, player: PlayerId, frame: Frame) -> bool {
        self.gone.get(&player).is_some_and(|&(from, back)| frame >= from && back.is_none_or(|b| frame < b))
    }

    fn player_state(&self, player: PlayerId, frame: Frame) -> FrameState {
        if self.gone_at(player, frame) {
            return FrameState::Ready;
        }
        let data = self.frames.get(&frame).and_then(|f| f.players.get(&player));
        let implicit_zero =
            frame < self.implicit_before && (self.rejoining.is_none() || self.config.local.contains(&player));
        match data {
            None if implicit_zero => FrameState::Ready,
            None => FrameState::NotReady,
            Some(pf) if implicit_zero && pf.declared.is_none() => {
                if pf.commands.is_empty() {
                    FrameState::Ready
                } else {
                    FrameState::TooMany
                }
            }
            Some(pf) => pf.state(),
        }
    }

    /// The players whose part of the next frame is still missing (for "waiting for…" display).
    pub fn waiting_for(&self) -> Vec<PlayerId> {
        self.config
            .players
            .iter()
            .copied()
            .filter(|p| self.player_state(*p, self.next_frame) != FrameState::Ready)
            .collect()
    }

    /// If the next frame is ready: its commands in execution order (`sim::frame_order`), duplicates
    /// dropped; the frame counts as executed and this machine closes the frame `run_ahead`
    /// later, telling its peers how many commands it stamped for it.
    pub fn take_ready(&mut self) -> Option<(Frame, Vec<StampedCommand>)> {
        for p in self.config.players.clone() {
            if self.player_state(p, self.next_frame) == FrameState::TooMany {
                let e = StreamError::Inconsistent { player: p, frame: self.next_frame };
                if !self.refusals.contains(&e) {
                    self.refusals.note(&e);
                }
            }
        }
        if !self.is_ready() || self.pace.paused().is_some() {
            return None;
        }
        let frame = self.next_frame;
        let data = self.frames.remove(&frame).unwrap_or_default();
        for (player, pf) in &data.players {
            if let Some(bytes) = self.pending_bytes.get_mut(player) {
                let ran: usize = pf.commands.values().map(|c| command_weight(&c.command)).sum();
                *bytes = bytes.saturating_sub(ran);
            }
        }
        let mut commands: Vec<StampedCommand> = data
            .players
            .into_iter()
            .filter(|(player, _)| !self.gone_at(*player, frame))
            .flat_map(|(_, pf)| pf.commands.into_values())
            .collect();
        crate::sim::frame_order::execution_order(&mut commands);
        self.next_frame = frame.next();
        self.pace.ran(frame);
        if let Some(v) = self.changes.remove(&frame) {
            self.config.run_ahead = v;
        }
        // Close every frame up to `frame + run_ahead` not closed yet: one a frame while the
        // run-ahead holds, several when it grows, none while a shrink catches up.
        let target = frame.plus(self.config.run_ahead);
        let first = self.last_closed.map_or(Frame(0), Frame::next);
        let mut closed = first;
        while closed <= target {
            for p in self.config.local.clone() {
                let count =
                    self.frames.get(&closed).and_then(|f| f.players.get(&p)).map_or(0, |pf| pf.commands.len() as u32);
                self.frames.entry(closed).or_default().players.entry(p).or_default().declared = Some(count);
                self.outbox.push_back(Message::FrameCount { player: p, frame: closed, count });
            }
            self.last_closed = Some(closed);
            closed = closed.next();
        }
        Some((frame, commands))
    }

    /// Records this machine's hash after executing `frame`, sends it to the peers and compares
    /// it with theirs.
    pub fn record_hash(&mut self, frame: Frame, hash: u64) {
        self.hash_log.push((frame, hash));
        self.hashes.entry(frame).or_default().local = Some(hash);
        if let Some(&me) = self.config.local.first()
            && self.config.players.len() > self.config.local.len()
        {
            self.outbox.push_back(Message::Hash { player: me, frame, hash });
        }
        self.compare(frame);
        let keep_from = Frame(frame.0.saturating_sub(HASH_HISTORY));
        self.hashes = self.hashes.split_off(&keep_from);
    }

    fn compare(&mut self, frame: Frame) {
        let Some(check) = self.hashes.get(&frame) else { return };
        let Some(local) = check.local else { return };
        for (&peer, &remote) in &check.remote {
            if remote != local && self.desync.is_none_or(|d| frame < d.frame) {
                log::error!("lockstep: out of sync at frame {frame} with player {peer}: {local:016x} vs {remote:016x}");
                self.desync = Some(Desync { frame, peer, local, remote });
            }
        }
    }

    /// The first desync found, if any.
    pub fn desync(&self) -> Option<Desync> {
        self.desync
    }

    /// The first protocol errors seen from peers (at most [`super::refusals::KEPT`]; the
    /// rest are counted in [`Stream::refusals`]).
    pub fn errors(&self) -> &[StreamError] {
        self.refusals.first()
    }

    /// What the stream holds for frames not yet run and hashes not yet let go: frames with
    /// data, commands waiting, hash entries. Bounded by [`WINDOW`], [`MAX_PENDING_BYTES`] per
    /// player and the hash history, whatever peers send.
    pub fn held(&self) -> Held {
        Held {
            frames: self.frames.len(),
            commands: self.frames.values().flat_map(|f| f.players.values()).map(|pf| pf.commands.len()).sum(),
            pending_bytes: self.pending_bytes.values().sum(),
            hashes: self.hashes.len(),
        }
    }

    /// Every refusal, counted by kind.
    pub fn refusals(&self) -> &Refusals {
        &self.refusals
    }

    /// This machine's hash per executed frame.
    pub fn hash_log(&self) -> &[(Frame, u64)] {
        &self.hash_log
    }

    /// The next message to send, if any.
    pub fn poll_outgoing(&mut self) -> Option<Message> {
        self.outbox.pop_front()
    }
}
