//! Mods: every mod folder found (the player's `mods/` beside the settings file, the game's
//! shipped `mods/`), each with its description, which of the game's files it replaces or adds,
//! and — for a broken one — its problems with their `file:line` (`mod_list.rs` finds them).
//! The player turns mods on and off and orders them (the first wins); Save keeps the choice in
//! the settings, and the client then uses it: layouts at once, data from the next match.
//!
//! Must not: turn on a broken mod, or change any mod's files.

use crate::game::settings::Settings;
use crate::ui::labels::Labels;
use crate::ui::window::short_name as short;
use crate::ui::{EventKind, UiEvent};

use super::mod_list::{Refused, describe, game_roots, refusal_message, rows};
use super::request::ShellRequest;
use super::screen::Screen;
use super::stage::Stage;

/// Tells the player which mods were left out at start, and why ([`refusal_message`]).
pub(super) fn tell_refusals(stage: &mut Stage, refused: &[Refused]) {
    let labels: std::sync::Arc<Labels> = stage.ui.labels().unwrap_or_default();
    let (title, text) = (stage.say("Title:Mods", &[]), refusal_message(refused, &labels));
    stage.message(&title, &text, false);
}

/// Shows the list (with row `selected` chosen) and the chosen mod's details.
fn show_mods(stage: &mut Stage, selected: Option<usize>) {
    let rows: Vec<Vec<String>> = stage
        .mods
        .iter()
        .map(|m| {
            let state = if !m.problems.is_empty() {
                "broken"
            } else if m.enabled {
                "on"
            } else {
                "off"
            };
            let name = m.info.as_ref().map_or_else(|| m.id.clone(), |i| i.name.clone());
            let version = m.info.as_ref().map_or_else(String::new, |i| i.version.clone());
            vec![state.to_string(), name, version]
        })
        .collect();
    if let Some(l) = stage.find("Mods.wnd:ListMods") {
        stage.ui.list_set_rows(l, rows);
        if let Some(i) = selected {
            stage.ui.list_select(l, Some(i));
        }
    }
    let details = selected.and_then(|i| stage.mods.get(i)).map_or_else(
        || {
            if stage.mods.is_empty() {
                let folder = Settings::mod_folders(stage.prefs.path(), &stage.content.roots)
                    .first()
                    .map_or(String::new(), |d| d.display().to_string());
                stage.say("Message:NoMods", &[("folder", &folder)])
            } else {
                stage.say("Message:ChooseModToSee", &[])
            }
        },
        describe,
    );
    stage.set_text("Mods.wnd:ModDetails", &details);
}

/// The row chosen in the list.
fn selected_mod(stage: &Stage) -> Option<usize> {
    let l = stage.find("Mods.wnd:ListMods")?;
    stage.ui.list_selected(l).first().copied()
}

pub(super) fn init(stage: &mut Stage) {
    let game = game_roots(&stage.prefs.settings, stage.prefs.path(), &stage.content.roots);
    *stage.mods = rows(&stage.prefs.settings, stage.prefs.path(), &game, &stage.content.lexicon);
    let first = (!stage.mods.is_empty()).then_some(0);
    show_mods(stage, first);
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    let chosen = selected_mod(stage);
    match (short(&e.name), &e.kind) {
        ("ListMods", EventKind::ListSelection(_)) => show_mods(stage, chosen),
        ("ButtonToggle", EventKind::Selected) | ("ListMods", EventKind::ListActivated(_)) => {
            let title = stage.say("Title:Mods", &[]);
            let Some(i) = chosen else {
                let text = stage.say("Message:ChooseMod", &[]);
                return stage.message(&title, &text, false);
            };
            let broken = stage.mods.get(i).is_some_and(|m| !m.problems.is_empty());
            if broken {
                let text = stage.say("Message:ModBroken", &[]);
                return stage.message(&title, &text, false);
            }
            if let Some(m) = stage.mods.get_mut(i) {
                m.enabled = !m.enabled;
            }
            show_mods(stage, Some(i));
        }
        ("ButtonUp", EventKind::Selected) => {
            if let Some(i) = chosen.filter(|&i| i > 0) {
                stage.mods.swap(i, i - 1);
                show_mods(stage, Some(i - 1));
            }
        }
        ("ButtonDown", EventKind::Selected) => {
            if let Some(i) = chosen.filter(|&i| i + 1 < stage.mods.len()) {
                stage.mods.swap(i, i + 1);
                show_mods(stage, Some(i + 1));
            }
        }
        ("ButtonSave", EventKind::Selected) => {
            let mut s = stage.prefs.settings.clone();
            s.mods = stage.mods.iter().filter(|m| m.enabled).map(|m| m.id.clone()).collect();
            if stage.save_settings_as("Title:Mods", s).is_some() {
                stage.request(ShellRequest::ApplyMods);
                stage.open(Screen::MainMenu);
            }
        }
        ("ButtonBack", EventKind::Selected) => stage.open(Screen::MainMenu),
        _ => {}
    }
}
