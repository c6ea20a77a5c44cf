//! The canonical layout writer: a `WndFile` back to WND text with a stable key order and
//! layout (two-space indents, continuation lines aligned under the first value), every key
//! the parser understands and the ones it keeps without using. Once a file has been written,
//! writing it again after an edit changes only the lines of what was edited. `ridgeline
//! ui-fmt` and the layout editor write through here, the editor's patches too ([`write_patch`]).
//!
//! Must not: write anything the parser would read differently (a test parses what it writes).

use std::fmt::Write as _;

use super::model::{
    DrawEntry, FontDef, GadgetData, STATUS_FLAGS, STYLE_FLAGS, ScalingMode, TextColors, WindowDef, WndFile,
};

/// A layout as WND text.
pub fn write(file: &WndFile) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "FILE_VERSION = {};", file.version);
    let layout = [
        ("LAYOUTINIT", &file.layout_init),
        ("LAYOUTUPDATE", &file.layout_update),
        ("LAYOUTSHUTDOWN", &file.layout_shutdown),
    ];
    if layout.iter().any(|(_, v)| v.is_some()) {
        out.push_str("STARTLAYOUTBLOCK\n");
        for (key, value) in layout {
            if let Some(v) = value {
                let _ = writeln!(out, "  {key} = {};", word_or_string(v));
            }
        }
        out.push_str("ENDLAYOUTBLOCK\n");
    }
    for w in &file.windows {
        window(&mut out, w, 0);
    }
    out
}

/// A quoted string (quotes inside escaped).
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\\\""))
}

/// A name as a bare word when it is one, quoted otherwise.
fn word_or_string(s: &str) -> String {
    let bare = !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'[' | b']' | b'.' | b'-' | b'#'))
        && !s.as_bytes()[0].is_ascii_digit()
        && !s.starts_with('-');
    if bare { s.to_string() } else { quoted(s) }
}

fn rgba(c: [u8; 4]) -> String {
    format!("{} {} {} {}", c[0], c[1], c[2], c[3])
}

/// Style flags that name a gadget type: written before the others (`COMBOBOX+TABSTOP`).
const TYPE_STYLES: [&str; 13] = [
    "PUSHBUTTON",
    "RADIOBUTTON",
    "CHECKBOX",
    "VERTSLIDER",
    "HORZSLIDER",
    "SCROLLLISTBOX",
    "ENTRYFIELD",
    "STATICTEXT",
    "PROGRESSBAR",
    "USER",
    "TABCONTROL",
    "TABPANE",
    "COMBOBOX",
];

/// Flag bits as names joined by `+` (type styles first, then the table's order), the names
/// the parser kept without knowing them, and bits without a name as one number.
fn flags(bits: u32, unknown: &[String], table: &[(&str, u32)]) -> String {
    let on = |n: &&(&str, u32)| bits & n.1 != 0;
    let mut parts: Vec<String> =
        table.iter().filter(on).filter(|(n, _)| TYPE_STYLES.contains(n)).map(|(n, _)| n.to_string()).collect();
    parts.extend(table.iter().filter(on).filter(|(n, _)| !TYPE_STYLES.contains(n)).map(|(n, _)| n.to_string()));
    parts.extend(unknown.iter().cloned());
    let named = table.iter().fold(0, |acc, (_, b)| acc | b);
    if bits & !named != 0 || parts.is_empty() {
        parts.push((bits & !named).to_string());
    }
    parts.join("+")
}

/// Continuation lines of draw data start at this column, whatever the depth (as Generals'
/// own files lay them out).
const DRAW_DATA_INDENT: usize = 20;

/// `KEY = first,\n<indent> second, …;` for a value made of several groups; continuation lines
/// align under the first value unless `indent` is given.
fn groups(out: &mut String, pad: &str, key: &str, items: &[String], indent: Option<usize>) {
    let _ = write!(out, "{pad}{key} = ");
    let align = " ".repeat(indent.unwrap_or(pad.len() + key.len() + 3));
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            let _ = write!(out, ",\n{align}");
        }
        out.push_str(item);
    }
    out.push_str(";\n");
}

fn callback(v: &Option<String>) -> String {
    quoted(v.as_deref().unwrap_or("[None]"))
}

fn font(f: &FontDef) -> String {
    format!("NAME: {}, SIZE: {}, BOLD: {}", quoted(&f.name), f.size, u8::from(f.bold))
}

fn text_colors(c: &TextColors) -> Vec<String> {
    vec![
        format!("ENABLED: {}, ENABLEDBORDER: {}", rgba(c.enabled), rgba(c.enabled_border)),
        format!("DISABLED: {}, DISABLEDBORDER: {}", rgba(c.disabled), rgba(c.disabled_border)),
        format!("HILITE: {}, HILITEBORDER: {}", rgba(c.hilite), rgba(c.hilite_border)),
    ]
}

fn draw_data(entries: &[DrawEntry]) -> Vec<String> {
    entries
        .iter()
        .map(|e| {
            format!("IMAGE: {}, COLOR: {}, BORDERCOLOR: {}", word_or_string(&e.image), rgba(e.color), rgba(e.border))
        })
        .collect()
}

fn gadget(g: &GadgetData) -> String {
    g.fields
        .iter()
        .map(|(label, values)| {
            let v: Vec<String> = values.iter().map(i64::to_string).collect();
            format!("{label}: {}", v.join(" "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A mod's patch (`ui/patches/<Layout>.wnd`, see `ui/patch.rs`) as WND text: each window
/// with its name and only the keys it sets (those among its `key_lines`), a removal as
/// `PATCH = REMOVE;`, and a window it adds (one that gives its `WINDOWTYPE`) whole.
pub fn write_patch(file: &WndFile) -> String {
    let mut out = String::new();
    for w in &file.windows {
        patch_window(&mut out, w, 0);
    }
    out
}

/// One window of a patch: whole when it is added, else its name and the keys it sets.
fn patch_window(out: &mut String, w: &WindowDef, depth: usize) {
    if w.key_lines.iter().any(|(k, ..)| k == "WINDOWTYPE") {
        return window(out, w, depth);
    }
    let keys: Vec<&str> = w.key_lines.iter().map(|(k, ..)| k.as_str()).collect();
    window_as(out, w, depth, &|k| keys.contains(&k), true);
}

fn window(out: &mut String, w: &WindowDef, depth: usize) {
    window_as(out, w, depth, &|_| true, false);
}

/// A window's type, rectangle, name (first in a patch's window), flags and callbacks, as
/// `want` says.
fn head(out: &mut String, w: &WindowDef, pad: &str, want: &dyn Fn(&str) -> bool, patch: bool) {
    if patch {
        let _ = writeln!(out, "{pad}NAME = {};", quoted(&w.name));
    }
    if want("WINDOWTYPE") {
        let _ = writeln!(out, "{pad}WINDOWTYPE = {};", w.kind.keyword());
    }
    let r = w.rect;
    if want("SCREENRECT") {
        groups(
            out,
            pad,
            "SCREENRECT",
            &[
                format!("UPPERLEFT: {} {}", r.upper_left.0, r.upper_left.1),
                format!("BOTTOMRIGHT: {} {}", r.bottom_right.0, r.bottom_right.1),
                format!("CREATIONRESOLUTION: {} {}", r.creation_resolution.0, r.creation_resolution.1),
            ],
            None,
        );
    }
    if !patch {
        let _ = writeln!(out, "{pad}NAME = {};", quoted(&w.name));
    }
    if want("STATUS") {
        let _ = writeln!(out, "{pad}STATUS = {};", flags(w.status, &w.status_unknown, &STATUS_FLAGS));
    }
    if want("STYLE") {
        let _ = writeln!(out, "{pad}STYLE = {};", flags(w.style, &w.style_unknown, &STYLE_FLAGS));
    }
    for (key, value) in [
        ("SYSTEMCALLBACK", &w.system_callback),
        ("INPUTCALLBACK", &w.input_callback),
        ("TOOLTIPCALLBACK", &w.tooltip_callback),
        ("DRAWCALLBACK", &w.draw_callback),
    ] {
        if want(key) {
            let _ = writeln!(out, "{pad}{key} = {};", callback(value));
        }
    }
}

/// One window with the keys `want` says (its name always); `patch`: it is a patch's window,
/// its name first, and its children are a patch's windows (see [`patch_window`]).
fn window_as(out: &mut String, w: &WindowDef, depth: usize, want: &dyn Fn(&str) -> bool, patch: bool) {
    let pad = "  ".repeat(depth + 1);
    let outer = "  ".repeat(depth);
    let _ = writeln!(out, "{outer}WINDOW");
    head(out, w, &pad, want, patch);
    if let Some(f) = w.font.as_ref().filter(|_| want("FONT")) {
        let _ = writeln!(out, "{pad}FONT = {};", font(f));
    }
    if want("HEADERTEMPLATE") {
        let _ = writeln!(out, "{pad}HEADERTEMPLATE = {};", quoted(w.header_template.as_deref().unwrap_or("[NONE]")));
    }
    if want("TOOLTIPDELAY") {
        let _ = writeln!(out, "{pad}TOOLTIPDELAY = {};", w.tooltip_delay);
    }
    if want("TEXT") {
        let _ = writeln!(out, "{pad}TEXT = {};", quoted(&w.text));
    }
    if want("TOOLTIPTEXT") {
        let _ = writeln!(out, "{pad}TOOLTIPTEXT = {};", quoted(&w.tooltip_text));
    }
    if want("TEXTCOLOR") {
        groups(out, &pad, "TEXTCOLOR", &text_colors(&w.text_colors), None);
    }
    for (key, entries) in
        [("ENABLEDDRAWDATA", &w.enabled), ("DISABLEDDRAWDATA", &w.disabled), ("HILITEDRAWDATA", &w.hilite)]
    {
        if !entries.is_empty() && want(key) {
            groups(out, &pad, key, &draw_data(entries), Some(DRAW_DATA_INDENT));
        }
    }
    if let Some(g) = w.gadget.as_ref().filter(|g| want(&g.block)) {
        let _ = writeln!(out, "{pad}{} = {};", g.block, gadget(g));
    }
    if let Some(a) = w.anchor.filter(|_| want("ANCHOR")) {
        let edges: Vec<&str> = [(a.left, "LEFT"), (a.right, "RIGHT"), (a.top, "TOP"), (a.bottom, "BOTTOM")]
            .into_iter()
            .filter_map(|(on, n)| on.then_some(n))
            .collect();
        let _ = writeln!(out, "{pad}ANCHOR = {};", edges.join("+"));
    }
    if let Some(m) = w.scaling.filter(|_| want("SCALING")) {
        let _ = writeln!(out, "{pad}SCALING = {};", if m == ScalingMode::Aspect { "ASPECT" } else { "STRETCH" });
    }
    if let Some(a) = w.action.as_ref().filter(|_| want("ACTION")) {
        let _ = writeln!(out, "{pad}ACTION = {};", quoted(a));
    }
    for (key, sound) in [("CLICKSOUND", &w.click_sound), ("HOVERSOUND", &w.hover_sound)] {
        if let Some(s) = sound.as_ref().filter(|_| want(key)) {
            let _ = writeln!(out, "{pad}{key} = {};", quoted(if s.is_empty() { "[None]" } else { s }));
        }
    }
    for (key, value) in w.extra.iter().filter(|(k, _)| want(k)) {
        let _ = writeln!(out, "{pad}{key} = {value};");
    }
    for c in &w.children {
        let _ = writeln!(out, "{pad}CHILD");
        if patch {
            patch_window(out, c, depth + 1);
        } else {
            window(out, c, depth + 1);
        }
    }
    if !w.children.is_empty() {
        let _ = writeln!(out, "{pad}ENDALLCHILDREN");
    }
    let _ = writeln!(out, "{outer}END");
}
