//! The layout editor's input over the screen it edits: a click selects the window under the
//! pointer (Shift+click gathers a group), a drag moves it or, on a handle, resizes it (edges
//! snap to the siblings' edges, else to the grid), arrows nudge (Shift: by ten), `t` types the
//! window's text, Tab walks the tree, and the letter keys duplicate, reorder, undo, redo and save.
//!
//! Must not: change the edited layout except through the editor's undoable edits.

use crate::game::shell::stage::Stage;
use crate::ui::wnd::model::ScreenRect;
use crate::ui::{Input, Key, MouseButton, WindowManager};

use super::handles::{handle_at, resized};
use super::labelled::{layout_of, shown_words, stored_text};
use super::panel::{fill_panel, show_edit};
use super::save::save_and_tell;
use super::session::Editor;
use super::tree::{find_mut, moved, sibling_edges, snap};

/// The modifier keys the client last said were held.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Held {
    /// Shift: clicks add to the group.
    pub shift: bool,
    /// Alt: a move leaves the window's children where they are.
    pub alt: bool,
}

/// Handles input while editing; true when it asks to leave the editor (Escape).
pub(super) fn input(ed: &mut Editor, stage: &mut Stage, held: Held, input: &Input) -> bool {
    match *input {
        Input::MouseDown { x, y, button: MouseButton::Left } if held.shift => {
            // Shift+click adds the window under the pointer to the group, or takes it out.
            let hit = stage.ui.hit(x, y).and_then(|id| stage.ui.window(id)).map(|w| w.name.clone());
            if let Some(name) = hit
                && ed.toggle_in_group(name)
            {
                fill_panel(ed, stage);
            }
        }
        Input::MouseDown { x, y, button: MouseButton::Left } => {
            press(ed, stage.ui, x, y);
            fill_panel(ed, stage);
        }
        Input::MouseMove { x, y } => drag(ed, stage, held.alt, x, y),
        Input::MouseUp { .. } => ed.drag = None,
        Input::Key { key: Key::Backspace, .. } if ed.typing => {
            let changed = ed.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.text.pop();
                Some(name.to_string())
            });
            show_if(changed, ed, stage);
        }
        Input::Key { key: Key::Enter | Key::Escape, .. } if ed.typing => {
            ed.typing = false;
            end_typing(ed, stage);
        }
        Input::Char(c) if ed.typing => {
            let changed = ed.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.text.push(c);
                Some(name.to_string())
            });
            show_if(changed, ed, stage);
        }
        Input::Key { key: Key::Escape, .. } => return true,
        Input::Key { key, shift } => key_press(ed, stage, held.alt, key, shift),
        Input::Char(c) => letter(ed, stage, c),
        _ => {}
    }
    false
}

/// Shows the edited tree again when an edit changed it.
fn show_if(changed: bool, ed: &mut Editor, stage: &mut Stage) {
    if changed {
        show_edit(ed, stage);
    }
}

/// A press selects the window under the pointer (or keeps the selected one when the press is
/// on one of its handles) and starts a drag of it.
fn press(ed: &mut Editor, ui: &WindowManager, x: f32, y: f32) {
    // On one of the selected window's handles a drag resizes it.
    let handle = ed
        .selected
        .as_ref()
        .and_then(|n| ui.find(n))
        .and_then(|id| ui.window(id))
        .and_then(|w| handle_at(w.rect, x, y).map(|edges| (edges, w.name.clone())));
    let name = handle
        .as_ref()
        .map(|(_, n)| n.clone())
        .or_else(|| ui.hit(x, y).and_then(|id| ui.window(id)).map(|w| w.name.clone()));
    let rect = name.as_ref().and_then(|n| find_mut(&mut ed.tree.windows, n).map(|w| w.rect));
    ed.selected = name;
    ed.note = None;
    ed.group.clear();
    ed.typing = false;
    ed.drag = rect.map(|r| ((x, y), r, handle.map(|(edges, _)| edges)));
    if ed.drag.is_some() {
        ed.checkpoint();
    }
}

/// The pointer moved: a drag under way moves or resizes the selected window (dragged edges
/// snap to the siblings' edges, else to the grid).
fn drag(ed: &mut Editor, stage: &mut Stage, alone: bool, x: f32, y: f32) {
    let Some((start, from, resize)) = ed.drag else { return };
    let Some(name) = ed.selected.clone() else { return };
    let (sx, sy) = authoring_scale(stage.ui, &name);
    let dx = ((x - start.0) * sx).round() as i32;
    let dy = ((y - start.1) * sy).round() as i32;
    let (xs, ys) = sibling_edges(&mut ed.tree, &name);
    let to: ScreenRect = if let Some(edges) = resize {
        resized(from, edges, dx, dy, |v, across| snap(v, if across { &xs } else { &ys }))
    } else {
        let (lx, ly) = (from.upper_left.0 + dx, from.upper_left.1 + dy);
        moved(from, snap(lx, &xs) - from.upper_left.0, snap(ly, &ys) - from.upper_left.1)
    };
    let changed = ed.edit_selected(|_| to, false, alone);
    show_if(changed, ed, stage);
}

/// Authoring units per screen pixel for the window `name` (its placed size over its authored
/// size).
fn authoring_scale(ui: &WindowManager, name: &str) -> (f32, f32) {
    let placed = ui.find(name).and_then(|id| ui.window(id)).map(|w| (w.rect, w.authored));
    match placed {
        Some((r, a)) => {
            let (aw, ah) = ((a.bottom_right.0 - a.upper_left.0) as f32, (a.bottom_right.1 - a.upper_left.1) as f32);
            let sx = if r.w > 0.0 && aw > 0.0 { aw / r.w } else { 1.0 };
            let sy = if r.h > 0.0 && ah > 0.0 { ah / r.h } else { 1.0 };
            (sx, sy)
        }
        None => (1.0, 1.0),
    }
}

/// Delete removes, the arrows nudge (Shift: by ten), Tab walks the tree.
fn key_press(ed: &mut Editor, stage: &mut Stage, alone: bool, key: Key, shift: bool) {
    let step = if shift { 10 } else { 1 };
    let nudge = |dx, dy| move |r| moved(r, dx, dy);
    let changed = match key {
        Key::Delete => ed.delete_selected(),
        Key::Left => ed.edit_selected(nudge(-step, 0), true, alone),
        Key::Right => ed.edit_selected(nudge(step, 0), true, alone),
        Key::Up => ed.edit_selected(nudge(0, -step), true, alone),
        Key::Down => ed.edit_selected(nudge(0, step), true, alone),
        Key::Tab => {
            ed.select_next(shift);
            fill_panel(ed, stage);
            false
        }
        _ => false,
    };
    show_if(changed, ed, stage);
}

/// `t`: typing replaces the selected window's text from now on. A label's words are shown to
/// be typed over (one undoable edit), the label remembered for [`end_typing`].
fn start_typing(ed: &mut Editor, stage: &Stage) -> bool {
    ed.typing = ed.selected.is_some();
    ed.typed_from = None;
    let labels = stage.ui.labels();
    let text = ed.selected.clone().and_then(|n| find_mut(&mut ed.tree.windows, &n).map(|w| w.text.clone()));
    let Some((text, words)) = text.and_then(|t| shown_words(labels.as_deref(), &t).map(|w| (t, w))) else {
        return false;
    };
    ed.typed_from = Some(text);
    ed.edit_tree(|tree, name| {
        find_mut(&mut tree.windows, name)?.text = words;
        Some(name.to_string())
    })
}

/// Enter or Escape after typing: words that are a string-table entry's become its label again
/// (the label typing began on first).
fn end_typing(ed: &mut Editor, stage: &mut Stage) {
    let before = ed.typed_from.take().unwrap_or_default();
    let labels = stage.ui.labels();
    let changed = ed.edit_tree(|tree, name| {
        let w = find_mut(&mut tree.windows, name)?;
        let stored = stored_text(labels.as_deref(), layout_of(name), &before, &w.text);
        (stored != w.text).then(|| {
            w.text = stored;
            name.to_string()
        })
    });
    show_if(changed, ed, stage);
}

/// The letter keys: duplicate, reorder, type, undo, discard, redo, save.
fn letter(ed: &mut Editor, stage: &mut Stage, c: char) {
    let changed = match c {
        'd' => ed.duplicate_selected(),
        '[' => ed.reorder_selected(-1),
        ']' => ed.reorder_selected(1),
        't' => start_typing(ed, stage),
        'u' => ed.undo_edit(),
        'x' => ed.discard(),
        'r' => ed.redo_edit(),
        's' => {
            save_and_tell(ed, stage);
            false
        }
        _ => false,
    };
    show_if(changed, ed, stage);
}
