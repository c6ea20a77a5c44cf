//! The online lobby's control protocol of one machine, as an I/O-free state machine like
//! [`super::MatchLink`]: the host seats joiners after the handshake (or refuses them, saying
//! why, on both sides), keeps the table (`session::lobby`) and sends it to everyone when it
//! changes and once a second (with pings), passes chat on naming the sender; a joiner follows
//! the host's table, sends its own choices and Ready, and hears when the match starts (or its
//! seat in a running match is given back). What arrives goes to [`LobbyLink::handle`] and
//! [`LobbyLink::peer_left`], what to send comes out of [`LobbyLink::poll_outgoing`], what to
//! show out of [`LobbyLink::poll_event`]; [`LobbyLink::poll_timeout`] says when the table is due
//! again and [`LobbyLink::tick`] sends it. The window's lobby drives it over QUIC; tests drive
//! it over the in-memory hub with simulated time.
//!
//! Must not: read the clock or files, or do I/O (preparing the match on start is the driver's).

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use crate::lockstep::transport::PeerId;
use crate::net::nat::PathKind;
use crate::net::quic::io::LINK_LOST;
use crate::net::wire::{ALREADY_SEATED, FileDigest, Hello, REMOVED, Roster, Seat, Start, TAKEN_OVER, WireMessage};
use crate::online::lobby::{LobbyChange, LobbyTable};
use crate::session::match_setup::MatchSetup;
use crate::sim::ids::{Frame, PlayerId};

use super::digests::refusal;
use super::error::LobbyRefusal;
use super::lobby_news::roster_news;
use super::outbox::{Outbox, Outgoing};

/// What a joiner is told when a change by the host cleared its Ready.
pub const READY_CLEARED: &str = "The host changed the game: tick Ready again when you agree.";

/// How often the host sends the table even when nothing changed (pings move).
const ROSTER_EVERY: Duration = Duration::from_secs(1);

/// Longest lobby chat line, in characters.
const CHAT_MAX: usize = 200;

/// What the player should be shown, or the driver should do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyEvent {
    /// A line for the lobby's chat (chat, arrivals, departures, refusals, notices).
    Line(String),
    /// The table as it now stands, and whether this player is ready in it.
    Table {
        /// The table.
        roster: Roster,
        /// This machine's player is marked ready.
        ready: bool,
    },
    /// The host welcomed this machine as `peer`.
    Welcomed(PeerId),
    /// The host started the match: prepare it from `start` (joiner).
    Start(Start),
    /// The match is running and this machine's seat in it is given back: catch up from
    /// `start` as `machine`, with the host's word on who speaks for whom (joiner).
    Rejoin {
        /// The match's start.
        start: Start,
        /// The machine whose slots are this player's.
        machine: u8,
        /// Who speaks for whom now.
        owners: Vec<(PlayerId, PeerId)>,
    },
    /// The match is running and this machine joins it as an observer: catch up from `start`
    /// with the host's history, and watch live from `live` (joiner).
    Watch {
        /// The match's start.
        start: Start,
        /// Who speaks for whom now.
        owners: Vec<(PlayerId, PeerId)>,
        /// The first frame this machine runs live.
        live: Frame,
    },
    /// The lobby is over for this machine, and why (refused, removed, the host left).
    Closed(String),
}

/// Which side of the lobby this machine is.
enum Side {
    Host {
        table: LobbyTable,
        /// The digests of this machine's simulation data, which joiners must match.
        mine: Vec<FileDigest>,
        /// Each joiner's seat token, so a machine that drops in the match can come back.
        tokens: BTreeMap<u8, [u8; 32]>,
        /// When the table was last sent.
        sent: Option<Instant>,
    },
    Joiner {
        me: Option<PeerId>,
        roster: Roster,
        ready: bool,
    },
}

/// One machine's side of the lobby protocol.
pub struct LobbyLink {
    side: Side,
    name: String,
    out: Outbox,
    events: VecDeque<LobbyEvent>,
    closed: bool,
}

impl LobbyLink {
    /// The host's side: a table for `map` with `start_positions` slots and `factions`
    /// playable factions; `mine` are this machine's data digests.
    pub fn host(name: &str, map: &str, start_positions: usize, factions: usize, mine: Vec<FileDigest>) -> LobbyLink {
        let table = LobbyTable::new(map, start_positions, name, factions);
        let first = LobbyEvent::Table { roster: table.roster().clone(), ready: false };
        let mut link = LobbyLink::with(Side::Host { table, mine, tokens: BTreeMap::new(), sent: None }, name);
        link.events.push_back(first);
        link
    }

    /// A joiner's side (its hello already went out with the connection).
    pub fn joiner(name: &str) -> LobbyLink {
        LobbyLink::with(Side::Joiner { me: None, roster: Roster::default(), ready: false }, name)
    }

    fn with(side: Side, name: &str) -> LobbyLink {
        LobbyLink { side, name: name.to_string(), out: Outbox::default(), events: VecDeque::new(), closed: false }
    }

    /// True on the host's machine.
    pub fn hosting(&self) -> bool {
        matches!(self.side, Side::Host { .. })
    }

    /// This machine's peer, once known (the host is peer 0).
    pub fn me(&self) -> Option<PeerId> {
        match &self.side {
            Side::Host { .. } => Some(PeerId(0)),
            Side::Joiner { me, .. } => *me,
        }
    }

    /// The table as this machine knows it.
    pub fn roster(&self) -> &Roster {
        match &self.side {
            Side::Host { table, .. } => table.roster(),
            Side::Joiner { roster, .. } => roster,
        }
    }

    /// This machine's player is marked ready.
    pub fn ready(&self) -> bool {
        match &self.side {
            Side::Host { table, .. } => table.roster().slots.first().is_some_and(|s| s.ready),
            Side::Joiner { ready, .. } => *ready,
        }
    }

    /// The joiners' seat tokens, by machine (host).
    pub fn tokens(&self) -> BTreeMap<u8, [u8; 32]> {
        match &self.side {
            Side::Host { tokens, .. } => tokens.clone(),
            Side::Joiner { .. } => BTreeMap::new(),
        }
    }

    /// A message from `from` at `now`.
    pub fn handle(&mut self, now: Instant, from: PeerId, message: WireMessage) {
        if self.closed {
            return;
        }
        match self.side {
            Side::Host { .. } => self.host_hears(now, from, message),
            // A joiner listens to the host alone.
            Side::Joiner { .. } if from != PeerId(0) => {}
            Side::Joiner { .. } => self.joiner_hears(message),
        }
    }

    /// The host hears a joiner: a hello asks for a seat, the rest change the joiner's own slot
    /// or speak.
    fn host_hears(&mut self, now: Instant, from: PeerId, message: WireMessage) {
        let Side::Host { table, .. } = &mut self.side else { return };
        match message {
            WireMessage::Hello(hello) => self.hello(now, from, hello),
            WireMessage::Ready(r) => {
                table.set_ready(from, r);
                self.send_table(now);
            }
            WireMessage::Observe(watch) => {
                // A person switches their own seat between playing and watching.
                let before = table.roster().clone();
                if let Some(i) = table.slot_of(from) {
                    let seat = if watch { Seat::Observer(from) } else { Seat::Player(from) };
                    if let Err(e) = table.apply(from, &LobbyChange::Seat(i, seat)) {
                        let line = WireMessage::Chat { from: String::new(), text: capitalised(&e.to_string()) };
                        self.out.send(Some(from), vec![line]);
                    }
                }
                for line in roster_news(&before, table.roster()) {
                    self.notice(line, None);
                }
                self.send_table(now);
            }
            WireMessage::Choose { faction, colour } => {
                // A player changes only their own slot; the table checks the rest.
                if let Some(i) = table.slot_of(from) {
                    for change in [LobbyChange::Faction(i, faction), LobbyChange::Colour(i, colour)] {
                        if let Err(e) = table.apply(from, &change) {
                            let line = WireMessage::Chat { from: String::new(), text: capitalised(&e.to_string()) };
                            self.out.send(Some(from), vec![line]);
                        }
                    }
                }
                self.send_table(now);
            }
            WireMessage::Chat { text, .. } => {
                // The host names the sender itself, and passes the line on.
                let who = table.slot_of(from).map_or("?".to_string(), |i| table.roster().slots[i].name.clone());
                let text: String = text.chars().take(CHAT_MAX).collect();
                self.events.push_back(LobbyEvent::Line(format!("{who}: {text}")));
                self.out.send(None, vec![WireMessage::Chat { from: who, text }]);
            }
            other => log::debug!("{from} sent {other:?} in the lobby; ignored"),
        }
    }

    /// The host hears a hello: a second one from a seated connection is refused; the same
    /// identity from another copy of the game takes its seat over; anyone else is seated, or
    /// refused with the reason.
    fn hello(&mut self, now: Instant, from: PeerId, hello: Hello) {
        let name = self.name.clone();
        let Side::Host { table, mine, tokens, .. } = &mut self.side else { return };
        if table.slot_of(from).is_some() {
            // One connection, one seat: a second hello changes nothing.
            log::info!("{from} sent a second hello; refused");
            self.out.send(Some(from), vec![WireMessage::Refused { reason: ALREADY_SEATED.to_string() }]);
            return;
        }
        if refusal(&hello, mine).is_none()
            && let Some(old) = seated_elsewhere(tokens, table, &hello.seat)
        {
            // The same player from another copy of the game (the same identity): the newer
            // copy takes the seat over, and the older is told why it stops.
            table.hand_over(old, from);
            tokens.remove(&old.0);
            tokens.insert(from.0, hello.seat);
            let who = table.slot_of(from).map_or_else(String::new, |i| table.roster().slots[i].name.clone());
            log::info!("{old}'s seat taken over by {from}, the same identity");
            self.out.send(Some(old), vec![WireMessage::Refused { reason: TAKEN_OVER.to_string() }]);
            self.out.kick(old);
            self.notice(format!("{who} came back from another copy of the game."), None);
            self.out.send(Some(from), vec![WireMessage::Welcome { peer: from, host: name }]);
            self.send_table(now);
            return;
        }
        let who: String = hello.name.chars().take(32).collect();
        let seated = match refusal(&hello, mine) {
            Some(reason) => Err(reason),
            None => table.seat(from, &who).map_err(|e| e.to_string()),
        };
        if let (Ok(i), true) = (&seated, hello.watch) {
            // Asked to watch: the seat is an observer's from the start.
            let _ = table.apply(from, &LobbyChange::Seat(*i, Seat::Observer(from)));
        }
        let seated = match seated {
            Ok(_) => Ok(()),
            Err(reason) => Err(reason),
        };
        match seated {
            Err(reason) => {
                self.events.push_back(LobbyEvent::Line(format!("{who} could not join: {reason}")));
                self.out.send(Some(from), vec![WireMessage::Refused { reason }]);
            }
            Ok(_) => {
                tokens.insert(from.0, hello.seat);
                // Everyone already here hears of the newcomer; the newcomer hears it is in.
                self.notice(format!("{who} joined."), Some(from));
                self.out.send(Some(from), vec![WireMessage::Welcome { peer: from, host: name }]);
                self.send_table(now);
            }
        }
    }

    /// A joiner hears its host: the welcome, a refusal, the table, chat, the start.
    fn joiner_hears(&mut self, message: WireMessage) {
        let name = self.name.clone();
        let Side::Joiner { me, roster, ready } = &mut self.side else { return };
        match message {
            WireMessage::Welcome { peer, host } => {
                *me = Some(peer);
                self.events.push_back(LobbyEvent::Welcomed(peer));
                self.events.push_back(LobbyEvent::Line(format!("Joined {host}'s game.")));
            }
            WireMessage::Refused { reason } if reason == REMOVED => {
                self.close("The host removed you from the game.".into())
            }
            WireMessage::Refused { reason } if reason == TAKEN_OVER => {
                self.close("Another copy of the game with your identity took your seat.".into())
            }
            WireMessage::Refused { reason } => self.close(reason),
            WireMessage::Chat { from: who, text } => {
                let text: String = text.chars().take(CHAT_MAX).collect();
                // The host's notices come unnamed; this player's own line was shown already.
                if who.is_empty() {
                    self.events.push_back(LobbyEvent::Line(text));
                } else if who != name {
                    self.events.push_back(LobbyEvent::Line(format!("{who}: {text}")));
                }
            }
            WireMessage::Roster(new) => {
                // The host asks everyone to say ready again after a change.
                let mine = me.and_then(|me| new.slots.iter().find(|s| s.seat.peer() == Some(me)));
                let now_ready = mine.is_some_and(|s| s.ready);
                if *ready && !now_ready && roster.slots.len() == new.slots.len() {
                    self.events.push_back(LobbyEvent::Line(READY_CLEARED.to_string()));
                }
                *ready = now_ready;
                *roster = new;
                let event = LobbyEvent::Table { roster: roster.clone(), ready: *ready };
                self.events.push_back(event);
            }
            WireMessage::Start(start) if me.is_some() => {
                self.closed = true;
                self.events.push_back(LobbyEvent::Start(start));
            }
            WireMessage::Rejoin { start, machine, owners } if me.is_some() => {
                self.closed = true;
                self.events.push_back(LobbyEvent::Line("The game is running: taking your seat back…".into()));
                self.events.push_back(LobbyEvent::Rejoin { start, machine, owners });
            }
            WireMessage::Watch { start, owners, live } if me.is_some() => {
                self.closed = true;
                self.events.push_back(LobbyEvent::Line("The game is running: catching up to watch it…".into()));
                self.events.push_back(LobbyEvent::Watch { start, owners, live });
            }
            other => log::debug!("the host sent {other:?} in the lobby; ignored"),
        }
    }

    /// `peer`'s connection is gone, closed with `reason` where the transport knows one. The
    /// host frees its slot; a joiner has lost the host.
    pub fn peer_left(&mut self, now: Instant, peer: PeerId, reason: Option<&str>) {
        if self.closed {
            return;
        }
        match &mut self.side {
            Side::Host { table, tokens, .. } => {
                tokens.remove(&peer.0);
                if let Some(who) = table.leave(peer) {
                    self.notice(format!("{who} left."), Some(peer));
                }
                self.send_table(now);
            }
            Side::Joiner { me: None, .. } => {
                self.close(format!("Could not reach the host: {}", reason.unwrap_or("no answer")));
            }
            Side::Joiner { .. } if reason.is_some_and(|r| r.contains(REMOVED)) => {
                self.close("The host removed you from the game.".into());
            }
            // Nothing heard for the idle timeout: this machine's link, not the host's doing.
            Side::Joiner { .. } if reason == Some(LINK_LOST) => {
                self.close("Your connection to the host was lost.".into());
            }
            Side::Joiner { .. } => self.close("The host closed the game.".into()),
        }
    }

    /// This player says `text`: shown here at once; the host tells everyone, a joiner the
    /// host, which passes it on.
    pub fn chat(&mut self, text: &str) {
        let text: String = text.chars().take(CHAT_MAX).collect();
        if text.trim().is_empty() {
            return;
        }
        self.events.push_back(LobbyEvent::Line(format!("{}: {text}", self.name)));
        self.out.send(None, vec![WireMessage::Chat { from: self.name.clone(), text }]);
    }

    /// Marks this player ready or not.
    pub fn set_ready(&mut self, now: Instant, ready: bool) {
        match &mut self.side {
            Side::Host { table, .. } => {
                table.set_ready(PeerId(0), ready);
                self.send_table(now);
            }
            Side::Joiner { .. } => self.out.send(None, vec![WireMessage::Ready(ready)]),
        }
    }

    /// Asks for a change to the table: the host applies it (removing a player it replaces,
    /// who is told why), a joiner sends its own faction and colour to the host. A refusal is
    /// said in words.
    pub fn change(&mut self, now: Instant, change: &LobbyChange) -> Result<(), LobbyRefusal> {
        match &mut self.side {
            Side::Host { table, .. } => {
                let before = table.roster().clone();
                let removed = table.apply(PeerId(0), change).map_err(LobbyRefusal::Change)?;
                if let Some(peer) = removed {
                    let who = before.slots.iter().find(|s| s.seat.peer() == Some(peer)).map(|s| s.name.clone());
                    self.out.send(Some(peer), vec![WireMessage::Refused { reason: REMOVED.to_string() }]);
                    self.out.kick(peer);
                    self.notice(format!("{} was removed from the game.", who.unwrap_or_default()), Some(peer));
                }
                let Side::Host { table, .. } = &self.side else { return Ok(()) };
                for line in roster_news(&before, table.roster()) {
                    self.notice(line, None);
                }
                self.send_table(now);
                Ok(())
            }
            Side::Joiner { me, roster, .. } => {
                let mine = me.and_then(|me| roster.slots.iter().find(|s| s.seat.peer() == Some(me)));
                let Some(mine) = mine else { return Err(LobbyRefusal::NotSeated) };
                let (faction, colour) = match *change {
                    LobbyChange::Seat(_, Seat::Observer(p)) if Some(p) == *me => {
                        self.out.send(None, vec![WireMessage::Observe(true)]);
                        return Ok(());
                    }
                    LobbyChange::Seat(_, Seat::Player(p)) if Some(p) == *me => {
                        self.out.send(None, vec![WireMessage::Observe(false)]);
                        return Ok(());
                    }
                    LobbyChange::Faction(_, f) => (f, mine.colour),
                    LobbyChange::Colour(_, c) => (mine.faction, c),
                    _ => return Err(LobbyRefusal::HostOnly),
                };
                self.out.send(None, vec![WireMessage::Choose { faction, colour }]);
                Ok(())
            }
        }
    }

    /// The host's match setup when the table allows a start (everyone ready, two sides at
    /// least), with `factions` named and `seed`; otherwise why not, in words.
    pub fn setup(&self, factions: &[String], seed: u64) -> Result<MatchSetup, LobbyRefusal> {
        let Side::Host { table, .. } = &self.side else { return Err(LobbyRefusal::HostStarts) };
        table.ready_to_start().map_err(LobbyRefusal::NotYet)?;
        Ok(table.to_match_setup(factions, seed))
    }

    /// The players' pings and paths as the transport measures them (host): shown in the
    /// table from the next time it is sent.
    pub fn set_pings(&mut self, ping: impl Fn(PeerId) -> Option<(u16, PathKind)>) {
        if let Side::Host { table, .. } = &mut self.side {
            table.set_pings(ping);
        }
    }

    /// Sends the table if it is due (host, once a second).
    pub fn tick(&mut self, now: Instant) {
        if self.poll_timeout().is_some_and(|t| now >= t) {
            self.send_table(now);
        }
    }

    /// When [`LobbyLink::tick`] has something to do next, if ever (the host, once it has
    /// sent the table).
    pub fn poll_timeout(&self) -> Option<Instant> {
        match &self.side {
            Side::Host { sent: Some(t), .. } if !self.closed => Some(*t + ROSTER_EVERY),
            _ => None,
        }
    }

    /// The next thing to do on the network.
    pub fn poll_outgoing(&mut self) -> Option<Outgoing> {
        self.out.pop()
    }

    /// The next thing to show.
    pub fn poll_event(&mut self) -> Option<LobbyEvent> {
        self.events.pop_front()
    }

    /// The host tells a notice to everyone: shown here, and sent unnamed to each machine
    /// seated at the table but `except`.
    fn notice(&mut self, line: String, except: Option<PeerId>) {
        let Side::Host { table, .. } = &self.side else { return };
        let peers: Vec<PeerId> = table
            .roster()
            .slots
            .iter()
            .filter_map(|s| s.seat.peer())
            .filter(|&p| p != PeerId(0) && Some(p) != except)
            .collect();
        for peer in peers {
            self.out.send(Some(peer), vec![WireMessage::Chat { from: String::new(), text: line.clone() }]);
        }
        self.events.push_back(LobbyEvent::Line(line));
    }

    fn send_table(&mut self, now: Instant) {
        let Side::Host { table, sent, .. } = &mut self.side else { return };
        let roster = table.roster().clone();
        let ready = roster.slots.first().is_some_and(|s| s.ready);
        *sent = Some(now);
        self.out.send(None, vec![WireMessage::Roster(roster.clone())]);
        self.events.push_back(LobbyEvent::Table { roster, ready });
    }

    fn close(&mut self, why: String) {
        self.closed = true;
        self.events.push_back(LobbyEvent::Closed(why));
    }
}

/// The peer seated at `table` under seat token `token` (not the "no identity" token of zeros).
fn seated_elsewhere(tokens: &BTreeMap<u8, [u8; 32]>, table: &LobbyTable, token: &[u8; 32]) -> Option<PeerId> {
    if *token == [0; 32] {
        return None;
    }
    tokens
        .iter()
        .map(|(&p, t)| (PeerId(p), t))
        .find(|(p, t)| *t == token && table.slot_of(*p).is_some())
        .map(|(p, _)| p)
}

/// A refusal as a sentence.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
