//! What a computer player's first attack set out with: the frame its wave left the rally point
//! and the wave's size then, recorded by the AI at the moment it decides to attack, for
//! reports (`tournament`, `sim --json`) and the difficulty table in docs/playing.md.
//!
//! Must not: take part in any decision; it is a record of one.

use serde::{Deserialize, Serialize};

/// The first attack as it set out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstWave {
    /// The frame the wave set out from the rally point.
    pub frame: u32,
    /// Units in the wave.
    pub units: u32,
    /// The wave's worth: its units' summed prices.
    pub worth: i64,
}
