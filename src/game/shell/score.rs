//! The score screen after a game: the outcome and a row of figures per player.

use crate::ui::window::short_name as short;
use crate::ui::{EventKind, UiEvent};

use super::screen::Screen;
use super::stage::Stage;

pub(super) fn init(stage: &mut Stage) {
    let rows = stage.screens.score_rows.clone();
    if let Some(l) = stage.find("ScoreScreen.wnd:ListScores") {
        stage.ui.list_set_rows(l, rows);
    }
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    if e.kind == EventKind::Selected && short(&e.name) == "ButtonContinue" {
        stage.open(stage.screens.after_score.unwrap_or(Screen::MainMenu));
    }
}

/// Opens the score screen with an outcome line and rows of (player, units lost, units
/// destroyed, structures, score); Continue then goes to `then`.
pub(super) fn show(stage: &mut Stage, outcome: &str, rows: Vec<Vec<String>>, then: Screen) {
    stage.screens.score_rows = rows;
    stage.screens.after_score = Some(then);
    stage.open(Screen::Score);
    stage.set_text("ScoreScreen.wnd:ScoreOutcome", outcome);
}
