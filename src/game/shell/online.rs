//! Online: host a game on a port (or `ip:port`, to listen on one address only), directly or
//! through the relay set in Options (friends then join from anywhere), or join one with the
//! host's join code (paste it with Ctrl+V), or rejoin the last game joined (its code is kept in
//! the settings). Each opens the lobby; the client connects.
//!
//! Must not: talk to the network (it asks the client through [`super::ShellRequest`]s).

use crate::net::quic::DEFAULT_PORT;
use crate::ui::{EventKind, UiEvent};

use super::{Screen, Shell, ShellRequest};
use crate::ui::window::short_name as short;

pub(super) fn init(shell: &mut Shell) {
    if let Some(e) = shell.find("Online.wnd:EntryPort") {
        shell.ui.entry_set(e, &DEFAULT_PORT.to_string());
    }
    let relay = match shell.settings.relay.as_str() {
        "" => shell.say("Relay:None", &[]),
        r => shell.say("Relay:Named", &[("relay", r)]),
    };
    shell.set_text("Online.wnd:LabelRelay", &relay);
    // The last game joined can be joined again in one click (after a crash or an outage).
    let last = shell.settings.last_game.clone();
    if let Some(b) = shell.find("Online.wnd:ButtonRejoin") {
        shell.ui.enable(b, !last.is_empty());
    }
}

/// Opens the lobby and asks the client to join the game in `code`.
fn join(shell: &mut Shell, code: &str) {
    shell.lobby = super::lobby::LobbyState::joining(shell.say("Lobby:Connecting", &[]));
    shell.open(Screen::Lobby);
    shell.request(ShellRequest::JoinOnline(code.trim().to_string()));
}

/// The address to host on, from the port entry: a port (every interface) or `ip:port`.
fn host_address(shell: &mut Shell) -> Option<std::net::SocketAddr> {
    let text = shell.find("Online.wnd:EntryPort").map(|id| shell.ui.entry_text(id)).unwrap_or_default();
    let text = text.trim();
    let addr = match text.parse::<u16>() {
        Ok(port) if port > 0 => Some(std::net::SocketAddr::from(([0, 0, 0, 0], port))),
        _ => text.parse::<std::net::SocketAddr>().ok().filter(|a| a.port() > 0),
    };
    if addr.is_none() {
        let (title, what) = (shell.say("Title:Online", &[]), shell.say("Message:NotAPort", &[("text", text)]));
        shell.message(&title, &what, false);
    }
    addr
}

fn host(shell: &mut Shell, addr: std::net::SocketAddr, relay: Option<String>) {
    shell.lobby = super::lobby::LobbyState::hosting(addr.port(), shell.hosting_line(addr.port(), relay.as_deref()));
    shell.open(Screen::Lobby);
    shell.request(ShellRequest::HostOnline(addr, relay));
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonHost" => press_host(shell),
        "ButtonHostRelay" => press_host_relay(shell),
        "ButtonJoin" => press_join(shell),
        "ButtonRejoin" => press_rejoin(shell),
        "ButtonBack" => shell.open(Screen::MainMenu),
        _ => {}
    }
}

/// Host: a game on the address in the field (or the default port).
pub(super) fn press_host(shell: &mut Shell) {
    if let Some(addr) = host_address(shell) {
        host(shell, addr, None);
    }
}

/// Host through the relay set in Options (or say how to set one).
pub(super) fn press_host_relay(shell: &mut Shell) {
    let relay = shell.settings.relay.clone();
    if relay.is_empty() {
        let (title, text) = (shell.say("Title:Online", &[]), shell.say("Message:SetRelayFirst", &[]));
        shell.message(&title, &text, false);
    } else if let Some(addr) = host_address(shell) {
        host(shell, addr, Some(relay));
    }
}

/// Join: the game whose join code is in the field (or say what a code looks like).
pub(super) fn press_join(shell: &mut Shell) {
    let code = shell.find("Online.wnd:EntryAddress").map(|id| shell.ui.entry_text(id)).unwrap_or_default();
    if code.trim().parse::<crate::net::quic::JoinCode>().is_err() {
        let (title, text) = (shell.say("Title:Online", &[]), shell.say("Message:PasteCode", &[]));
        shell.message(&title, &text, false);
        return;
    }
    join(shell, &code);
}

/// Rejoin the last game joined, if any.
pub(super) fn press_rejoin(shell: &mut Shell) {
    let code = shell.settings.last_game.clone();
    if !code.is_empty() {
        join(shell, &code);
    }
}

impl Shell {
    /// Remembers `code` as the last game joined (Online → Rejoin), in the saved settings.
    pub fn remember_game(&mut self, code: &str) {
        if self.settings.last_game == code {
            return;
        }
        self.settings.last_game = code.to_string();
        self.save_settings();
    }
}
