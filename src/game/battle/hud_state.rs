//! What the HUD shows of a battle, kept as the frames run: the control bar's state (refusals,
//! lines said), the alerts and their log, the score counted from the tick's events, and the
//! local player's power after the last frame (the top bar, the radar and the control bar's
//! warning read it).
//!
//! Must not: fill the windows (`game/hud` does, from the battle) or change the world.

use crate::sim::power::PowerBalance;

use super::alerts::Alerts;
use super::control_bar::ControlBar;
use super::score::Score;

/// The HUD's part of a battle.
pub(super) struct HudState {
    /// The control bar's state.
    pub control_bar: ControlBar,
    /// What the local player is told about (losses, attacks, finished work).
    pub alerts: Alerts,
    /// Losses and kills counted for the score screen.
    pub score: Score,
    /// The local player's power after the last frame.
    pub power: PowerBalance,
}

impl HudState {
    /// The HUD's state for `players` players, the local one's power now `power`.
    pub fn new(players: usize, power: PowerBalance) -> HudState {
        HudState { control_bar: ControlBar::default(), alerts: Alerts::default(), score: Score::new(players), power }
    }
}
