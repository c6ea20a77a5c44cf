//! The layout editor's own panel (`ui/Editor.wnd`, made of the same retained gadgets as every
//! screen): the selected window's name, text, tooltip, anchors, status flags (hidden, enabled,
//! border and no input as boxes, every other flag from a list), font face (from
//! `ui/fonts.ron`), size and weight, the images of each state (the
//! background and the parts its kind draws: a check box's box and mark, a slider's track and
//! thumb…; from the atlas) with each one's tint and border colour and its state's text and text
//! border colour, the scaling extension, the gadget's data (`LABEL: values`, known
//! labels only) and its system, input, tooltip and draw callbacks (chosen from the lexicon), a
//! palette of window kinds to add, and undo, redo, save and close; beside it, a tree of the
//! layout's windows where a click selects one.
//!
//! Must not: change the edited layout except through the editor's undoable edits.

use crate::ui::Input;

use super::Shell;
use super::editor_tree::find_mut;
use super::editor_values::{
    CALLBACK_KINDS, COLOUR_KINDS, SCALING_CHOICES, STATUS_CHECKS, apply_data, callback_names, callback_of, colour_of,
    data_text, default_font, draw_entry, draw_list, face_choices, image_slots, other_flags, parse_colour,
    rename_refused, set_colour, status_bit, tree_rows,
};

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
        let mut w = name.as_ref().and_then(|n| find_mut(&mut e.tree.windows, n)).map(|w| w.clone());
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
        if let Some(id) = self.find("Editor.wnd:ComboFlags") {
            // Its first item names the list; the flags follow.
            let labels = std::iter::once("Other status flags".to_string())
                .chain(other_flags(status).into_iter().map(|(label, _)| label))
                .collect();
            self.ui.combo_set(id, labels, Some(0));
        }
        let font = w.as_ref().and_then(|w| w.font.clone());
        if let Some(id) = self.find("Editor.wnd:EntryFontSize") {
            self.ui.entry_set(id, &font.as_ref().map(|f| f.size.to_string()).unwrap_or_default());
        }
        if let Some(id) = self.find("Editor.wnd:CheckFontBold") {
            self.ui.set_checked(id, font.as_ref().is_some_and(|f| f.bold));
        }
        if let Some(id) = self.find("Editor.wnd:ComboFontFace") {
            let (faces, at) = face_choices(&self.font_families, font.as_ref().map(|f| f.name.as_str()));
            self.ui.combo_set(id, faces, at);
        }
        if let Some(id) = self.find("Editor.wnd:ComboScaling") {
            let scaling = w.as_ref().and_then(|w| w.scaling);
            let at = SCALING_CHOICES.iter().position(|(_, s)| *s == scaling);
            self.ui.combo_set(id, SCALING_CHOICES.iter().map(|(n, _)| n.to_string()).collect(), at);
        }
        // The image slot chosen (a state's background, or a part its kind draws: a check
        // box's box or mark…), and the colour chosen of that slot (its state's text or text
        // border, its entry's tint or border).
        let (slots, slot) = self.chosen_slot();
        let (state, entry, _) = slots[slot].clone();
        let colour_kind = self.editor.as_ref().map_or(0, |e| e.colour_kind).min(COLOUR_KINDS.len() - 1);
        if let Some(id) = self.find("Editor.wnd:ComboColorKind") {
            self.ui.combo_set(id, COLOUR_KINDS.iter().map(|k| k.to_string()).collect(), Some(colour_kind));
        }
        let colour = w.as_mut().map(|w| colour_of(w, colour_kind, state, entry));
        if let Some(id) = self.find("Editor.wnd:EntryColor") {
            let text = colour.map(|[r, g, b, a]| format!("{r} {g} {b} {a}")).unwrap_or_default();
            self.ui.entry_set(id, &text);
        }
        if let Some(id) = self.find("Editor.wnd:ComboImageState") {
            self.ui.combo_set(id, slots.into_iter().map(|(_, _, label)| label).collect(), Some(slot));
        }
        let images = self.image_names();
        let current = w.as_mut().and_then(|w| draw_list(w, state).get(entry)).map(|d| d.image.clone());
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
        let callback = w.as_mut().and_then(|w| callback_of(w, kind).clone());
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

    /// Changes the selected window's font (the default one if it has none) as one undoable
    /// edit; `change` says whether it changed anything (nothing is recorded if not).
    fn edit_font(&mut self, change: impl FnOnce(&mut crate::ui::wnd::model::FontDef) -> bool) {
        self.edit_tree(|tree, name| {
            let w = find_mut(&mut tree.windows, name)?;
            let mut font = w.font.clone().unwrap_or_else(default_font);
            if !change(&mut font) {
                return None;
            }
            w.font = Some(font);
            Some(name.to_string())
        });
    }

    /// The image slots of the selected window's kind (a plain window's when none is
    /// selected), and which of them the panel has chosen.
    fn chosen_slot(&self) -> (Vec<(usize, usize, String)>, usize) {
        let e = self.editor.as_ref();
        let kind = e
            .and_then(|e| {
                let name = e.selected.as_ref()?;
                e.tree.all_windows().into_iter().find(|w| &w.name == name).map(|w| w.kind)
            })
            .unwrap_or(crate::ui::wnd::model::WindowType::User);
        let slots = image_slots(kind);
        let chosen = e.map_or(0, |e| e.image_slot).min(slots.len() - 1);
        (slots, chosen)
    }

    /// The state and draw entry of the image slot the panel has chosen for the selected
    /// window.
    fn image_slot(&self) -> (usize, usize) {
        let (slots, chosen) = self.chosen_slot();
        (slots[chosen].0, slots[chosen].1)
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

/// The panel's events: text and tooltip applied on Enter, the callback chosen from the list,
/// status flags, font face, size and weight, scaling, the image slot's image and colours, the
/// gadget's data, the tree, alignment, undo, redo, save and close.
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
                let slot = callback_of(w, kind);
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
        ("ComboFlags", EventKind::ComboSelected(i)) => {
            // Choosing a flag switches it (the list then shows it on or off).
            let Some(bit) = i.checked_sub(1).and_then(|i| other_flags(0).get(i).map(|f| f.1)) else { return };
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                w.status ^= bit;
                Some(name.to_string())
            });
        }
        ("EntryFontSize", EventKind::EditDone(text)) => {
            // Sizes the renderer can draw legibly; anything else leaves the font as it was.
            let Some(size) = text.trim().parse::<i32>().ok().filter(|s| (6..=72).contains(s)) else {
                shell.refuse("a font size is a whole number from 6 to 72");
                return;
            };
            shell.edit_font(|font| {
                font.size = size;
                true
            });
        }
        ("CheckFontBold", EventKind::Toggled(on)) => {
            let on = *on;
            shell.edit_font(|font| {
                font.bold = on;
                true
            });
        }
        ("ComboColorKind", EventKind::ComboSelected(i)) => {
            if let Some(e) = shell.editor.as_mut() {
                e.colour_kind = (*i).min(COLOUR_KINDS.len() - 1);
            }
            shell.fill_panel();
        }
        ("EntryColor", EventKind::EditDone(text)) => {
            let Some(colour) = parse_colour(text) else {
                shell.refuse("a colour is three or four numbers from 0 to 255 (red green blue alpha)");
                return;
            };
            let (state, entry) = shell.image_slot();
            let kind = shell.editor.as_ref().map_or(0, |e| e.colour_kind);
            shell.edit_tree(|tree, name| {
                set_colour(find_mut(&mut tree.windows, name)?, kind, state, entry, colour).then(|| name.to_string())
            });
        }
        ("ComboFontFace", EventKind::ComboSelected(i)) => {
            let Some(id) = shell.find("Editor.wnd:ComboFontFace") else { return };
            let Some(face) = shell.ui.combo_items(id).get(*i).cloned() else { return };
            shell.edit_font(|font| {
                let changed = font.name != face;
                font.name = face;
                changed
            });
        }
        ("ComboScaling", EventKind::ComboSelected(i)) => {
            let Some(&(_, scaling)) = SCALING_CHOICES.get(*i) else { return };
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                if w.scaling == scaling {
                    return None;
                }
                w.scaling = scaling;
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
                e.image_slot = *i;
            }
            shell.fill_panel();
        }
        ("ComboImage", EventKind::ComboSelected(i)) => {
            let Some(image) = shell.image_names().get(*i).cloned() else { return };
            let (state, entry) = shell.image_slot();
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                if draw_list(w, state).get(entry).is_some_and(|d| d.image == image) {
                    return None;
                }
                // Entries before it that the layout leaves out are written as nothing drawn.
                let d = draw_entry(w, state, entry);
                if d.image.eq_ignore_ascii_case("NoImage") && d.color[3] == 0 {
                    d.color = [255, 255, 255, 255]; // drawn as it is, not as an untinted blank
                }
                d.image = image;
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
