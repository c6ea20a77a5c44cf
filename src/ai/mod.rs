//! Skirmish AI players: each reads the world and returns commands, which go into the message
//! stream like a human's. How an AI plays (how often it thinks, when it attacks, with how much
//! of its army, whether it focuses fire) is data: an [`AiPlan`] per difficulty from
//! `data/ai.ron`, and an [`AiStyle`] from `data/ai_styles.ron` drawn from the game's seed.
//!
//! Must not: change the world, or use anything the simulation may not (floating point, the
//! clock, hashed containers, thread randomness, I/O, client modules); `tests/integration/determinism_lint.rs`
//! checks this folder too, so an AI can run on every machine and agree.

pub mod base;
pub mod counters;
pub mod memory;
pub mod skirmish;

/// The plan and style types are data, defined beside their loaders in `defs`.
pub use crate::defs::ai_plan::AiPlan;
pub use crate::defs::ai_style::AiStyle;
pub use skirmish::AiState;
pub use skirmish::{FirstWave, SkirmishAi};
