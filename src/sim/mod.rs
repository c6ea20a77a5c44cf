//! The deterministic simulation: fixed-point maths, the seeded RNG, objects, commands,
//! movement, pathfinding, combat, victory and the per-frame state hash.
//!
//! Every machine runs this code on the same commands and gets the same state, bit for bit.
//! Must not: use floating point, the clock, thread randomness, hashed-container iteration, I/O,
//! or anything from the client modules (render, ui, net, audio, game); `tests/integration/determinism_lint.rs`
//! enforces it.

pub mod angle;
pub mod command;
pub mod content_digest;
pub mod corruption;
pub mod divisor;
pub mod fixed;
pub mod frame_order;
pub mod hash;
pub mod ids;
pub mod isqrt;
pub mod object;
pub mod object_mut;
pub mod pair_list;
pub mod pathfind;
pub mod place;
pub mod player;
pub mod power;
pub mod production;
pub mod projectile;
pub mod regions;
pub mod research;
pub mod rng;
pub mod rules;
pub mod scans;
pub mod scatter;
pub mod setup;
pub mod snapshot;
pub mod spatial;
pub mod store;
pub mod terrain;
pub mod upkeep;
pub mod vector;
pub mod vision;
pub mod world;

mod apply;
mod combat;
mod damage;
mod economy;
pub mod event;
pub mod formation;
#[cfg(test)]
mod hash_coverage;
mod help;
mod movement;
mod orders;
mod query;
mod queue;
mod separation;
mod spots;
mod targeting;
#[cfg(test)]
pub(crate) mod test_support;
mod victory;

pub use angle::Angle;
pub use command::{Command, Point, RejectReason, Rejection, StampedCommand};
pub use fixed::Fixed;
pub use hash::StateHash;
pub use ids::{CommandId, FRAMES_PER_SECOND, Frame, ObjectId, PlayerId, TemplateId};
pub use orders::{OrderKind, OrderTarget, OrderTiming, Orders, Relation};
pub use rules::Rules;
pub use terrain::Terrain;
pub use vector::{Vec2, Vec3};
pub use world::{GameSetup, InitialObject, PlayerSetup, SetupError, TickReport, World};
