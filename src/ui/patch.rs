//! Single-window patches (OpenRA-style): a mod's `ui/patches/<Layout>.wnd` is a WND file whose
//! windows name windows of that layout and carry only the keys to change. Applied to the
//! layout as read (mods behind first, so the front mod's change is the last), several mods
//! patch one layout together instead of the last replacing the whole file.
//!
//! A patch window that names a window of the layout sets each key it gives (`TEXT`, `ACTION`,
//! `SCREENRECT`, …: [`PATCHABLE`]) on it; `PATCH = REMOVE;` removes that window (and its
//! children); a child that names no window of the layout and gives a `WINDOWTYPE` is added,
//! whole, under the patch window it sits in. Names are matched without the `File.wnd:` part.
//!
//! Must not: read files (callers hand in both layouts), or refuse quietly: every window it
//! cannot find is an error at the patch's `file:line:col`, with the nearest name.

use super::window::short_name;
use super::wnd::WndError;
use super::wnd::model::{WindowDef, WndFile};

/// The keys a patch may set on a window of the layout.
pub const PATCHABLE: [&str; 21] = [
    "SCREENRECT",
    "STATUS",
    "STYLE",
    "SYSTEMCALLBACK",
    "INPUTCALLBACK",
    "TOOLTIPCALLBACK",
    "DRAWCALLBACK",
    "FONT",
    "HEADERTEMPLATE",
    "TOOLTIPDELAY",
    "TEXT",
    "TOOLTIPTEXT",
    "ACTION",
    "CLICKSOUND",
    "HOVERSOUND",
    "TEXTCOLOR",
    "ENABLEDDRAWDATA",
    "DISABLEDDRAWDATA",
    "HILITEDRAWDATA",
    "ANCHOR",
    "SCALING",
];

/// The key a patch window gives to remove the window it names (`PATCH = REMOVE;`).
pub const PATCH_KEY: &str = "PATCH";

/// One change a patch makes: to which window (its short name), what (a key, `REMOVE` or
/// `ADD`) and where the patch says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The window changed, removed or added, without its `File.wnd:` part.
    pub window: String,
    /// The key set, or `REMOVE` / `ADD`.
    pub key: String,
    /// Line of the patch file.
    pub line: usize,
    /// Column of the patch file.
    pub col: usize,
}

/// The changes `patch` (read from `path`) makes, without applying them: what conflicts
/// between mods are found from.
pub fn changes(patch: &WndFile) -> Vec<Change> {
    fn walk(w: &WindowDef, out: &mut Vec<Change>) {
        let window = short_name(&w.name).to_string();
        if removes(w) {
            let (line, col) = w.key_at(PATCH_KEY);
            out.push(Change { window, key: "REMOVE".into(), line, col });
            return;
        }
        for (key, line, col) in &w.key_lines {
            if PATCHABLE.contains(&key.as_str()) {
                out.push(Change { window: window.clone(), key: key.clone(), line: *line, col: *col });
            }
        }
        for c in &w.children {
            if adds(c) {
                out.push(Change { window: short_name(&c.name).to_string(), key: "ADD".into(), line: c.line, col: 1 });
            } else {
                walk(c, out);
            }
        }
    }
    let mut out = Vec::new();
    for w in &patch.windows {
        walk(w, &mut out);
    }
    out
}

/// `patch` without its removals of the windows in `spared` (short names): a mod in front
/// changes them, and the front mod's word stands, so they stay.
pub fn without_removals(patch: &WndFile, spared: &std::collections::BTreeSet<String>) -> WndFile {
    fn keep(list: &mut Vec<WindowDef>, spared: &std::collections::BTreeSet<String>) {
        list.retain(|w| !(removes(w) && spared.contains(short_name(&w.name))));
        for w in list.iter_mut() {
            keep(&mut w.children, spared);
        }
    }
    let mut out = patch.clone();
    keep(&mut out.windows, spared);
    out
}

/// True when the patch window removes the window it names.
pub(crate) fn removes(w: &WindowDef) -> bool {
    w.extra.iter().any(|(k, v)| k == PATCH_KEY && v.trim_matches('"').eq_ignore_ascii_case("REMOVE"))
}

/// True when the patch window is a new window to add (it gives its type).
pub(crate) fn adds(w: &WindowDef) -> bool {
    w.key_lines.iter().any(|(k, ..)| k == "WINDOWTYPE")
}

/// Applies `patch` (read from `path`) to `target`, the layout `layout` (`MainMenu.wnd`); every
/// problem at once, each at the patch's `file:line:col`. On error `target` may be half
/// patched: callers patch a copy.
pub fn apply(target: &mut WndFile, layout: &str, patch: &WndFile, path: &str) -> Result<(), Vec<WndError>> {
    let mut problems = Vec::new();
    for w in &patch.windows {
        problems.extend(rectless(w, path));
    }
    for w in &patch.windows {
        if adds(w) && find(&target.windows, short_name(&w.name)).is_none() {
            // A new window at the top of the layout.
            target.windows.push(named_in(w.clone(), layout));
            continue;
        }
        patch_window(&mut target.windows, layout, w, path, &mut problems);
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// One patch window (and its children) against the windows `among` (a layout's roots).
fn patch_window(among: &mut Vec<WindowDef>, layout: &str, p: &WindowDef, path: &str, problems: &mut Vec<WndError>) {
    let name = short_name(&p.name);
    if removes(p) {
        if !remove(among, name) {
            problems.push(not_found(among, layout, p, path));
        }
        return;
    }
    let Some(target) = find_mut(among, name) else {
        problems.push(not_found(among, layout, p, path));
        return;
    };
    for (key, line, col) in &p.key_lines {
        match key.as_str() {
            "NAME" => {}
            k if PATCHABLE.contains(&k) => set(target, p, k),
            k if k == PATCH_KEY => {}
            other => problems.push(WndError::new(
                path,
                *line,
                *col,
                format!(
                    "window \"{name}\": {other} cannot be patched (a patch sets {}; PATCH = REMOVE; removes the window)",
                    PATCHABLE.join(", ")
                ),
            )),
        }
    }
    for c in &p.children {
        if adds(c) && find(&target.children, short_name(&c.name)).is_none() {
            target.children.push(named_in(c.clone(), layout));
        } else {
            // Children of the patch name windows anywhere under the window they sit in.
            let mut kids = std::mem::take(&mut target.children);
            patch_window(&mut kids, layout, c, path, problems);
            target.children = kids;
        }
    }
}

/// The windows a patch adds (under `w`, or `w` itself) without the `SCREENRECT` a new window
/// needs.
fn rectless(w: &WindowDef, path: &str) -> Vec<WndError> {
    let has = |w: &WindowDef, key: &str| w.key_lines.iter().any(|(k, ..)| k == key);
    if adds(w) {
        // A new window and every child of it are whole windows.
        fn all<'a>(w: &'a WindowDef, out: &mut Vec<&'a WindowDef>) {
            out.push(w);
            w.children.iter().for_each(|c| all(c, out));
        }
        let mut list = Vec::new();
        all(w, &mut list);
        return list
            .into_iter()
            .filter(|n| !has(n, "SCREENRECT"))
            .map(|n| {
                WndError::new(path, n.line, 1, format!("new window \"{}\" has no SCREENRECT", short_name(&n.name)))
            })
            .collect();
    }
    w.children.iter().flat_map(|c| rectless(c, path)).collect()
}

/// `w` with its name (and its children's) in the layout's `File.wnd:Name` form.
fn named_in(mut w: WindowDef, layout: &str) -> WindowDef {
    if !w.name.contains(':') {
        w.name = format!("{layout}:{}", w.name);
    }
    w.children = w.children.into_iter().map(|c| named_in(c, layout)).collect();
    w
}

/// Copies the value of `key` (one of [`PATCHABLE`]) from the patch window `p` to `w`.
pub(crate) fn set(w: &mut WindowDef, p: &WindowDef, key: &str) {
    match key {
        "SCREENRECT" => w.rect = p.rect,
        "STATUS" => (w.status, w.status_unknown) = (p.status, p.status_unknown.clone()),
        "STYLE" => (w.style, w.style_unknown) = (p.style, p.style_unknown.clone()),
        "SYSTEMCALLBACK" => w.system_callback = p.system_callback.clone(),
        "INPUTCALLBACK" => w.input_callback = p.input_callback.clone(),
        "TOOLTIPCALLBACK" => w.tooltip_callback = p.tooltip_callback.clone(),
        "DRAWCALLBACK" => w.draw_callback = p.draw_callback.clone(),
        "FONT" => w.font = p.font.clone(),
        "HEADERTEMPLATE" => w.header_template = p.header_template.clone(),
        "TOOLTIPDELAY" => w.tooltip_delay = p.tooltip_delay,
        "TEXT" => w.text = p.text.clone(),
        "TOOLTIPTEXT" => w.tooltip_text = p.tooltip_text.clone(),
        "ACTION" => w.action = p.action.clone(),
        "CLICKSOUND" => w.click_sound = p.click_sound.clone(),
        "HOVERSOUND" => w.hover_sound = p.hover_sound.clone(),
        "TEXTCOLOR" => w.text_colors = p.text_colors,
        "ENABLEDDRAWDATA" => w.enabled = p.enabled.clone(),
        "DISABLEDDRAWDATA" => w.disabled = p.disabled.clone(),
        "HILITEDRAWDATA" => w.hilite = p.hilite.clone(),
        "SCALING" => w.scaling = p.scaling,
        _ => w.anchor = p.anchor,
    }
    // Where the key now comes from: checks point at the patch's line for it.
    w.key_lines.retain(|(k, ..)| k != key);
    w.key_lines.extend(p.key_lines.iter().filter(|(k, ..)| k == key).cloned());
}

/// The window called `name` (short) among `windows` and their children.
pub(crate) fn find<'a>(windows: &'a [WindowDef], name: &str) -> Option<&'a WindowDef> {
    windows.iter().find_map(|w| if short_name(&w.name) == name { Some(w) } else { find(&w.children, name) })
}

/// As [`find`], to change it.
pub(crate) fn find_mut<'a>(windows: &'a mut [WindowDef], name: &str) -> Option<&'a mut WindowDef> {
    for w in windows.iter_mut() {
        if short_name(&w.name) == name {
            return Some(w);
        }
        if let Some(found) = find_mut(&mut w.children, name) {
            return Some(found);
        }
    }
    None
}

/// Removes the window called `name` from `windows` or their children; false if none is.
pub(crate) fn remove(windows: &mut Vec<WindowDef>, name: &str) -> bool {
    if let Some(i) = windows.iter().position(|w| short_name(&w.name) == name) {
        windows.remove(i);
        return true;
    }
    windows.iter_mut().any(|w| remove(&mut w.children, name))
}

/// The error for a patch window naming no window of the layout, with the nearest name.
fn not_found(among: &[WindowDef], layout: &str, p: &WindowDef, path: &str) -> WndError {
    fn names<'a>(ws: &'a [WindowDef], out: &mut Vec<&'a str>) {
        for w in ws {
            out.push(short_name(&w.name));
            names(&w.children, out);
        }
    }
    let mut known = Vec::new();
    names(among, &mut known);
    let name = short_name(&p.name);
    let meant = crate::content::suggest::nearest(name, known.iter().copied())
        .map_or(String::new(), |m| format!(" (did you mean {m}?)"));
    let (line, col) = p.key_at("NAME");
    WndError::new(
        path,
        line,
        col,
        format!("patch names window \"{name}\", which {layout} does not have{meant}; a new window needs a WINDOWTYPE"),
    )
}
