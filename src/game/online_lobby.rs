//! The online lobby in the window: drives the lobby's control protocol (`LobbyLink`, I/O-free)
//! over the lobby's QUIC connection — hosting (listen, accept joiners after the handshake,
//! share the roster and chat, start when everyone is ready) or joining (greet the host, follow
//! its roster and chat, start when it says, or catch up into a running match). It owns the
//! connection until the match starts, then hands over a started match owning its transport;
//! it fills the shell's lobby display from the link's events.
//!
//! Must not: decide anything of the protocol itself (the link does), or touch a running
//! battle (the battle takes the transport over at the start).

use std::time::Instant;

use crate::content::ContentRoots;
use crate::lockstep::transport::{PeerId, TransportEvent};
use crate::net::control::ControlTransport;
use crate::net::nat::Reach;
use crate::net::quic::{JoinCode, QuicTransport};
use crate::net::wire::{Start, WireMessage};
use crate::online::lobby::LobbyChange;
use crate::online::{
    Identity, LobbyEvent, LobbyLink, OnlineError, Outgoing, Return, Seats, sim_data_files, start_hosted, start_joined,
    start_watching,
};
use crate::session::start::LocalMatch;
use crate::session::{CommandScript, SlotKind};

use super::shell::LobbyState;

pub use crate::online::READY_CLEARED;

/// What the lobby came to.
pub enum Outcome {
    /// Nothing yet.
    Waiting,
    /// The match started: this machine's match (owning the transport) and (hosting) the
    /// seats a dropped machine comes back to.
    Started(Box<LocalMatch>, Seats),
    /// The lobby ended (refused, removed, the host left, the connection failed), and why.
    Closed(Said),
}

/// What the player is told, by its label in the string table (`Message:CouldNotHost`), with
/// `detail` filling its `{error}`: a reason the network or session layer gave in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// The message's label.
    pub label: &'static str,
    /// What fills its `{error}` (empty for a message without one).
    pub detail: String,
}

impl Said {
    /// A message of its own, with nothing to fill in.
    pub fn just(label: &'static str) -> Said {
        Said { label, detail: String::new() }
    }

    /// A reason given in words elsewhere, said as it is.
    pub fn quoted(reason: impl ToString) -> Said {
        Said { label: "Message:AsSaid", detail: reason.to_string() }
    }
}

/// The lobby's connection and state.
pub struct OnlineLobby {
    net: QuicTransport,
    link: LobbyLink,
    /// Hosting: the join code (once listening), whether the window has seen it, and the
    /// playable factions' names.
    code: Option<JoinCode>,
    new_code: bool,
    /// Hosting: listening (and registering at the relay) on another thread, until done.
    registering: Option<std::sync::mpsc::Receiver<Result<(QuicTransport, JoinCode), crate::net::quic::QuicError>>>,
    factions: Vec<String>,
    /// A joiner whose seat in the running match is being given back: catching up.
    returning: Option<Box<Return>>,
    name: String,
}

impl OnlineLobby {
    /// Hosts on `bind` a match on the map folder `map` with `start_positions` slots; an
    /// unspecified address listens on every interface and puts the first outside one in the
    /// join code. Returns once listening (and registered at the relay, if one is used).
    pub fn host(
        roots: &ContentRoots,
        bind: std::net::SocketAddr,
        name: &str,
        map: &str,
        start_positions: usize,
        reach: Reach,
    ) -> Result<OnlineLobby, OnlineError> {
        let mut lobby = OnlineLobby::host_in_background(roots, bind, name, map, start_positions, reach)?;
        if let Some(rx) = lobby.registering.take() {
            let (net, code) = rx.recv().map_err(|_| OnlineError::NetworkThreadStopped)??;
            lobby.net = net;
            lobby.code = Some(code);
        }
        Ok(lobby)
    }

    /// As [`OnlineLobby::host`], but returns at once: listening and registering at the relay
    /// (which may take seconds) happen on another thread, and the join code comes with a later
    /// [`OnlineLobby::poll`] (see [`OnlineLobby::take_new_code`]). The window never waits.
    pub fn host_in_background(
        roots: &ContentRoots,
        bind: std::net::SocketAddr,
        name: &str,
        map: &str,
        start_positions: usize,
        reach: Reach,
    ) -> Result<OnlineLobby, OnlineError> {
        let defs = crate::defs::Definitions::load(roots).map_err(OnlineError::Definitions)?;
        let factions = defs.playable_factions();
        let advertise = bind.ip().is_unspecified().then(crate::online::advertised_ip).flatten();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("ridgeline-host".into())
            .spawn(move || {
                let _ = tx.send(QuicTransport::host(bind, advertise, reach));
            })
            .map_err(OnlineError::Spawn)?;
        let link = LobbyLink::host(name, map, start_positions, factions.len(), sim_data_files(roots)?);
        Ok(OnlineLobby {
            net: QuicTransport::detached(),
            link,
            code: None,
            new_code: false,
            registering: Some(rx),
            factions,
            returning: None,
            name: name.to_string(),
        })
    }

    /// The join code, once it is known and not yet taken: the window copies it to the
    /// clipboard when it first appears.
    pub fn take_new_code(&mut self) -> Option<JoinCode> {
        std::mem::take(&mut self.new_code).then_some(self.code).flatten()
    }

    /// Joins the game in `code` as `identity` (see [`window_identity`]): if the game is running
    /// and this identity held a seat in it, the seat is given back.
    pub fn join(roots: &ContentRoots, code: &str, name: &str, identity: &Identity) -> Result<OnlineLobby, OnlineError> {
        OnlineLobby::enter(roots, code, name, identity, false)
    }

    /// Joins the game in `code` as an observer: seated watching in its lobby, or let into the
    /// running game (its history first, then live); nobody waits for this machine.
    pub fn watch(
        roots: &ContentRoots,
        code: &str,
        name: &str,
        identity: &Identity,
    ) -> Result<OnlineLobby, OnlineError> {
        OnlineLobby::enter(roots, code, name, identity, true)
    }

    fn enter(
        roots: &ContentRoots,
        code: &str,
        name: &str,
        identity: &Identity,
        watch: bool,
    ) -> Result<OnlineLobby, OnlineError> {
        let code: JoinCode = code.trim().parse::<JoinCode>()?;
        let mut hello = crate::online::hello(roots, name, identity, &code)?;
        if let WireMessage::Hello(h) = &mut hello {
            h.watch = watch;
        }
        let net = QuicTransport::join_in_background(&code, Reach::default(), &hello)?;
        let link = LobbyLink::joiner(name);
        Ok(OnlineLobby {
            net,
            link,
            code: None,
            new_code: false,
            registering: None,
            factions: Vec::new(),
            returning: None,
            name: name.to_string(),
        })
    }

    /// The join code, when hosting.
    pub fn code(&self) -> Option<JoinCode> {
        self.code
    }

    /// True when this machine hosts.
    pub fn hosting(&self) -> bool {
        self.link.hosting()
    }

    /// What the network carried so far: bytes, and the malformed batches it dropped.
    pub fn net_stats(&self) -> crate::net::control::NetStats {
        use crate::net::control::ControlTransport;
        self.net.stats()
    }

    /// Sends a chat line.
    pub fn chat(&mut self, text: &str, shown: &mut LobbyState) {
        self.link.chat(text);
        self.flush(shown);
    }

    /// Marks this player ready or not.
    pub fn set_ready(&mut self, ready: bool) {
        if self.returning.is_none() {
            self.link.set_ready(Instant::now(), ready);
        }
        self.send();
    }

    /// Asks for a change to the table: the host applies it (removing a player it replaces),
    /// a joiner sends its own faction and colour to the host. A refusal is said in words.
    pub fn change(&mut self, change: &LobbyChange, shown: &mut LobbyState) -> Result<(), Said> {
        if self.returning.is_some() {
            return Err(Said::just("Lobby:SeatComingBack"));
        }
        let done = self.link.change(Instant::now(), change);
        self.flush(shown);
        done.map_err(Said::quoted)
    }

    /// Handles what arrived; fills `shown`; says whether the match started or the lobby ended.
    pub fn poll(&mut self, roots: &ContentRoots, shown: &mut LobbyState) -> Outcome {
        let now = Instant::now();
        if let Some(rx) = &self.registering {
            match rx.try_recv() {
                Ok(Ok((net, code))) => {
                    self.net = net;
                    self.code = Some(code);
                    self.new_code = true;
                    self.registering = None;
                }
                Ok(Err(e)) => return Outcome::Closed(Said { label: "Message:CouldNotHost", detail: e.to_string() }),
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    return Outcome::Closed(Said::just("Lobby:NetworkStopped"));
                }
            }
        }
        // What a peer said before it left comes first.
        while let Some((from, msg)) = self.net.take_control() {
            match &mut self.returning {
                Some(way) => {
                    if let Err(e) = way.handle(from, msg) {
                        return Outcome::Closed(Said::quoted(e));
                    }
                }
                None => {
                    self.link.handle(now, from, msg);
                    // A return (or a watch) begins at once: the history that follows it in
                    // the same read is the way back's, not the lobby's.
                    if let Some(outcome) = self.take_events(roots, shown) {
                        return outcome;
                    }
                }
            }
        }
        while let Some(e) = self.net.take_peer_event() {
            if let TransportEvent::Left(p) = e {
                let reason = self.net.left_reason().map(str::to_string);
                self.link.peer_left(now, p, reason.as_deref());
                self.net.release(p);
            }
        }
        if self.hosting() {
            let net = &self.net;
            self.link.set_pings(|p| net.rtt(p).map(|d| (d.as_millis().min(u16::MAX as u128) as u16, net.path(p))));
            self.link.tick(now);
        }
        if let Some(outcome) = self.take_events(roots, shown) {
            return outcome;
        }
        self.send();
        if let Some(way) = &mut self.returning {
            match way.poll() {
                Ok(Some(m)) => {
                    let _ = self.net.send_control(Some(PeerId(0)), &[m]);
                }
                Ok(None) => {}
                Err(e) => return Outcome::Closed(Said::quoted(e)),
            }
            if way.ready() {
                return self.hand_back();
            }
        }
        Outcome::Waiting
    }

    /// The host starts the match when the table allows it; otherwise says why not.
    pub fn start(&mut self, roots: &ContentRoots) -> Result<Outcome, OnlineError> {
        let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs());
        let setup = self.link.setup(&self.factions, seed)?;
        let tokens = self.link.tokens();
        let (prepared, start) = start_hosted(roots, &setup, &CommandScript::default(), &mut self.net, false, u32::MAX)?;
        let game = self.hand_over(prepared);
        let seats = Seats::new(start, tokens, game.log.clone(), &self.name);
        Ok(Outcome::Started(Box::new(game), seats))
    }

    /// Sends what the link has to send, and shows what it has to show.
    fn flush(&mut self, shown: &mut LobbyState) {
        self.send();
        while let Some(e) = self.link.poll_event() {
            show(e, shown);
        }
    }

    fn send(&mut self) {
        while let Some(o) = self.link.poll_outgoing() {
            match o {
                Outgoing::Send { to, messages } => {
                    let _ = self.net.send_control(to, &messages);
                }
                Outgoing::Kick(peer) => self.net.kick(peer),
            }
        }
    }

    /// Shows the link's events; the outcome when one ends the lobby.
    fn take_events(&mut self, roots: &ContentRoots, shown: &mut LobbyState) -> Option<Outcome> {
        while let Some(e) = self.link.poll_event() {
            match e {
                LobbyEvent::Welcomed(peer) => {
                    self.net.set_me(peer);
                    shown.me = Some(peer);
                }
                LobbyEvent::Closed(why) => return Some(Outcome::Closed(Said::quoted(why))),
                LobbyEvent::Start(start) => return Some(self.joined(roots, &start)),
                LobbyEvent::Rejoin { start, machine, owners } => {
                    let script = CommandScript::default();
                    match start_joined(roots, &mut self.net, PeerId(machine), &start, SlotKind::Human, &script) {
                        Ok(prepared) => self.returning = Some(Box::new(Return::new(prepared, machine, &owners))),
                        Err(e) => return Some(Outcome::Closed(Said::quoted(e))),
                    }
                }
                LobbyEvent::Watch { start, owners, live } => match start_watching(roots, &mut self.net, &start) {
                    Ok(prepared) => self.returning = Some(Box::new(Return::watching(prepared, &owners, live))),
                    Err(e) => return Some(Outcome::Closed(Said::quoted(e))),
                },
                other => show(other, shown),
            }
        }
        None
    }

    /// The joiner's start: the match prepared here from the host's start.
    fn joined(&mut self, roots: &ContentRoots, start: &Start) -> Outcome {
        let Some(me) = self.link.me() else { return Outcome::Closed(Said::just("Lobby:StartedUnseated")) };
        match start_joined(roots, &mut self.net, me, start, SlotKind::Human, &CommandScript::default()) {
            Ok(prepared) => Outcome::Started(Box::new(self.hand_over(prepared)), Seats::default()),
            Err(e) => Outcome::Closed(Said::quoted(e)),
        }
    }

    /// Hands the lobby's transport to the match this machine came back into.
    fn hand_back(&mut self) -> Outcome {
        let Some(way) = self.returning.take() else { return Outcome::Waiting };
        let net = std::mem::replace(&mut self.net, QuicTransport::detached());
        let (game, _) = way.into_match(Box::new(net) as Box<dyn ControlTransport>);
        Outcome::Started(Box::new(game), Seats::default())
    }

    /// Hands the lobby's transport to the match; this lobby is finished, a transport that goes
    /// nowhere left in its place.
    fn hand_over(&mut self, prepared: crate::session::Prepared) -> LocalMatch {
        let net = std::mem::replace(&mut self.net, QuicTransport::detached());
        prepared.into_match(Box::new(net) as Box<dyn ControlTransport>)
    }
}

/// Shows one of the link's events in the lobby's display.
fn show(e: LobbyEvent, shown: &mut LobbyState) {
    match e {
        LobbyEvent::Line(line) => shown.say(line),
        LobbyEvent::Table { roster, ready } => {
            shown.roster = roster;
            shown.ready = ready;
        }
        LobbyEvent::Welcomed(peer) => shown.me = Some(peer),
        LobbyEvent::Start(_) | LobbyEvent::Rejoin { .. } | LobbyEvent::Watch { .. } | LobbyEvent::Closed(_) => {}
    }
}

/// The window player's identity, kept in the settings folder next to the settings (a fresh
/// one if it cannot be; none if not even that).
pub fn window_identity() -> Option<Identity> {
    crate::game::settings::Settings::default_path()
        .map_err(|e| e.to_string())
        .and_then(|p| Identity::load_or_create(&p.with_file_name("identity.key")).map_err(|e| e.to_string()))
        .or_else(|e| {
            log::warn!("{e}; joining without a lasting identity");
            Identity::fresh()
        })
        .ok()
}
