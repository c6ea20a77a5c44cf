//! The lobby: the players (name, faction, team, ping), chat, ready, start, leave.

use crate::ui::{EventKind, UiEvent};

use super::callbacks::short;
use super::{Screen, Shell};

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
}

impl LobbyState {
    /// A lobby hosted by the local player.
    pub fn hosting(name: &str, port: u16) -> LobbyState {
        LobbyState {
            players: vec![(name.to_string(), "Coalition".into(), "-".into(), "0".into())],
            chat: vec![format!("Hosting on port {port}. Waiting for a second player…")],
            ready: false,
            port,
        }
    }
}

fn refresh(shell: &mut Shell) {
    let rows = shell
        .lobby
        .players
        .iter()
        .map(|(n, f, t, p)| vec![n.clone(), f.clone(), t.clone(), format!("{p} ms")])
        .collect();
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
    shell.lobby.chat.push(format!("{}: {}", shell.settings.player_name, text.trim()));
    shell.ui.entry_set(entry, "");
    refresh(shell);
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    match (&e.kind, short(&e.name)) {
        (EventKind::EditDone(_), "EntryChat") | (EventKind::Selected, "ButtonSend") => send(shell),
        (EventKind::Toggled(on), "CheckReady") => shell.lobby.ready = *on,
        (EventKind::Selected, "ButtonStart") if shell.lobby.players.len() < 2 => {
            shell.message("Lobby", "Waiting for a second player to join.", false);
        }
        (EventKind::Selected, "ButtonLeave") => shell.open(Screen::Online),
        _ => {}
    }
}
