//! The renderer (wgpu): the device, the world pass (terrain, roads, models, water), the UI pass
//! and offscreen targets.
//!
//! Must not: decide anything about the game or the UI; it draws what it is given.

pub mod binding;
pub mod glyphs;
pub mod gpu;
pub mod icons;
pub mod offscreen;
pub mod quality;
pub mod ui_pass;
pub mod world;

pub use gpu::{Gpu, GpuError};
pub use offscreen::Offscreen;
pub use quality::Quality;
pub use ui_pass::UiPass;
pub use world::{ObjectInstance, StaticWorld, WorldPass};
