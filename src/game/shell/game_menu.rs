//! The battle's menu, over the battlefield (the Menu button): Resume, Save (into the saves
//! folder), Options and Leave. The battle is held while it shows, as under any other screen.
//!
//! Must not: reach into the battle: Save is a request the client carries out (and says how it
//! went), Leave asks first as Escape does.

use crate::ui::{EventKind, Key, UiEvent};

use super::request::ShellRequest;
use super::screen::Screen;
use super::stage::Stage;

/// Opens the menu over a running battle (nothing elsewhere).
pub(super) fn open(stage: &mut Stage) {
    if stage.screens.in_battle {
        stage.open(Screen::GameMenu);
        // An online battle (played or watched) is not saved here: its Save is greyed out.
        if let Some(save) = stage.find("GameMenu.wnd:ButtonSave") {
            stage.ui.enable(save, stage.screens.battle_saves);
        }
    }
}

/// Closes the menu: the battle goes on.
pub(super) fn resume(stage: &mut Stage) {
    if stage.screens.in_battle {
        stage.open(Screen::InGame);
    } else {
        stage.open(Screen::MainMenu);
    }
}

/// Asks the client to save the battle.
pub(super) fn save(stage: &mut Stage) {
    stage.request(ShellRequest::SaveBattle);
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    // Escape that no window took closes the menu, as Resume does.
    if e.kind == EventKind::KeyUnhandled(Key::Escape) {
        resume(stage);
    }
}
