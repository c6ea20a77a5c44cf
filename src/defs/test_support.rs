//! The game's own definitions and AI plans from `data/`, for the unit tests of modules that
//! may not reach content folders themselves (the AI's, which only sees `sim` and `defs`).
//!
//! Must not: be compiled outside tests, or load anything but the shipped `data/`.

use super::{AiPlans, Definitions};
use crate::content::ContentRoots;

/// The repository's own content root.
pub fn roots() -> ContentRoots {
    ContentRoots::new(vec![env!("CARGO_MANIFEST_DIR").into()])
}

/// The shipped definitions.
pub fn shipped() -> Definitions {
    Definitions::load(&roots()).expect("shipped definitions load")
}

/// The shipped AI plans (`data/ai.ron`).
pub fn shipped_plans() -> AiPlans {
    AiPlans::load(&roots()).expect("shipped AI plans load")
}
