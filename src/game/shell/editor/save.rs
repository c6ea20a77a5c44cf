//! The layout editor's saving: where a save goes (the mod the layout came from, else the
//! player's own `mods/my-layouts/`, made with its `mod.ron`), the question the first save of
//! one of the game's own layouts asks, and turning the player's own layouts mod on so what was
//! saved is what the game shows.
//!
//! Must not: write the game's own files.

use std::path::PathBuf;

use crate::content::ContentRoots;
use crate::game::shell::prefs::{OWN_LAYOUTS, Prefs};
use crate::game::shell::question::Question;
use crate::game::shell::request::ShellRequest;
use crate::game::shell::stage::Stage;

use super::session::Editor;

/// Where a save goes: the mod folder the layout was loaded from, else the player's own
/// `mods/my-layouts/ui/` (created with a `mod.ron`) — never the game's own folder.
fn save_target(prefs: &Prefs, roots: &ContentRoots, file: &str) -> Result<PathBuf, String> {
    if let Some(copy) = mod_copy(roots, file) {
        return Ok(copy);
    }
    let dir = prefs.own_layouts_dir().ok_or("no settings folder")?;
    let info = dir.join("mod.ron");
    if !info.is_file() {
        let text = "(\n    name: \"My layouts\",\n    version: \"1\",\n    description: \"Layouts saved by the in-game editor.\",\n)\n";
        crate::content::write_file(&info, text.as_bytes()).map_err(|e| e.to_string())?;
    }
    Ok(dir.join("ui").join(file))
}

/// Writes the edited layout through the canonical writer; returns where.
fn save_edit(ed: &mut Editor, stage: &Stage) -> Result<PathBuf, String> {
    let text = crate::ui::wnd::write(&ed.tree);
    let path = save_target(stage.prefs, &stage.content.roots, &ed.file)?;
    // Written beside and renamed over: a full disk leaves the earlier layout as it was.
    crate::content::write_file(&path, text.as_bytes()).map_err(|e| e.to_string())?;
    ed.base = ed.tree.clone();
    ed.theirs = None;
    Ok(path)
}

/// Saves (`s`, or the panel's Save) and says where, and whether the player's own layouts mod
/// was turned on for it. The first save of one of the game's own layouts, while that mod is
/// off, asks first ([`Question::SaveOwnLayout`]): the edit then goes to a mod the player may
/// not know of, and turns it on.
pub(super) fn save_and_tell(ed: &mut Editor, stage: &mut Stage) {
    let own_is_off = !stage.prefs.settings.mods.iter().any(|m| m == OWN_LAYOUTS);
    if own_is_off && mod_copy(&stage.content.roots, &ed.file).is_none() {
        let dir = stage.prefs.own_layouts_dir().map_or_else(|| "mods/my-layouts".into(), |d| d.display().to_string());
        let text = stage.say("Message:SaveOwnLayout", &[("file", &ed.file), ("folder", &dir)]);
        stage.ask(Question::SaveOwnLayout, &text);
        return;
    }
    save_now(ed, stage);
}

/// The answer Save to the question before quitting: saves every layout with unsaved edits
/// (into its mod, or the player's own layouts mod, turned on) and quits when all are saved; a
/// layout that could not be saved is said, and the game stays.
pub(super) fn save_all_and_quit<'a>(eds: impl Iterator<Item = &'a mut Editor>, stage: &mut Stage) {
    let mut to_own = false;
    for ed in eds.filter(|e| e.unsaved()) {
        match save_edit(ed, stage) {
            Ok(path) => to_own |= stage.prefs.own_layouts_dir().is_some_and(|d| path.starts_with(d)),
            Err(e) => {
                let error = format!("{}: {e}", ed.file);
                return stage.tell("Title:LayoutEditor", "Message:NotSaved", &[("error", &error)]);
            }
        }
    }
    if to_own {
        turn_on_own_layouts(stage);
    }
    stage.request(ShellRequest::QuitNow);
}

/// The copy of layout `file` the first mod that has one holds (where a save goes), if the
/// layout is not the game's own alone.
fn mod_copy(roots: &ContentRoots, file: &str) -> Option<PathBuf> {
    let rel = format!("ui/{file}");
    let all = roots.roots();
    let game = all.last();
    let root = all.iter().find(|r| r.join(&rel).is_file())?;
    (Some(root) != game).then(|| root.join(&rel))
}

/// Saves and says where (the answer to the save question, or a save that needs none). Saved
/// into the player's own layouts mod, that mod is turned on (first) if it was off, so what
/// was saved is what the game shows.
pub(super) fn save_now(ed: &mut Editor, stage: &mut Stage) {
    match save_edit(ed, stage) {
        Ok(path) => {
            let own = stage.prefs.own_layouts_dir().is_some_and(|d| path.starts_with(d));
            let path = path.display().to_string();
            let said = if own && turn_on_own_layouts(stage) { "Message:SavedToOwnOn" } else { "Message:SavedTo" };
            stage.tell("Title:LayoutEditor", said, &[("path", &path)]);
        }
        Err(e) => stage.tell("Title:LayoutEditor", "Message:NotSaved", &[("error", &e.to_string())]),
    }
}

/// Turns the player's own layouts mod on, first, if it is off (saved in the settings; the
/// client then uses it); true if it was off.
fn turn_on_own_layouts(stage: &mut Stage) -> bool {
    if stage.prefs.settings.mods.iter().any(|m| m == OWN_LAYOUTS) {
        return false;
    }
    stage.prefs.settings.mods.insert(0, OWN_LAYOUTS.to_string());
    stage.save_settings();
    stage.request(ShellRequest::ApplyMods);
    true
}
