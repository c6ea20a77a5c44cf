//! The layout editor's own panel (`ui/Editor.wnd`, made of the same retained gadgets as every
//! screen): the selected window's name, text, tooltip, anchors and system callback (chosen from
//! the lexicon), a palette of window kinds to add, and undo, redo, save and close.
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
        let (text, tip, callback) =
            w.map_or((String::new(), String::new(), None), |w| (w.text, w.tooltip_text, w.system_callback));
        if let Some(id) = self.find("Editor.wnd:EntryText") {
            self.ui.entry_set(id, &text);
        }
        if let Some(id) = self.find("Editor.wnd:EntryTooltip") {
            self.ui.entry_set(id, &tip);
        }
        let mut names: Vec<String> = vec!["[None]".to_string()];
        names.extend(super::callbacks::system_names().into_iter().map(str::to_string));
        let chosen = names.iter().position(|n| Some(n) == callback.as_ref()).unwrap_or(0);
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
/// undo, redo, save and close.
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
        ("ComboCallback", EventKind::ComboSelected(i)) => {
            let names = super::callbacks::system_names();
            let chosen = i.checked_sub(1).and_then(|k| names.get(k)).map(|n| n.to_string());
            shell.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.system_callback = chosen;
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
