//! The layout editor's input over the screen it edits: a click selects the window under the
//! pointer (Shift+click gathers a group), a drag moves it or, on a handle, resizes it (edges
//! snap to the siblings' edges, else to the grid), arrows nudge (Shift: by ten), `t` types the
//! window's text, Tab walks the tree, and the letter keys duplicate, reorder, undo, redo and save.
//!
//! Must not: change the edited layout except through the editor's undoable edits.

use crate::ui::{Input, Key, MouseButton};

use super::Shell;
use super::editor_handles::{handle_at, resized};
use super::editor_tree::{find_mut, moved, sibling_edges, snap};

impl Shell {
    /// Handles input while editing; true when it was the editor's.
    pub(super) fn editor_input(&mut self, input: &Input) -> bool {
        if self.editor.is_none() {
            return false;
        }
        match *input {
            Input::MouseDown { x, y, button: MouseButton::Left } if self.shift => {
                // Shift+click adds the window under the pointer to the group, or takes it out.
                if let Some(name) = self.ui.hit(x, y).and_then(|id| self.ui.window(id)).map(|w| w.name.clone()) {
                    self.toggle_in_group(name);
                }
            }
            Input::MouseDown { x, y, button: MouseButton::Left } => {
                // On one of the selected window's handles a drag resizes it.
                let handle = self
                    .editor
                    .as_ref()
                    .and_then(|e| e.selected.as_ref())
                    .and_then(|n| self.find(n))
                    .and_then(|id| self.ui.window(id))
                    .and_then(|w| handle_at(w.rect, x, y).map(|edges| (edges, w.name.clone())));
                let name = handle
                    .as_ref()
                    .map(|(_, n)| n.clone())
                    .or_else(|| self.ui.hit(x, y).and_then(|id| self.ui.window(id)).map(|w| w.name.clone()));
                let rect = name.as_ref().and_then(|n| {
                    let e = self.editor.as_mut()?;
                    find_mut(&mut e.tree.windows, n).map(|w| w.rect)
                });
                if let Some(e) = &mut self.editor {
                    e.selected = name;
                    e.note = None;
                    e.group.clear();
                    e.typing = false;
                    e.drag = rect.map(|r| ((x, y), r, handle.map(|(edges, _)| edges)));
                    if e.drag.is_some() {
                        e.checkpoint();
                    }
                }
                self.fill_panel();
            }
            Input::MouseMove { x, y } => {
                let Some((start, from, resize)) = self.editor.as_ref().and_then(|e| e.drag) else { return true };
                let Some(name) = self.editor.as_ref().and_then(|e| e.selected.clone()) else { return true };
                let (sx, sy) = self.authoring_scale(&name);
                let dx = ((x - start.0) * sx).round() as i32;
                let dy = ((y - start.1) * sy).round() as i32;
                // Dragged edges snap to the siblings' edges, else to the grid.
                let (xs, ys) =
                    self.editor.as_mut().map_or((Vec::new(), Vec::new()), |e| sibling_edges(&mut e.tree, &name));
                if let Some(edges) = resize {
                    let to = resized(from, edges, dx, dy, |v, across| snap(v, if across { &xs } else { &ys }));
                    self.edit_selected(|_| to, false);
                } else {
                    let (lx, ly) = (from.upper_left.0 + dx, from.upper_left.1 + dy);
                    let (dx, dy) = (snap(lx, &xs) - from.upper_left.0, snap(ly, &ys) - from.upper_left.1);
                    self.edit_selected(|_| moved(from, dx, dy), false);
                }
            }
            Input::MouseUp { .. } => {
                if let Some(e) = &mut self.editor {
                    e.drag = None;
                }
            }
            Input::Key { key: Key::Backspace, .. } if self.editor.as_ref().is_some_and(|e| e.typing) => {
                self.edit_tree(|tree, name| {
                    let w = find_mut(&mut tree.windows, name)?;
                    w.text.pop();
                    Some(name.to_string())
                });
            }
            Input::Key { key: Key::Enter | Key::Escape, .. } if self.editor.as_ref().is_some_and(|e| e.typing) => {
                if let Some(e) = &mut self.editor {
                    e.typing = false;
                }
            }
            Input::Char(c) if self.editor.as_ref().is_some_and(|e| e.typing) => {
                self.edit_tree(|tree, name| {
                    let w = find_mut(&mut tree.windows, name)?;
                    w.text.push(c);
                    Some(name.to_string())
                });
            }
            Input::Key { key, shift } => {
                let step = if shift { 10 } else { 1 };
                match key {
                    Key::Delete => self.delete_selected(),
                    Key::Left => self.edit_selected(|r| moved(r, -step, 0), true),
                    Key::Right => self.edit_selected(|r| moved(r, step, 0), true),
                    Key::Up => self.edit_selected(|r| moved(r, 0, -step), true),
                    Key::Down => self.edit_selected(|r| moved(r, 0, step), true),
                    Key::Tab => {
                        self.select_next(shift);
                        self.fill_panel();
                    }
                    Key::Escape => self.leave_editor(),
                    _ => {}
                }
            }
            Input::Char(c) => match c {
                'd' => self.duplicate_selected(),
                '[' => self.reorder_selected(-1),
                ']' => self.reorder_selected(1),
                't' => {
                    if let Some(e) = &mut self.editor {
                        e.typing = e.selected.is_some();
                    }
                }
                'u' => self.undo_edit(),
                'x' => self.discard_edits(),
                'r' => self.redo_edit(),
                's' => self.save_and_tell(),
                _ => {}
            },
            _ => {}
        }
        true
    }
}
