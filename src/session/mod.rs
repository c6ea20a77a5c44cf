//! Sessions: wiring a world, its message stream, a transport and the players' controllers
//! into a running game; the headless runner; command scripts; the `--players` specification.
//!
//! Must not: change the world except through the stream's commands.

pub mod controller;
pub mod peer;
pub mod players;
pub mod replay;
pub mod runner;
pub mod script;
pub mod setup;

pub use controller::{Controller, Idle, Queued};
pub use peer::{Session, SessionError, Step};
pub use players::PlayersSpec;
pub use replay::{Recording, Replay};
pub use runner::{RunSummary, local_session, run_headless};
pub use script::CommandScript;
