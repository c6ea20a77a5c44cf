//! A backend without a device: the renderer is kept for the caller, who asks for samples when
//! it wants them — tests, `render-audio` and the audio benchmark hear exactly what a player's
//! speakers would get.
//!
//! Must not: run on a thread of its own (the caller's pace is the only clock).

use std::sync::{Arc, Mutex};

use super::{Slot, fill};

/// The renderer's handle for pulling samples by hand.
#[derive(Clone, Default)]
pub struct Capture {
    slot: Slot,
}

impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Capture")
    }
}

impl Capture {
    /// A capture with no renderer yet (kira hands it over when the manager starts).
    pub fn new() -> Capture {
        Capture { slot: Arc::new(Mutex::new(None)) }
    }

    pub(crate) fn slot(&self) -> Slot {
        Arc::clone(&self.slot)
    }

    /// The next `frames` stereo frames, interleaved (left, right, left, …).
    pub fn render(&self, frames: usize) -> Vec<f32> {
        let mut out = vec![0.0; frames * 2];
        fill(&self.slot, &mut out);
        out
    }
}
