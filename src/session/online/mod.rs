//! Online matches over QUIC. The handshake and start (`handshake`): protocol, build and a
//! digest of every file the simulation reads, a mismatch refused naming the file, on both
//! sides; the host sends the one `MatchSetup` and each machine prepares it for its own slots.
//! The headless run behind `ridgeline host` and `ridgeline join` (`run`): paced at 30 frames a
//! second (or as fast as the slowest peer allows). The in-match control protocol every online
//! game shares, headless or in the window, as one I/O-free state machine (`link`): players who
//! leave removed at an agreed frame, chat, the late joiner refused, a dropped machine's return
//! (`rejoin`), the run-ahead fitted to the link (`run_ahead`), a desync stopping the game with
//! a report (`desync`).
//!
//! Must not: change the world except through the stream's commands (the test switch that
//! corrupts one object is the one exception, and says so).

use thiserror::Error;

use crate::net::quic::QuicError;

use super::peer::SessionError;
use super::start::StartError;

mod desync;
mod handshake;
mod identity;
mod liar;
mod link;
mod lobby_link;
mod pacer;
mod rejoin;
mod run;
mod run_ahead;

pub use desync::{DesyncExchange, EXCHANGE_FOR, Snapshots};
pub use handshake::{
    HostOptions, Joined, advertised_ip, differing, hello, host, join, map_files, refusal, sim_data_files, start_hosted,
    start_joined,
};
pub use identity::{Identity, IdentityError};
pub use liar::{Liar, Lie};
pub use link::{CHAT_MAX, LATE_JOINER, LinkEvent, MatchLink, Outbox, Outgoing, drop_everywhere};
pub use lobby_link::{LobbyEvent, LobbyLink, READY_CLEARED};
pub use pacer::FrameClock;
pub use rejoin::{Catcher, Return, Returned, Seats, history};
pub use run::{OnlineOptions, OnlineSummary, run};
pub use run_ahead::{LinkSample, RunAheadTuner};

/// The build the handshake compares.
pub const BUILD: &str = env!("CARGO_PKG_VERSION");

/// Why an online match could not start or go on.
#[derive(Debug, Error)]
pub enum OnlineError {
    /// The network.
    #[error(transparent)]
    Net(#[from] QuicError),
    /// The handshake or the start was refused (by either side), and why.
    #[error("refused: {0}")]
    Refused(String),
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
    /// A file could not be read.
    #[error("{0}")]
    File(String),
    /// The transport failed.
    #[error(transparent)]
    Transport(#[from] crate::lockstep::TransportError),
}
