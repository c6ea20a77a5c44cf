//! What the HUD shows of a battle, kept as the frames run: the control bar's state (refusals,
//! lines said), the alerts and their log, and the
//! local player's power after the last frame (the top bar, the radar and the control bar's
//! warning read it), and the keys the player's commands are on.
//!
//! Must not: fill the windows (`game/hud` does, from the battle) or change the world.

use crate::lockstep::PaceMark;
use crate::sim::power::PowerBalance;

use super::alerts::{AlertKind, Alerts};
use super::control_bar::ControlBar;
use super::play::Play;

/// The HUD's part of a battle.
pub struct HudState {
    /// The control bar's state.
    pub(super) control_bar: ControlBar,
    /// What the local player is told about (losses, attacks, finished work).
    pub(super) alerts: Alerts,
    /// The local player's power after the last frame.
    pub(super) power: PowerBalance,
    /// The string table the alerts are worded from (the game's own texts until the window
    /// gives the player's language).
    pub(super) labels: crate::ui::labels::SharedLabels,
    /// Which key gives which command (the defaults until the window gives the player's).
    pub(super) keys: std::sync::Arc<crate::game::keys::KeyMap>,
    /// The army's buttons, in order (`data/command_sets.ron`).
    pub(super) army: Vec<crate::game::keys::KeyCommand>,
}

impl HudState {
    /// The HUD's state, the local player's power now `power`, the army's buttons `army`.
    pub(super) fn new(
        power: PowerBalance,
        labels: crate::ui::labels::SharedLabels,
        keys: std::sync::Arc<crate::game::keys::KeyMap>,
        army: Vec<crate::game::keys::KeyCommand>,
    ) -> HudState {
        HudState { control_bar: ControlBar::default(), alerts: Alerts::default(), power, labels, keys, army }
    }

    /// Tells the player of a change of pace in `play`.
    pub(super) fn tell_pace(&mut self, play: &Play, mark: PaceMark) {
        let (text, clock) = play.pace_line(mark, &self.labels);
        self.alerts.notice(AlertKind::Pace, text, clock, play.elapsed);
    }

    /// Mirrors the stream's pause and speed in `play` and tells the player of the changes (a
    /// watched replay's pace is its own).
    pub(super) fn follow_pace(&mut self, play: &mut Play) {
        if play.is_replay() {
            return;
        }
        for mark in play.follow_stream_pace() {
            self.tell_pace(play, mark);
        }
    }

    /// A player left, was dropped or came back: said in the alerts (and the log) and on the
    /// control bar, at game second `clock` and battle second `now`.
    pub(super) fn tell_players(&mut self, line: String, clock: u32, now: f32) {
        self.alerts.notice(AlertKind::Players, line.clone(), clock, now);
        self.control_bar.say(line, now);
    }
}
