//! What the layout editor's panel shows and accepts, as plain functions of the layout: the tree's
//! rows, the callback kinds and the names each may take, the draw list of a state, status flag
//! bits, colours and gadget data read from typed text, and whether a rename is allowed.
//!
//! Must not: touch the screen or the edited tree (the panel, `panel.rs`, does both).

use crate::ui::wnd::model::{DrawEntry, FontDef, GadgetData, STATUS_FLAGS, ScalingMode, WindowDef, WindowType};

/// Every window of a layout in tree order: its full name, and the row the tree panel shows
/// (its short name, indented two spaces a level).
pub(super) fn tree_rows(windows: &[WindowDef]) -> Vec<(String, String)> {
    fn walk(w: &WindowDef, depth: usize, out: &mut Vec<(String, String)>) {
        let short = crate::ui::window::short_name(&w.name);
        out.push((w.name.clone(), format!("{}{short}", "  ".repeat(depth))));
        for c in &w.children {
            walk(c, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    for w in windows {
        walk(w, 0, &mut out);
    }
    out
}

/// The callbacks the panel sets, in the order of its list, with the lexicon's kind for each:
/// the four callbacks, then the declared action (what a click does).
pub(super) const CALLBACK_KINDS: [(&str, crate::ui::lexicon::CallbackKind); 5] = [
    ("System", crate::ui::lexicon::CallbackKind::System),
    ("Input", crate::ui::lexicon::CallbackKind::Input),
    ("Tooltip", crate::ui::lexicon::CallbackKind::Tooltip),
    ("Draw", crate::ui::lexicon::CallbackKind::Draw),
    ("Action", crate::ui::lexicon::CallbackKind::Action),
];

/// The names a callback of the panel's kind `kind` may take: the game's `lexicon` for it.
pub(super) fn callback_names(lexicon: &crate::ui::lexicon::Lexicon, kind: usize) -> Vec<String> {
    let kind = CALLBACK_KINDS.get(kind).map_or(crate::ui::lexicon::CallbackKind::System, |k| k.1);
    lexicon.names(kind)
}

/// A window's callback of the panel's kind `kind`.
pub(super) fn callback_of(w: &mut WindowDef, kind: usize) -> &mut Option<String> {
    match kind {
        1 => &mut w.input_callback,
        2 => &mut w.tooltip_callback,
        3 => &mut w.draw_callback,
        4 => &mut w.action,
        _ => &mut w.system_callback,
    }
}

/// The states whose background image the panel sets, in the order of its list.
pub(super) const IMAGE_STATES: [&str; 3] = ["Enabled", "Disabled", "Hilite"];

/// The further draw entries a window kind uses in a state (entry 1, entry 2, …), by what
/// each draws (`ui/FORMAT.md`'s table): a check box's box and mark, a slider's track and
/// thumb, a button's pressed look (highlighted state only).
fn draw_parts(kind: WindowType, state: usize) -> &'static [&'static str] {
    match kind {
        WindowType::PushButton if state == 2 => &["pressed"],
        WindowType::CheckBox => &["box", "mark"],
        WindowType::RadioButton => &["ring", "dot"],
        WindowType::HorzSlider | WindowType::VertSlider => &["track", "thumb"],
        WindowType::ScrollListBox => &["selected row"],
        WindowType::ComboBox => &["drop-down", "chosen item"],
        WindowType::ProgressBar => &["bar"],
        WindowType::TabControl => &["tab", "active tab"],
        _ => &[],
    }
}

/// The images of a window kind the panel lets one choose: for each state its background
/// (entry 0) and then the further entries its kind draws. Each is (state, entry, label).
pub(super) fn image_slots(kind: WindowType) -> Vec<(usize, usize, String)> {
    let mut slots = Vec::new();
    for (state, name) in IMAGE_STATES.iter().enumerate() {
        slots.push((state, 0, name.to_string()));
        for (i, part) in draw_parts(kind, state).iter().enumerate() {
            slots.push((state, i + 1, format!("{name} {part}")));
        }
    }
    slots
}

/// The scaling choices of the panel: none written (the screen's), or one of the extension's.
pub(super) const SCALING_CHOICES: [(&str, Option<ScalingMode>); 3] =
    [("Screen's", None), ("Stretch", Some(ScalingMode::Stretch)), ("Aspect", Some(ScalingMode::Aspect))];

/// The colours the panel's colour field edits, in the order of its list: of the chosen image
/// slot's state, the text and its border (shadow); of the slot's draw entry, the image's tint
/// and its border.
pub(super) const COLOUR_KINDS: [&str; 4] = ["Text", "Shadow", "Tint", "Border"];

/// A draw entry the layout leaves out: nothing drawn.
const BLANK_ENTRY: ([u8; 4], [u8; 4]) = ([255, 255, 255, 0], [255, 255, 255, 0]);

/// A window's colour of the panel's kind `kind` (an index of [`COLOUR_KINDS`]) for a state of
/// [`IMAGE_STATES`] and a draw entry of that state (an entry the layout leaves out reads as
/// nothing drawn: white, transparent).
pub(super) fn colour_of(w: &mut WindowDef, kind: usize, state: usize, entry: usize) -> [u8; 4] {
    match kind {
        0 | 1 => *text_colour(w, kind == 1, state),
        _ => {
            let d = draw_list(w, state).get(entry).map_or(BLANK_ENTRY, |d| (d.color, d.border));
            if kind == 2 { d.0 } else { d.1 }
        }
    }
}

/// Sets a colour [`colour_of`] reads; false when it already was `colour`. A draw entry the
/// layout left out is written, with those before it, as nothing drawn but this colour.
pub(super) fn set_colour(w: &mut WindowDef, kind: usize, state: usize, entry: usize, colour: [u8; 4]) -> bool {
    if colour_of(w, kind, state, entry) == colour {
        return false;
    }
    match kind {
        0 | 1 => *text_colour(w, kind == 1, state) = colour,
        2 => draw_entry(w, state, entry).color = colour,
        _ => draw_entry(w, state, entry).border = colour,
    }
    true
}

/// A window's text colour (or its border, the text's shadow) for a state of [`IMAGE_STATES`].
fn text_colour(w: &mut WindowDef, border: bool, state: usize) -> &mut [u8; 4] {
    let c = &mut w.text_colors;
    match (state, border) {
        (1, false) => &mut c.disabled,
        (1, true) => &mut c.disabled_border,
        (2, false) => &mut c.hilite,
        (2, true) => &mut c.hilite_border,
        (_, false) => &mut c.enabled,
        (_, true) => &mut c.enabled_border,
    }
}

/// A window's draw entry `entry` of a state of [`IMAGE_STATES`]; entries up to it that the
/// layout leaves out are added as nothing drawn.
pub(super) fn draw_entry(w: &mut WindowDef, state: usize, entry: usize) -> &mut DrawEntry {
    let list = draw_list(w, state);
    while list.len() <= entry {
        list.push(DrawEntry { image: "NoImage".into(), color: BLANK_ENTRY.0, border: BLANK_ENTRY.1 });
    }
    &mut list[entry]
}

/// The families to offer for a window whose font is `current`: the book's, with a name the
/// book lacks (an original layout's) kept at the end; and where `current` is among them.
pub(super) fn face_choices(book: &[String], current: Option<&str>) -> (Vec<String>, Option<usize>) {
    let mut names = book.to_vec();
    let Some(current) = current else { return (names, None) };
    let at = match names.iter().position(|n| n.eq_ignore_ascii_case(current)) {
        Some(i) => i,
        None => {
            names.push(current.to_string());
            names.len() - 1
        }
    };
    (names, Some(at))
}

/// A window's draw list for a state of [`IMAGE_STATES`].
pub(super) fn draw_list(w: &mut WindowDef, state: usize) -> &mut Vec<DrawEntry> {
    match state {
        1 => &mut w.disabled,
        2 => &mut w.hilite,
        _ => &mut w.enabled,
    }
}

/// A gadget's data as the panel shows it: `LABEL: values` joined by commas, as the WND file
/// writes it.
pub(super) fn data_text(data: &GadgetData) -> String {
    let field = |(label, values): &(String, Vec<i64>)| {
        let values: Vec<String> = values.iter().map(i64::to_string).collect();
        format!("{label}: {}", values.join(" "))
    };
    data.fields.iter().map(field).collect::<Vec<_>>().join(", ")
}

/// `data` with the fields typed in `text` changed (`LABEL: values`, comma-separated, any case;
/// fields left out keep their values). Only labels the gadget already has may be given, each
/// with as many whole numbers as it has now, so a typo cannot add a key the game never reads.
pub(super) fn apply_data(data: &GadgetData, text: &str) -> Result<GadgetData, String> {
    let mut out = data.clone();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (label, values) = part.split_once(':').ok_or_else(|| format!("`{part}`: LABEL: values"))?;
        let label = label.trim().to_ascii_uppercase();
        let values: Vec<i64> = values
            .split_whitespace()
            .map(|v| v.parse::<i64>().map_err(|_| format!("{label}: `{v}` is not a whole number")))
            .collect::<Result<_, _>>()?;
        let slot =
            out.fields.iter_mut().find(|(l, _)| *l == label).ok_or_else(|| format!("{} has no {label}", data.block))?;
        if slot.1.len() != values.len() {
            return Err(format!("{label} takes {} value(s)", slot.1.len()));
        }
        slot.1 = values;
    }
    Ok(out)
}

/// Why `short` cannot become the name of the window `name` in the layout `file` (its tree
/// `tree`), if it cannot: it must be letters, digits and `_`, new in the layout, and the window
/// must not be one the game's code needs by its name.
pub(super) fn rename_refused(file: &str, tree: &crate::ui::wnd::WndFile, name: &str, short: &str) -> Option<String> {
    let current = crate::ui::window::short_name(name);
    if short.is_empty() || !short.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some(format!("`{short}`: a name is letters, digits and _"));
    }
    let required = crate::game::shell::required::required(file);
    if required.iter().chain(&crate::game::shell::required::optional(file)).any(|r| r == current) {
        return Some(format!("the game's code needs {current} by that name (ui/FORMAT.md)"));
    }
    let full = format!("{file}:{short}");
    tree.all_windows().iter().any(|w| w.name == full).then(|| format!("{file} already has a {short}"))
}

/// The panel's status boxes and the flag each one switches.
pub(super) const STATUS_CHECKS: [(&str, &str); 4] = [
    ("CheckStatusHidden", "HIDDEN"),
    ("CheckStatusEnabled", "ENABLED"),
    ("CheckStatusBorder", "BORDER"),
    ("CheckStatusNoInput", "NOINPUT"),
];

/// The status flags the panel offers in its list (those without a box of their own), each
/// shown with whether `status` has it: ("IMAGE: on", bit).
pub(super) fn other_flags(status: u32) -> Vec<(String, u32)> {
    STATUS_FLAGS
        .iter()
        .filter(|(name, _)| !STATUS_CHECKS.iter().any(|(_, f)| f == name))
        .map(|&(name, bit)| (format!("{name}: {}", if status & bit != 0 { "on" } else { "off" }), bit))
        .collect()
}

/// The bit of a status flag named in the WND format (0 for a name it does not have).
pub(super) fn status_bit(flag: &str) -> u32 {
    STATUS_FLAGS.iter().find(|(n, _)| *n == flag).map_or(0, |&(_, bit)| bit)
}

/// A colour typed as three or four numbers from 0 to 255 (red, green, blue and alpha, which
/// is 255 when left out), separated by spaces or commas.
pub(super) fn parse_colour(text: &str) -> Option<[u8; 4]> {
    let parts: Vec<u8> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match parts[..] {
        [r, g, b] => Some([r, g, b, 255]),
        [r, g, b, a] => Some([r, g, b, a]),
        _ => None,
    }
}

/// The font a window without one gets when the panel first gives it a size or weight.
pub(super) fn default_font() -> FontDef {
    FontDef { name: "Noto Sans".to_string(), size: 14, bold: false }
}

#[cfg(test)]
mod tests {
    use super::{
        apply_data, colour_of, data_text, face_choices, image_slots, other_flags, parse_colour, set_colour, status_bit,
    };
    use crate::ui::wnd::model::GadgetData;
    use crate::ui::wnd::model::WindowType;

    fn slider() -> GadgetData {
        GadgetData {
            block: "SLIDERDATA".into(),
            fields: vec![("MINVALUE".into(), vec![0]), ("MAXVALUE".into(), vec![100])],
        }
    }

    #[test]
    fn gadget_data_is_shown_as_written_and_changed_field_by_field() {
        assert_eq!(data_text(&slider()), "MINVALUE: 0, MAXVALUE: 100");
        let changed = apply_data(&slider(), "maxvalue: 250").unwrap();
        assert_eq!(changed.fields, vec![("MINVALUE".into(), vec![0]), ("MAXVALUE".into(), vec![250])]);
        assert_eq!(apply_data(&slider(), &data_text(&slider())).unwrap(), slider(), "its own text changes nothing");
        assert!(apply_data(&slider(), "MAXVALU: 3").unwrap_err().contains("has no MAXVALU"));
        assert!(apply_data(&slider(), "MAXVALUE: 1 2").unwrap_err().contains("takes 1"));
        assert!(apply_data(&slider(), "MAXVALUE: big").unwrap_err().contains("not a whole number"));
        assert!(apply_data(&slider(), "MAXVALUE 3").is_err());
    }

    #[test]
    fn the_other_flags_leave_out_those_with_boxes_and_say_which_are_on() {
        let flags = other_flags(status_bit("IMAGE") | status_bit("ENABLED"));
        assert!(flags.iter().any(|(l, _)| l == "IMAGE: on"));
        assert!(flags.iter().any(|(l, _)| l == "TABSTOP: off"));
        assert!(!flags.iter().any(|(l, _)| l.starts_with("ENABLED") || l.starts_with("HIDDEN")));
    }

    #[test]
    fn image_slots_follow_the_format_table() {
        let labels = |k| image_slots(k).into_iter().map(|(_, _, l)| l).collect::<Vec<_>>();
        assert_eq!(labels(WindowType::StaticText), vec!["Enabled", "Disabled", "Hilite"]);
        assert_eq!(labels(WindowType::PushButton), vec!["Enabled", "Disabled", "Hilite", "Hilite pressed"]);
        let boxes = image_slots(WindowType::CheckBox);
        assert_eq!(boxes.len(), 9);
        assert_eq!(boxes[2], (0, 2, "Enabled mark".to_string()));
        assert_eq!(boxes[4], (1, 1, "Disabled box".to_string()));
    }

    #[test]
    fn font_faces_come_from_the_book_and_an_unknown_one_is_kept() {
        let book = vec!["Noto Sans".to_string(), "Arial".to_string()];
        assert_eq!(face_choices(&book, Some("arial")), (book.clone(), Some(1)));
        let (names, at) = face_choices(&book, Some("Comic"));
        assert_eq!((names.len(), at), (3, Some(2)));
        assert_eq!(face_choices(&book, None), (book, None));
    }

    #[test]
    fn colours_are_read_as_three_or_four_numbers_and_anything_else_is_refused() {
        assert_eq!(parse_colour("10 20 30"), Some([10, 20, 30, 255]));
        assert_eq!(parse_colour(" 1, 2,3 4 "), Some([1, 2, 3, 4]));
        assert_eq!(parse_colour("256 0 0"), None);
        assert_eq!(parse_colour("1 2"), None);
        assert_eq!(parse_colour("red"), None);
        assert_eq!(parse_colour(""), None);
    }

    #[test]
    fn colours_are_set_where_the_kind_says_and_left_out_entries_are_written_blank() {
        let wnd = crate::ui::wnd::parse(
            "T.wnd",
            "WINDOW\n WINDOWTYPE = CHECKBOX;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 8 8, CREATIONRESOLUTION: 800 600;\n NAME = \"T.wnd:C\";\n TEXTCOLOR = ENABLED: 1 2 3 4, ENABLEDBORDER: 5 6 7 8, DISABLED: 0 0 0 255, DISABLEDBORDER: 0 0 0 255, HILITE: 9 9 9 255, HILITEBORDER: 10 11 12 13;\n ENABLEDDRAWDATA = IMAGE: Box, COLOR: 20 20 20 255, BORDERCOLOR: 30 30 30 255;\nEND\n",
        )
        .unwrap();
        let mut w = wnd.windows[0].clone();
        w.hilite.clear();
        // Reading: text and shadow of a state; tint and border of an entry; a left-out entry
        // reads as nothing drawn.
        assert_eq!(colour_of(&mut w, 0, 0, 0), [1, 2, 3, 4]);
        assert_eq!(colour_of(&mut w, 1, 2, 0), [10, 11, 12, 13]);
        assert_eq!(colour_of(&mut w, 2, 0, 0), [20, 20, 20, 255]);
        assert_eq!(colour_of(&mut w, 3, 0, 0), [30, 30, 30, 255]);
        assert_eq!(colour_of(&mut w, 2, 2, 2), [255, 255, 255, 0]);
        // The same colour again changes nothing.
        assert!(!set_colour(&mut w, 1, 0, 0, [5, 6, 7, 8]));
        // The hilite mark's tint: the two entries before it are added as nothing drawn.
        assert!(set_colour(&mut w, 2, 2, 2, [40, 50, 60, 70]));
        assert_eq!(w.hilite.len(), 3);
        assert_eq!((w.hilite[0].image.as_str(), w.hilite[0].color[3], w.hilite[1].border[3]), ("NoImage", 0, 0));
        assert_eq!((w.hilite[2].color, w.hilite[2].border), ([40, 50, 60, 70], [255, 255, 255, 0]));
        // The disabled text's shadow, and only it.
        let before = w.text_colors;
        assert!(set_colour(&mut w, 1, 1, 0, [90, 91, 92, 93]));
        assert_eq!(w.text_colors.disabled_border, [90, 91, 92, 93]);
        assert_eq!((w.text_colors.disabled, w.text_colors.enabled_border), (before.disabled, before.enabled_border));
    }
}
