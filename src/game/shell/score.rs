//! The score screen after a game: the outcome and a row of figures per player.

use crate::ui::{EventKind, UiEvent};

use super::{Screen, Shell};
use crate::ui::window::short_name as short;

pub(super) fn init(shell: &mut Shell) {
    let rows = shell.score_rows.clone();
    if let Some(l) = shell.find("ScoreScreen.wnd:ListScores") {
        shell.ui.list_set_rows(l, rows);
    }
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    if e.kind == EventKind::Selected && short(&e.name) == "ButtonContinue" {
        shell.open(Screen::MainMenu);
    }
}

impl Shell {
    /// Opens the score screen with an outcome line and rows of (player, units lost, units
    /// destroyed, structures, score).
    pub fn show_score(&mut self, outcome: &str, rows: Vec<Vec<String>>) {
        self.score_rows = rows;
        self.open(Screen::Score);
        self.set_text("ScoreScreen.wnd:ScoreOutcome", outcome);
    }
}
