//! What the lobby screen shows: the table as the host last sent it, this machine's peer, the
//! chat, whether the local player is ready, and the join code. The client's online lobby
//! (`game/online_lobby.rs`) fills it; the lobby screen shows it.
//!
//! Must not: talk to the network or decide anything (the host's lobby does).

use crate::lockstep::transport::PeerId;
use crate::net::wire::Roster;

/// What the lobby shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LobbyState {
    /// The table as the host last sent it (or keeps it).
    pub roster: Roster,
    /// This machine's peer, once the host has welcomed it (the host is peer 0).
    pub me: Option<PeerId>,
    /// Chat lines.
    pub(super) chat: Vec<String>,
    /// The local player is ready.
    pub ready: bool,
    /// The port hosted on.
    pub port: u16,
    /// True when this machine hosts.
    pub hosting: bool,
    /// The join code, shown whole (the host's; a joiner's own).
    pub(super) code: Option<String>,
}

impl LobbyState {
    /// A lobby hosted by the local player on `port`, through `relay` when one is named; `first`
    /// is its first line (`lobby::hosting_line`).
    pub fn hosting(port: u16, first: String) -> LobbyState {
        LobbyState { me: Some(PeerId(0)), chat: vec![first], port, hosting: true, ..LobbyState::default() }
    }

    /// The chat lines, oldest first.
    pub fn chat(&self) -> &[String] {
        &self.chat
    }

    /// A line for the chat.
    pub fn say(&mut self, line: String) {
        self.chat.push(line);
    }

    /// The join code shown, if any.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// A lobby joined from another machine; `first` is its first line ("Connecting…").
    pub fn joining(first: String) -> LobbyState {
        LobbyState { chat: vec![first], ..LobbyState::default() }
    }
}
