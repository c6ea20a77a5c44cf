//! The lobby: one row per slot (who plays it, faction, colour, team, ready, ping), the map and
//! the starting money, chat, ready, start, leave. The host sets slots, map, money and teams and
//! can remove a player by giving their slot to someone else; each player chooses their own
//! faction and colour. What it shows comes from the client's online lobby
//! (`game/online_lobby.rs`); what the player does goes back to it as [`super::ShellRequest`]s.
//!
//! Must not: talk to the network, or change the table itself (the host's lobby decides).

use crate::lockstep::transport::PeerId;
use crate::net::wire::{Roster, RosterSlot, Seat};
use crate::online::lobby::{LobbyChange, MAX_SLOTS};
use crate::session::match_setup::{COLOURS, MONEY, TEAMS};
use crate::ui::{EventKind, UiEvent};

use super::{Screen, Shell, ShellRequest};
use crate::ui::window::short_name as short;

/// What the lobby shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LobbyState {
    /// The table as the host last sent it (or keeps it).
    pub roster: Roster,
    /// This machine's peer, once the host has welcomed it (the host is peer 0).
    pub me: Option<PeerId>,
    /// Chat lines.
    pub chat: Vec<String>,
    /// The local player is ready.
    pub ready: bool,
    /// The port hosted on.
    pub port: u16,
    /// True when this machine hosts.
    pub hosting: bool,
    /// The join code, shown whole (the host's; a joiner's own).
    pub code: Option<String>,
}

impl LobbyState {
    /// A lobby hosted by the local player on `port`, through `relay` when one is named; `first`
    /// is its first line (see [`Shell::hosting_line`]).
    pub fn hosting(port: u16, first: String) -> LobbyState {
        LobbyState { me: Some(PeerId(0)), chat: vec![first], port, hosting: true, ..LobbyState::default() }
    }

    /// A lobby joined from another machine; `first` is its first line ("Connecting…").
    pub fn joining(first: String) -> LobbyState {
        LobbyState { chat: vec![first], ..LobbyState::default() }
    }
}

/// What the host may put in a slot, in the player combo's order (after a player's name), each
/// by its string table label.
const SEATS: [(&str, Seat); 6] = [
    ("Seat:Open", Seat::Open),
    ("Seat:Closed", Seat::Closed),
    ("Seat:EasyAi", Seat::Ai(0)),
    ("Seat:NormalAi", Seat::Ai(1)),
    ("Seat:HardAi", Seat::Ai(2)),
    ("Seat:BrutalAi", Seat::Ai(3)),
];

/// A slot's label in the player combo.
fn seat_label(shell: &Shell, slot: &RosterSlot) -> String {
    match slot.seat {
        Seat::Player(_) => slot.name.clone(),
        seat => SEATS.iter().find(|(_, s)| *s == seat).map_or("?".to_string(), |(n, _)| shell.say(n, &[])),
    }
}

impl Shell {
    /// The first line of a lobby hosted on `port`, through `relay` when one is named.
    pub(super) fn hosting_line(&self, port: u16, relay: Option<&str>) -> String {
        match relay {
            Some(relay) => self.say("Lobby:HostingRelay", &[("relay", relay)]),
            None => self.say("Lobby:Hosting", &[("port", &port.to_string())]),
        }
    }
}

/// Team names in the team combo (0 is no team).
fn teams() -> Vec<String> {
    std::iter::once("-".to_string()).chain((1..=TEAMS).map(|t| t.to_string())).collect()
}

fn name(field: &str, i: usize) -> String {
    format!("Lobby.wnd:{field}{i}")
}

impl Shell {
    /// Shows the lobby's table and chat again (the client calls this as they change).
    pub fn refresh_lobby(&mut self) {
        refresh(self);
    }

    /// Sets a combo's items and choice, leaving it alone when they are already shown (so an
    /// open list is not disturbed by the roster arriving every second).
    fn show_combo(&mut self, name: &str, items: Vec<String>, chosen: Option<usize>, enabled: bool) {
        let Some(id) = self.find(name) else { return };
        self.ui.enable(id, enabled);
        let same =
            self.ui.combo_selected(id) == chosen.filter(|c| *c < items.len()) && self.ui.combo_items(id) == items;
        if !same {
            self.ui.combo_set(id, items, chosen);
        }
    }
}

fn refresh(shell: &mut Shell) {
    let lobby = shell.lobby.clone();
    let host = lobby.hosting;
    let seats: Vec<String> = SEATS.iter().map(|(label, _)| shell.say(label, &[])).collect();
    for i in 0..MAX_SLOTS {
        let slot = lobby.roster.slots.get(i);
        let mine = slot.is_some_and(|s| lobby.me.is_some_and(|me| s.seat == Seat::Player(me)));
        let computer = slot.is_some_and(|s| matches!(s.seat, Seat::Ai(_)));
        let playing = slot.is_some_and(|s| matches!(s.seat, Seat::Player(_) | Seat::Ai(_)));
        let (items, chosen, enabled) = match slot {
            None => (Vec::new(), None, false),
            // The host's own slot always holds the host.
            Some(s) if matches!(s.seat, Seat::Player(PeerId(0))) => (vec![s.name.clone()], Some(0), false),
            // A joiner in the host's lobby: their name, or a seat that removes them.
            Some(s) if host && matches!(s.seat, Seat::Player(_)) => {
                let items = std::iter::once(s.name.clone()).chain(seats.iter().cloned()).collect();
                (items, Some(0), true)
            }
            Some(s) if host => (seats.clone(), SEATS.iter().position(|(_, x)| *x == s.seat), true),
            Some(s) => (vec![seat_label(shell, s)], Some(0), false),
        };
        shell.show_combo(&name("ComboPlayer", i), items, chosen, enabled);
        let choose = playing && (mine || (host && computer));
        let (faction, colour, team) = slot
            .map_or((None, None, None), |s| (Some(s.faction as usize), Some(s.colour as usize), Some(s.team as usize)));
        // Open and closed slots have no side to show.
        let factions = if playing { shell.factions.clone() } else { Vec::new() };
        shell.show_combo(&name("ComboFaction", i), factions, faction, choose);
        // Only colours nobody else in the game has are offered.
        let free = if playing { colour_choices(&lobby.roster, i) } else { Vec::new() };
        let colours = free.iter().filter_map(|&c| COLOURS.get(c as usize)).map(|c| c.to_string()).collect();
        let colour = colour.and_then(|c| free.iter().position(|&f| f as usize == c));
        shell.show_combo(&name("ComboColor", i), colours, colour, choose);
        let team_items = if playing { teams() } else { Vec::new() };
        shell.show_combo(&name("ComboTeam", i), team_items, team, host && playing);
        let (status, ping) = match slot {
            Some(s) if s.seat == Seat::Player(PeerId(0)) => (shell.say("Lobby:Host", &[]), String::new()),
            // A joiner's own row says so.
            Some(s) if matches!(s.seat, Seat::Player(_)) => {
                let status = match (s.ready, mine) {
                    // The player's own row is the one whose side they choose; "You" until ready.
                    (true, _) => shell.say("Lobby:Ready", &[]),
                    (false, true) => shell.say("Lobby:You", &[]),
                    (false, false) => String::new(),
                };
                let path = match s.path {
                    crate::net::nat::PathKind::Lan => "",
                    crate::net::nat::PathKind::Direct => " direct",
                    crate::net::nat::PathKind::Relayed => " relayed",
                };
                (status, format!("{} ms{path}", s.ping_ms))
            }
            _ => (String::new(), String::new()),
        };
        shell.set_text(&name("Status", i), &status);
        shell.set_text(&name("Ping", i), &ping);
        // Rows beyond the map's start positions are hidden.
        for field in ["LabelSlot", "ComboPlayer", "ComboFaction", "ComboColor", "ComboTeam", "Status", "Ping"] {
            if let Some(id) = shell.find(&name(field, i)) {
                shell.ui.show(id, slot.is_some());
            }
        }
    }
    // The map: the host chooses among the maps here; a joiner sees the host's.
    let label =
        |m: &super::MapEntry| shell.say("Lobby:MapPlayers", &[("map", &m.name), ("players", &m.players.to_string())]);
    let (maps, chosen) = if host {
        (shell.maps.iter().map(label).collect(), shell.maps.iter().position(|m| folder(m) == lobby.roster.map))
    } else {
        let shown = shell.maps.iter().find(|m| folder(m) == lobby.roster.map).map_or(lobby.roster.map.clone(), label);
        (vec![shown], Some(0))
    };
    shell.show_combo("Lobby.wnd:ComboMap", maps, chosen, host);
    let money = MONEY.iter().map(|m| format!("${m}")).collect();
    shell.show_combo("Lobby.wnd:ComboMoney", money, Some(lobby.roster.money as usize), host);
    let header = if lobby.roster.map.is_empty() {
        shell.say("Title:Lobby", &[])
    } else {
        let shown = shell.maps.iter().find(|m| folder(m) == lobby.roster.map).map_or(&lobby.roster.map, |m| &m.name);
        shell.say("Lobby:Header", &[("map", shown)])
    };
    shell.set_text("Lobby.wnd:LobbyHeader", &header);
    // A change by the host asks everyone to say ready again. The host has no Ready: its
    // Start is its word.
    if let Some(c) = shell.find("Lobby.wnd:CheckReady") {
        shell.ui.show(c, !host);
        if shell.ui.checked(c) != lobby.ready {
            shell.ui.set_checked(c, lobby.ready);
        }
    }
    // The code is shown whole and may be selected; it is put back if typed over.
    if let Some(e) = shell.find("Lobby.wnd:EntryCode") {
        let code = lobby.code.clone().unwrap_or_default();
        if shell.ui.entry_text(e) != code {
            shell.ui.entry_set(e, &code);
        }
    }
    // Only the host starts: a joiner's Start is greyed and says who it waits for.
    if let Some(b) = shell.find("Lobby.wnd:ButtonStart") {
        shell.ui.enable(b, host);
        let label = shell.say(if host { "Lobby:ButtonStart" } else { "Lobby:WaitingForHost" }, &[]);
        shell.set_text("Lobby.wnd:ButtonStart", &label);
    }
    // The chat follows new lines: the newest is scrolled into view when one arrives.
    let chat: Vec<Vec<String>> = lobby.chat.iter().map(|c| vec![c.clone()]).collect();
    if let Some(l) = shell.find("Lobby.wnd:ListChat") {
        let (before, now) = (shell.ui.list_rows(l).len(), chat.len());
        shell.ui.list_set_rows(l, chat);
        if now > before {
            shell.ui.list_reveal(l, now - 1);
        }
    }
}

/// The colours slot `i` may take, as indices into [`COLOURS`]: its own and those no other
/// slot in the game has.
fn colour_choices(roster: &Roster, i: usize) -> Vec<u8> {
    let Some(own) = roster.slots.get(i) else { return Vec::new() };
    let taken = |c: u8| {
        roster
            .slots
            .iter()
            .enumerate()
            .any(|(j, s)| j != i && s.colour == c && matches!(s.seat, Seat::Player(_) | Seat::Ai(_)))
    };
    (0..COLOURS.len() as u8).filter(|&c| c == own.colour || !taken(c)).collect()
}

/// A map entry's folder name, as a setup names the map.
fn folder(m: &super::MapEntry) -> String {
    m.dir.file_name().map_or_else(|| m.dir.display().to_string(), |n| n.to_string_lossy().into())
}

pub(super) fn init(shell: &mut Shell) {
    refresh(shell);
}

fn send(shell: &mut Shell) {
    let Some(entry) = shell.find("Lobby.wnd:EntryChat") else { return };
    let text = shell.ui.entry_text(entry);
    if text.trim().is_empty() {
        return;
    }
    shell.ui.entry_set(entry, "");
    shell.request(ShellRequest::LobbyChat(text.trim().to_string()));
}

/// The change a combo choice asks for.
fn change(shell: &Shell, id: &str, k: usize) -> Option<LobbyChange> {
    let k8 = u8::try_from(k).ok()?;
    if id == "ComboMoney" {
        return Some(LobbyChange::Money(k8));
    }
    if id == "ComboMap" {
        let m = shell.maps.get(k)?;
        return Some(LobbyChange::Map { folder: folder(m), start_positions: m.players as usize });
    }
    let (field, slot) = id.split_at(id.find(|c: char| c.is_ascii_digit())?);
    let i: usize = slot.parse().ok()?;
    Some(match field {
        "ComboPlayer" => {
            let s = shell.lobby.roster.slots.get(i)?;
            // A player's slot lists their name first: choosing it changes nothing.
            let k = if matches!(s.seat, Seat::Player(_)) { k.checked_sub(1)? } else { k };
            LobbyChange::Seat(i, SEATS.get(k)?.1)
        }
        "ComboFaction" => LobbyChange::Faction(i, k8),
        "ComboColor" => LobbyChange::Colour(i, *colour_choices(&shell.lobby.roster, i).get(k)?),
        "ComboTeam" => LobbyChange::Team(i, k8),
        _ => return None,
    })
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    match (&e.kind, short(&e.name)) {
        (EventKind::EditDone(_), "EntryChat") | (EventKind::Selected, "ButtonSend") => send(shell),
        (EventKind::ComboSelected(k), id) => {
            if let Some(c) = change(shell, id, *k) {
                shell.request(ShellRequest::LobbyChange(c));
            }
        }
        (EventKind::Toggled(on), "CheckReady") => {
            shell.lobby.ready = *on;
            shell.request(ShellRequest::LobbyReady(*on));
        }
        (EventKind::Selected, "ButtonCopy") => {
            if let Some(code) = shell.lobby.code.clone() {
                shell.request(ShellRequest::Copy(code));
            }
        }
        (EventKind::Selected, "ButtonStart") if !shell.lobby.hosting => {
            let (title, text) = (shell.say("Title:Lobby", &[]), shell.say("Message:HostStarts", &[]));
            shell.message(&title, &text, false);
        }
        (EventKind::Selected, "ButtonStart") => shell.request(ShellRequest::LobbyStart),
        (EventKind::Selected, "ButtonLeave") => {
            shell.request(ShellRequest::LobbyLeave);
            shell.open(Screen::Online);
        }
        _ => {}
    }
}
