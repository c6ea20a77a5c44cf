//! The mods' single-window patches (`ui/patches/<Layout>.wnd`, the format in `ui/patch.rs`):
//! found in every content root, applied to a layout as it loads (the mods behind first, so
//! the front mod's change is the last made), and the conflicts between them — two mods setting
//! the same key of the same window, or one removing a window another changes — each named
//! with both mods and their `file:line:col`.
//!
//! Must not: write any file, or refuse a layout for a conflict (the front mod's change
//! applies; the conflict is said by `ui-check` and the Mods screen).

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::content::ContentRoots;
use crate::content::mod_info::owner;
use crate::ui::check::{Bindings, check_parsed};
use crate::ui::patch::{Change, apply, changes, without_removals};
use crate::ui::wnd::{WndFile, parse_patch};

/// The folder of a content root that holds its patches.
const PATCHES: &str = "ui/patches";

/// The patch files for the layout `layout` (`MainMenu.wnd`), the lowest-priority root first:
/// (the file, its root).
pub fn patch_files(roots: &ContentRoots, layout: &str) -> Vec<(PathBuf, PathBuf)> {
    roots
        .roots()
        .iter()
        .rev()
        .map(|r| (r.join(PATCHES).join(layout), r.clone()))
        .filter(|(p, r)| p.is_file() && crate::content::mod_info::inside(r, p))
        .collect()
}

/// Every patched layout's name in any root (`MainMenu.wnd`…), sorted.
pub fn patched_layouts(roots: &ContentRoots) -> Vec<String> {
    let mut out: Vec<String> = roots
        .roots()
        .iter()
        .filter_map(|r| std::fs::read_dir(r.join(PATCHES)).ok())
        .flat_map(|d| d.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".wnd"))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Reads and parses one patch file; its problem as a line if it cannot be.
fn read(path: &std::path::Path) -> Result<WndFile, String> {
    let text = crate::content::read_text(path).map_err(|e| e.to_string())?;
    parse_patch(&path.display().to_string(), &text).map_err(|e| e.to_string())
}

/// Applies every root's patch of `layout` to `file` (already given Ridgeline's names), the
/// mods behind first; the problems of the patches that could not apply, each at its
/// `file:line:col` (such a patch changes nothing).
pub fn apply_all(roots: &ContentRoots, layout: &str, file: &mut WndFile) -> Vec<String> {
    let mut problems = Vec::new();
    let patches: Vec<(PathBuf, Result<WndFile, String>)> =
        patch_files(roots, layout).into_iter().map(|(path, _)| (path.clone(), read(&path))).collect();
    for (i, (path, patch)) in patches.iter().enumerate() {
        let patch = match patch {
            Ok(p) => p,
            Err(e) => {
                problems.push(e.clone());
                continue;
            }
        };
        // A window a mod in front changes is not removed by one behind it: the front mod's
        // change applies (the conflict is named by `conflicts`).
        let spared: BTreeSet<String> = patches[i + 1..]
            .iter()
            .filter_map(|(_, p)| p.as_ref().ok())
            .flat_map(changes)
            .filter(|c| c.key != "REMOVE")
            .map(|c| c.window)
            .collect();
        let patch = without_removals(patch, &spared);
        let mut patched = file.clone();
        match apply(&mut patched, layout, &patch, &path.display().to_string()) {
            Ok(()) => *file = patched,
            Err(list) => problems.extend(list.iter().map(ToString::to_string)),
        }
    }
    problems
}

/// [`apply_all`], then the patched layout checked against `bindings` (when given): what the
/// patches brought (an unknown action, image or font) is named at the patch's line, under the
/// patch files' names (a key a patch sets, and a window it adds, keep the patch's lines).
pub fn apply_checked(
    roots: &ContentRoots,
    layout: &str,
    file: &mut WndFile,
    bindings: Option<&Bindings>,
) -> Vec<String> {
    let files = patch_files(roots, layout);
    let problems = apply_all(roots, layout, file);
    let Some(b) = bindings.filter(|_| problems.is_empty() && !files.is_empty()) else { return problems };
    let by: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
    check_parsed(&by.join(" + "), file, Some(b)).problems.iter().map(ToString::to_string).collect()
}

/// One change a mod's patch makes, with where it is.
struct Made {
    /// Whose it is (`mod "x"`).
    owner: String,
    /// The patch file.
    path: PathBuf,
    /// The change.
    change: Change,
}

/// The conflicts between the patches of the mods in `roots`: per layout, window and key set
/// by two mods (or a window one removes and another changes), one line naming both mods with
/// their `file:line:col` and which applies (the front one's).
pub fn conflicts(roots: &ContentRoots) -> Vec<String> {
    let mut out = Vec::new();
    for layout in patched_layouts(roots) {
        // Front mod first, as the roots are.
        let mut made: Vec<Made> = Vec::new();
        for (path, root) in patch_files(roots, &layout).into_iter().rev() {
            let Ok(patch) = read(&path) else { continue };
            let who = owner(roots, &root);
            made.extend(changes(&patch).into_iter().map(|change| Made {
                owner: who.clone(),
                path: path.clone(),
                change,
            }));
        }
        // A window removed by one mod and changed by another is said once, not once a key.
        let mut removal_said: BTreeSet<(String, String, String)> = BTreeSet::new();
        for (i, front) in made.iter().enumerate() {
            for behind in made[i + 1..].iter().filter(|b| b.owner != front.owner) {
                let (f, b) = (&front.change, &behind.change);
                let clash = f.window == b.window && (f.key == b.key || f.key == "REMOVE" || b.key == "REMOVE");
                if !clash || f.key == "ADD" {
                    continue;
                }
                if f.key != b.key && !removal_said.insert((f.window.clone(), front.owner.clone(), behind.owner.clone()))
                {
                    continue;
                }
                let what = if f.key == b.key {
                    format!("{} set", f.key)
                } else if f.key == "REMOVE" {
                    "removed (by the first) and changed (by the second)".to_string()
                } else {
                    "changed (by the first) and removed (by the second)".to_string()
                };
                out.push(format!(
                    "conflict: {layout} window \"{}\" {what} by {} ({}:{}:{}) and by {} ({}:{}:{}); {}'s applies (it is in front)",
                    f.window,
                    front.owner,
                    front.path.display(),
                    f.line,
                    f.col,
                    behind.owner,
                    behind.path.display(),
                    b.line,
                    b.col,
                    front.owner
                ));
            }
        }
    }
    out
}
