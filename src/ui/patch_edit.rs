//! The patch an edit makes: what the layout editor changed in a layout (as loaded, every mod's
//! patch applied, against as edited) as the changes of a mod's single-window patch
//! (`ui/patch.rs`) — keys set, windows removed, windows added — merged into the patch the mod
//! already has, so saving writes only what was edited and another mod's changes are never
//! copied into it.
//!
//! A window whose change no patch key carries (its type, gadget data, a key cleared, a new
//! name, a new parent) is removed and added again, whole. A patch adds new windows last among
//! their siblings, so an order it cannot give shows otherwise when read back (the editor keeps
//! that part unsaved).
//!
//! Must not: read or write files (the editor does), or copy into the patch a key the edit did
//! not change.

use std::collections::{BTreeMap, BTreeSet};

use super::patch::{PATCH_KEY, PATCHABLE, adds, find_mut, remove, removes, set};
use super::window::short_name;
use super::wnd::model::{WindowDef, WndFile};

/// One change of the edit.
#[derive(Clone, Debug, PartialEq)]
enum Edit {
    /// Keys of a window set to the edited window's values.
    Set(Vec<String>, WindowDef),
    /// A window removed (by its short name).
    Remove(String),
    /// A window added whole under a parent (short name; none: at the top).
    Add(Option<String>, WindowDef),
    /// A window changed beyond what patch keys carry: removed and added again, whole.
    Replace(Option<String>, WindowDef),
}

/// Every window of `file` by short name: the window and its parent's short name.
fn index(file: &WndFile) -> BTreeMap<String, (&WindowDef, Option<String>)> {
    fn walk<'a>(
        ws: &'a [WindowDef],
        parent: Option<&str>,
        out: &mut BTreeMap<String, (&'a WindowDef, Option<String>)>,
    ) {
        for w in ws {
            out.insert(short_name(&w.name).to_string(), (w, parent.map(str::to_string)));
            walk(&w.children, Some(short_name(&w.name)), out);
        }
    }
    let mut out = BTreeMap::new();
    walk(&file.windows, None, &mut out);
    out
}

/// True when `a` and `b` give `key` the same value.
pub(crate) fn same_key(a: &WindowDef, b: &WindowDef, key: &str) -> bool {
    let mut x = a.clone();
    set(&mut x, b, key);
    x.key_lines = a.key_lines.clone();
    x == *a
}

/// True when a patch can give `w`'s value of `key` (a key that is absent or empty cannot be
/// written).
fn writable(w: &WindowDef, key: &str) -> bool {
    match key {
        "FONT" => w.font.is_some(),
        "ACTION" => w.action.is_some(),
        "ANCHOR" => w.anchor.is_some(),
        "SCALING" => w.scaling.is_some(),
        "CLICKSOUND" => w.click_sound.is_some(),
        "HOVERSOUND" => w.hover_sound.is_some(),
        "ENABLEDDRAWDATA" => !w.enabled.is_empty(),
        "DISABLEDDRAWDATA" => !w.disabled.is_empty(),
        "HILITEDRAWDATA" => !w.hilite.is_empty(),
        _ => true,
    }
}

/// True when `b` differs from `a` in something no patch key sets (its children aside).
fn beyond_keys(a: &WindowDef, b: &WindowDef) -> bool {
    let mut x = a.clone();
    for k in PATCHABLE {
        set(&mut x, b, k);
    }
    let bare = |w: &mut WindowDef| {
        w.children.clear();
        w.key_lines.clear();
        w.line = 0;
    };
    let mut y = b.clone();
    x.name = y.name.clone();
    bare(&mut x);
    bare(&mut y);
    x != y
}

/// The changes from `base` (the layout as loaded) to `edited`.
fn edits(base: &WndFile, edited: &WndFile) -> Vec<Edit> {
    let (was, now) = (index(base), index(edited));
    let mut out: Vec<Edit> = was
        .iter()
        .filter(|(name, (_, parent))| !now.contains_key(*name) && parent.as_ref().is_none_or(|p| now.contains_key(p)))
        .map(|(name, _)| Edit::Remove(name.clone()))
        .collect();
    fn walk(
        ws: &[WindowDef],
        parent: Option<&str>,
        was: &BTreeMap<String, (&WindowDef, Option<String>)>,
        out: &mut Vec<Edit>,
    ) {
        for w in ws {
            let name = short_name(&w.name);
            let owner = parent.map(str::to_string);
            match was.get(name) {
                Some((b, p)) if *p == owner && !beyond_keys(b, w) => {
                    let keys: Vec<String> =
                        PATCHABLE.iter().filter(|k| !same_key(b, w, k)).map(|k| k.to_string()).collect();
                    if keys.iter().all(|k| writable(w, k)) {
                        if !keys.is_empty() {
                            out.push(Edit::Set(keys, w.clone()));
                        }
                        walk(&w.children, Some(name), was, out);
                    } else {
                        out.push(Edit::Replace(owner, w.clone()));
                    }
                }
                Some(_) => out.push(Edit::Replace(owner, w.clone())),
                None => out.push(Edit::Add(owner, w.clone())),
            }
        }
    }
    walk(&edited.windows, None, &was, &mut out);
    out
}

/// `w` and every window in it marked as added whole (each gives its type and rectangle, as a
/// patch's new windows do).
fn whole(mut w: WindowDef) -> WindowDef {
    for key in ["WINDOWTYPE", "SCREENRECT"] {
        if !w.key_lines.iter().any(|(k, ..)| k == key) {
            w.key_lines.push((key.to_string(), 0, 0));
        }
    }
    w.children = w.children.into_iter().map(whole).collect();
    w
}

/// A patch window naming `w` and setting `keys` (none: a window only children sit in).
fn naming(w: &WindowDef, keys: &[String]) -> WindowDef {
    let mut p = w.clone();
    p.children.clear();
    p.extra.clear();
    p.key_lines =
        std::iter::once("NAME").chain(keys.iter().map(String::as_str)).map(|k| (k.to_string(), 0, 0)).collect();
    p
}

/// The window `name` inside a window the patch adds (or that window itself), to change.
fn added_mut<'a>(ws: &'a mut [WindowDef], name: &str) -> Option<&'a mut WindowDef> {
    for w in ws.iter_mut() {
        if adds(w) {
            if let Some(found) = find_mut(std::slice::from_mut(w), name) {
                return Some(found);
            }
        } else if let Some(found) = added_mut(&mut w.children, name) {
            return Some(found);
        }
    }
    None
}

/// Takes the window `name` out of the windows the patch adds; true if it was one of them.
fn remove_added(ws: &mut Vec<WindowDef>, name: &str) -> bool {
    if let Some(i) = ws.iter().position(|w| adds(w) && short_name(&w.name) == name) {
        ws.remove(i);
        return true;
    }
    ws.iter_mut().any(|w| if adds(w) { remove(&mut w.children, name) } else { remove_added(&mut w.children, name) })
}

/// The patch's own window for `name` (one that sets keys on it, or holds children for it).
fn patching_mut<'a>(ws: &'a mut [WindowDef], name: &str) -> Option<&'a mut WindowDef> {
    for w in ws.iter_mut().filter(|w| !adds(w) && !removes(w)) {
        if short_name(&w.name) == name {
            return Some(w);
        }
        if let Some(found) = patching_mut(&mut w.children, name) {
            return Some(found);
        }
    }
    None
}

/// Drops the patch's windows that change any of `names` (a window removed, and all in it).
fn forget(ws: &mut Vec<WindowDef>, names: &BTreeSet<String>) {
    ws.retain(|w| removes(w) || !names.contains(short_name(&w.name)));
    for w in ws.iter_mut().filter(|w| !adds(w)) {
        forget(&mut w.children, names);
    }
}

/// Adds `w` (whole) under `parent` in the patch.
fn add_under(patch: &mut WndFile, parent: Option<&str>, w: WindowDef, base: &WndFile) {
    let w = whole(w);
    let Some(parent) = parent else { return patch.windows.push(w) };
    if let Some(p) = added_mut(&mut patch.windows, parent) {
        return p.children.push(w);
    }
    if let Some(p) = patching_mut(&mut patch.windows, parent) {
        return p.children.push(w);
    }
    let Some((holder, _)) = index(base).get(parent).map(|(h, p)| ((*h).clone(), p.clone())) else { return };
    let mut holder = naming(&holder, &[]);
    holder.children.push(w);
    patch.windows.push(holder);
}

/// Removes the window `name` in the patch: a window the patch itself adds is taken out of it;
/// any other is removed by a `PATCH = REMOVE;` at the patch's top (before what it adds), and
/// the patch's own changes to it and to the windows in it go.
fn remove_in(patch: &mut WndFile, name: &str, base: &WndFile) {
    let all = index(base);
    let mut gone: BTreeSet<String> = BTreeSet::from([name.to_string()]);
    let mut more = true;
    while more {
        let inside: Vec<String> = all
            .iter()
            .filter(|(n, (_, p))| !gone.contains(*n) && p.as_ref().is_some_and(|p| gone.contains(p)))
            .map(|(n, _)| n.clone())
            .collect();
        more = !inside.is_empty();
        gone.extend(inside);
    }
    if remove_added(&mut patch.windows, name) {
        return;
    }
    forget(&mut patch.windows, &gone);
    let Some((w, _)) = all.get(name) else { return };
    let mut removal = naming(w, &[PATCH_KEY.to_string()]);
    removal.extra = vec![(PATCH_KEY.to_string(), "REMOVE".to_string())];
    patch.windows.insert(0, removal);
}

/// `patch` (the mod's patch of the layout, empty for none) with the changes from `base` (the
/// layout as loaded, every patch applied) to `edited` merged in: the patch to write.
pub fn merge_edit(mut patch: WndFile, base: &WndFile, edited: &WndFile) -> WndFile {
    for edit in edits(base, edited) {
        match edit {
            Edit::Set(keys, w) => {
                let name = short_name(&w.name).to_string();
                let target = match added_mut(&mut patch.windows, &name) {
                    Some(a) => Some(a),
                    None => patching_mut(&mut patch.windows, &name),
                };
                match target {
                    Some(t) => {
                        for k in &keys {
                            set(t, &w, k);
                            if !t.key_lines.iter().any(|(key, ..)| key == k) {
                                t.key_lines.push((k.clone(), 0, 0));
                            }
                        }
                    }
                    None => patch.windows.push(naming(&w, &keys)),
                }
            }
            Edit::Remove(name) => remove_in(&mut patch, &name, base),
            Edit::Add(parent, w) => add_under(&mut patch, parent.as_deref(), w, base),
            Edit::Replace(parent, w) => {
                let name = short_name(&w.name).to_string();
                if let Some(a) = added_mut(&mut patch.windows, &name) {
                    *a = whole(w);
                    continue;
                }
                remove_in(&mut patch, &name, base);
                add_under(&mut patch, parent.as_deref(), w, base);
            }
        }
    }
    patch
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::patch::apply;
    use crate::ui::wnd::{parse, parse_patch, same_content, write_patch};

    const LAYOUT: &str = "WINDOW\n WINDOWTYPE = USER;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 800 600, CREATIONRESOLUTION: 800 600;\n NAME = \"M.wnd:Root\";\n TEXT = \"Root\";\n CHILD\n WINDOW\n  WINDOWTYPE = PUSHBUTTON;\n  SCREENRECT = UPPERLEFT: 10 10, BOTTOMRIGHT: 90 40, CREATIONRESOLUTION: 800 600;\n  NAME = \"M.wnd:A\";\n  TEXT = \"A\";\n END\n CHILD\n WINDOW\n  WINDOWTYPE = PUSHBUTTON;\n  SCREENRECT = UPPERLEFT: 10 50, BOTTOMRIGHT: 90 80, CREATIONRESOLUTION: 800 600;\n  NAME = \"M.wnd:B\";\n  TEXT = \"B\";\n END\n ENDALLCHILDREN\nEND\n";

    fn edited(f: impl FnOnce(&mut WndFile)) -> (WndFile, WndFile) {
        let base = parse("M.wnd", LAYOUT).unwrap();
        let mut e = base.clone();
        f(&mut e);
        (base, e)
    }

    /// The patch written and read back, applied to `base`: what the game will show.
    fn read_back(base: &WndFile, patch: &WndFile) -> (String, WndFile) {
        let text = write_patch(patch);
        let parsed = parse_patch("p.wnd", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut shown = base.clone();
        apply(&mut shown, "M.wnd", &parsed, "p.wnd").unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        (text, shown)
    }

    #[test]
    fn a_changed_key_is_all_the_patch_sets() {
        let (base, e) = edited(|e| find_mut(&mut e.windows, "A").unwrap().text = "Go".into());
        let (text, shown) = read_back(&base, &merge_edit(WndFile::default(), &base, &e));
        assert_eq!(text, "WINDOW\n  NAME = \"M.wnd:A\";\n  TEXT = \"Go\";\nEND\n");
        assert!(same_content(&shown, &e));
    }

    #[test]
    fn removed_added_and_renamed_windows_read_back_as_edited() {
        let (base, e) = edited(|e| {
            remove(&mut e.windows, "A");
            let b = find_mut(&mut e.windows, "B").unwrap();
            b.name = "M.wnd:Bee".into();
            let mut c = b.clone();
            c.name = "M.wnd:C".into();
            find_mut(&mut e.windows, "Root").unwrap().children.push(c);
        });
        let (text, shown) = read_back(&base, &merge_edit(WndFile::default(), &base, &e));
        assert!(same_content(&shown, &e), "{text}");
        assert!(!text.contains("\"Root\""), "the root's text is not written: {text}");
    }

    #[test]
    fn an_edit_merges_into_the_mods_own_patch() {
        let own = parse_patch(
            "p.wnd",
            "WINDOW\n NAME = \"B\";\n TEXT = \"Mine\";\nEND\nWINDOW\n NAME = \"A\";\n PATCH = REMOVE;\nEND\n",
        )
        .unwrap();
        let layout = parse("M.wnd", LAYOUT).unwrap();
        let mut base = layout.clone();
        apply(&mut base, "M.wnd", &own, "p.wnd").unwrap();
        let mut e = base.clone();
        find_mut(&mut e.windows, "B").unwrap().rect.upper_left.0 = 20;
        let (text, shown) = read_back(&layout, &merge_edit(own, &base, &e));
        assert!(same_content(&shown, &e), "{text}");
        assert!(text.contains("TEXT = \"Mine\"") && text.contains("PATCH = REMOVE"), "{text}");
        assert_eq!(text.matches("NAME = \"B\"").count(), 1, "{text}");
    }
}
