//! The online lobby's table as the host keeps it: the map, the starting money and one slot per
//! start position — open, closed, the computer at a difficulty, a player, or a person who
//! watches (an observer: the row's start goes to nobody) — with faction,
//! colour and team. It says who may change what (the host sets slots, map, money and teams; each
//! player chooses their own faction and colour), refuses what the game could not play, and ends
//! in the one [`MatchSetup`] every machine starts from.
//!
//! Must not: talk to the network or read files; the client carries its roster to the joiners.

use crate::net::nat::PathKind;
use thiserror::Error;

use crate::lockstep::transport::PeerId;
use crate::net::wire::{Roster, RosterSlot, Seat};

use crate::session::match_setup::{COLOURS, Difficulty, MONEY, MatchSetup, SlotKind, SlotSetup, TEAMS, teams_or_own};

/// Slots a lobby shows at most (the lobby layout has eight rows): one per start of the
/// largest maps.
pub const MAX_SLOTS: usize = 8;

/// The host's machine.
const HOST: PeerId = PeerId(0);

/// A change to the lobby, asked for by the host or a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyChange {
    /// Who fills a slot (host only; replacing a player removes them from the game).
    Seat(usize, Seat),
    /// A slot's faction, an index among the playable factions.
    Faction(usize, u8),
    /// A slot's colour, an index into [`COLOURS`].
    Colour(usize, u8),
    /// A slot's team, 0 for none (host only).
    Team(usize, u8),
    /// The starting money, an index into [`MONEY`] (host only).
    Money(u8),
    /// Another map, by folder name, with its number of start positions (host only).
    Map {
        /// The map's folder name.
        folder: String,
        /// How many players it has room for.
        start_positions: usize,
    },
}

/// Why the lobby refuses a change or the start, in the player's words.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum LobbyError {
    /// Every slot is taken or closed.
    #[error("the game is full")]
    Full,
    /// The slot does not exist on this map.
    #[error("there is no slot {0} on this map")]
    NoSlot(usize),
    /// Only the host may do this.
    #[error("only the host can change that")]
    HostOnly,
    /// A player may change only their own slot.
    #[error("a player can change only their own faction and colour")]
    NotYours,
    /// The host's own slot always holds the host.
    #[error("the host's own slot cannot be given away")]
    HostSlot,
    /// Another slot has this colour.
    #[error("{0} is taken by another player")]
    ColourTaken(&'static str),
    /// A choice outside what the lobby offers.
    #[error("{0} is not one of the choices")]
    NoSuchChoice(String),
    /// The new map has fewer start positions than there are players.
    #[error("{players} players are in the game and this map has room for {room}")]
    MapTooSmall {
        /// Players and computers in the game.
        players: usize,
        /// Start positions of the map.
        room: usize,
    },
    /// Fewer than two sides.
    #[error("a game needs at least two players (open a slot for a friend or add a computer)")]
    TooFew,
    /// Everyone is on one team: the game would be won at once.
    #[error("everyone is on one team; put someone on another")]
    OneTeam,
    /// A player has not said they are ready.
    #[error("{0} is not ready")]
    NotReady(String),
}

/// The lobby's table on the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyTable {
    roster: Roster,
    factions: usize,
}

impl LobbyTable {
    /// A new lobby on `map` with `start_positions` slots (at most [`MAX_SLOTS`]): the host in
    /// the first, the second open, the rest open too; `factions` playable factions to choose
    /// from. Factions go in turn and every slot gets its own colour.
    pub fn new(map: &str, start_positions: usize, host: &str, factions: usize) -> LobbyTable {
        let slots = (0..start_positions.clamp(2, MAX_SLOTS))
            .map(|i| RosterSlot {
                seat: if i == 0 { Seat::Player(HOST) } else { Seat::Open },
                name: if i == 0 { host.to_string() } else { String::new() },
                ready: false,
                ping_ms: 0,
                path: PathKind::Lan,
                faction: (i % factions.max(1)) as u8,
                colour: i as u8,
                team: 0,
            })
            .collect();
        LobbyTable { roster: Roster { map: map.to_string(), money: 1, slots }, factions: factions.max(1) }
    }

    /// What everyone is shown.
    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// The slot `peer` plays or watches from, if any.
    pub fn slot_of(&self, peer: PeerId) -> Option<usize> {
        self.roster.slots.iter().position(|s| s.seat.peer() == Some(peer))
    }

    /// Seats a joiner in the first open slot; returns the slot.
    pub fn seat(&mut self, peer: PeerId, name: &str) -> Result<usize, LobbyError> {
        let i = self.roster.slots.iter().position(|s| s.seat == Seat::Open).ok_or(LobbyError::Full)?;
        let name = self.unused_name(name);
        let slot = &mut self.roster.slots[i];
        slot.seat = Seat::Player(peer);
        slot.name = name;
        slot.ready = false;
        self.free_colour(i);
        Ok(i)
    }

    /// `wanted` (cut to 32 characters) if no one in the lobby goes by it, else with the first
    /// free number after it ("Commander 2"), so two players who kept the default name can tell
    /// their rows apart.
    fn unused_name(&self, wanted: &str) -> String {
        let base: String = wanted.chars().take(32).collect();
        let taken = |n: &str| self.roster.slots.iter().any(|s| s.seat != Seat::Open && s.name == n);
        if !taken(&base) {
            return base;
        }
        (2..=MAX_SLOTS + 1)
            .map(|k| {
                let suffix = format!(" {k}");
                let stem: String = base.chars().take(32 - suffix.len()).collect();
                stem + &suffix
            })
            .find(|n| !taken(n))
            .unwrap_or(base)
    }

    /// `new` takes over `old`'s slot (the same player, from another connection), keeping the
    /// choices made there; Ready is asked again. Returns the slot, if `old` had one.
    pub fn hand_over(&mut self, old: PeerId, new: PeerId) -> Option<usize> {
        let i = self.slot_of(old)?;
        let slot = &mut self.roster.slots[i];
        slot.seat = if matches!(slot.seat, Seat::Observer(_)) { Seat::Observer(new) } else { Seat::Player(new) };
        slot.ready = false;
        slot.ping_ms = 0;
        Some(i)
    }

    /// A player left: their slot opens again. Returns their name.
    pub fn leave(&mut self, peer: PeerId) -> Option<String> {
        let i = self.slot_of(peer)?;
        let slot = &mut self.roster.slots[i];
        slot.seat = Seat::Open;
        slot.ready = false;
        slot.ping_ms = 0;
        Some(std::mem::take(&mut slot.name))
    }

    /// Marks a player ready or not.
    pub fn set_ready(&mut self, peer: PeerId, ready: bool) {
        if let Some(i) = self.slot_of(peer) {
            self.roster.slots[i].ready = ready;
        }
    }

    /// Sets each player's round trip to the host and how their machine reaches it.
    pub fn set_pings(&mut self, ping: impl Fn(PeerId) -> Option<(u16, PathKind)>) {
        for s in &mut self.roster.slots {
            if let Some(p) = s.seat.peer() {
                (s.ping_ms, s.path) = ping(p).unwrap_or_default();
            }
        }
    }

    /// Applies a change asked for by `by`. Returns the player it removed from the game, if
    /// any (the host replaced them); the caller disconnects them. Any change to the game asks
    /// everyone to say they are ready again.
    pub fn apply(&mut self, by: PeerId, change: &LobbyChange) -> Result<Option<PeerId>, LobbyError> {
        let host = by == HOST;
        let slot_index = match change {
            LobbyChange::Seat(i, _)
            | LobbyChange::Faction(i, _)
            | LobbyChange::Colour(i, _)
            | LobbyChange::Team(i, _) => Some(*i),
            LobbyChange::Money(_) | LobbyChange::Map { .. } => None,
        };
        if let Some(i) = slot_index {
            let slot = self.roster.slots.get(i).ok_or(LobbyError::NoSlot(i))?;
            let own = slot.seat.peer() == Some(by);
            // Playing or watching: the person in the seat (or the host) switches between them.
            let switch = matches!(change, LobbyChange::Seat(_, Seat::Player(p) | Seat::Observer(p))
                if slot.seat.peer() == Some(*p));
            if switch && (host || own) {
                let LobbyChange::Seat(_, seat) = change else { return Ok(None) };
                let slot = &mut self.roster.slots[i];
                slot.seat = *seat;
                self.free_colour(i);
                for s in &mut self.roster.slots {
                    s.ready = false;
                }
                return Ok(None);
            }
            let personal = matches!(change, LobbyChange::Faction(..) | LobbyChange::Colour(..));
            let computer = matches!(slot.seat, Seat::Ai(_));
            let allowed = host || (own && personal);
            if !allowed {
                return Err(if personal { LobbyError::NotYours } else { LobbyError::HostOnly });
            }
            if host && personal && !own && !computer {
                return Err(LobbyError::NotYours);
            }
        } else if !host {
            return Err(LobbyError::HostOnly);
        }
        let mut removed = None;
        match change {
            LobbyChange::Seat(i, seat) => {
                let slot = &self.roster.slots[*i];
                if slot.seat.peer() == Some(HOST) {
                    return Err(LobbyError::HostSlot);
                }
                match *seat {
                    Seat::Player(_) => return Err(LobbyError::NoSuchChoice("a player".into())),
                    Seat::Observer(_) => return Err(LobbyError::NoSuchChoice("an observer".into())),
                    Seat::Ai(level) if level as usize >= Difficulty::ALL.len() => {
                        return Err(LobbyError::NoSuchChoice(format!("difficulty {level}")));
                    }
                    _ => {}
                }
                if let Some(p) = slot.seat.peer() {
                    removed = Some(p);
                }
                let slot = &mut self.roster.slots[*i];
                slot.seat = *seat;
                slot.name.clear();
                slot.ready = false;
                slot.ping_ms = 0;
                if matches!(seat, Seat::Ai(_)) {
                    self.free_colour(*i);
                }
            }
            LobbyChange::Faction(i, f) => {
                if *f as usize >= self.factions {
                    return Err(LobbyError::NoSuchChoice(format!("faction {f}")));
                }
                self.roster.slots[*i].faction = *f;
            }
            LobbyChange::Colour(i, c) => {
                let name = COLOURS.get(*c as usize).ok_or_else(|| LobbyError::NoSuchChoice(format!("colour {c}")))?;
                if self.taken(*c, *i) {
                    return Err(LobbyError::ColourTaken(name));
                }
                self.roster.slots[*i].colour = *c;
            }
            LobbyChange::Team(i, t) => {
                if *t > TEAMS {
                    return Err(LobbyError::NoSuchChoice(format!("team {t}")));
                }
                self.roster.slots[*i].team = *t;
            }
            LobbyChange::Money(m) => {
                if *m as usize >= MONEY.len() {
                    return Err(LobbyError::NoSuchChoice(format!("money choice {m}")));
                }
                self.roster.money = *m;
            }
            LobbyChange::Map { folder, start_positions } => self.set_map(folder, *start_positions)?,
        }
        for s in &mut self.roster.slots {
            s.ready = false;
        }
        Ok(removed)
    }

    /// Another map: slots grow or shrink to its start positions; refused when the players in
    /// the game would not fit (empty slots go first).
    fn set_map(&mut self, folder: &str, start_positions: usize) -> Result<(), LobbyError> {
        let room = start_positions.clamp(2, MAX_SLOTS);
        let mut taken: Vec<RosterSlot> = self
            .roster
            .slots
            .iter()
            .filter(|s| matches!(s.seat, Seat::Player(_) | Seat::Observer(_) | Seat::Ai(_)))
            .cloned()
            .collect();
        if taken.len() > room {
            return Err(LobbyError::MapTooSmall { players: taken.len(), room });
        }
        // Keep slots where they are when they fit, else move the taken ones up.
        let slots = if self.roster.slots.len() <= room
            || self.roster.slots[room..].iter().all(|s| matches!(s.seat, Seat::Open | Seat::Closed))
        {
            let mut s = self.roster.slots.clone();
            s.truncate(room);
            s
        } else {
            let mut rest = self.roster.slots.iter().filter(|s| matches!(s.seat, Seat::Open | Seat::Closed)).cloned();
            while taken.len() < room {
                match rest.next() {
                    Some(s) => taken.push(s),
                    None => break,
                }
            }
            taken
        };
        let start = slots.len();
        self.roster.slots = slots;
        for i in start..room {
            self.roster.slots.push(RosterSlot {
                seat: Seat::Open,
                name: String::new(),
                ready: false,
                ping_ms: 0,
                path: PathKind::Lan,
                faction: (i % self.factions) as u8,
                colour: 0,
                team: 0,
            });
            self.free_colour(i);
        }
        self.roster.map = folder.to_string();
        Ok(())
    }

    /// True when a slot other than `except` that is in the game has colour `c`.
    fn taken(&self, c: u8, except: usize) -> bool {
        self.roster
            .slots
            .iter()
            .enumerate()
            .any(|(j, s)| j != except && s.colour == c && matches!(s.seat, Seat::Player(_) | Seat::Ai(_)))
    }

    /// Gives slot `i` a colour nobody in the game has, if its own is taken.
    fn free_colour(&mut self, i: usize) {
        if !self.taken(self.roster.slots[i].colour, i) {
            return;
        }
        if let Some(c) = (0..COLOURS.len() as u8).find(|&c| !self.taken(c, i)) {
            self.roster.slots[i].colour = c;
        }
    }

    /// Whether the host may start: at least two sides and every joiner ready (open slots stay
    /// empty, as closed ones).
    pub fn ready_to_start(&self) -> Result<(), LobbyError> {
        start_blocker(&self.roster)
    }

    /// The match this table describes, as the host plays it: `factions` are the playable
    /// factions by index. Players name their machines; computers run on the host. An
    /// observer's row is left out (the rows that play take the starts in order): its machine
    /// has no slot, so it watches.
    pub fn to_match_setup(&self, factions: &[String], seed: u64) -> MatchSetup {
        let rows: Vec<&RosterSlot> =
            self.roster.slots.iter().filter(|s| !matches!(s.seat, Seat::Observer(_))).collect();
        let teams = teams_or_own(&rows.iter().map(|s| s.team).collect::<Vec<_>>());
        let money = MONEY.get(self.roster.money as usize).copied();
        let slots = rows
            .into_iter()
            .zip(teams)
            .map(|(s, team)| {
                let (kind, machine) = match s.seat {
                    Seat::Player(HOST) => (SlotKind::Human, Some(HOST.0)),
                    Seat::Player(p) => (SlotKind::Remote, Some(p.0)),
                    Seat::Ai(level) => (
                        SlotKind::Ai { difficulty: Difficulty::ALL[(level as usize).min(Difficulty::ALL.len() - 1)] },
                        None,
                    ),
                    Seat::Open | Seat::Closed | Seat::Observer(_) => (SlotKind::Closed, None),
                };
                SlotSetup {
                    kind,
                    name: matches!(s.seat, Seat::Player(_)).then(|| s.name.clone()),
                    faction: factions.get(s.faction as usize).cloned(),
                    colour: COLOURS.get(s.colour as usize).map(|c| c.to_string()),
                    team: Some(team),
                    money,
                    machine,
                }
            })
            .collect();
        MatchSetup { map: self.roster.map.clone(), seed, slots, run_ahead: None, map_hash: None, content_hash: None }
    }
}

/// Why the match on `roster` cannot start yet, if anything keeps it: fewer than two sides'
/// worth of players, a joiner not ready (the first named), everyone on one team. The lobby
/// screen greys its Start button on the same rule the host's table applies.
pub fn start_blocker(roster: &Roster) -> Result<(), LobbyError> {
    let playing: Vec<&RosterSlot> =
        roster.slots.iter().filter(|s| matches!(s.seat, Seat::Player(_) | Seat::Ai(_))).collect();
    if playing.len() < 2 {
        return Err(LobbyError::TooFew);
    }
    let mut joiners = roster.slots.iter().filter(|s| s.seat.peer().is_some_and(|p| p != HOST));
    if let Some(s) = joiners.find(|s| !s.ready) {
        return Err(LobbyError::NotReady(s.name.clone()));
    }
    let first = playing[0].team;
    if first > 0 && playing.iter().all(|s| s.team == first) {
        return Err(LobbyError::OneTeam);
    }
    Ok(())
}

#[cfg(test)]
#[path = "lobby_tests.rs"]
mod tests;
