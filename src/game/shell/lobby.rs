//! The lobby: the players (name, ready, ping), chat, ready, start, leave. What it shows comes
//! from the client's online lobby (`game/online_lobby.rs`); what the player does goes back to it
//! as [`super::ShellRequest`]s.
//!
//! Must not: talk to the network.

use crate::ui::{EventKind, UiEvent};

use super::callbacks::short;
use super::{Screen, Shell, ShellRequest};

/// What the lobby shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LobbyState {
    /// (name, faction, team, ping ms) per seat.
    pub players: Vec<(String, String, String, String)>,
    /// Chat lines.
    pub chat: Vec<String>,
    /// The local player is ready.
    pub ready: bool,
    /// The port hosted on.
    pub port: u16,
    /// The map's name.
    pub map: String,
    /// True when this machine hosts.
    pub hosting: bool,
}

impl LobbyState {
    /// A lobby hosted by the local player.
    pub fn hosting(name: &str, port: u16) -> LobbyState {
        LobbyState {
            players: vec![(name.to_string(), String::new(), String::new(), "0".into())],
            chat: vec![format!("Hosting on port {port}. Waiting for a second player…")],
            ready: false,
            port,
            map: String::new(),
            hosting: true,
        }
    }

    /// A lobby joined from another machine.
    pub fn joining() -> LobbyState {
        LobbyState { chat: vec!["Connecting…".into()], ..LobbyState::default() }
    }
}

impl Shell {
    /// Shows the lobby's players and chat again (the client calls this as they change).
    pub fn refresh_lobby(&mut self) {
        refresh(self);
    }
}

fn refresh(shell: &mut Shell) {
    let rows = shell
        .lobby
        .players
        .iter()
        .enumerate()
        .map(|(i, (n, f, t, p))| {
            // Factions go in turn, as the match gives them.
            let faction = if f.is_empty() {
                shell.factions.get(i % shell.factions.len().max(1)).cloned().unwrap_or_default()
            } else {
                f.clone()
            };
            vec![n.clone(), faction, t.clone(), format!("{p} ms")]
        })
        .collect::<Vec<_>>();
    let header =
        if shell.lobby.map.is_empty() { "Lobby".to_string() } else { format!("Lobby — {}", shell.lobby.map) };
    shell.set_text("Lobby.wnd:LobbyHeader", &header);
    if let Some(l) = shell.find("Lobby.wnd:ListPlayers") {
        shell.ui.list_set_rows(l, rows);
    }
    let chat: Vec<Vec<String>> = shell.lobby.chat.iter().map(|c| vec![c.clone()]).collect();
    if let Some(l) = shell.find("Lobby.wnd:ListChat") {
        shell.ui.list_set_rows(l, chat);
    }
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

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    match (&e.kind, short(&e.name)) {
        (EventKind::EditDone(_), "EntryChat") | (EventKind::Selected, "ButtonSend") => send(shell),
        (EventKind::Toggled(on), "CheckReady") => {
            shell.lobby.ready = *on;
            shell.request(ShellRequest::LobbyReady(*on));
        }
        (EventKind::Selected, "ButtonStart") if !shell.lobby.hosting => {
            shell.message("Lobby", "The host starts the game when everyone is ready.", false);
        }
        (EventKind::Selected, "ButtonStart") => shell.request(ShellRequest::LobbyStart),
        (EventKind::Selected, "ButtonLeave") => {
            shell.request(ShellRequest::LobbyLeave);
            shell.open(Screen::Online);
        }
        _ => {}
    }
}
