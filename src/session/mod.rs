//! Sessions: a match as one typed value ([`MatchSetup`]), the one way it starts
//! ([`start::prepare`], [`start_local`]), the running game on one machine (world, message
//! stream, transport, the players' controllers), the headless runner, command scripts, replays,
//! and the `--players` shorthand.
//!
//! Must not: change the world except through the stream's commands.

pub mod controller;
pub mod match_setup;
pub mod peer;
pub mod players;
pub mod replay;
pub mod runner;
pub mod save;
pub mod script;
pub mod start;
pub mod timeline;
pub mod tournament;
pub mod violations;

pub use controller::{Controller, Idle};
pub use match_setup::{Difficulty, MatchSetup, ResolvedSlot, SlotKind, SlotSetup};
pub use peer::{Session, SessionError, Step};
pub use players::PlayersSpec;
pub use replay::Replay;
pub use runner::{RunSummary, local_session, run_headless, run_session, run_session_observed, run_session_sampled};
pub use script::CommandScript;
pub use start::{HumanSeat, Match, MatchContent, Prepared, StartError, start_local};
