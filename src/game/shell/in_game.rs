//! The battle's own windows: the top bar with the player's money, the game clock and the Menu
//! button (which asks before leaving the battle).
//!
//! Must not: reach into the battle; the client fills the bar through [`Shell::set_hud`] and
//! reads [`Shell::leave_battle`].

use crate::ui::{EventKind, UiEvent};

use super::Shell;
use super::callbacks::short;

/// The title of the question the Menu button asks.
pub(super) const LEAVE_TITLE: &str = "Leave battle";

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    if e.kind == EventKind::Selected && short(&e.name) == "ButtonMenu" {
        shell.ask_leave_battle();
    }
}

impl Shell {
    /// Asks whether to leave the battle (the Menu button and Escape).
    pub fn ask_leave_battle(&mut self) {
        self.message(LEAVE_TITLE, "Leave the battle and return to the main menu?", true);
    }

    /// Shows the local player's money and the game time (seconds) in the top bar.
    pub fn set_hud(&mut self, money: i64, seconds: u32) {
        self.set_text("InGame.wnd:LabelMoney", &format!("${money}"));
        self.set_text("InGame.wnd:LabelClock", &format!("{}:{:02}", seconds / 60, seconds % 60));
    }
}
