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

use crate::ui::{Input, Rect};

use super::Shell;
use super::editor_tree::find_mut;
use super::editor_values::{
    CALLBACK_KINDS, COLOUR_KINDS, SCALING_CHOICES, STATUS_CHECKS, callback_names, callback_of, colour_of, data_text,
    default_font, draw_list, face_choices, image_slots, other_flags, status_bit, tree_rows,
};

/// The root windows of the panel's two halves: the tree (left) and the fields (right).
const PANELS: [&str; 2] = ["Editor.wnd:TreePanel", "Editor.wnd:EditorPanel"];

/// How far (authoring units) half `i` of the panel moves to stand beside the other: the tree
/// just left of the fields, the fields just right of the tree.
fn dock_shift(file: &crate::ui::wnd::WndFile, i: usize) -> i32 {
    let rect = |name: &str| file.windows.iter().find(|w| w.name == name).map(|w| w.rect);
    let (Some(tree), Some(fields)) = (rect(PANELS[0]), rect(PANELS[1])) else { return 0 };
    let gap = 2;
    if i == 0 {
        fields.upper_left.0 - gap - tree.bottom_right.0
    } else {
        tree.bottom_right.0 + gap - fields.upper_left.0
    }
}

impl Shell {
    /// Puts the editor's panel (back) on top and fills it for the selection.
    pub(super) fn show_panel(&mut self) {
        let Some(e) = &mut self.editor else { return };
        if let Some(old) = e.panel.take() {
            self.ui.destroy_layout(old);
        }
        let docked = e.docked;
        let Some(mut file) = self.layouts.get("Editor.wnd").cloned() else { return };
        for (i, name) in PANELS.iter().enumerate() {
            let dx = dock_shift(&file, i);
            if docked[i]
                && let Some(w) = file.windows.iter_mut().find(|w| w.name == *name)
            {
                super::editor::carry(std::slice::from_mut(w), dx, 0);
            }
        }
        let id = self.ui.create_layout("Editor.wnd", &file);
        if let Some(e) = &mut self.editor {
            e.panel = Some(id);
        }
        self.fill_panel();
    }

    /// Which halves of the panel would cover the selected window where they normally stand
    /// (none when both would: moving one would not bring it into view).
    fn wanted_docking(&self) -> [bool; 2] {
        let none = [false; 2];
        let Some(e) = &self.editor else { return none };
        let Some(sel) =
            e.selected.as_ref().and_then(|n| self.find(n)).and_then(|id| self.ui.window(id)).map(|w| w.rect)
        else {
            return none;
        };
        let Some(file) = self.layouts.get("Editor.wnd") else { return none };
        let mut out = none;
        for (i, name) in PANELS.iter().enumerate() {
            let Some(w) = self.find(name).and_then(|id| self.ui.window(id)) else { return none };
            let authored = (w.authored.bottom_right.0 - w.authored.upper_left.0).max(1) as f32;
            let dx = dock_shift(file, i) as f32 * w.rect.w / authored;
            let home = if e.docked[i] { Rect::new(w.rect.x - dx, w.rect.y, w.rect.w, w.rect.h) } else { w.rect };
            let over = home.intersect(&sel);
            out[i] = over.w > 0.0 && over.h > 0.0;
        }
        if out == [true; 2] { none } else { out }
    }

    /// The panel's fields from the selected window.
    pub(super) fn fill_panel(&mut self) {
        // A half that would cover the selection moves beside the other one (and back).
        let wanted = self.wanted_docking();
        if let Some(e) = &mut self.editor
            && e.docked != wanted
        {
            e.docked = wanted;
            self.show_panel();
            return;
        }
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
            let short = name.as_deref().map(crate::ui::window::short_name).unwrap_or_default().to_string();
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
        names.extend(callback_names(&self.lexicon, kind));
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
    pub(super) fn refuse(&mut self, why: &str) {
        if let Some(e) = self.editor.as_mut() {
            e.note = Some(format!("not changed: {why}"));
        }
        self.fill_panel();
    }

    /// The images a window may show: `NoImage`, then the atlas's images by name.
    pub(super) fn image_names(&self) -> Vec<String> {
        std::iter::once("NoImage".to_string()).chain(self.images.images.keys().cloned()).collect()
    }

    /// Changes the selected window's font (the default one if it has none) as one undoable
    /// edit; `change` says whether it changed anything (nothing is recorded if not).
    pub(super) fn edit_font(&mut self, change: impl FnOnce(&mut crate::ui::wnd::model::FontDef) -> bool) {
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
    pub(super) fn chosen_slot(&self) -> (Vec<(usize, usize, String)>, usize) {
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
    pub(super) fn image_slot(&self) -> (usize, usize) {
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
            // Keys go to the panel only while one of its fields (text or choice) has them:
            // after a pick in the tree list, arrows nudge and letters edit as before.
            Input::Key { .. } | Input::Char(_) => {
                self.editor_field_focused()
                    || self.ui.focus().and_then(|id| self.ui.window(id)).is_some_and(|w| {
                        on_panel(w.id) && matches!(w.gadget, crate::ui::window::Gadget::ComboBox { .. })
                    })
            }
            Input::MouseMove { .. } => false,
        }
    }

    /// True while one of the editor panel's text fields has the keyboard: keys and characters
    /// (Space included, and Ctrl+A, C, V and X) are typed there, not taken as editor commands.
    pub fn editor_field_focused(&self) -> bool {
        self.editing()
            && self.ui.focus().and_then(|id| self.ui.window(id)).is_some_and(|w| {
                w.name.starts_with("Editor.wnd:") && matches!(w.gadget, crate::ui::window::Gadget::TextEntry { .. })
            })
    }

    /// True while the editor takes typed text: a panel field has the keyboard, or `t` is
    /// typing the selected window's text.
    pub fn editor_takes_text(&self) -> bool {
        self.editor_field_focused() || self.editor.as_ref().is_some_and(|e| e.typing)
    }
}
