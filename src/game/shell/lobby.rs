//! The lobby: one row per slot (who plays it, faction, colour, team, ready, ping), the map and
//! the starting money, chat, ready, start, leave. The host sets slots, map, money and teams and
//! can remove a player by giving their slot to someone else; each player chooses their own
//! faction and colour. What it shows comes from the client's online lobby
//! (`game/online_lobby.rs`); what the player does goes back to it as [`ShellRequest`]s.
//!
//! Must not: talk to the network, or change the table itself (the host's lobby decides).

use crate::lockstep::transport::PeerId;
use crate::net::wire::{Roster, RosterSlot, Seat};
use crate::online::lobby::{LobbyChange, LobbyError, MAX_SLOTS, start_blocker};
use crate::session::match_setup::{COLOURS, MONEY, TEAMS};
use crate::ui::window::short_name as short;
use crate::ui::{EventKind, UiEvent};

use super::loading::MapEntry;
use super::lobby_state::LobbyState;
use super::request::ShellRequest;
use super::screen::Screen;
use super::stage::Stage;

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

/// The player combo's second item for a person's slot: the switch to watching, or back.
fn switch_label(stage: &Stage, seat: Seat) -> String {
    stage.say(if matches!(seat, Seat::Observer(_)) { "Seat:Play" } else { "Seat:Watch" }, &[])
}

/// A slot's label in the player combo.
fn seat_label(stage: &Stage, slot: &RosterSlot) -> String {
    match slot.seat {
        Seat::Player(_) => slot.name.clone(),
        Seat::Observer(_) => stage.say("Seat:Observer", &[("name", &slot.name)]),
        seat => SEATS.iter().find(|(_, s)| *s == seat).map_or("?".to_string(), |(n, _)| stage.say(n, &[])),
    }
}

/// The first line of a lobby hosted on `port`, through `relay` when one is named.
pub(super) fn hosting_line(stage: &Stage, port: u16, relay: Option<&str>) -> String {
    match relay {
        Some(relay) => stage.say("Lobby:HostingRelay", &[("relay", relay)]),
        None => stage.say("Lobby:Hosting", &[("port", &port.to_string())]),
    }
}

/// Team names in the team combo (0 is no team).
fn teams() -> Vec<String> {
    std::iter::once("-".to_string()).chain((1..=TEAMS).map(|t| t.to_string())).collect()
}

fn name(field: &str, i: usize) -> String {
    format!("Lobby.wnd:{field}{i}")
}

/// Sets a combo's items and choice, leaving it alone when they are already shown (so an open
/// list is not disturbed by the roster arriving every second).
fn show_combo(stage: &mut Stage, name: &str, items: Vec<String>, chosen: Option<usize>, enabled: bool) {
    let Some(id) = stage.find(name) else { return };
    stage.ui.enable(id, enabled);
    let same = stage.ui.combo_selected(id) == chosen.filter(|c| *c < items.len()) && stage.ui.combo_items(id) == items;
    if !same {
        stage.ui.combo_set(id, items, chosen);
    }
}

/// Shows slot `i` of `lobby` (`seats`: the seat labels, worded): who plays it, the side they
/// chose, ready and ping; the row is hidden when the map has no such slot.
fn refresh_slot(stage: &mut Stage, lobby: &LobbyState, i: usize, seats: &[String]) {
    let host = lobby.hosting;
    let slot = lobby.roster.slots.get(i);
    let mine = slot.is_some_and(|s| lobby.me.is_some_and(|me| s.seat.peer() == Some(me)));
    let computer = slot.is_some_and(|s| matches!(s.seat, Seat::Ai(_)));
    let playing = slot.is_some_and(|s| matches!(s.seat, Seat::Player(_) | Seat::Ai(_)));
    let (items, chosen, enabled) = match slot {
        None => (Vec::new(), None, false),
        // The host's own slot always holds the host, playing or watching; a joiner's own row
        // switches between the two as well.
        Some(s) if s.seat.peer() == Some(PeerId(0)) || (mine && !host) => {
            (vec![seat_label(stage, s), switch_label(stage, s.seat)], Some(0), mine)
        }
        // A joiner in the host's lobby: their name, playing or watching, or a seat that
        // removes them.
        Some(s) if host && s.seat.peer().is_some() => {
            let first = [seat_label(stage, s), switch_label(stage, s.seat)];
            let items = first.into_iter().chain(seats.iter().cloned()).collect();
            (items, Some(0), true)
        }
        Some(s) if host => (seats.to_vec(), SEATS.iter().position(|(_, x)| *x == s.seat), true),
        Some(s) => (vec![seat_label(stage, s)], Some(0), false),
    };
    show_combo(stage, &name("ComboPlayer", i), items, chosen, enabled);
    let choose = playing && (mine || (host && computer));
    let (faction, colour, team) =
        slot.map_or((None, None, None), |s| (Some(s.faction as usize), Some(s.colour as usize), Some(s.team as usize)));
    // Open and closed slots have no side to show.
    let factions = if playing { stage.content.factions.clone() } else { Vec::new() };
    show_combo(stage, &name("ComboFaction", i), factions, faction, choose);
    // Only colours nobody else in the game has are offered.
    let free = if playing { colour_choices(&lobby.roster, i) } else { Vec::new() };
    let colours = free.iter().filter_map(|&c| COLOURS.get(c as usize)).map(|c| c.to_string()).collect();
    let colour = colour.and_then(|c| free.iter().position(|&f| f as usize == c));
    show_combo(stage, &name("ComboColor", i), colours, colour, choose);
    let team_items = if playing { teams() } else { Vec::new() };
    show_combo(stage, &name("ComboTeam", i), team_items, team, host && playing);
    let (status, ping) = match slot {
        Some(s) if s.seat == Seat::Player(PeerId(0)) => (stage.say("Lobby:Host", &[]), String::new()),
        Some(s) if s.seat == Seat::Observer(PeerId(0)) => (stage.say("Lobby:Observer", &[]), String::new()),
        Some(s) if matches!(s.seat, Seat::Observer(_)) => {
            let status = if s.ready { stage.say("Lobby:Ready", &[]) } else { stage.say("Lobby:Observer", &[]) };
            (status, format!("{} ms", s.ping_ms))
        }
        // A joiner's own row says so.
        Some(s) if matches!(s.seat, Seat::Player(_)) => {
            let status = match (s.ready, mine) {
                // The player's own row is the one whose side they choose; "You" until ready.
                (true, _) => stage.say("Lobby:Ready", &[]),
                (false, true) => stage.say("Lobby:You", &[]),
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
    stage.set_text(&name("Status", i), &status);
    stage.set_text(&name("Ping", i), &ping);
    // Rows beyond the map's start positions are hidden.
    for field in ["LabelSlot", "ComboPlayer", "ComboFaction", "ComboColor", "ComboTeam", "Status", "Ping"] {
        if let Some(id) = stage.find(&name(field, i)) {
            stage.ui.show(id, slot.is_some());
        }
    }
}

/// Shows the lobby's table and chat again (the client calls this as they change).
pub(super) fn refresh(stage: &mut Stage) {
    let lobby = stage.lobby.clone();
    let host = lobby.hosting;
    let seats: Vec<String> = SEATS.iter().map(|(label, _)| stage.say(label, &[])).collect();
    for i in 0..MAX_SLOTS {
        refresh_slot(stage, &lobby, i, &seats);
    }
    // The map: the host chooses among the maps here; a joiner sees the host's.
    let label = |m: &MapEntry| stage.say("Lobby:MapPlayers", &[("map", &m.name), ("players", &m.players.to_string())]);
    let (maps, chosen) = if host {
        (
            stage.content.maps.iter().map(label).collect(),
            stage.content.maps.iter().position(|m| folder(m) == lobby.roster.map),
        )
    } else {
        let shown =
            stage.content.maps.iter().find(|m| folder(m) == lobby.roster.map).map_or(lobby.roster.map.clone(), label);
        (vec![shown], Some(0))
    };
    show_combo(stage, "Lobby.wnd:ComboMap", maps, chosen, host);
    let money = MONEY.iter().map(|m| format!("${m}")).collect();
    show_combo(stage, "Lobby.wnd:ComboMoney", money, Some(lobby.roster.money as usize), host);
    let header = if lobby.roster.map.is_empty() {
        stage.say("Title:Lobby", &[])
    } else {
        let shown =
            stage.content.maps.iter().find(|m| folder(m) == lobby.roster.map).map_or(&lobby.roster.map, |m| &m.name);
        stage.say("Lobby:Header", &[("map", shown)])
    };
    stage.set_text("Lobby.wnd:LobbyHeader", &header);
    // A change by the host asks everyone to say ready again. The host has no Ready: its
    // Start is its word.
    if let Some(c) = stage.find("Lobby.wnd:CheckReady") {
        stage.ui.show(c, !host);
        if stage.ui.checked(c) != lobby.ready {
            stage.ui.set_checked(c, lobby.ready);
        }
    }
    // The code is shown whole and may be selected; it is put back if typed over.
    if let Some(e) = stage.find("Lobby.wnd:EntryCode") {
        let code = lobby.code.clone().unwrap_or_default();
        if stage.ui.entry_text(e) != code {
            stage.ui.entry_set(e, &code);
        }
    }
    // Only the host starts, once the table allows it: a joiner's Start is greyed and says it
    // waits for the host, the host's names the first joiner not yet ready.
    if let Some(b) = stage.find("Lobby.wnd:ButtonStart") {
        let blocker = start_blocker(&lobby.roster);
        stage.ui.enable(b, host && blocker.is_ok());
        let label = match (host, &blocker) {
            (false, _) => stage.say("Lobby:WaitingForHost", &[]),
            (true, Err(LobbyError::NotReady(name))) => stage.say("Lobby:WaitingForReady", &[("name", name)]),
            (true, _) => stage.say("Lobby:ButtonStart", &[]),
        };
        stage.set_text("Lobby.wnd:ButtonStart", &label);
        let tip = match (host, blocker) {
            (true, Err(e)) => {
                let e = e.to_string();
                let mut chars = e.chars();
                chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
            }
            _ => String::new(),
        };
        if let Some(w) = stage.ui.window_mut(b) {
            w.tooltip = tip;
        }
    }
    // The chat follows new lines: the newest is scrolled into view when one arrives.
    let chat: Vec<Vec<String>> = lobby.chat.iter().map(|c| vec![c.clone()]).collect();
    if let Some(l) = stage.find("Lobby.wnd:ListChat") {
        let (before, now) = (stage.ui.list_rows(l).len(), chat.len());
        stage.ui.list_set_rows(l, chat);
        if now > before {
            stage.ui.list_reveal(l, now - 1);
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
fn folder(m: &MapEntry) -> String {
    m.dir.file_name().map_or_else(|| m.dir.display().to_string(), |n| n.to_string_lossy().into())
}

pub(super) fn init(stage: &mut Stage) {
    refresh(stage);
}

fn send(stage: &mut Stage) {
    let Some(entry) = stage.find("Lobby.wnd:EntryChat") else { return };
    let text = stage.ui.entry_text(entry);
    if text.trim().is_empty() {
        return;
    }
    stage.ui.entry_set(entry, "");
    stage.request(ShellRequest::LobbyChat(text.trim().to_string()));
}

/// The change a combo choice asks for.
fn change(stage: &Stage, id: &str, k: usize) -> Option<LobbyChange> {
    let k8 = u8::try_from(k).ok()?;
    if id == "ComboMoney" {
        return Some(LobbyChange::Money(k8));
    }
    if id == "ComboMap" {
        let m = stage.content.maps.get(k)?;
        return Some(LobbyChange::Map { folder: folder(m), start_positions: m.players as usize });
    }
    let (field, slot) = id.split_at(id.find(|c: char| c.is_ascii_digit())?);
    let i: usize = slot.parse().ok()?;
    Some(match field {
        "ComboPlayer" => {
            let s = stage.lobby.roster.slots.get(i)?;
            // A person's slot lists their name first (choosing it changes nothing), then the
            // switch between playing and watching.
            let Some(peer) = s.seat.peer() else { return Some(LobbyChange::Seat(i, SEATS.get(k)?.1)) };
            match k {
                0 => return None,
                1 if matches!(s.seat, Seat::Observer(_)) => LobbyChange::Seat(i, Seat::Player(peer)),
                1 => LobbyChange::Seat(i, Seat::Observer(peer)),
                _ => LobbyChange::Seat(i, SEATS.get(k - 2)?.1),
            }
        }
        "ComboFaction" => LobbyChange::Faction(i, k8),
        "ComboColor" => LobbyChange::Colour(i, *colour_choices(&stage.lobby.roster, i).get(k)?),
        "ComboTeam" => LobbyChange::Team(i, k8),
        _ => return None,
    })
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    match (&e.kind, short(&e.name)) {
        (EventKind::EditDone(_), "EntryChat") | (EventKind::Selected, "ButtonSend") => send(stage),
        (EventKind::ComboSelected(k), id) => {
            if let Some(c) = change(stage, id, *k) {
                stage.request(ShellRequest::LobbyChange(c));
            }
        }
        (EventKind::Toggled(on), "CheckReady") => {
            stage.lobby.ready = *on;
            stage.request(ShellRequest::LobbyReady(*on));
        }
        (EventKind::Selected, "ButtonCopy") => {
            if let Some(code) = stage.lobby.code.clone() {
                stage.request(ShellRequest::Copy(code));
            }
        }
        (EventKind::Selected, "ButtonStart") if !stage.lobby.hosting => {
            let (title, text) = (stage.say("Title:Lobby", &[]), stage.say("Message:HostStarts", &[]));
            stage.message(&title, &text, false);
        }
        (EventKind::Selected, "ButtonStart") => stage.request(ShellRequest::LobbyStart),
        (EventKind::Selected, "ButtonLeave") => {
            stage.request(ShellRequest::LobbyLeave);
            stage.open(Screen::Online);
        }
        _ => {}
    }
}
