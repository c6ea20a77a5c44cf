//! What the shell asks of the client: the one way screens reach beyond the UI. Callbacks queue
//! requests; [`super::Shell::update`] hands them over once a frame.
//!
//! Must not: carry anything the client could not act on by itself (no UI state).

use std::path::PathBuf;

use crate::online::lobby::LobbyChange;
use crate::session::MatchSetup;

/// A request from the shell's screens to the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShellRequest {
    /// Start this match (the skirmish screen's Start, later the online lobby).
    StartMatch(Box<MatchSetup>),
    /// Watch the replay in this file.
    WatchReplay(PathBuf),
    /// Leave the battle for the score screen.
    LeaveBattle,
    /// Save the battle into the saves folder (the battle's menu).
    SaveBattle,
    /// Continue the saved game in this file.
    LoadSave(PathBuf),
    /// The control bar's button with this index was clicked.
    CommandButton(usize),
    /// A battle command, as its key gives it (a declared action such as `battle:stop`), whatever
    /// key the player put it on.
    Key(crate::game::keys::KeyCommand),
    /// A line of the alert log was clicked: the camera goes to that alert's place (0: the
    /// newest).
    JumpToAlert(usize),
    /// The replay viewer's bar was used.
    Replay(ReplayControl),
    /// Host an online game on this address (all interfaces when it is unspecified), through
    /// this relay (`host:port`, looked up by the client) if one is given.
    HostOnline(std::net::SocketAddr, Option<String>),
    /// Put this text on the clipboard.
    Copy(String),
    /// Join the online game with this join code.
    JoinOnline(String),
    /// Watch the online game with this join code as an observer (its lobby, or the running
    /// game).
    WatchOnline(String),
    /// Say this in the lobby.
    LobbyChat(String),
    /// This player is ready (or not).
    LobbyReady(bool),
    /// Change the lobby's slots, map or money (the host), or this player's faction or colour.
    LobbyChange(LobbyChange),
    /// The host starts the online game.
    LobbyStart,
    /// Leave the lobby.
    LobbyLeave,
    /// The host drops the players an online battle is waiting for.
    DropStalled,
    /// The mods chosen on the Mods screen were saved: use them from now on.
    ApplyMods,
    /// Close the game (the client asks [`crate::game::shell::Shell::ask_before_quit`] first).
    Quit,
    /// Close the game now: the player chose not to save the editor's unsaved edits, or saved them.
    QuitNow,
}

/// What the replay viewer's bar asks of a watched replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayControl {
    /// Pause, or play on.
    PlayPause,
    /// The next slower speed.
    Slower,
    /// The next faster speed.
    Faster,
    /// Go to this point of the replay, in thousandths of its length.
    Seek(u16),
    /// Show the next player's view, or everything.
    View,
    /// Play on from here as the player whose view is shown.
    TakeOver,
}
