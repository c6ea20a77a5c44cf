//! Online: host a game on a port (or `ip:port`, to listen on one address only), directly or
//! through the relay set in Options (friends then join from anywhere), or join one with the
//! host's join code (paste it with Ctrl+V), or rejoin the last game joined (its code is kept in
//! the settings). Each opens the lobby; the client connects.
//!
//! Must not: talk to the network (it asks the client through [`ShellRequest`]s).

use crate::net::quic::DEFAULT_PORT;
use crate::ui::window::short_name as short;
use crate::ui::{EventKind, UiEvent};

use super::lobby::hosting_line;
use super::lobby_state::LobbyState;
use super::request::ShellRequest;
use super::screen::Screen;
use super::stage::Stage;

pub(super) fn init(stage: &mut Stage) {
    if let Some(e) = stage.find("Online.wnd:EntryPort") {
        stage.ui.entry_set(e, &DEFAULT_PORT.to_string());
    }
    let relay = match stage.prefs.settings.relay.as_str() {
        "" => stage.say("Relay:None", &[]),
        r => stage.say("Relay:Named", &[("relay", r)]),
    };
    stage.set_text("Online.wnd:LabelRelay", &relay);
    // The last game joined can be joined again in one click (after a crash or an outage).
    let last = stage.prefs.settings.last_game.clone();
    if let Some(b) = stage.find("Online.wnd:ButtonRejoin") {
        stage.ui.enable(b, !last.is_empty());
    }
}

/// Opens the lobby and asks the client to join the game in `code` (to play, or to `watch`).
fn join(stage: &mut Stage, code: &str, watch: bool) {
    *stage.lobby = LobbyState::joining(stage.say("Lobby:Connecting", &[]));
    stage.open(Screen::Lobby);
    let code = code.trim().to_string();
    stage.request(if watch { ShellRequest::WatchOnline(code) } else { ShellRequest::JoinOnline(code) });
}

/// The address to host on, from the port entry: a port (every interface) or `ip:port`.
fn host_address(stage: &mut Stage) -> Option<std::net::SocketAddr> {
    let text = stage.find("Online.wnd:EntryPort").map(|id| stage.ui.entry_text(id)).unwrap_or_default();
    let text = text.trim();
    let addr = match text.parse::<u16>() {
        Ok(port) if port > 0 => Some(std::net::SocketAddr::from(([0, 0, 0, 0], port))),
        _ => text.parse::<std::net::SocketAddr>().ok().filter(|a| a.port() > 0),
    };
    if addr.is_none() {
        let (title, what) = (stage.say("Title:Online", &[]), stage.say("Message:NotAPort", &[("text", text)]));
        stage.message(&title, &what, false);
    }
    addr
}

fn host(stage: &mut Stage, addr: std::net::SocketAddr, relay: Option<String>) {
    *stage.lobby = LobbyState::hosting(addr.port(), hosting_line(stage, addr.port(), relay.as_deref()));
    stage.open(Screen::Lobby);
    stage.request(ShellRequest::HostOnline(addr, relay));
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonHost" => press_host(stage),
        "ButtonHostRelay" => press_host_relay(stage),
        "ButtonJoin" => press_join(stage, false),
        "ButtonWatch" => press_join(stage, true),
        "ButtonRejoin" => press_rejoin(stage),
        "ButtonBack" => stage.open(Screen::MainMenu),
        _ => {}
    }
}

/// Host: a game on the address in the field (or the default port).
pub(super) fn press_host(stage: &mut Stage) {
    if let Some(addr) = host_address(stage) {
        host(stage, addr, None);
    }
}

/// Host through the relay set in Options (or say how to set one).
pub(super) fn press_host_relay(stage: &mut Stage) {
    let relay = stage.prefs.settings.relay.clone();
    if relay.is_empty() {
        let (title, text) = (stage.say("Title:Online", &[]), stage.say("Message:SetRelayFirst", &[]));
        stage.message(&title, &text, false);
    } else if let Some(addr) = host_address(stage) {
        host(stage, addr, Some(relay));
    }
}

/// Join (or Watch, as an observer): the game whose join code is in the field (or say what a
/// code looks like).
pub(super) fn press_join(stage: &mut Stage, watch: bool) {
    let code = stage.find("Online.wnd:EntryAddress").map(|id| stage.ui.entry_text(id)).unwrap_or_default();
    if code.trim().parse::<crate::net::quic::JoinCode>().is_err() {
        let (title, text) = (stage.say("Title:Online", &[]), stage.say("Message:PasteCode", &[]));
        stage.message(&title, &text, false);
        return;
    }
    join(stage, &code, watch);
}

/// Rejoin the last game joined, if any.
pub(super) fn press_rejoin(stage: &mut Stage) {
    let code = stage.prefs.settings.last_game.clone();
    if !code.is_empty() {
        join(stage, &code, false);
    }
}

/// Remembers `code` as the last game joined (Online → Rejoin), in the saved settings.
pub(super) fn remember_game(stage: &mut Stage, code: &str) {
    if stage.prefs.settings.last_game == code {
        return;
    }
    stage.prefs.settings.last_game = code.to_string();
    stage.save_settings();
}
