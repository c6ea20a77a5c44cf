//! The layout editor's saving: where a save goes and in what form, the question the first
//! save of one of the game's own layouts asks, and turning the player's own layouts mod on so
//! what was saved is what the game shows.
//!
//! A save goes to the front mod that has the layout (a copy of the whole file, or a patch of
//! it), else to the player's own `mods/my-layouts/` (made with its `mod.ron`). It writes only
//! what was edited: into the mod's own copy of the file, without the changes other mods'
//! patches make to it (`ui/unpatch.rs`); else into the mod's `ui/patches/<Layout>.wnd`, the
//! edited keys and windows merged into what the patch already says (`ui/patch_edit.rs`). An
//! original game's file (`OptionsMenu.wnd`) stays as the original wrote it: its edits go into a
//! patch beside it. What will not show as edited once read back (another mod's patch over an
//! edited key, a window order a patch cannot give) is said, and stays an unsaved edit.
//!
//! Must not: write the game's own files, or copy another mod's changes into the editing mod.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::content::ContentRoots;
use crate::game::shell::loading::{as_loaded, read_layout};
use crate::game::shell::patches::patch_files;
use crate::game::shell::prefs::{OWN_LAYOUTS, Prefs};
use crate::game::shell::question::Question;
use crate::game::shell::request::ShellRequest;
use crate::game::shell::stage::Stage;
use crate::ui::original_names::OriginalNames;
use crate::ui::window::short_name;
use crate::ui::wnd::model::WindowDef;
use crate::ui::wnd::{WndFile, parse_patch, same_content, write, write_patch};

use super::session::Editor;

/// Where a save goes, and in what form.
enum Target {
    /// A mod's own copy of the whole layout (there may be none yet).
    Whole(PathBuf),
    /// A mod's patch of the layout, `ui/patches/<Layout>.wnd` (there may be none yet).
    Patch(PathBuf),
}

/// The copy of layout `file` the content root `root` holds, under its own name or an original
/// game's (then true).
fn whole_in(root: &Path, file: &str, names: &OriginalNames) -> Option<(PathBuf, bool)> {
    std::iter::once(file)
        .chain(names.originals_of(file))
        .map(|c| (root.join("ui").join(c), c != file))
        .find(|(p, _)| p.is_file())
}

/// The mod the edits of layout `file` go to: the front one that has the layout, whole or as a
/// patch (none: the layout is the game's alone).
fn editing_mod(roots: &ContentRoots, file: &str, names: &OriginalNames) -> Option<PathBuf> {
    let all = roots.roots();
    let game = all.last();
    all.iter()
        .filter(|r| Some(*r) != game)
        .find(|r| whole_in(r, file, names).is_some() || r.join("ui/patches").join(file).is_file())
        .cloned()
}

/// Where a save of layout `file` goes (see the module's words) — never the game's own folder.
fn save_target(prefs: &Prefs, roots: &ContentRoots, names: &OriginalNames, file: &str) -> Result<Target, String> {
    if let Some(root) = editing_mod(roots, file, names) {
        return Ok(match whole_in(&root, file, names) {
            Some((path, false)) => Target::Whole(path),
            _ => Target::Patch(root.join("ui/patches").join(file)),
        });
    }
    let dir = prefs.own_layouts_dir().ok_or("no settings folder")?;
    let info = dir.join("mod.ron");
    if !info.is_file() {
        let text = "(\n    name: \"My layouts\",\n    version: \"1\",\n    description: \"Layouts saved by the in-game editor.\",\n)\n";
        crate::content::write_file(&info, text.as_bytes()).map_err(|e| e.to_string())?;
    }
    Ok(Target::Whole(dir.join("ui").join(file)))
}

/// What a save wrote and what will not show as edited.
struct Saved {
    /// The file written.
    path: PathBuf,
    /// What will not show as edited once read back (empty: all of it will).
    notes: Vec<String>,
}

/// Writes the edits of the layout (see the module's words); returns where, and what will
/// not show as edited. The edits then count as saved as far as they show when read back.
fn save_edit(ed: &mut Editor, stage: &Stage) -> Result<Saved, String> {
    let roots = &stage.content.roots;
    let names = OriginalNames::load_all(roots).unwrap_or_default();
    let mut notes = Vec::new();
    let (path, text) = match save_target(stage.prefs, roots, &names, &ed.file)? {
        Target::Whole(path) => {
            let patched = !patch_files(roots, &ed.file).is_empty();
            let tree = if patched && path.is_file() {
                let (tree, lost) = crate::ui::unpatch::unpatched(&ed.tree, &ed.base, &read_layout(&path, &names)?);
                notes.extend(
                    lost.into_iter()
                        .map(|w| format!("{w}: another mod's patch adds it, so its edits cannot go into the file")),
                );
                tree
            } else {
                ed.tree.clone()
            };
            (path, write(&tree))
        }
        Target::Patch(path) => {
            let own = if path.is_file() {
                let text = crate::content::read_text(&path).map_err(|e| e.to_string())?;
                parse_patch(&path.display().to_string(), &text).map_err(|e| e.to_string())?
            } else {
                WndFile::default()
            };
            (path, write_patch(&crate::ui::patch_edit::merge_edit(own, &ed.base, &ed.tree)))
        }
    };
    // Written beside and renamed over: a full disk leaves the earlier file as it was.
    crate::content::write_file(&path, text.as_bytes()).map_err(|e| e.to_string())?;
    ed.theirs = None;
    // What the game shows once it reads the files again (a mod not yet on shows it later).
    let in_use = roots.roots().iter().any(|r| path.starts_with(r));
    match as_loaded(roots, &ed.file, &names).map_err(|e| e.to_string()) {
        Ok(shown) if in_use && !same_content(&shown, &ed.tree) => {
            let windows = differing(&shown, &ed.tree);
            notes.push(format!("read back, these windows show otherwise (they stay unsaved): {}", windows.join(", ")));
            ed.base = shown;
        }
        Err(e) if in_use => {
            notes.push(format!("read back: {e}"));
            ed.base = ed.tree.clone();
        }
        _ => ed.base = ed.tree.clone(),
    }
    Ok(Saved { path, notes })
}

/// The windows (short names) that differ between two layouts: in one only, changed, or with
/// their children in another order.
fn differing(a: &WndFile, b: &WndFile) -> Vec<String> {
    fn index(ws: &[WindowDef], out: &mut BTreeMap<String, WindowDef>) {
        for w in ws {
            let mut bare = w.clone();
            bare.children.clear();
            bare.name = w.children.iter().map(|c| short_name(&c.name)).collect::<Vec<_>>().join(",");
            bare.key_lines.clear();
            bare.line = 0;
            out.insert(short_name(&w.name).to_string(), bare);
            index(&w.children, out);
        }
    }
    let (mut x, mut y) = (BTreeMap::new(), BTreeMap::new());
    index(&a.windows, &mut x);
    index(&b.windows, &mut y);
    let out: std::collections::BTreeSet<&String> =
        x.keys().chain(y.keys()).filter(|n| x.get(*n) != y.get(*n)).collect();
    out.into_iter().cloned().collect()
}

/// Saves (`s`, or the panel's Save) and says where, and whether the player's own layouts mod
/// was turned on for it. The first save of one of the game's own layouts, while that mod is
/// off, asks first ([`Question::SaveOwnLayout`]): the edit then goes to a mod the player may
/// not know of, and turns it on.
pub(super) fn save_and_tell(ed: &mut Editor, stage: &mut Stage) {
    let own_is_off = !stage.prefs.settings.mods.iter().any(|m| m == OWN_LAYOUTS);
    let names = OriginalNames::load_all(&stage.content.roots).unwrap_or_default();
    if own_is_off && editing_mod(&stage.content.roots, &ed.file, &names).is_none() {
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
            Ok(saved) => to_own |= stage.prefs.own_layouts_dir().is_some_and(|d| saved.path.starts_with(d)),
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

/// Saves and says where (the answer to the save question, or a save that needs none). Saved
/// into the player's own layouts mod, that mod is turned on (first) if it was off, so what
/// was saved is what the game shows.
pub(super) fn save_now(ed: &mut Editor, stage: &mut Stage) {
    match save_edit(ed, stage) {
        Ok(Saved { path, notes }) => {
            let own = stage.prefs.own_layouts_dir().is_some_and(|d| path.starts_with(d));
            let path = path.display().to_string();
            let said = if own && turn_on_own_layouts(stage) {
                "Message:SavedToOwnOn"
            } else if notes.is_empty() {
                "Message:SavedTo"
            } else {
                "Message:SavedNotAllShows"
            };
            stage.tell("Title:LayoutEditor", said, &[("path", &path), ("notes", &notes.join("; "))]);
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
