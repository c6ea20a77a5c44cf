//! A session: one machine's world, its message stream, the transport to its peers and the
//! controllers of its local players, stepped one logic frame at a time.
//!
//! Every command goes controller → stream → (peers) → stream → world, in single player too.
//! The session owns the transport and is the one place that reads it ([`Session::pump`]):
//! lockstep messages go to the stream, departures and arrivals to [`Session::take_peer_events`],
//! control messages (chat, drops, returns, refusals, desync digests) to
//! [`Session::take_control`] for the online link's state machine (`online::MatchLink`).
//!
//! Must not: let anything change the world except `World::tick` with the stream's commands, or
//! interpret control messages (it only queues them).

use std::collections::{BTreeMap, VecDeque};

use thiserror::Error;

use crate::lockstep::backlog::Backlog;
use crate::lockstep::message::Message;
use crate::lockstep::stream::{Stream, StreamError};
use crate::lockstep::transport::{PeerId, TransportError, TransportEvent};
use crate::net::control::ControlTransport;
use crate::net::wire::WireMessage;
use crate::sim::hash::StateHash;
use crate::sim::ids::{Frame, PlayerId};
use crate::sim::world::{TickReport, World};

use super::controller::Controller;
pub use super::violations::Violator;

/// A session that cannot go on.
#[derive(Debug, Error)]
pub enum SessionError {
    /// The transport failed.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// A controller produced a command the stream refused.
    #[error(transparent)]
    Stream(#[from] StreamError),
    /// Every player is on this machine, yet the stream waited: a broken invariant.
    #[error("the stream waited though every player is on this machine")]
    LocalStall,
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A frame was executed.
    Ticked {
        /// The frame executed.
        frame: Frame,
        /// The state hash after it.
        hash: StateHash,
        /// What happened in it.
        report: TickReport,
    },
    /// Waiting for peers' data for the next frame.
    Waiting,
    /// A player has paused the game; frames stand still until someone resumes it.
    Paused,
}

/// A peer arriving or leaving, kept for the client to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerEvent {
    /// The peer is reachable.
    Connected(PeerId),
    /// The peer left or was lost.
    Left(PeerId),
}

/// Control messages a session keeps for its link at most between two pumps of the link; past
/// it the oldest are dropped (logged): only a peer flooding the control stream fills it.
const CONTROL_MAX: usize = 4096;

/// One machine's running game.
pub struct Session<T: ControlTransport> {
    world: World,
    stream: Stream,
    transport: T,
    controllers: Vec<Box<dyn Controller>>,
    thought_for: Option<Frame>,
    /// Which peer owns each player, when known: a peer may speak only for its own players.
    owners: BTreeMap<PlayerId, PeerId>,
    peer_events: Vec<PeerEvent>,
    /// Control messages read off the transport, for the online link, in arrival order.
    control: VecDeque<(PeerId, WireMessage)>,
    /// What each peer has broken of the protocol so far (see `violations.rs`).
    violations: super::violations::Violations,
    /// Where executed commands are written, for the replay, at the frame they executed on.
    executed: Option<super::replay::CommandLog>,
    /// Playing back a replay: the commands of each frame, as they executed.
    playback: Option<BTreeMap<u32, Vec<crate::sim::command::StampedCommand>>>,
    /// A watcher's messages for frames past its window, until it catches up (`backlog.rs`).
    backlog: Backlog,
    /// Frames a run of ready frames may tick before they exchange with the wire (see
    /// [`Session::batch_exchanges`]); 1: every frame exchanges.
    batch: u32,
    /// Frames ticked since the last exchange.
    unsent: u32,
}

/// The most frames [`Session::batch_exchanges`] lets run between two exchanges: half a second
/// of play, so a machine far behind still tells its peers where it is twice a second.
pub const MAX_BATCH: u32 = 15;

impl<T: ControlTransport> Session<T> {
    /// Joins the parts; controllers must speak for players local to the stream.
    pub fn new(world: World, mut stream: Stream, transport: T, controllers: Vec<Box<dyn Controller>>) -> Session<T> {
        if transport.me() != PeerId(0) {
            // The host judges the other joiners; this machine only keeps its memory bounded.
            stream.defer_judgement();
        }
        Session {
            world,
            stream,
            transport,
            controllers,
            thought_for: None,
            owners: BTreeMap::new(),
            peer_events: Vec::new(),
            control: VecDeque::new(),
            violations: super::violations::Violations::default(),
            executed: None,
            playback: None,
            backlog: Backlog::default(),
            batch: 1,
            unsent: 0,
        }
    }

    /// How each local player's controller plays (see [`Controller::style`]), by player.
    pub fn styles(&self) -> Vec<(PlayerId, String)> {
        self.controllers.iter().filter_map(|c| Some((c.player(), c.style()?))).collect()
    }

    /// What each local computer player's first attack set out with (see
    /// [`Controller::first_wave`]), by player; players that have not attacked are left out.
    pub fn first_waves(&self) -> Vec<(PlayerId, crate::ai::FirstWave)> {
        self.controllers.iter().filter_map(|c| Some((c.player(), c.first_wave()?))).collect()
    }

    /// Plays back recorded commands instead of the controllers and the stream: each frame runs
    /// exactly the commands that executed on it when the game was played (run-ahead changes and
    /// all), in their order.
    pub fn play_back(&mut self, entries: &[super::script::ScriptEntry]) {
        self.playback = Some(super::script::stamped_by_frame(entries));
    }

    /// While playing back: continues from `world` (a state this playback passed through, kept
    /// by the watcher), running the recorded commands from its frame on. False, and nothing
    /// changes, when this session is not a playback.
    pub fn seek_playback(&mut self, world: World) -> bool {
        if self.playback.is_none() {
            return false;
        }
        self.world = world;
        true
    }

    /// Writes every executed command — every machine's, as the stream ran them — into `log`,
    /// each at the frame it executed on: a replay of exactly this game.
    pub fn record_into(&mut self, log: super::replay::CommandLog) {
        self.executed = Some(log);
    }

    /// Names the peer that owns each player; from then on a message about a player is taken
    /// only from its owner (others are refused and counted against the sender).
    pub fn with_owners(mut self, owners: BTreeMap<PlayerId, PeerId>) -> Session<T> {
        self.owners = owners;
        self
    }

    /// For a machine that runs frames as fast as it can (pacing off, stepped again at once): a
    /// run of up to `frames` ready frames (at most [`MAX_BATCH`]) exchanges with the wire once,
    /// when a frame is not ready or the run is that long, so what the run sends leaves in one
    /// batch instead of a packet a frame. Nothing waits for what it holds back: a machine
    /// that must wait sends all it has first. It changes when messages leave, never what they
    /// say. A paced game keeps 1, the default: every frame exchanges as it runs, so the peers
    /// hear of it at once. A batching caller that stops stepping calls
    /// [`Session::send_unsent`] so its last frames leave.
    pub fn batch_exchanges(&mut self, frames: u32) {
        self.batch = frames.clamp(1, MAX_BATCH);
    }

    /// Exchanges with the wire if frames ran since the last exchange: what a batching machine
    /// held back leaves now.
    pub fn send_unsent(&mut self) -> Result<(), SessionError> {
        if self.unsent > 0 { self.pump() } else { Ok(()) }
    }

    /// One logic frame's turn, with exactly one exchange with the wire ([`Session::pump`]):
    /// lets controllers act for the current frame (once) and executes the frame if everyone's
    /// commands for it are in, exchanging after it (the commands, the frame it closed and its
    /// hash leave in one batch). If the frame was not ready, the exchange comes first and the
    /// frame runs at once if what arrived completes it (what it queues leaves with the next
    /// exchange). With [`Session::batch_exchanges`], a frame leaves its exchange to a later
    /// one of its run.
    pub fn step(&mut self) -> Result<Step, SessionError> {
        let frame = self.world.frame();
        if let Some(frames) = &self.playback {
            // Kept, not consumed: a watcher may seek back and run these frames again.
            let commands = frames.get(&frame.0).cloned().unwrap_or_default();
            let report = self.world.tick(&commands);
            let hash = self.world.state_hash();
            return Ok(Step::Ticked { frame, hash, report });
        }
        if self.thought_for != Some(frame) {
            self.thought_for = Some(frame);
            for c in &mut self.controllers {
                for command in c.think(&self.world) {
                    self.stream.submit(c.player(), command)?;
                }
            }
        }
        self.release_backlog();
        let mut exchanged = false;
        let mut next = self.stream.take_ready();
        if next.is_none() {
            self.pump()?;
            exchanged = true;
            next = self.stream.take_ready();
        }
        let Some((ready, commands)) = next else {
            return Ok(if self.stream.paused().is_some() { Step::Paused } else { Step::Waiting });
        };
        debug_assert_eq!(ready, frame, "stream and world agree on the frame");
        if let Some(log) = &self.executed {
            log.borrow_mut().extend(commands.iter().map(|c| super::script::ScriptEntry {
                frame: c.frame.0,
                player: c.player.0,
                command: c.command.clone(),
            }));
        }
        let report = self.world.tick(&commands);
        let hash = self.world.state_hash();
        self.stream.record_hash(ready, hash.total);
        // What this frame queued is unsent until the next exchange: batched, that is the next
        // step that finds its frame not ready (waiting, the machine has sent all it has).
        self.unsent += 1;
        if !exchanged && self.unsent >= self.batch {
            self.pump()?;
        }
        Ok(Step::Ticked { frame: ready, hash, report })
    }

    /// The one exchange with the wire, once a logic frame (by [`Session::step`]) or once a
    /// drawn frame in which no logic frame runs (paused, or a link finishing a desync report):
    /// sends what the stream has queued in one batch, feeds it the lockstep
    /// messages that arrived, and keeps peer events and control messages for the link. Bad
    /// messages are refused by the stream (and counted there); they do not stop the session,
    /// but a peer that breaks the protocol past its budget is cut off: nothing more it sends is
    /// taken, and it waits in [`Session::take_violators`] for the driver to close its connection.
    pub fn pump(&mut self) -> Result<(), SessionError> {
        self.unsent = 0;
        while let Some(m) = self.stream.poll_outgoing() {
            self.transport.send(&m)?;
        }
        self.transport.flush()?;
        while let Some(event) = self.transport.receive()? {
            match event {
                TransportEvent::Message { from, message } => {
                    if self.violations.is_cut(from) {
                        continue;
                    }
                    if !self.stream.is_watching() {
                        self.accept(from, message);
                        continue;
                    }
                    // A watcher holds back what is for frames past its window (it is behind:
                    // nobody waited for it), so it catches up instead of losing data.
                    match self.backlog.hold(from, message, self.stream.next_frame()) {
                        Ok(Some(message)) => self.accept(from, message),
                        Ok(None) => {}
                        Err(full) => {
                            let weight = if from == PeerId(0) { 1 } else { 0 };
                            self.violations.note(from, weight, || full.to_string());
                        }
                    }
                }
                TransportEvent::Connected(p) => {
                    // A number given again belongs to a new machine, with a clean slate.
                    self.violations.forget(p);
                    self.peer_events.push(PeerEvent::Connected(p));
                }
                TransportEvent::Left(p) => self.peer_events.push(PeerEvent::Left(p)),
            }
        }
        self.release_backlog();
        while let Some(c) = self.transport.take_control() {
            if self.control.len() >= CONTROL_MAX
                && let Some((peer, _)) = self.control.pop_front()
            {
                log::warn!("control messages not handled in time; the oldest (from {peer}) dropped");
            }
            self.control.push_back(c);
        }
        Ok(())
    }

    /// Takes a lockstep message from `from` into the stream: refused when `from` does not own
    /// the player it speaks for, or when the stream refuses it; each refusal weighs against
    /// the sender where this machine judges it.
    fn accept(&mut self, from: PeerId, message: Message) {
        // The host judges everyone; a joiner judges the host alone. Another joiner's lies are
        // only counted here: the host cuts that machine at a frame every machine agrees on, and
        // cutting it here at another moment would leave this machine without data the others
        // ran.
        let judged_here = self.transport.me() == PeerId(0) || from == PeerId(0);
        let weight = |severity: u32| if judged_here { severity } else { 0 };
        let player = message.speaker();
        if self.owners.get(&player).is_some_and(|&owner| owner != from) {
            let frame = message.frame();
            self.violations
                .note(from, weight(1), || format!("spoke for player {player}, which it does not own (frame {frame})"));
            return;
        }
        if let Err(e) = self.stream.receive(message) {
            self.violations.note(from, weight(e.severity()), || e.to_string());
        }
    }

    /// Hands the stream what the backlog holds for frames now within its window.
    fn release_backlog(&mut self) {
        if self.backlog.is_empty() {
            return;
        }
        for (from, message) in self.backlog.release(self.stream.next_frame()) {
            if !self.violations.is_cut(from) {
                self.accept(from, message);
            }
        }
    }

    /// True when this machine only watches and is well behind the players (what it holds
    /// reaches past its next frame by more than the run-ahead and half a second): it should
    /// run frames as fast as they are ready, not at the clock, until it is back.
    pub fn watcher_behind(&self) -> bool {
        if !self.stream.is_watching() {
            return false;
        }
        let slack = self.stream.run_ahead() + crate::sim::ids::FRAMES_PER_SECOND / 2;
        let ahead = self.stream.known_through().is_some_and(|k| k.0 >= self.stream.next_frame().0 + slack);
        !self.backlog.is_empty() || ahead
    }

    /// Messages a watcher holds for frames past its window (0 for a player's machine).
    pub fn backlog(&self) -> usize {
        self.backlog.len()
    }

    /// The next control message read off the wire, with its sender, oldest first (for the
    /// online link; see [`Session::pump`]).
    pub fn take_control(&mut self) -> Option<(PeerId, WireMessage)> {
        self.control.pop_front()
    }

    /// Peers that arrived or left since the last call.
    pub fn take_peer_events(&mut self) -> Vec<PeerEvent> {
        std::mem::take(&mut self.peer_events)
    }

    /// Peers cut off for breaking the protocol since the last call (each named once): the
    /// driver closes their connections and removes their players as for a departure.
    pub fn take_violators(&mut self) -> Vec<Violator> {
        self.violations.take_cut()
    }

    /// What each peer has broken of the protocol, for reports and tests.
    pub fn violations(&self) -> &super::violations::Violations {
        &self.violations
    }

    /// The world (read-only: renderer, UI and tools look, never touch).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// A local player's order, given now (the human's, from the client): stamped for the
    /// frame the stream schedules, and sent with the rest of this machine's messages at the
    /// next step (so orders given together travel in one batch, their headers shared).
    /// Refused for a player of another machine.
    pub fn submit_local(
        &mut self,
        player: PlayerId,
        command: crate::sim::command::Command,
    ) -> Result<crate::sim::command::StampedCommand, SessionError> {
        Ok(self.stream.submit(player, command)?)
    }

    /// A local player pauses, resumes or changes the game speed: a control message of the
    /// stream, which every machine applies alike (refused for a player of another machine, or
    /// a resume when nothing is paused), sent with the next exchange. Returns the frame it
    /// was stamped for.
    pub fn submit_pace(
        &mut self,
        player: PlayerId,
        change: crate::lockstep::PaceChange,
    ) -> Result<Frame, SessionError> {
        Ok(self.stream.submit_pace(player, change)?)
    }

    /// The stream.
    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    /// The transport.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// The transport, for what only its own kind offers (waiting, control messages).
    pub fn transport_mut(&mut self) -> &mut T {
        &mut self.transport
    }

    /// From frame `at` on, commands are scheduled `value` frames ahead (every machine must be
    /// told the same); false if `at` has already passed here.
    pub fn schedule_run_ahead(&mut self, at: Frame, value: u32) -> bool {
        self.stream.schedule_run_ahead(at, value).is_ok()
    }

    /// Stops waiting for `player` from frame `from` on (they left; every machine removes them
    /// at the same frame, so the game goes on alike everywhere).
    pub fn drop_player(&mut self, player: PlayerId, from: Frame) {
        self.stream.drop_player(player, from);
    }

    /// `player`, dropped, is back and spoken for by `peer`: its data is waited for again from
    /// frame `back`. False if it was not dropped.
    pub fn readmit(&mut self, player: PlayerId, peer: PeerId, back: Frame) -> bool {
        if !self.stream.readmit(player, back) {
            return false;
        }
        self.owners.insert(player, peer);
        true
    }

    /// From now on `peer` speaks for `player` (a machine that came back has a new peer).
    pub fn set_owner(&mut self, player: PlayerId, peer: PeerId) {
        self.owners.insert(player, peer);
    }

    /// Which peer speaks for `player` now, when known.
    pub fn owner(&self, player: PlayerId) -> Option<PeerId> {
        self.owners.get(&player).copied()
    }

    /// Applies a deliberate fault to this machine's world (desync tests and the
    /// `--debug-corrupt-at` switch); the only write to the world that is not a command.
    pub fn corrupt(&mut self, c: crate::sim::corruption::Corruption) -> bool {
        self.world.corrupt(c)
    }

    /// The controllers of this machine's players (a saved game keeps their state).
    pub fn controllers(&self) -> &[Box<dyn Controller>] {
        &self.controllers
    }

    /// True when the controllers have already thought for the next frame (a saved game keeps
    /// it, so the restored one does not think for that frame twice).
    pub fn has_thought(&self) -> bool {
        self.thought_for == Some(self.world.frame())
    }

    /// The controllers have thought for the next frame already (a restored game's).
    pub fn mark_thought(&mut self) {
        self.thought_for = Some(self.world.frame());
    }
}
