//! Online: host a game on a port, or join one by address. The lobby opens for the host; joining
//! says plainly that network play is not in this build yet.

use crate::ui::{EventKind, UiEvent};

use super::callbacks::short;
use super::{Screen, Shell};

/// The port offered by default.
pub const DEFAULT_PORT: u16 = 8088;

pub(super) fn init(shell: &mut Shell) {
    if let Some(e) = shell.find("Online.wnd:EntryPort") {
        shell.ui.entry_set(e, &DEFAULT_PORT.to_string());
    }
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonHost" => {
            let text = shell.find("Online.wnd:EntryPort").map(|id| shell.ui.entry_text(id)).unwrap_or_default();
            match text.parse::<u16>() {
                Ok(port) if port > 0 => {
                    shell.lobby = super::lobby::LobbyState::hosting(&shell.settings.player_name, port);
                    shell.open(Screen::Lobby);
                }
                _ => shell.message("Online", &format!("\"{text}\" is not a port (1–65535)."), false),
            }
        }
        "ButtonJoin" => {
            let addr = shell.find("Online.wnd:EntryAddress").map(|id| shell.ui.entry_text(id)).unwrap_or_default();
            match addr.rsplit_once(':').map(|(h, p)| (h, p.parse::<u16>())) {
                Some((host, Ok(port))) if !host.is_empty() && port > 0 => shell.message(
                    "Online",
                    &format!("Joining {host} on port {port}: online play over QUIC is not in this build yet."),
                    false,
                ),
                _ => shell.message("Online", "Give the address as host:port, for example 192.0.2.7:8088.", false),
            }
        }
        "ButtonBack" => shell.open(Screen::MainMenu),
        _ => {}
    }
}
