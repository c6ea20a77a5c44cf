//! Online play's control plane, in one room: everything machines say to each other besides
//! the lockstep stream, each protocol an I/O-free state machine (bytes and `now` in, messages
//! out) with a thin driver. Before the match: the lobby's table (`lobby`) and its protocol
//! (`lobby_link`), the handshake's checks (`digests`) and drivers (`handshake`), the start on
//! each side (`start`), the player's identity (`identity`). During it: the in-match link
//! (`link`) — departures at an agreed frame (`removal`), chat, the late joiner refused, a
//! dropped machine's return (`seats` on the host, `rejoin` on the returning machine), the
//! run-ahead fitted to the link (`run_ahead`), a desync stopping the game with a report
//! (`desync`) — and the headless run behind `ridgeline host` and `join` (`run`, paced by
//! `pacer`, with the `liar` test switch).
//!
//! Below it: `session` (the match on one machine, which owns the transport and exchanges with it once a frame),
//! `lockstep` (the stream, offline too) and `net` (QUIC, NAT traversal, the codec).
//!
//! Must not: change the world except through the stream's commands (the test switch that
//! corrupts one object is the one exception, and says so), or read the transport except
//! through the session that owns it (before a session exists, the lobby's and handshake's
//! drivers own it).

mod desync;
mod digests;
mod error;
mod handshake;
mod identity;
mod liar;
mod link;
pub mod lobby;
mod lobby_link;
mod lobby_news;
mod outbox;
mod pacer;
mod rejoin;
mod removal;
mod run;
mod run_ahead;
mod seats;
mod start;

pub use desync::{DesyncExchange, EXCHANGE_FOR, Snapshots};
pub use digests::{differing, map_files, refusal, sim_data_files};
pub use error::{LobbyRefusal, OnlineError};
pub use handshake::{HostOptions, Joined, advertised_ip, hello, host, join, watch};
pub use identity::{Identity, IdentityError};
pub use liar::{Liar, Lie, UnknownLie};
pub use link::{CHAT_MAX, LATE_JOINER, LinkEvent, MatchLink};
pub use lobby_link::{LobbyEvent, LobbyLink, READY_CLEARED};
pub use outbox::{Outbox, Outgoing};
pub use pacer::FrameClock;
pub use rejoin::{Catcher, Return, Returned};
pub use removal::drop_everywhere;
pub use run::{OnlineOptions, OnlineSummary, run};
pub use run_ahead::{LinkSample, RunAheadTuner};
pub use seats::{Seats, history};
pub use start::{start_hosted, start_joined, start_watching};

/// The build the handshake compares.
pub const BUILD: &str = env!("CARGO_PKG_VERSION");
