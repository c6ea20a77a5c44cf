//! Why online play could not start or go on ([`OnlineError`]), and why the lobby refuses a
//! player's change or the start ([`LobbyRefusal`]): typed at the seams, each worded as the
//! player reads it.
//!
//! Must not: carry a failure as a bare string where a variant can name it.

use thiserror::Error;

use crate::content::{FileError, WriteError};
use crate::defs::DefsErrors;
use crate::net::quic::QuicError;
use crate::net::quic::join_code::JoinCodeError;
use crate::session::peer::SessionError;
use crate::session::start::StartError;

use super::lobby::LobbyError;

/// Why an online match could not start or go on.
#[derive(Debug, Error)]
pub enum OnlineError {
    /// The network.
    #[error(transparent)]
    Net(#[from] QuicError),
    /// The handshake or the start was refused (by either side), and why, in the words that
    /// crossed the wire.
    #[error("refused: {0}")]
    Refused(String),
    /// The join code the player gave does not read.
    #[error("the join code: {0}")]
    BadCode(#[from] JoinCodeError),
    /// No identity key could be made or read beside the settings.
    #[error("no identity key could be made")]
    NoIdentity,
    /// A returning machine was sent history out of order.
    #[error("the host's history for frames {from}..{through} is out of order")]
    HistoryOutOfOrder {
        /// The first frame this machine still needed.
        from: u32,
        /// The frame the stretch sent runs up to.
        through: u32,
    },
    /// A returning machine's replay of the history differs from the host's checkpoint.
    #[error("catching up went out of sync at frame {frame} (host {host:016x}, here {here:016x})")]
    CatchUpDesync {
        /// The checkpoint's frame.
        frame: u32,
        /// The host's hash there.
        host: u64,
        /// This machine's.
        here: u64,
    },
    /// The match could not be prepared.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The session failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The host left before the match began, or while it ran.
    #[error("the host left: {0}")]
    HostLeft(String),
    /// The host broke the lockstep protocol (sent what no honest host sends); this machine
    /// left the game.
    #[error("left the game: the host broke the protocol ({0})")]
    HostBrokeProtocol(String),
    /// A file the handshake compares could not be read for its digest.
    #[error(transparent)]
    Digest(#[from] FileError),
    /// The match setup could not be written for the joiners.
    #[error("{0}")]
    SetupText(ron::Error),
    /// The desync report could not be written.
    #[error(transparent)]
    Report(#[from] WriteError),
    /// The game's definitions (the factions a lobby offers) did not load.
    #[error("{0}")]
    Definitions(DefsErrors),
    /// The thread that opens the network could not be started.
    #[error("cannot start the network: {0}")]
    Spawn(std::io::Error),
    /// The network thread ended before it said whether the network opened.
    #[error("the network thread stopped")]
    NetworkThreadStopped,
    /// The lobby refused the start.
    #[error(transparent)]
    Lobby(#[from] LobbyRefusal),
    /// The transport failed.
    #[error(transparent)]
    Transport(#[from] crate::lockstep::TransportError),
}

/// Why the lobby refuses a player's change or the start, as the player reads it (a sentence).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum LobbyRefusal {
    /// The host's table refused the change.
    #[error("{}", capitalised(&.0.to_string()))]
    Change(LobbyError),
    /// The table does not allow a start yet (someone not ready, one side only…).
    #[error("{}.", capitalised(&.0.to_string()))]
    NotYet(LobbyError),
    /// A joiner asked before the host seated it.
    #[error("Wait until the host has seated you.")]
    NotSeated,
    /// A joiner asked for what only the host changes.
    #[error("Only the host can change that.")]
    HostOnly,
    /// A joiner asked to start.
    #[error("Only the host starts the game.")]
    HostStarts,
}

/// `s` with its first letter capitalised.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
