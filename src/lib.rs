//! Ridgeline: a lockstep real-time strategy game.
//!
//! The library holds every part of the game; `main.rs` is only the command line. See
//! ARCHITECTURE.md for the code map and the invariants.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![warn(missing_docs)]

pub mod ai;
pub mod art;
pub mod audio;
pub mod bench;
pub mod content;
pub mod defs;
pub mod game;
pub mod lockstep;
pub mod map;
pub mod net;
pub mod noise;
pub mod online;
pub mod relay;
pub mod render;
pub mod session;
pub mod sim;
pub mod ui;
