//! Mods: every mod folder found (the player's `mods/` beside the settings file, the game's
//! shipped `mods/`), each with its description, which of the game's files it replaces or adds,
//! and — for a broken one — its problems with their `file:line` (`mod_list.rs` finds them).
//! The player turns mods on and off and orders them (the first wins); Save keeps the choice in
//! the settings, and the client then uses it: layouts at once, data from the next match. An
//! order that puts a mod behind one it requires is not changed silently: Save first shows the
//! list in the order that will be used, and says so; Save again keeps it.
//!
//! Must not: turn on a broken mod, or change any mod's files.

use crate::content::ContentRoots;
use crate::game::settings::Settings;
use crate::ui::labels::Labels;
use crate::ui::window::short_name as short;
use crate::ui::{EventKind, UiEvent};

use super::mod_list::{
    Refused, describe, enabled_in_order, game_roots, refusal_message, required_by, rows, unmet_requirements,
};
use super::patches::conflicts;
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
        .enumerate()
        .map(|(i, m)| {
            let state = if !m.problems.is_empty() {
                "broken"
            } else if m.enabled && !unmet_requirements(stage.mods, i).is_empty() {
                "needs"
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
    let notes = selected.map(|i| row_notes(stage, i)).unwrap_or_default();
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
        |m| describe(m, &notes),
    );
    stage.set_text("Mods.wnd:ModDetails", &details);
}

/// What the details of row `i` add to its description: its requirements not met, and the
/// conflicts of its patches with those of the other mods on (in the list's order).
fn row_notes(stage: &Stage, i: usize) -> Vec<String> {
    let mut notes: Vec<String> =
        unmet_requirements(stage.mods, i).into_iter().map(|w| format!("Not met: {w}")).collect();
    let Some(m) = stage.mods.get(i).filter(|m| m.enabled) else { return notes };
    let game = game_roots(&stage.prefs.settings, stage.prefs.path(), &stage.content.roots);
    let mut dirs: Vec<std::path::PathBuf> = stage.mods.iter().filter(|r| r.enabled).map(|r| r.dir.clone()).collect();
    dirs.extend(game.roots().iter().cloned());
    let me = format!("mod \"{}\"", m.id);
    notes.extend(conflicts(&ContentRoots::new(dirs)).into_iter().filter(|c| c.contains(&me)));
    notes
}

/// Why row `i` cannot be turned off: the mods on that require it, each named.
fn needed_by(stage: &Stage, i: usize) -> Vec<String> {
    let id = stage.mods.get(i).map_or_else(String::new, |m| m.id.clone());
    required_by(stage.mods, i)
        .into_iter()
        .map(|by| format!("mod \"{by}\" requires mod \"{id}\": turn \"{by}\" off first"))
        .collect()
}

/// Puts the mods turned on into the load order their requirements ask for (each in front of
/// the mods it requires), in the places the list gives the mods on (the mods off stay where
/// they are); true when that changed the list.
fn reorder_for_requirements(rows: &mut [super::mod_list::ModRow]) -> bool {
    let wanted = enabled_in_order(rows);
    let places: Vec<usize> = rows.iter().enumerate().filter(|(_, r)| r.enabled).map(|(i, _)| i).collect();
    let shown: Vec<String> = places.iter().map(|&i| rows[i].id.clone()).collect();
    if shown == wanted {
        return false;
    }
    let mut on: Vec<super::mod_list::ModRow> = places.iter().map(|&i| rows[i].clone()).collect();
    for (&place, id) in places.iter().zip(&wanted) {
        if let Some(j) = on.iter().position(|r| &r.id == id) {
            rows[place] = on.swap_remove(j);
        }
    }
    true
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
            // A mod needs its requirements on, and stays on while another on needs it.
            let on = stage.mods.get(i).is_some_and(|m| m.enabled);
            let why = if on { needed_by(stage, i) } else { unmet_requirements(stage.mods, i) };
            if !why.is_empty() {
                return stage.message(&title, &why.join("\n"), false);
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
            // The order requirements ask for is shown before it is kept: the list takes it
            // and says so, and the next Save keeps it (which mod's patch wins changes with it).
            if reorder_for_requirements(stage.mods) {
                let chosen_id = chosen.and_then(|i| stage.mods.get(i)).map(|m| m.id.clone());
                let at = chosen_id.and_then(|id| stage.mods.iter().position(|m| m.id == id));
                show_mods(stage, at);
                let (title, order) = (stage.say("Title:Mods", &[]), enabled_in_order(stage.mods).join(", "));
                let text = stage.say("Message:ModsReordered", &[("order", &order)]);
                return stage.message(&title, &text, false);
            }
            let mut s = stage.prefs.settings.clone();
            s.mods = enabled_in_order(stage.mods);
            if stage.save_settings_as("Title:Mods", s).is_some() {
                stage.request(ShellRequest::ApplyMods);
                stage.open(Screen::MainMenu);
            }
        }
        ("ButtonBack", EventKind::Selected) => stage.open(Screen::MainMenu),
        _ => {}
    }
}
