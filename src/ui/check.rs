//! Checking layouts the way `ridgeline ui-check` does: parse, then bind every callback name to
//! the lexicon, every image to `ui/images.ron`, every font to `ui/fonts.ron` and every sound to
//! `data/sounds.ron`. Each problem
//! comes back as `file:line:col: message`.

use super::images::{FontBook, ImageSet};
use super::lexicon::{CallbackKind, Lexicon};
use super::wnd::{WindowDef, WndError, WndFile, parse_with_slips};

/// What names in layouts are checked against.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    /// Callback names.
    pub lexicon: Lexicon,
    /// Images.
    pub images: ImageSet,
    /// Fonts.
    pub fonts: FontBook,
    /// Sound names a layout may give `CLICKSOUND` and `HOVERSOUND` (None: not checked).
    pub sounds: Option<std::collections::BTreeSet<String>>,
    /// The string table labelled texts resolve through.
    pub labels: super::labels::Labels,
    /// The original game's layout, window and callback names (`ui/generals-names.ron`).
    pub names: super::original_names::OriginalNames,
}

/// The result of checking one layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckReport {
    /// Problems (the layout is refused).
    pub problems: Vec<WndError>,
    /// Notes (kept and ignored keys).
    pub notes: Vec<String>,
    /// Windows in the layout.
    pub windows: usize,
}

/// Checks one layout's text; with `bindings` None only the syntax is checked. A misspelt key
/// is told beside every other problem of the layout (its callbacks, images, fonts), not
/// instead of them.
pub fn check(path: &str, text: &str, bindings: Option<&Bindings>) -> CheckReport {
    match parse_with_slips(path, text) {
        Ok((file, slips)) => with_slips(check_parsed(path, &file, bindings), slips),
        Err(e) => CheckReport { problems: vec![e], ..CheckReport::default() },
    }
}

/// `report` with the misspelt keys the parser met among its problems, in file order.
pub fn with_slips(mut report: CheckReport, slips: Vec<WndError>) -> CheckReport {
    report.problems.extend(slips);
    report.problems.sort_by_key(|e| (e.line, e.col));
    report.problems.dedup();
    report
}

/// [`check`] of a layout already parsed from `path` (the game parses each layout once).
pub fn check_parsed(path: &str, file: &WndFile, bindings: Option<&Bindings>) -> CheckReport {
    let mut report = CheckReport { notes: file.notes.clone(), windows: file.all_windows().len(), problems: Vec::new() };
    let Some(b) = bindings else { return report };
    check_callbacks(&mut report, path, file, b);
    check_panel_targets(&mut report, path, file);
    let mut seen = std::collections::BTreeSet::new();
    let mut missing = Missing::default();
    for w in file.all_windows() {
        for (key, t) in [("TEXT", &w.text), ("TOOLTIPTEXT", &w.tooltip_text)] {
            if b.labels.missing(t) {
                let (line, col) = w.key_at(key);
                missing.labels.push((t.clone(), line, col));
            }
        }
        // Unnamed windows (an original layout's `File.wnd:` alone) are many and never looked up.
        let unnamed = w.name.is_empty() || w.name.ends_with(':');
        if !unnamed && !seen.insert(w.name.clone()) {
            let (line, col) = w.key_at("NAME");
            report.problems.push(WndError::new(path, line, col, format!("window name \"{}\" is used twice", w.name)));
        }
        check_window(&mut report, path, w, b, &mut missing);
    }
    // One note per kind for what another game's layout brings, not one per window.
    for (what, mut list, then) in [
        ("image(s) not in the game", missing.images, "drawn as placeholders until imported (ridgeline ui-import)"),
        ("font(s) not in the game", missing.fonts, "drawn with the bundled Noto Sans"),
        (
            "font name(s) no font file gives",
            missing.fallback,
            "drawn in the game's Noto Sans (a mod's ui/fonts/<name>.ttf or .otf draws one in its own face)",
        ),
        ("label(s) with no text in ui/strings.ron", missing.labels, "the label itself shows"),
    ] {
        // Each name once, where it is first given; the note stands at the first of them.
        list.sort_by_key(|(_, line, col)| (*line, *col));
        let mut names: Vec<String> = Vec::new();
        list.retain(|(n, ..)| {
            !names.contains(n) && {
                names.push(n.clone());
                true
            }
        });
        if let Some((_, line, col)) = list.first() {
            let shown: Vec<String> = list.iter().take(6).map(|(n, l, c)| format!("{n} at {l}:{c}")).collect();
            let more = if list.len() > 6 { format!(" and {} more", list.len() - 6) } else { String::new() };
            report.notes.push(format!(
                "{path}:{line}:{col}: {} {what} ({}{more}): {then}",
                list.len(),
                shown.join(", ")
            ));
        }
    }
    report.problems.sort_by_key(|e| (e.line, e.col));
    report.problems.dedup();
    report
}

/// What a layout names that the game lacks (another game's images, fonts and labels), noted
/// once per kind for the whole file.
#[derive(Default)]
struct Missing {
    images: Vec<(String, usize, usize)>,
    fonts: Vec<(String, usize, usize)>,
    /// Font names the game accepts that no mod's font file gives: they fall back.
    fallback: Vec<(String, usize, usize)>,
    labels: Vec<(String, usize, usize)>,
}

/// The name of the game's own face (bundled, never a fallback).
const GAME_FACE: &str = "Noto Sans";

/// The layout's callbacks and actions the game does not bind: a slip near one of the game's
/// names is refused with the name meant, an unknown action refused, another game's callback
/// noted (the window does without it).
fn check_callbacks(report: &mut CheckReport, path: &str, file: &WndFile, b: &Bindings) {
    for u in b.lexicon.unbound(file) {
        let kind = match u.kind {
            CallbackKind::System => "system callback",
            CallbackKind::Input => "input callback",
            CallbackKind::Tooltip => "tooltip callback",
            CallbackKind::Draw => "draw callback",
            CallbackKind::Layout => "layout callback",
            CallbackKind::Action => "action",
        };
        let known = b.lexicon.names(u.kind);
        match crate::content::suggest::nearest(&u.name, known.iter().map(String::as_str)) {
            Some(meant) => report.problems.push(WndError::new(
                path,
                u.line,
                u.col,
                format!("unknown {kind} \"{}\" (did you mean {meant}?)", u.name),
            )),
            None if u.kind == CallbackKind::Action => {
                report.problems.push(WndError::new(path, u.line, u.col, format!("unknown action \"{}\"", u.name)))
            }
            None => {
                let on = if u.window.is_empty() { String::new() } else { format!("window \"{}\": ", u.window) };
                report.notes.push(format!(
                    "{path}:{}:{}: {on}{kind} \"{}\" is not one of Ridgeline's: ignored (the window behaves and draws as its type does)",
                    u.line, u.col, u.name
                ))
            }
        }
    }
}

/// Actions that show, hide or toggle a window of this layout (`show:PanelLoad`,
/// `toggle:MainMenu.wnd:PanelLoad`) must name one it has: a slip is refused at the key, with
/// the name meant. Another layout's windows are looked for when the click comes.
fn check_panel_targets(report: &mut CheckReport, path: &str, file: &WndFile) {
    let windows = file.all_windows();
    let shorts: Vec<&str> = windows.iter().map(|w| super::window::short_name(&w.name)).collect();
    for w in &windows {
        let Some(action) = &w.action else { continue };
        let Some(target) = ["show:", "hide:", "toggle:"].iter().find_map(|v| action.strip_prefix(v)) else { continue };
        let here = match target.split_once(':') {
            Some((f, _)) => windows.iter().any(|o| o.name.starts_with(&format!("{f}:"))),
            None => true,
        };
        let short = super::window::short_name(target);
        if !here || shorts.contains(&short) {
            continue;
        }
        let (line, col) = w.key_at("ACTION");
        let meant = crate::content::suggest::nearest(short, shorts.iter().copied())
            .map_or(String::new(), |m| format!(" (did you mean {m}?)"));
        let message = format!("window \"{}\": ACTION \"{action}\" names no window of this layout{meant}", w.name);
        report.problems.push(WndError::new(path, line, col, message));
    }
}

/// One window's images, sounds, font and click against what the game has.
fn check_window(report: &mut CheckReport, path: &str, w: &WindowDef, b: &Bindings, missing: &mut Missing) {
    let entries = [("ENABLEDDRAWDATA", &w.enabled), ("DISABLEDDRAWDATA", &w.disabled), ("HILITEDRAWDATA", &w.hilite)];
    for (key, e) in entries.iter().flat_map(|(k, list)| list.iter().map(move |e| (*k, e))) {
        if b.images.knows(&e.image) {
            continue;
        }
        // An image of another game's atlas is a placeholder until it is imported.
        let known = b.images.images.keys().map(String::as_str);
        slip_or_missing(report, path, w, key, ("image", &e.image), known, &mut missing.images);
    }
    for (key, sound) in [("CLICKSOUND", &w.click_sound), ("HOVERSOUND", &w.hover_sound)] {
        if let (Some(name), Some(known)) = (sound, &b.sounds)
            && !name.is_empty()
            && !known.contains(name)
        {
            let (line, col) = w.key_at(key);
            report.problems.push(WndError::new(
                path,
                line,
                col,
                format!("window \"{}\": {key} names \"{name}\", which data/sounds.ron does not have", w.name),
            ));
        }
    }
    // A button with neither an action nor a name the code answers draws, shows its tooltip and
    // does nothing: say so (it is not an error: a mod may mean it as a label). Only where the
    // game declares actions at all (a checker with no shell's lexicon does not).
    let actions_known = !b.lexicon.names(CallbackKind::Action).is_empty();
    if w.kind == crate::ui::wnd::model::WindowType::PushButton
        && w.action.is_none()
        && !b.lexicon.handles(&w.name)
        && actions_known
    {
        report.notes.push(format!(
            "{path}:{}:1: window \"{}\" does nothing when clicked: give it an ACTION (such as \"open:Options\"; ui/FORMAT.md lists them)",
            w.line, w.name
        ));
    }
    if let Some(f) = &w.font
        && !f.name.is_empty()
    {
        if !b.fonts.knows(&f.name) {
            let known = b.fonts.families.iter().chain(&b.fonts.files).map(String::as_str);
            slip_or_missing(report, path, w, "FONT", ("font", &f.name), known, &mut missing.fonts);
        } else if !b.fonts.has_file(&f.name) && !f.name.eq_ignore_ascii_case(GAME_FACE) {
            let (line, col) = w.key_at("FONT");
            missing.fallback.push((f.name.clone(), line, col));
        }
    }
}

/// A `what` called `name` that window `w`'s `key` gives and the game lacks: refused at the key
/// when it is near one of `known` (a slip, with the name meant), else kept in `missing` for the
/// file's one note (another game's name).
fn slip_or_missing<'a>(
    report: &mut CheckReport,
    path: &str,
    w: &super::wnd::WindowDef,
    key: &str,
    (what, name): (&str, &str),
    known: impl IntoIterator<Item = &'a str>,
    missing: &mut Vec<(String, usize, usize)>,
) {
    match crate::content::suggest::nearest(name, known) {
        Some(meant) => {
            let (line, col) = w.key_at(key);
            let message = format!("window \"{}\": unknown {what} \"{name}\" (did you mean {meant}?)", w.name);
            report.problems.push(WndError::new(path, line, col, message));
        }
        None => {
            let (line, col) = w.key_at(key);
            missing.push((name.to_string(), line, col));
        }
    }
}
