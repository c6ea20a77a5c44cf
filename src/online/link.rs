//! The in-match control protocol of one machine, as an I/O-free state machine like
//! `lockstep::Stream`: what the other machines say goes to [`MatchLink::handle`] (and their
//! departures to [`MatchLink::peer_left`]), each frame run to [`MatchLink::ran`], and what this
//! machine has to say comes out of [`MatchLink::poll_outgoing`]; what the player should be told
//! comes out of [`MatchLink::poll_event`], and [`MatchLink::poll_timeout`] says when it next
//! needs the clock. It covers departures (removed at a frame every machine agrees on, the host
//! telling everyone), the late joiner's refusal and the dropped machine's return (`rejoin.rs`),
//! the host's run-ahead (`run_ahead.rs`), chat (the host names the sender and passes it on) and
//! the desync exchange (`desync.rs`). [`MatchLink::update`] is its one driver: after the
//! session's one exchange with the wire a frame (the session owns the transport: QUIC in a
//! real match, the in-memory hub in tests with simulated time), it hands the link what the
//! session kept and sends the link's answers. The headless run and the window's battle both
//! use it.
//!
//! Must not: read the clock (every call takes `now`), read the transport (the session does),
//! write to it outside `update`, or change the world except through the stream (drops, returns and
//! run-ahead changes are scheduled on it).

use std::collections::VecDeque;
use std::time::Instant;

use crate::lockstep::Desync;
use crate::lockstep::transport::PeerId;
use crate::net::control::ControlTransport;
use crate::net::wire::{ALREADY_SEATED, WireMessage};
use crate::session::Session;
use crate::session::match_setup::ResolvedSlot;
use crate::session::peer::{PeerEvent, Violator};
use crate::sim::FRAMES_PER_SECOND;
use crate::sim::hash::StateHash;
use crate::sim::ids::{Frame, PlayerId};

use super::OnlineError;
use super::desync::{DesyncExchange, Snapshots};
use super::outbox::{Outbox, Outgoing};
use super::removal::drop_everywhere;
use super::run_ahead::{LinkSample, RunAheadTuner};
use super::seats::Seats;

/// What a joiner who comes after the start is told.
pub const LATE_JOINER: &str = "the game has already started";

/// Longest chat line, in characters.
pub const CHAT_MAX: usize = 120;

/// Desync digests that may arrive before this machine found the desync itself, kept at most.
const EARLY_MAX: usize = 16;

/// What the players should be told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkEvent {
    /// A chat line, as shown ("Name: text", or the host's own notice alone).
    Chat(String),
    /// A slot's players left or were dropped.
    Left {
        /// The slot.
        slot: u8,
        /// Their machine dropped without surrendering and can come back with the code.
        returnable: bool,
    },
    /// A slot's players are back (their machine rejoined).
    Back {
        /// The slot.
        slot: u8,
    },
    /// The host is gone (a joiner's view); what it sent before leaving still runs.
    HostGone,
}

/// One machine's side of the in-match control protocol.
pub struct MatchLink {
    me: PeerId,
    slots: Vec<ResolvedSlot>,
    /// The host's seats: a machine that drops can come back (a joiner's are empty).
    seats: Seats,
    /// The host adapts the run-ahead to the measured link (joiners follow the host).
    adaptive: bool,
    tuner: RunAheadTuner,
    /// Round trips (milliseconds) sampled once a second, for the match's summary.
    rtts: Vec<f64>,
    snapshots: Snapshots,
    desync: Option<Desync>,
    exchange: Option<DesyncExchange>,
    /// Desync digests that came before this machine's own exchange began.
    early: Vec<WireMessage>,
    host_gone: bool,
    out: Outbox,
    events: VecDeque<LinkEvent>,
}

impl MatchLink {
    /// The link of machine `me` in a match of `slots`; the host passes its `seats`.
    pub fn new(me: PeerId, slots: &[ResolvedSlot], seats: Seats, adaptive: bool) -> MatchLink {
        MatchLink {
            me,
            slots: slots.to_vec(),
            seats,
            adaptive,
            tuner: RunAheadTuner::default(),
            rtts: Vec::new(),
            snapshots: Snapshots::default(),
            desync: None,
            exchange: None,
            early: Vec::new(),
            host_gone: false,
            out: Outbox::default(),
            events: VecDeque::new(),
        }
    }

    /// True on the host's machine.
    pub fn hosting(&self) -> bool {
        self.me == PeerId(0)
    }

    /// True once the host is gone (a joiner's view).
    pub fn host_gone(&self) -> bool {
        self.host_gone
    }

    /// The desync the machines found, once they did (no more frames run).
    pub fn desync(&self) -> Option<Desync> {
        self.desync
    }

    /// True while the desync exchange runs.
    pub fn exchanging(&self) -> bool {
        self.exchange.is_some()
    }

    /// The largest run-ahead used so far.
    pub fn run_ahead_max(&self) -> u32 {
        self.tuner.max
    }

    /// Round trips sampled once a second, in milliseconds.
    pub fn rtts(&self) -> &[f64] {
        &self.rtts
    }

    /// After `frame` ran here with `hash`, at `now`: keeps the frame for a desync report,
    /// tunes the run-ahead (host; every tenth frame, from what the transport measured), and
    /// sends a returning machine its next stretch of history (host).
    pub fn ran<T: ControlTransport>(&mut self, now: Instant, session: &mut Session<T>, frame: Frame, hash: StateHash) {
        let sample = if frame.0.is_multiple_of(10) {
            let plays = |peer: PeerId| self.slots.iter().any(|s| session.owner(s.player) == Some(peer));
            LinkSample::of_players(session.transport(), plays)
        } else {
            LinkSample::default()
        };
        self.snapshots.keep(session.world(), frame.0, hash);
        // The run-ahead holds still while a machine comes back.
        let adapt = self.hosting() && self.adaptive && !self.seats.busy();
        if let Some(notice) = self.tuner.tune(session, frame, adapt, now, &sample) {
            self.out.send(None, vec![notice]);
        }
        if frame.0.is_multiple_of(FRAMES_PER_SECOND) {
            self.rtts.extend(sample.rtts_ms.iter().copied());
        }
        if self.hosting() {
            self.seats.upkeep(session, &mut self.out);
        }
    }

    /// Checks the stream for a desync: once there is one, the exchange with the machine that
    /// differs begins (no more frames should run).
    pub fn check<T: ControlTransport>(&mut self, now: Instant, session: &Session<T>) {
        let Some(d) = session.stream().desync() else { return };
        if self.desync.is_some() {
            return;
        }
        self.desync = Some(d);
        let mut x = DesyncExchange::start(&self.slots, self.me, d, &self.snapshots, now);
        for m in std::mem::take(&mut self.early) {
            x.handle(&m);
        }
        self.exchange = Some(x);
        self.flush_exchange();
    }

    /// The exchange, once it is over (every answer in, or its time is up): the caller writes
    /// the report. Given once.
    pub fn finished_exchange(&mut self, now: Instant) -> Option<DesyncExchange> {
        if self.exchange.as_ref().is_some_and(|x| x.done(now)) { self.exchange.take() } else { None }
    }

    /// `peer`'s connection is gone. The host removes its players at the first frame nobody
    /// has their data for and tells everyone; a joiner has lost the host.
    pub fn peer_left<T: ControlTransport>(&mut self, session: &mut Session<T>, peer: PeerId) {
        if !self.hosting() {
            if peer == PeerId(0) && !self.host_gone {
                self.host_gone = true;
                for s in self.slots.iter().filter(|s| s.machine == 0) {
                    self.events.push_back(LinkEvent::Left { slot: s.slot, returnable: false });
                }
                self.events.push_back(LinkEvent::HostGone);
            }
            return;
        }
        self.seats.left(peer);
        let owned: Vec<(PlayerId, u8)> = self
            .slots
            .iter()
            .filter(|s| session.owner(s.player) == Some(peer) && session.stream().dropped_from(s.player).is_none())
            .map(|s| (s.player, s.slot))
            .collect();
        for (player, slot) in owned {
            let from = drop_everywhere(session, &mut self.out, player);
            log::warn!("{peer} left; player {player} is removed from frame {from}");
            self.tell_left(session, player, slot);
        }
    }

    /// A control message from `from`. A refusal from the host is an error (this machine
    /// cannot go on); anything else unexpected is ignored.
    pub fn handle<T: ControlTransport>(
        &mut self,
        session: &mut Session<T>,
        from: PeerId,
        message: WireMessage,
    ) -> Result<(), OnlineError> {
        let host = from == PeerId(0);
        match message {
            WireMessage::Dropped { player, from: at } if host && !self.hosting() => {
                session.drop_player(player, at);
                if let Some(slot) = self.slots.get(player.index()).map(|s| s.slot) {
                    self.tell_left(session, player, slot);
                }
            }
            WireMessage::RunAhead { at, value } if host && !self.hosting() => {
                if !session.schedule_run_ahead(at, value as u32) {
                    log::error!("the host's run-ahead change for frame {at} came after that frame ran here");
                }
            }
            WireMessage::Readmitted { player, peer, back, .. } if host && !self.hosting() => {
                session.readmit(player, peer, back);
                self.events.extend(self.slots.get(player.index()).map(|s| LinkEvent::Back { slot: s.slot }));
            }
            WireMessage::Refused { reason } if host => return Err(OnlineError::Refused(reason)),
            // A machine of this match coming back takes its seat again; anyone else joining
            // with the code after the start is told at once, not left hanging.
            WireMessage::Hello(_) if self.hosting() && self.plays(session, from) => {
                // One connection, one seat: a second hello changes nothing.
                log::info!("{from} sent a second hello during the match; refused");
                self.out.send(Some(from), vec![WireMessage::Refused { reason: ALREADY_SEATED.to_string() }]);
            }
            // An observer joining the running match: welcomed, sent the history, never waited
            // for.
            WireMessage::Hello(hello) if self.hosting() && hello.watch => {
                if let Err(reason) = self.seats.welcome_watcher(session, &mut self.out, &self.slots, from) {
                    log::info!("{from} asked to watch; refused: {reason}");
                    self.out.send(Some(from), vec![WireMessage::Refused { reason: reason.to_string() }]);
                }
            }
            WireMessage::Hello(hello) if self.hosting() => {
                if !self.seats.welcome_back(session, &mut self.out, &self.slots, from, &hello) {
                    log::info!("{from} tried to join the running game; refused");
                    self.out.send(Some(from), vec![WireMessage::Refused { reason: LATE_JOINER.to_string() }]);
                }
            }
            WireMessage::CaughtUp { .. } if self.hosting() => {
                for player in self.seats.caught_up(session, &mut self.out, &self.slots, from) {
                    self.events.extend(self.slots.get(player.index()).map(|s| LinkEvent::Back { slot: s.slot }));
                }
            }
            WireMessage::Chat { text, .. } if self.hosting() => {
                // The host names the sender itself, and passes the line to the others.
                let name = self.name_of(from);
                let text: String = text.chars().take(CHAT_MAX).collect();
                self.events.push_back(LinkEvent::Chat(format!("{name}: {text}")));
                let line = WireMessage::Chat { from: name, text };
                for peer in self.machines().into_iter().filter(|&p| p != from) {
                    self.out.send(Some(peer), vec![line.clone()]);
                }
            }
            WireMessage::Chat { from: name, text } if host => {
                let text: String = text.chars().take(CHAT_MAX).collect();
                let line = if name.is_empty() { text } else { format!("{name}: {text}") };
                self.events.push_back(LinkEvent::Chat(line));
            }
            m @ (WireMessage::DesyncDigests { .. } | WireMessage::DesyncObject { .. }) => match &mut self.exchange {
                Some(x) => {
                    x.handle(&m);
                    self.flush_exchange();
                }
                None if self.desync.is_none() && self.early.len() < EARLY_MAX => self.early.push(m),
                None => {}
            },
            other => log::debug!("{from} sent {other:?} during the match; ignored"),
        }
        Ok(())
    }

    /// This machine's player says `text` (as `name`): the host tells everyone, a joiner tells
    /// the host, which passes it on. Shown here at once.
    pub fn say(&mut self, name: &str, text: &str) {
        let text: String = text.chars().take(CHAT_MAX).collect();
        if text.trim().is_empty() {
            return;
        }
        self.events.push_back(LinkEvent::Chat(format!("{name}: {text}")));
        self.out.send(None, vec![WireMessage::Chat { from: name.to_string(), text }]);
    }

    /// The host drops the players the game is waiting for: each is removed at the first frame
    /// nobody has their data for, everyone is told, and their machine is disconnected (it may
    /// come back). Returns the slots dropped (no [`LinkEvent::Left`] for them: the host chose).
    pub fn drop_stalled<T: ControlTransport>(&mut self, session: &mut Session<T>) -> Vec<u8> {
        if !self.hosting() {
            return Vec::new();
        }
        let mut dropped = Vec::new();
        for player in session.stream().waiting_for() {
            let Some(slot) = self.slots.get(player.index()).cloned() else { continue };
            drop_everywhere(session, &mut self.out, player);
            self.out.kick(PeerId(slot.machine));
            self.seats.left(PeerId(slot.machine));
            dropped.push(slot.slot);
        }
        dropped
    }

    /// This machine is leaving the match: says goodbye, so the others know it was an ending.
    pub fn bye(&mut self) {
        self.out.send(None, vec![WireMessage::Bye]);
    }

    /// The next thing to do on the network.
    pub fn poll_outgoing(&mut self) -> Option<Outgoing> {
        self.out.pop()
    }

    /// The next thing to tell the players.
    pub fn poll_event(&mut self) -> Option<LinkEvent> {
        self.events.pop_front()
    }

    /// When the link next needs the clock without anything arriving (the desync exchange's
    /// deadline), if ever.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.exchange.as_ref().map(DesyncExchange::poll_timeout)
    }

    /// The driver, at `now`, after the session's exchange with the wire ([`Session::step`],
    /// or [`Session::pump`] while no frame runs): handles the control messages and departures
    /// the session kept, checks for a desync, and sends what this machine has to say. It
    /// never reads the wire itself.
    pub fn update<T: ControlTransport>(&mut self, now: Instant, session: &mut Session<T>) -> Result<(), OnlineError> {
        // What a peer said before it left comes first.
        while let Some((from, m)) = session.take_control() {
            self.handle(session, from, m)?;
        }
        for e in session.take_peer_events() {
            if let PeerEvent::Left(peer) = e {
                self.peer_left(session, peer);
                // Handled: its number may go to a new connection (after every other free one).
                session.transport_mut().release(peer);
            }
        }
        for v in session.take_violators() {
            self.cut(session, v)?;
        }
        self.check(now, session);
        self.send(session.transport_mut());
        Ok(())
    }

    /// A peer cut off for breaking the lockstep protocol. The host removes it as a departure
    /// is (its players dropped at a frame everyone agrees on, its connection closed) and tells
    /// the others why; a joiner cut off from the host cannot go on; another joiner's lies are
    /// ignored here from now on (the host removes it).
    fn cut<T: ControlTransport>(&mut self, session: &mut Session<T>, v: Violator) -> Result<(), OnlineError> {
        if self.hosting() {
            let name = self.name_of(v.peer);
            self.peer_left(session, v.peer);
            let reason = format!("the host removed this machine: it broke the lockstep protocol ({})", v.reason);
            self.out.send(Some(v.peer), vec![WireMessage::Refused { reason }]);
            self.out.kick(v.peer);
            let line = format!("{name} was removed: their game broke the protocol");
            self.events.push_back(LinkEvent::Chat(line.clone()));
            self.out.send(None, vec![WireMessage::Chat { from: String::new(), text: line }]);
        } else if v.peer == PeerId(0) {
            return Err(OnlineError::HostBrokeProtocol(v.reason));
        }
        Ok(())
    }

    /// Carries out what this machine has to do on the network (a message not sent is logged:
    /// its peer's departure tells the game).
    fn send(&mut self, net: &mut impl ControlTransport) {
        while let Some(o) = self.out.pop() {
            match o {
                Outgoing::Send { to, messages } => {
                    if let Err(e) = net.send_control(to, &messages) {
                        log::debug!("control messages not sent: {e}");
                    }
                }
                Outgoing::Kick(peer) => net.kick(peer),
            }
        }
    }

    /// True when `peer` speaks for a player still in the match (a live seat).
    fn plays<T: ControlTransport>(&self, session: &Session<T>, peer: PeerId) -> bool {
        self.slots
            .iter()
            .any(|s| session.owner(s.player) == Some(peer) && session.stream().dropped_from(s.player).is_none())
    }

    /// The machines of the match other than the host's, each once.
    fn machines(&self) -> Vec<PeerId> {
        let mut m: Vec<u8> = self.slots.iter().map(|s| s.machine).filter(|&m| m != 0).collect();
        m.sort_unstable();
        m.dedup();
        m.into_iter().map(PeerId).collect()
    }

    /// The name a machine plays under (its first slot's).
    fn name_of(&self, peer: PeerId) -> String {
        self.slots.iter().find(|s| s.machine == peer.0).map_or_else(|| "?".to_string(), |s| s.name.clone())
    }

    /// Says that `player` (of `slot`) left: returnable when they did not surrender and their
    /// machine can come back.
    fn tell_left<T: ControlTransport>(&mut self, session: &Session<T>, player: PlayerId, slot: u8) {
        let surrendered = session.world().players().get(player.index()).is_some_and(|p| p.defeated);
        let returnable = !surrendered && self.seats.can_return(&self.slots, slot);
        self.events.push_back(LinkEvent::Left { slot, returnable });
    }

    fn flush_exchange(&mut self) {
        if let Some(x) = &mut self.exchange {
            while let Some((to, m)) = x.poll_outgoing() {
                self.out.send(to, vec![m]);
            }
        }
    }
}
