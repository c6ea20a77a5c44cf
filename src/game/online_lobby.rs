//! The online lobby in the window: hosting (listen, accept joiners after the handshake, share
//! the roster and chat, start when everyone is ready) or joining (greet the host, follow its
//! roster and chat, start when it says). It owns the connection until the match starts, then
//! hands over a started match and the shared transport; it fills the shell's lobby display.
//!
//! Must not: touch a running battle (the battle takes the transport over at the start).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::content::ContentRoots;
use crate::lockstep::transport::{PeerId, TransportEvent};
use crate::net::control::ControlTransport;
use crate::net::nat::Reach;
use crate::net::quic::{JoinCode, QuicTransport};
use crate::net::wire::{FileDigest, Seat, Start, WireMessage};
use crate::session::lobby::{LobbyChange, LobbyTable};
use crate::session::online::{
    Identity, OnlineError, Return, Seats, refusal, sim_data_files, start_hosted, start_joined,
};
use crate::session::start::LocalMatch;
use crate::session::{CommandScript, SlotKind};

use super::shell::lobby::LobbyState;

/// Which side of the lobby this machine is.
enum Role {
    Host {
        table: LobbyTable,
        factions: Vec<String>,
        mine: Vec<FileDigest>,
        code: JoinCode,
    },
    Joiner {
        me: Option<PeerId>,
    },
    /// A joiner whose seat in the running match is being given back: catching up.
    Returning(Box<Return>),
}

/// What the lobby came to.
pub enum Outcome {
    /// Nothing yet.
    Waiting,
    /// The match started: this machine's match, the transport the battle takes over, and
    /// (hosting) the seats a dropped machine comes back to.
    Started(Box<LocalMatch>, Seats),
    /// The lobby ended (refused, removed, the host left, the connection failed), and why.
    Closed(String),
}

/// The lobby's connection and state.
pub struct OnlineLobby {
    net: QuicTransport,
    role: Role,
    name: String,
    last_roster: Instant,
    /// Hosting: each joiner's seat token, so a machine that drops in the match can come back.
    tokens: BTreeMap<u8, [u8; 32]>,
}

/// What a joiner is told when a change by the host cleared its Ready.
pub const READY_CLEARED: &str = "The host changed the game: tick Ready again when you agree.";

/// What the quinn close reason of a removed player contains.
const REMOVED: &str = "removed by the host";

impl OnlineLobby {
    /// Hosts on `bind` a match on the map folder `map` with `start_positions` slots; an
    /// unspecified address listens on every interface and puts the first outside one in the
    /// join code.
    pub fn host(
        roots: &ContentRoots,
        bind: std::net::SocketAddr,
        name: &str,
        map: &str,
        start_positions: usize,
        reach: Reach,
    ) -> Result<OnlineLobby, OnlineError> {
        let defs = crate::defs::Definitions::load(roots).map_err(|e| OnlineError::File(e.to_string()))?;
        let factions: Vec<String> = defs.rules.factions.iter().filter(|f| f.playable).map(|f| f.name.clone()).collect();
        let advertise = bind.ip().is_unspecified().then(crate::session::online::advertised_ip).flatten();
        let (net, code) = QuicTransport::host(bind, advertise, reach)?;
        let table = LobbyTable::new(map, start_positions, name, factions.len());
        let role = Role::Host { table, factions, mine: sim_data_files(roots)?, code };
        Ok(OnlineLobby { net, role, name: name.to_string(), last_roster: Instant::now(), tokens: BTreeMap::new() })
    }

    /// Joins the game in `code` as `identity` (see [`window_identity`]): if the game is running
    /// and this identity held a seat in it, the seat is given back.
    pub fn join(roots: &ContentRoots, code: &str, name: &str, identity: &Identity) -> Result<OnlineLobby, OnlineError> {
        let code: JoinCode = code
            .trim()
            .parse()
            .map_err(|e: crate::net::quic::join_code::JoinCodeError| OnlineError::Refused(e.to_string()))?;
        let hello = crate::session::online::hello(roots, name, identity, &code)?;
        let net = QuicTransport::join_in_background(&code, Reach::default(), &hello)?;
        Ok(OnlineLobby {
            net,
            role: Role::Joiner { me: None },
            name: name.to_string(),
            last_roster: Instant::now(),
            tokens: BTreeMap::new(),
        })
    }

    /// The join code, when hosting.
    pub fn code(&self) -> Option<JoinCode> {
        match &self.role {
            Role::Host { code, .. } => Some(*code),
            Role::Joiner { .. } | Role::Returning(_) => None,
        }
    }

    /// True when this machine hosts.
    pub fn hosting(&self) -> bool {
        matches!(self.role, Role::Host { .. })
    }

    /// Sends a chat line.
    pub fn chat(&mut self, text: &str, shown: &mut LobbyState) {
        let line = WireMessage::Chat { from: self.name.clone(), text: text.chars().take(200).collect() };
        shown.chat.push(format!("{}: {}", self.name, text));
        let _ = self.net.send_control(None, &[line]);
    }

    /// Marks this player ready or not.
    pub fn set_ready(&mut self, ready: bool) {
        match &mut self.role {
            Role::Host { table, .. } => {
                table.set_ready(PeerId(0), ready);
                self.send_roster();
            }
            Role::Joiner { .. } => {
                let _ = self.net.send_control(None, &[WireMessage::Ready(ready)]);
            }
            Role::Returning(_) => {}
        }
    }

    /// Asks for a change to the table: the host applies it (removing a player it replaces),
    /// a joiner sends its own faction and colour to the host. A refusal is said in words.
    pub fn change(&mut self, change: &LobbyChange, shown: &mut LobbyState) -> Result<(), String> {
        match &mut self.role {
            Role::Host { table, .. } => {
                let before = table.roster().clone();
                let removed = table.apply(PeerId(0), change).map_err(|e| capitalised(&e.to_string()))?;
                if let Some(peer) = removed {
                    let name = before.slots.iter().find(|s| s.seat == Seat::Player(peer)).map(|s| s.name.clone());
                    self.net.kick(peer);
                    shown.chat.push(format!("{} was removed from the game.", name.unwrap_or_default()));
                }
                self.send_roster();
                shown.roster = self.roster_shown();
                Ok(())
            }
            Role::Joiner { me } => {
                let mine = me.and_then(|me| shown.roster.slots.iter().find(|s| s.seat == Seat::Player(me)));
                let Some(mine) = mine else { return Err("Wait until the host has seated you.".into()) };
                let (faction, colour) = match *change {
                    LobbyChange::Faction(_, f) => (f, mine.colour),
                    LobbyChange::Colour(_, c) => (mine.faction, c),
                    _ => return Err("Only the host can change that.".into()),
                };
                let _ = self.net.send_control(None, &[WireMessage::Choose { faction, colour }]);
                Ok(())
            }
            Role::Returning(_) => Err("The game is running: your seat is being given back.".into()),
        }
    }

    /// The table with each player's measured ping (host).
    fn roster_shown(&mut self) -> crate::net::wire::Roster {
        let Role::Host { table, .. } = &mut self.role else { return Default::default() };
        let net = &self.net;
        table.set_pings(|p| net.rtt(p).map(|d| (d.as_millis().min(u16::MAX as u128) as u16, net.path(p))));
        table.roster().clone()
    }

    fn send_roster(&mut self) {
        if self.hosting() {
            let roster = self.roster_shown();
            let _ = self.net.send_control(None, &[WireMessage::Roster(roster)]);
        }
        self.last_roster = Instant::now();
    }

    /// Handles what arrived; fills `shown`; says whether the match started or the lobby ended.
    pub fn poll(&mut self, roots: &ContentRoots, shown: &mut LobbyState) -> Outcome {
        while let Some(e) = self.net.take_peer_event() {
            if let TransportEvent::Left(p) = e {
                match &mut self.role {
                    Role::Host { table, .. } => {
                        if let Some(name) = table.leave(p) {
                            shown.chat.push(format!("{name} left."));
                        }
                        self.send_roster();
                    }
                    Role::Joiner { me: None } => {
                        let why = self.net.left_reason().unwrap_or("no answer").to_string();
                        return Outcome::Closed(format!("Could not reach the host: {why}"));
                    }
                    Role::Joiner { .. } if self.net.left_reason().is_some_and(|r| r.contains(REMOVED)) => {
                        return Outcome::Closed("The host removed you from the game.".into());
                    }
                    Role::Joiner { .. } | Role::Returning(_) => {
                        return Outcome::Closed("The host closed the game.".into());
                    }
                }
            }
        }
        while let Some((from, msg)) = self.net.take_control() {
            match (&mut self.role, msg) {
                (Role::Host { table, mine, .. }, WireMessage::Hello(hello)) => {
                    let name: String = hello.name.chars().take(32).collect();
                    let seated = match refusal(&hello, mine) {
                        Some(reason) => Err(reason),
                        None => table.seat(from, &name).map_err(|e| e.to_string()),
                    };
                    if let Err(reason) = seated {
                        shown.chat.push(format!("{name} could not join: {reason}"));
                        let _ = self.net.send_control(Some(from), &[WireMessage::Refused { reason }]);
                        continue;
                    }
                    self.tokens.insert(from.0, hello.seat);
                    shown.chat.push(format!("{name} joined."));
                    let _ = self
                        .net
                        .send_control(Some(from), &[WireMessage::Welcome { peer: from, host: self.name.clone() }]);
                    self.send_roster();
                }
                (Role::Host { table, .. }, WireMessage::Ready(r)) => {
                    table.set_ready(from, r);
                    self.send_roster();
                }
                (Role::Host { table, .. }, WireMessage::Choose { faction, colour }) => {
                    // A player changes only their own slot; the table checks the rest.
                    if let Some(i) = table.slot_of(from) {
                        for change in [LobbyChange::Faction(i, faction), LobbyChange::Colour(i, colour)] {
                            if let Err(e) = table.apply(from, &change) {
                                let line = WireMessage::Chat { from: String::new(), text: capitalised(&e.to_string()) };
                                let _ = self.net.send_control(Some(from), &[line]);
                            }
                        }
                    }
                    self.send_roster();
                }
                (Role::Host { table, .. }, WireMessage::Chat { text, .. }) => {
                    // The host names the sender itself, and passes the line on.
                    let name = table.slot_of(from).map_or("?".to_string(), |i| table.roster().slots[i].name.clone());
                    shown.chat.push(format!("{name}: {text}"));
                    let _ = self.net.send_control(None, &[WireMessage::Chat { from: name, text }]);
                }
                (Role::Joiner { me }, WireMessage::Welcome { peer, host }) => {
                    *me = Some(peer);
                    shown.me = Some(peer);
                    self.net.set_me(peer);
                    shown.chat.push(format!("Joined {host}'s game."));
                }
                (Role::Joiner { .. }, WireMessage::Refused { reason }) => return Outcome::Closed(reason),
                (Role::Joiner { .. }, WireMessage::Chat { from: who, text }) if who.is_empty() => shown.chat.push(text),
                (Role::Joiner { .. }, WireMessage::Chat { from: who, text }) if who != self.name => {
                    shown.chat.push(format!("{who}: {text}"));
                }
                (Role::Joiner { me }, WireMessage::Roster(roster)) => {
                    // The host asks everyone to say ready again after a change.
                    let mine = me.and_then(|me| roster.slots.iter().find(|s| s.seat == Seat::Player(me)));
                    let ready = mine.is_some_and(|s| s.ready);
                    if shown.ready && !ready && shown.roster.slots.len() == roster.slots.len() {
                        shown.chat.push(READY_CLEARED.to_string());
                    }
                    shown.ready = ready;
                    shown.roster = roster;
                }
                (Role::Joiner { me: Some(_) }, WireMessage::Rejoin { start, machine, owners }) => {
                    let script = CommandScript::default();
                    match start_joined(roots, &mut self.net, PeerId(machine), &start, SlotKind::Human, &script) {
                        Ok(prepared) => {
                            shown.chat.push("The game is running: taking your seat back…".into());
                            self.role = Role::Returning(Box::new(Return::new(prepared, machine, &owners)));
                        }
                        Err(e) => return Outcome::Closed(e.to_string()),
                    }
                }
                (Role::Returning(way), msg) => {
                    if let Err(e) = way.handle(from, msg) {
                        return Outcome::Closed(e.to_string());
                    }
                }
                (Role::Joiner { me: Some(me) }, WireMessage::Start(start)) => {
                    let me = *me;
                    return match start_joined(
                        roots,
                        &mut self.net,
                        me,
                        &start,
                        SlotKind::Human,
                        &CommandScript::default(),
                    ) {
                        Ok(prepared) => self.hand_over(prepared, None),
                        Err(e) => Outcome::Closed(e.to_string()),
                    };
                }
                _ => {}
            }
        }
        if let Role::Returning(way) = &mut self.role {
            match way.poll() {
                Ok(Some(m)) => {
                    let _ = self.net.send_control(Some(PeerId(0)), &[m]);
                }
                Ok(None) => {}
                Err(e) => return Outcome::Closed(e.to_string()),
            }
            if way.ready() {
                return self.hand_back();
            }
        }
        if self.hosting() {
            if self.last_roster.elapsed() > Duration::from_secs(1) {
                self.send_roster();
            }
            shown.roster = self.roster_shown();
            if let Role::Host { table, .. } = &self.role {
                shown.ready = table.roster().slots.first().is_some_and(|s| s.ready);
            }
        }
        Outcome::Waiting
    }

    /// The host starts the match when the table allows it; otherwise says why not.
    pub fn start(&mut self, roots: &ContentRoots) -> Result<Outcome, String> {
        let Role::Host { table, factions, .. } = &self.role else {
            return Err("Only the host starts the game.".into());
        };
        table.ready_to_start().map_err(|e| capitalised(&format!("{e}.")))?;
        let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs());
        let setup = table.to_match_setup(factions, seed);
        let tokens = self.tokens.clone();
        let (prepared, start) = start_hosted(roots, &setup, &CommandScript::default(), &mut self.net, false, u32::MAX)
            .map_err(|e| e.to_string())?;
        Ok(self.hand_over(prepared, Some((start, tokens))))
    }

    /// Hands the lobby's transport to the match this machine came back into.
    fn hand_back(&mut self) -> Outcome {
        let Role::Returning(way) = std::mem::replace(&mut self.role, Role::Joiner { me: None }) else {
            return Outcome::Waiting;
        };
        let net = std::mem::replace(&mut self.net, QuicTransport::detached());
        let (game, _) = way.into_match(Box::new(net) as Box<dyn ControlTransport>);
        Outcome::Started(Box::new(game), Seats::default())
    }

    /// Hands the lobby's transport to the match (`hosted`: the start sent and the joiners'
    /// seat tokens); this lobby is finished, a transport that goes nowhere left in its place.
    fn hand_over(
        &mut self,
        prepared: crate::session::Prepared,
        hosted: Option<(Start, BTreeMap<u8, [u8; 32]>)>,
    ) -> Outcome {
        let net = std::mem::replace(&mut self.net, QuicTransport::detached());
        let game = prepared.into_match(Box::new(net) as Box<dyn ControlTransport>);
        let seats = match hosted {
            Some((start, tokens)) => Seats::new(start, tokens, game.log.clone(), &self.name),
            None => Seats::default(),
        };
        Outcome::Started(Box::new(game), seats)
    }
}

/// The window player's identity, kept in the settings folder next to the settings (a fresh
/// one if it cannot be; none if not even that).
pub fn window_identity() -> Option<Identity> {
    let path = crate::game::settings::Settings::default_path().with_file_name("identity.key");
    Identity::load_or_create(&path)
        .or_else(|e| {
            log::warn!("{e}; joining without a lasting identity");
            Identity::fresh()
        })
        .ok()
}

/// A refusal as a sentence.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
