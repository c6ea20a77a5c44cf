//! The online lobby in the window: hosting (listen, accept joiners after the handshake, share
//! the roster and chat, start when everyone is ready) or joining (greet the host, follow its
//! roster and chat, start when it says). It owns the connection until the match starts, then
//! hands over a started match and the shared transport; it fills the shell's lobby display.
//!
//! Must not: touch a running battle (the battle takes the transport over at the start).

use std::time::{Duration, Instant};

use crate::content::ContentRoots;
use crate::lockstep::Transport;
use crate::lockstep::transport::{PeerId, TransportEvent};
use crate::net::quic::{JoinCode, QuicTransport, SharedQuic};
use crate::net::wire::{FileDigest, Hello, PROTOCOL, RosterEntry, WireMessage};
use crate::session::online::{BUILD, OnlineError, refusal, sim_data_files, start_hosted, start_joined};
use crate::session::{CommandScript, Match, MatchSetup, SlotKind, SlotSetup};

use super::shell::lobby::LobbyState;

/// One player in the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seat {
    peer: PeerId,
    name: String,
    ready: bool,
}

/// Which side of the lobby this machine is.
enum Role {
    Host { seats: Vec<Seat>, mine: Vec<FileDigest>, map: String, code: JoinCode },
    Joiner { me: Option<PeerId> },
}

/// What the lobby came to.
pub enum Outcome {
    /// Nothing yet.
    Waiting,
    /// The match started: this machine's match and the transport the battle takes over.
    Started(Box<Match<Box<dyn Transport>>>, SharedQuic),
    /// The lobby ended (refused, the host left, the connection failed), and why.
    Closed(String),
}

/// The lobby's connection and state.
pub struct OnlineLobby {
    net: QuicTransport,
    role: Role,
    name: String,
    last_roster: Instant,
}

/// Players in one game at most (host included).
const MAX_PLAYERS: usize = 4;

impl OnlineLobby {
    /// Hosts on `bind` a match on the map folder `map`; an unspecified address listens on every
    /// interface and puts the first outside one in the join code.
    pub fn host(
        roots: &ContentRoots,
        bind: std::net::SocketAddr,
        name: &str,
        map: &str,
    ) -> Result<OnlineLobby, OnlineError> {
        let advertise = bind.ip().is_unspecified().then(crate::session::online::advertised_ip).flatten();
        let (net, code) = QuicTransport::host(bind, advertise)?;
        let seats = vec![Seat { peer: PeerId(0), name: name.to_string(), ready: false }];
        let role = Role::Host { seats, mine: sim_data_files(roots)?, map: map.to_string(), code };
        Ok(OnlineLobby { net, role, name: name.to_string(), last_roster: Instant::now() })
    }

    /// Joins the game in `code`.
    pub fn join(roots: &ContentRoots, code: &str, name: &str) -> Result<OnlineLobby, OnlineError> {
        let code: JoinCode = code
            .trim()
            .parse()
            .map_err(|e: crate::net::quic::join_code::JoinCodeError| OnlineError::Refused(e.to_string()))?;
        let hello = Hello {
            protocol: PROTOCOL,
            build: BUILD.to_string(),
            name: name.to_string(),
            files: sim_data_files(roots)?,
        };
        let net = QuicTransport::join_in_background(&code, None, &WireMessage::Hello(hello))?;
        Ok(OnlineLobby { net, role: Role::Joiner { me: None }, name: name.to_string(), last_roster: Instant::now() })
    }

    /// The join code, when hosting.
    pub fn code(&self) -> Option<JoinCode> {
        match &self.role {
            Role::Host { code, .. } => Some(*code),
            Role::Joiner { .. } => None,
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
            Role::Host { seats, .. } => {
                if let Some(s) = seats.first_mut() {
                    s.ready = ready;
                }
                self.send_roster();
            }
            Role::Joiner { .. } => {
                let _ = self.net.send_control(None, &[WireMessage::Ready(ready)]);
            }
        }
    }

    fn roster(&self) -> Vec<RosterEntry> {
        let Role::Host { seats, .. } = &self.role else { return Vec::new() };
        seats
            .iter()
            .map(|s| {
                let ping = self.net.rtt(s.peer).map_or(0, |d| d.as_millis().min(u16::MAX as u128) as u16);
                RosterEntry { name: s.name.clone(), ready: s.ready, ping_ms: ping }
            })
            .collect()
    }

    fn send_roster(&mut self) {
        if let Role::Host { map, .. } = &self.role {
            let msg = WireMessage::Roster { map: map.clone(), players: self.roster() };
            let _ = self.net.send_control(None, &[msg]);
        }
        self.last_roster = Instant::now();
    }

    /// Handles what arrived; fills `shown`; says whether the match started or the lobby ended.
    pub fn poll(&mut self, roots: &ContentRoots, shown: &mut LobbyState) -> Outcome {
        while let Some(e) = self.net.take_peer_event() {
            if let TransportEvent::Left(p) = e {
                match &mut self.role {
                    Role::Host { seats, .. } => {
                        if let Some(s) = seats.iter().find(|s| s.peer == p) {
                            shown.chat.push(format!("{} left.", s.name));
                        }
                        seats.retain(|s| s.peer != p);
                        self.send_roster();
                    }
                    Role::Joiner { me: None } => {
                        let why = self.net.left_reason().unwrap_or("no answer").to_string();
                        return Outcome::Closed(format!("Could not reach the host: {why}"));
                    }
                    Role::Joiner { .. } => return Outcome::Closed("The host closed the game.".into()),
                }
            }
        }
        while let Some((from, msg)) = self.net.take_control() {
            match (&mut self.role, msg) {
                (Role::Host { seats, mine, .. }, WireMessage::Hello(hello)) => {
                    let reason = refusal(&hello, mine)
                        .or_else(|| (seats.len() >= MAX_PLAYERS).then(|| "the game is full".to_string()));
                    if let Some(reason) = reason {
                        shown.chat.push(format!("{} could not join: {reason}", hello.name));
                        let _ = self.net.send_control(Some(from), &[WireMessage::Refused { reason }]);
                        continue;
                    }
                    let name: String = hello.name.chars().take(32).collect();
                    shown.chat.push(format!("{name} joined."));
                    seats.push(Seat { peer: from, name, ready: false });
                    let _ = self
                        .net
                        .send_control(Some(from), &[WireMessage::Welcome { peer: from, host: self.name.clone() }]);
                    self.send_roster();
                }
                (Role::Host { seats, .. }, WireMessage::Ready(r)) => {
                    if let Some(s) = seats.iter_mut().find(|s| s.peer == from) {
                        s.ready = r;
                    }
                    self.send_roster();
                }
                (Role::Host { seats, .. }, WireMessage::Chat { text, .. }) => {
                    // The host names the sender itself, and passes the line on.
                    let name = seats.iter().find(|s| s.peer == from).map_or("?".to_string(), |s| s.name.clone());
                    shown.chat.push(format!("{name}: {text}"));
                    let _ = self.net.send_control(None, &[WireMessage::Chat { from: name, text }]);
                }
                (Role::Joiner { me }, WireMessage::Welcome { peer, host }) => {
                    *me = Some(peer);
                    self.net.set_me(peer);
                    shown.chat.push(format!("Joined {host}'s game."));
                }
                (Role::Joiner { .. }, WireMessage::Refused { reason }) => return Outcome::Closed(reason),
                (Role::Joiner { .. }, WireMessage::Chat { from: who, text }) if who != self.name => {
                    shown.chat.push(format!("{who}: {text}"));
                }
                (Role::Joiner { .. }, WireMessage::Roster { map, players }) => {
                    shown.map = map;
                    shown.players = rows(&players);
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
                        Ok(prepared) => self.hand_over(prepared),
                        Err(e) => Outcome::Closed(e.to_string()),
                    };
                }
                _ => {}
            }
        }
        if let Role::Host { map, .. } = &self.role {
            shown.map = map.clone();
            shown.players = rows(&self.roster());
            if self.last_roster.elapsed() > Duration::from_secs(1) {
                self.send_roster();
            }
        }
        Outcome::Waiting
    }

    /// The host starts the match, when everyone is ready; otherwise says who is not.
    pub fn start(&mut self, roots: &ContentRoots) -> Result<Outcome, String> {
        let Role::Host { seats, map, .. } = &self.role else { return Err("Only the host starts the game.".into()) };
        if seats.len() < 2 {
            return Err("Waiting for a second player to join.".into());
        }
        if let Some(s) = seats.iter().skip(1).find(|s| !s.ready) {
            return Err(format!("{} is not ready.", s.name));
        }
        let slots = seats
            .iter()
            .map(|s| SlotSetup {
                name: Some(s.name.clone()),
                machine: Some(s.peer.0),
                ..SlotSetup::new(if s.peer == PeerId(0) { SlotKind::Human } else { SlotKind::Remote })
            })
            .collect();
        let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs());
        let mut setup =
            MatchSetup { map: map.clone(), seed, slots, run_ahead: None, map_hash: None, content_hash: None };
        // Factions in turn, as the skirmish screen's defaults.
        let defs = crate::defs::Definitions::load(roots).map_err(|e| e.to_string())?;
        let playable: Vec<String> = defs.rules.factions.iter().filter(|f| f.playable).map(|f| f.name.clone()).collect();
        for (i, s) in setup.slots.iter_mut().enumerate() {
            s.faction = playable.get(i % playable.len().max(1)).cloned();
        }
        let prepared = start_hosted(roots, &setup, &CommandScript::default(), &mut self.net, false, u32::MAX)
            .map_err(|e| e.to_string())?;
        Ok(self.hand_over(prepared))
    }

    fn hand_over(&mut self, prepared: crate::session::Prepared) -> Outcome {
        // The lobby's transport becomes the match's; this lobby is finished.
        // A transport that goes nowhere is left in the finished lobby's place.
        let net = std::mem::replace(&mut self.net, QuicTransport::detached());
        let shared = SharedQuic::new(net);
        let game = prepared.into_match(Box::new(shared.clone()) as Box<dyn Transport>);
        Outcome::Started(Box::new(game), shared)
    }
}

/// The lobby list's rows: name, faction (filled in by the shell, in turn as the match will
/// give them), ready, ping.
fn rows(players: &[RosterEntry]) -> Vec<(String, String, String, String)> {
    players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let ready = if i == 0 {
                "Host"
            } else if p.ready {
                "Ready"
            } else {
                ""
            };
            (p.name.clone(), String::new(), ready.to_string(), p.ping_ms.to_string())
        })
        .collect()
}
