//! A whole layout file saved without the patches applied to it: the layout editor edits a
//! layout as loaded (the file, then every mod's single-window patch), but a mod's own copy of
//! the layout must get only what was edited, never the other mods' changes, which they go on
//! making when the file is read again.
//!
//! Must not: read or write files (the editor does).

use std::collections::BTreeMap;

use super::patch::{PATCHABLE, find_mut, remove, set};
use super::patch_edit::same_key;
use super::window::short_name;
use super::wnd::model::{WindowDef, WndFile};

/// Every window of `file` by short name: the window, its parent's short name and its place
/// among its siblings.
fn index(file: &WndFile) -> BTreeMap<String, (&WindowDef, Option<String>, usize)> {
    fn walk<'a>(
        ws: &'a [WindowDef],
        parent: Option<&str>,
        out: &mut BTreeMap<String, (&'a WindowDef, Option<String>, usize)>,
    ) {
        for (i, w) in ws.iter().enumerate() {
            out.insert(short_name(&w.name).to_string(), (w, parent.map(str::to_string), i));
            walk(&w.children, Some(short_name(&w.name)), out);
        }
    }
    let mut out = BTreeMap::new();
    walk(&file.windows, None, &mut out);
    out
}

/// `edited` (the layout as loaded from `file` with the patches applied, `base`, then edited)
/// as the file should hold it: windows the patches added left out, keys the patches set and
/// the edit left alone back to the file's, windows the patches removed back in their place.
/// Also the windows the patches added that were edited (those edits cannot go into the file:
/// the patch adds them).
pub fn unpatched(edited: &WndFile, base: &WndFile, file: &WndFile) -> (WndFile, Vec<String>) {
    let (raw, was) = (index(file), index(base));
    let now = index(edited);
    let mut out = edited.clone();
    let mut lost = Vec::new();
    for (name, (b, ..)) in was.iter().filter(|(n, _)| !raw.contains_key(*n)) {
        if let Some((e, ..)) = now.get(name)
            && !crate::ui::wnd::same_content(&one(e), &one(b))
        {
            lost.push(name.clone());
        }
        remove(&mut out.windows, name);
    }
    for (name, (r, ..)) in &raw {
        let (Some((b, ..)), Some(w)) = (was.get(name), find_mut(&mut out.windows, name)) else { continue };
        for key in PATCHABLE {
            if same_key(w, b, key) && !same_key(b, r, key) {
                set(w, r, key);
            }
        }
    }
    // Windows the patches removed (the topmost of them) come back where the file has them.
    for (name, (r, parent, i)) in &raw {
        let topmost = parent.as_ref().is_none_or(|p| was.contains_key(p));
        if was.contains_key(name) || !topmost {
            continue;
        }
        let siblings = match parent {
            Some(p) => match find_mut(&mut out.windows, p) {
                Some(w) => &mut w.children,
                None => continue,
            },
            None => &mut out.windows,
        };
        siblings.insert((*i).min(siblings.len()), (*r).clone());
    }
    (out, lost)
}

/// A layout of `w` alone, to compare windows with the canonical writer.
fn one(w: &WindowDef) -> WndFile {
    WndFile { windows: vec![w.clone()], ..WndFile::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::patch::apply;
    use crate::ui::wnd::{parse, parse_patch};

    #[test]
    fn the_patches_come_out_and_the_edit_stays() {
        let file = parse(
            "M.wnd",
            "WINDOW\n WINDOWTYPE = USER;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 800 600, CREATIONRESOLUTION: 800 600;\n NAME = \"M.wnd:Root\";\n CHILD\n WINDOW\n  WINDOWTYPE = PUSHBUTTON;\n  SCREENRECT = UPPERLEFT: 10 10, BOTTOMRIGHT: 90 40, CREATIONRESOLUTION: 800 600;\n  NAME = \"M.wnd:A\";\n  TEXT = \"A\";\n END\n CHILD\n WINDOW\n  WINDOWTYPE = PUSHBUTTON;\n  SCREENRECT = UPPERLEFT: 10 50, BOTTOMRIGHT: 90 80, CREATIONRESOLUTION: 800 600;\n  NAME = \"M.wnd:B\";\n  TEXT = \"B\";\n END\n ENDALLCHILDREN\nEND\n",
        )
        .unwrap();
        let theirs = parse_patch(
            "p.wnd",
            "WINDOW\n NAME = \"A\";\n TEXT = \"Theirs\";\nEND\nWINDOW\n NAME = \"B\";\n PATCH = REMOVE;\nEND\nWINDOW\n NAME = \"Root\";\n CHILD\n WINDOW\n  WINDOWTYPE = USER;\n  SCREENRECT = UPPERLEFT: 1 1, BOTTOMRIGHT: 2 2, CREATIONRESOLUTION: 800 600;\n  NAME = \"New\";\n END\n ENDALLCHILDREN\nEND\n",
        )
        .unwrap();
        let mut base = file.clone();
        apply(&mut base, "M.wnd", &theirs, "p.wnd").unwrap();
        let mut edited = base.clone();
        find_mut(&mut edited.windows, "A").unwrap().rect.upper_left.0 = 20;
        let (out, lost) = unpatched(&edited, &base, &file);
        assert!(lost.is_empty());
        let mut wanted = file.clone();
        find_mut(&mut wanted.windows, "A").unwrap().rect.upper_left.0 = 20;
        assert!(crate::ui::wnd::same_content(&out, &wanted), "{}", crate::ui::wnd::write(&out));
    }
}
