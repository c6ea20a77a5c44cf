//! Online: host a game on a port (or `ip:port`, to listen on one address only), or join one with the host's join code (paste it with
//! Ctrl+V). Both open the lobby; the client makes the connection.
//!
//! Must not: talk to the network (it asks the client through [`super::ShellRequest`]s).

use crate::net::quic::DEFAULT_PORT;
use crate::ui::{EventKind, UiEvent};

use super::callbacks::short;
use super::{Screen, Shell, ShellRequest};

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
            let text = text.trim();
            let addr = match text.parse::<u16>() {
                Ok(port) if port > 0 => Some(std::net::SocketAddr::from(([0, 0, 0, 0], port))),
                _ => text.parse::<std::net::SocketAddr>().ok().filter(|a| a.port() > 0),
            };
            match addr {
                Some(addr) => {
                    shell.lobby = super::lobby::LobbyState::hosting(addr.port());
                    shell.open(Screen::Lobby);
                    shell.request(ShellRequest::HostOnline(addr));
                }
                None => shell.message("Online", &format!("\"{text}\" is not a port (1–65535) or ip:port."), false),
            }
        }
        "ButtonJoin" => {
            let code = shell.find("Online.wnd:EntryAddress").map(|id| shell.ui.entry_text(id)).unwrap_or_default();
            if code.trim().parse::<crate::net::quic::JoinCode>().is_err() {
                shell.message(
                    "Online",
                    "Paste the host's join code (Ctrl+V): it looks like rl1@192.0.2.7:47600/… and the host's game shows it in its lobby.",
                    false,
                );
                return;
            }
            shell.lobby = super::lobby::LobbyState::joining();
            shell.open(Screen::Lobby);
            shell.request(ShellRequest::JoinOnline(code.trim().to_string()));
        }
        "ButtonBack" => shell.open(Screen::MainMenu),
        _ => {}
    }
}
