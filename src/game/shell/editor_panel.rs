//! The layout editor's own panel (`ui/Editor.wnd`, made of the same retained gadgets as every
//! screen): the selected window's name, text, tooltip, anchors, status flags (hidden, enabled,
//! border, no input), font size and weight, text colour, the background image per state (from
//! the atlas), the gadget's data (`LABEL: values`, known labels only) and its system, input,
//! tooltip and draw callbacks (chosen from the lexicon), a palette of window kinds to add, and undo, redo, save and close; beside it, a tree
//! of the layout's windows where a click selects one.
//!
//! Must not: change the edited layout except through the editor's undoable edits.

use crate::ui::Input;

use super::Shell;
use super::editor::find_mut;

impl Shell {
    /// Puts the editor's panel (back) on top and fills it for the selection.
    pub(super) fn show_panel(&mut self) {
        let Some(e) = &mut self.editor else { return };
        if let Some(old) = e.panel.take() {
            self.ui.destroy_layout(old);
        }
        let Some(file) = self.layouts.get("Editor.wnd").cloned() else { return };
        let id = self.ui.create_layout("Editor.wnd", &file);
        if let Some(e) = &mut self.editor {
            e.panel = Some(id);
        }
        self.fill_panel();
    }

    /// The panel's fields from the selected window.
    pub(super) fn fill_panel(&mut self) {
        let Some(e) = &mut self.editor else { return };
        let name = e.selected.clone();
        let w = name.as_ref().and_then(|n| find_mut(&mut e.tree.windows, n)).map(|w| w.clone());
        self.set_text("Editor.wnd:LabelSelected", name.as_deref().unwrap_or("Nothing selected"));
        // The tree: every window of the layout, indented by depth, the selected one marked.
        let rows = self.editor.as_ref().map(|e| tree_rows(&e.tree.windows)).unwrap_or_default();
        if let Some(id) = self.find("Editor.wnd:ListTree") {
            let at = rows.iter().position(|(n, _)| Some(n) == name.as_ref());
            self.ui.list_set_rows(id, rows.into_iter().map(|(_, label)| vec![label]).collect());
            self.ui.list_select(id, at);
            if let Some(row) = at {
                self.ui.list_reveal(id, row);
            }
        }
        let anchor = w.as_ref().and_then(|w| w.anchor).unwrap_or_default();
        for (n, on) in [
            ("CheckAnchorLeft", anchor.left),
            ("CheckAnchorRight", anchor.right),
            ("CheckAnchorTop", anchor.top),
            ("CheckAnchorBottom", anchor.bottom),
        ] {
            if let Some(id) = self.find(&format!("Editor.wnd:{n}")) {
                self.ui.set_checked(id, on);
            }
        }
        let status = w.as_ref().map_or(0, |w| w.status);
        for (n, flag) in STATUS_CHECKS {
            if let Some(id) = self.find(&format!("Editor.wnd:{n}")) {
                self.ui.set_checked(id, status & status_bit(flag) != 0);
            }
        }
        let font = w.as_ref().and_then(|w| w.font.clone());
        if let Some(id) = self.find("Editor.wnd:EntryFontSize") {
            self.ui.entry_set(id, &font.as_ref().map(|f| f.size.to_string()).unwrap_or_default());
        }
        if let Some(id) = self.find("Editor.wnd:CheckFontBold") {
            self.ui.set_checked(id, font.as_ref().is_some_and(|f| f.bold));
        }
        let colour = w.as_ref().map(|w| w.text_colors.enabled);
        if let Some(id) = self.find("Editor.wnd:EntryTextColor") {
            let text = colour.map(|[r, g, b, a]| format!("{r} {g} {b} {a}")).unwrap_or_default();
            self.ui.entry_set(id, &text);
        }
        // The background image of the state chosen beside it (enabled, disabled, highlighted).
        let state = self.editor.as_ref().map_or(0, |e| e.image_state);
        if let Some(id) = self.find("Editor.wnd:ComboImageState") {
            self.ui.combo_set(id, IMAGE_STATES.iter().map(|s| s.to_string()).collect(), Some(state));
        }
        let images = self.image_names();
        let current = w.as_ref().and_then(|w| draw_list(w, state).first()).map(|d| d.image.clone());
        if let Some(id) = self.find("Editor.wnd:ComboImage") {
            let at = current.and_then(|c| images.iter().position(|n| *n == c)).unwrap_or(0);
            self.ui.combo_set(id, images, Some(at));
        }
        if let Some(id) = self.find("Editor.wnd:EntryRename") {
            let short = name.as_deref().map(super::callbacks::short).unwrap_or_default().to_string();
            self.ui.entry_set(id, &short);
        }
        if let Some(id) = self.find("Editor.wnd:EntryGadgetData") {
            let text = w.as_ref().and_then(|w| w.gadget.as_ref()).map(data_text).unwrap_or_default();
            self.ui.entry_set(id, &text);
        }
        let kind = self.editor.as_ref().map_or(0, |e| e.callback_kind);
        if let Some(id) = self.find("Editor.wnd:ComboCallbackKind") {
            self.ui.combo_set(id, CALLBACK_KINDS.iter().map(|(n, _)| n.to_string()).collect(), Some(kind));
        }
        let callback = w.as_ref().and_then(|w| callback_of(w, kind).clone());
        let (text, tip) = w.map_or((String::new(), String::new()), |w| (w.text, w.tooltip_text));
        if let Some(id) = self.find("Editor.wnd:EntryText") {
            self.ui.entry_set(id, &text);
        }
        if let Some(id) = self.find("Editor.wnd:EntryTooltip") {
            self.ui.entry_set(id, &tip);
        }
        let mut names: Vec<String> = vec!["[None]".to_string()];
        names.extend(callback_names(kind));
        // A name the lexicon does not list (an original layout's) stays shown as it is.
        let chosen = match callback.as_ref() {
            Some(c) => match names.iter().position(|n| n == c) {
                Some(i) => i,
                None => {
                    names.push(c.clone());
                    names.len() - 1
                }
            },
            None => 0,
        };
        if let Some(id) = self.find("Editor.wnd:ComboCallback") {
            self.ui.combo_set(id, names, Some(chosen));
        }
        if let Some(id) = self.find("Editor.wnd:ComboAdd") {
            let kinds: Vec<String> =
                crate::ui::wnd::model::WindowType::ALL.iter().map(|(k, _)| k.to_string()).collect();
            let keep = self.ui.combo_selected(id).unwrap_or(1);
            self.ui.combo_set(id, kinds, Some(keep));
        }
    }

    /// Says in the editor's bar why what was typed into the panel changed nothing, and puts
    /// the fields back as they were.
    fn refuse(&mut self, why: &str) {
        if let Some(e) = self.editor.as_mut() {
            e.note = Some(format!("not changed: {why}"));
        }
        self.fill_panel();
    }

    /// The images a window may show: `NoImage`, then the atlas's images by name.
    fn image_names(&self) -> Vec<String> {
        std::iter::once("NoImage".to_string()).chain(self.images.images.keys().cloned()).collect()
    }

    /// True when `input` belongs to the editor's own panel (the pointer is over it, or one of
    /// its fields has the keyboard).
    pub(super) fn editor_panel_has(&self, input: Input) -> bool {
        let on_panel = |id: crate::ui::WindowId| self.ui.window(id).is_some_and(|w| w.name.starts_with("Editor.wnd:"));
        match input {
            Input::MouseDown { x, y, .. } | Input::MouseUp { x, y, .. } | Input::Wheel { x, y, .. } => {
                self.ui.hit(x, y).is_some_and(on_panel) && self.editor.as_ref().is_some_and(|e| e.drag.is_none())
            }
            Input::Key { .. } | Input::Char(_) => self.ui.focus().is_some_and(on_panel),
            Input::MouseMove { .. } => false,
        }
    }
}

/// Every window of a layout in tree order: its full name, and the row the tree panel shows
/// (its short name, indented two spaces a level).
fn tree_rows(windows: &[crate::ui::wnd::model::WindowDef]) -> Vec<(String, String)> {
    fn walk(w: &crate::ui::wnd::model::WindowDef, depth: usize, out: &mut Vec<(String, String)>) {
        let short = super::callbacks::short(&w.name);
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

/// The callbacks the panel sets, in the order of its list, with the lexicon's kind for each.
const CALLBACK_KINDS: [(&str, crate::ui::lexicon::CallbackKind); 4] = [
    ("System", crate::ui::lexicon::CallbackKind::System),
    ("Input", crate::ui::lexicon::CallbackKind::Input),
    ("Tooltip", crate::ui::lexicon::CallbackKind::Tooltip),
    ("Draw", crate::ui::lexicon::CallbackKind::Draw),
];

/// The names a callback of the panel's kind `kind` may take: the game's lexicon for it.
fn callback_names(kind: usize) -> Vec<String> {
    let kind = CALLBACK_KINDS.get(kind).map_or(crate::ui::lexicon::CallbackKind::System, |k| k.1);
    super::callbacks::lexicon().names(kind)
}

/// A window's callback of the panel's kind `kind`.
fn callback_of(w: &crate::ui::wnd::model::WindowDef, kind: usize) -> &Option<String> {
    match kind {
        1 => &w.input_callback,
        2 => &w.tooltip_callback,
        3 => &w.draw_callback,
        _ => &w.system_callback,
    }
}

/// The same, to change.
fn callback_of_mut(w: &mut crate::ui::wnd::model::WindowDef, kind: usize) -> &mut Option<String> {
    match kind {
        1 => &mut w.input_callback,
        2 => &mut w.tooltip_callback,
        3 => &mut w.draw_callback,
        _ => &mut w.system_callback,
    }
}

/// The states whose background image the panel sets, in the order of its list.
const IMAGE_STATES: [&str; 3] = ["Enabled", "Disabled", "Hilite"];

/// A window's draw list for a state of [`IMAGE_STATES`].
fn draw_list(w: &crate::ui::wnd::model::WindowDef, state: usize) -> &[crate::ui::wnd::model::DrawEntry] {
    match state {
        1 => &w.disabled,
        2 => &w.hilite,
        _ => &w.enabled,
    }
}

/// A gadget's data as the panel shows it: `LABEL: values` joined by commas, as the WND file
/// writes it.
fn data_text(data: &crate::ui::wnd::model::GadgetData) -> String {
    let field = |(label, values): &(String, Vec<i64>)| {
        let values: Vec<String> = values.iter().map(i64::to_string).collect();
        format!("{label}: {}", values.join(" "))
    };
    data.fields.iter().map(field).collect::<Vec<_>>().join(", ")
}

/// `data` with the fields typed in `text` changed (`LABEL: values`, comma-separated, any case;
/// fields left out keep their values). Only labels the gadget already has may be given, each
/// with as many whole numbers as it has now, so a typo cannot add a key the game never reads.
fn apply_data(
    data: &crate::ui::wnd::model::GadgetData,
    text: &str,
) -> Result<crate::ui::wnd::model::GadgetData, String> {
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
fn rename_refused(file: &str, tree: &crate::ui::wnd::WndFile, name: &str, short: &str) -> Option<String> {
    let current = super::callbacks::short(name);
    if short.is_empty() || !short.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some(format!("`{short}`: a name is letters, digits and _"));
    }
    if super::required::required(file).iter().any(|r| r == current) {
        return Some(format!("the game's code needs {current} by that name (ui/FORMAT.md)"));
    }
    let full = format!("{file}:{short}");
    tree.all_windows().iter().any(|w| w.name == full).then(|| format!("{file} already has a {short}"))
}

/// The panel's status boxes and the flag each one switches.
const STATUS_CHECKS: [(&str, &str); 4] = [
    ("CheckStatusHidden", "HIDDEN"),
    ("CheckStatusEnabled", "ENABLED"),
    ("CheckStatusBorder", "BORDER"),
    ("CheckStatusNoInput", "NOINPUT"),
];

/// The bit of a status flag named in the WND format (0 for a name it does not have).
fn status_bit(flag: &str) -> u32 {
    crate::ui::wnd::model::STATUS_FLAGS.iter().find(|(n, _)| *n == flag).map_or(0, |&(_, bit)| bit)
}

/// A colour typed as three or four numbers from 0 to 255 (red, green, blue and alpha, which
/// is 255 when left out), separated by spaces or commas.
fn parse_colour(text: &str) -> Option<[u8; 4]> {
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

/// The panel's events: text and tooltip applied on Enter, the callback chosen from the list,
/// status flags, font size and weight, the text colour, undo, redo, save and close.
pub(super) fn system(shell: &mut Shell, e: &crate::ui::UiEvent) {
    use crate::ui::EventKind;
    match (super::callbacks::short(&e.name), &e.kind) {
        ("EntryText", EventKind::EditDone(text)) => {
            let text = text.clone();
            shell.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.text = text;
                Some(name.to_string())
            });
        }
        ("EntryTooltip", EventKind::EditDone(text)) => {
            let text = text.clone();
            shell.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.tooltip_text = text;
                Some(name.to_string())
            });
        }
        ("ComboCallbackKind", EventKind::ComboSelected(i)) => {
            if let Some(e) = shell.editor.as_mut() {
                e.callback_kind = (*i).min(CALLBACK_KINDS.len() - 1);
            }
            shell.fill_panel();
        }
        ("ComboCallback", EventKind::ComboSelected(i)) => {
            let kind = shell.editor.as_ref().map_or(0, |e| e.callback_kind);
            let names = callback_names(kind);
            // Past the lexicon's names is only the window's own unlisted name: nothing to change.
            let Some(chosen) = (match i.checked_sub(1) {
                None => Some(None),
                Some(k) => names.get(k).map(|n| Some(n.clone())),
            }) else {
                return;
            };
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                let slot = callback_of_mut(w, kind);
                if *slot == chosen {
                    return None;
                }
                *slot = chosen;
                Some(name.to_string())
            });
        }
        ("ButtonAdd", EventKind::Selected) => {
            let kinds = crate::ui::wnd::model::WindowType::ALL;
            let i = shell.find("Editor.wnd:ComboAdd").and_then(|c| shell.ui.combo_selected(c)).unwrap_or(0);
            if let Some(&(_, kind)) = kinds.get(i) {
                shell.add_window(kind);
            }
        }
        (
            edge @ ("CheckAnchorLeft" | "CheckAnchorRight" | "CheckAnchorTop" | "CheckAnchorBottom"),
            EventKind::Toggled(on),
        ) => {
            let (edge, on) = (edge.to_string(), *on);
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                let mut a = w.anchor.unwrap_or_default();
                match edge.as_str() {
                    "CheckAnchorLeft" => a.left = on,
                    "CheckAnchorRight" => a.right = on,
                    "CheckAnchorTop" => a.top = on,
                    _ => a.bottom = on,
                }
                w.anchor = Some(a);
                Some(name.to_string())
            });
        }
        (
            check @ ("CheckStatusHidden" | "CheckStatusEnabled" | "CheckStatusBorder" | "CheckStatusNoInput"),
            EventKind::Toggled(on),
        ) => {
            let bit = STATUS_CHECKS.iter().find(|(n, _)| *n == check).map_or(0, |(_, f)| status_bit(f));
            let on = *on;
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                w.status = if on { w.status | bit } else { w.status & !bit };
                Some(name.to_string())
            });
        }
        ("EntryFontSize", EventKind::EditDone(text)) => {
            // Sizes the renderer can draw legibly; anything else leaves the font as it was.
            let Some(size) = text.trim().parse::<i32>().ok().filter(|s| (6..=72).contains(s)) else {
                shell.refuse("a font size is a whole number from 6 to 72");
                return;
            };
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                let mut font = w.font.clone().unwrap_or_else(default_font);
                font.size = size;
                w.font = Some(font);
                Some(name.to_string())
            });
        }
        ("CheckFontBold", EventKind::Toggled(on)) => {
            let on = *on;
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                let mut font = w.font.clone().unwrap_or_else(default_font);
                font.bold = on;
                w.font = Some(font);
                Some(name.to_string())
            });
        }
        ("EntryTextColor", EventKind::EditDone(text)) => {
            let Some(colour) = parse_colour(text) else {
                shell.refuse("a colour is three or four numbers from 0 to 255 (red green blue alpha)");
                return;
            };
            shell.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.text_colors.enabled = colour;
                Some(name.to_string())
            });
        }
        ("ListTree", EventKind::ListSelection(rows)) => {
            let names = shell.editor.as_ref().map(|e| tree_rows(&e.tree.windows)).unwrap_or_default();
            let picked = rows.first().and_then(|&i| names.get(i)).map(|(n, _)| n.clone());
            if let (Some(name), Some(e)) = (picked, shell.editor.as_mut())
                && e.selected.as_ref() != Some(&name)
            {
                e.selected = Some(name);
                shell.fill_panel();
            }
        }
        ("ButtonAlignLeft", EventKind::Selected) => shell.align_group(super::editor_align::Align::Left),
        ("ButtonAlignTop", EventKind::Selected) => shell.align_group(super::editor_align::Align::Top),
        ("ButtonSameSize", EventKind::Selected) => shell.align_group(super::editor_align::Align::Size),
        ("EntryRename", EventKind::EditDone(text)) => {
            let short = text.trim().to_string();
            let Some(e) = shell.editor.as_ref() else { return };
            let Some(name) = e.selected.clone() else { return };
            if super::callbacks::short(&name) == short {
                return;
            }
            if let Some(why) = rename_refused(&e.file, &e.tree, &name, &short) {
                shell.refuse(&why);
                return;
            }
            let full = format!("{}:{short}", e.file);
            shell.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.name = full.clone();
                Some(full)
            });
        }
        ("ComboImageState", EventKind::ComboSelected(i)) => {
            if let Some(e) = shell.editor.as_mut() {
                e.image_state = (*i).min(IMAGE_STATES.len() - 1);
            }
            shell.fill_panel();
        }
        ("ComboImage", EventKind::ComboSelected(i)) => {
            let Some(image) = shell.image_names().get(*i).cloned() else { return };
            let state = shell.editor.as_ref().map_or(0, |e| e.image_state);
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                let list = match state {
                    1 => &mut w.disabled,
                    2 => &mut w.hilite,
                    _ => &mut w.enabled,
                };
                match list.first_mut() {
                    Some(first) if first.image == image => return None,
                    Some(first) => first.image = image,
                    None => list.push(crate::ui::wnd::model::DrawEntry {
                        image,
                        color: [255, 255, 255, 255],
                        border: [255, 255, 255, 0],
                    }),
                }
                Some(name.to_string())
            });
        }
        ("EntryGadgetData", EventKind::EditDone(text)) => {
            let text = text.clone();
            let mut refused = None;
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                match apply_data(w.gadget.as_ref()?, &text) {
                    Ok(data) if Some(&data) != w.gadget.as_ref() => w.gadget = Some(data),
                    Ok(_) => return None,
                    Err(why) => {
                        refused = Some(why);
                        return None;
                    }
                }
                Some(name.to_string())
            });
            if let Some(why) = refused {
                shell.refuse(&why);
            }
        }
        ("ButtonUndo", EventKind::Selected) => shell.undo_edit(),
        ("ButtonRedo", EventKind::Selected) => shell.redo_edit(),
        ("ButtonSave", EventKind::Selected) => match shell.save_edit() {
            Ok(path) => shell.message("Layout editor", &format!("Saved to {}", path.display()), false),
            Err(err) => shell.message("Layout editor", &format!("Not saved: {err}"), false),
        },
        ("ButtonClose", EventKind::Selected) => shell.leave_editor(),
        _ => {}
    }
}

/// The font a window without one gets when the panel first gives it a size or weight.
fn default_font() -> crate::ui::wnd::model::FontDef {
    crate::ui::wnd::model::FontDef { name: "Noto Sans".to_string(), size: 14, bold: false }
}

#[cfg(test)]
mod tests {
    use super::{apply_data, data_text, parse_colour};
    use crate::ui::wnd::model::GadgetData;

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
    fn colours_are_read_as_three_or_four_numbers_and_anything_else_is_refused() {
        assert_eq!(parse_colour("10 20 30"), Some([10, 20, 30, 255]));
        assert_eq!(parse_colour(" 1, 2,3 4 "), Some([1, 2, 3, 4]));
        assert_eq!(parse_colour("256 0 0"), None);
        assert_eq!(parse_colour("1 2"), None);
        assert_eq!(parse_colour("red"), None);
        assert_eq!(parse_colour(""), None);
    }
}
