//! The layout editor, first part: F10 turns the screen on show (the battle's HUD included) into
//! an editable copy of its layout. A click selects the deepest window under the pointer (Tab
//! walks to the next, Shift+Tab back; Shift+click gathers more for the alignment tools,
//! `editor_align.rs`), a drag moves it (from one of its handles, `editor_handles.rs`, resizes
//! it), the arrow keys
//! nudge it a pixel (Shift: ten) — a drag snaps to the siblings' edges within four units, else
//! to a five-unit grid — `t` types its text, `d` duplicates it, Delete removes it, `u`
//! undoes and `r` redoes, `s` saves through the canonical writer (`editor_save.rs`: into the mod
//! the layout came from, or the player's own `mods/my-layouts/`, never over the game's files),
//! and Escape or F10 leaves. The screen shows every change at once; `editor_overlay.rs` draws the editor's marks.
//!
//! Must not: write the game's own files, or let input through to the battle while editing.

use crate::ui::wnd::WndFile;
use crate::ui::wnd::model::ScreenRect;

use super::editor_handles::Edges;
use super::editor_tree::{find_mut, moved, siblings_of};
use super::{Screen, Shell};
use crate::ui::window::short_name;

/// Most undo steps kept.
const MAX_UNDO: usize = 200;

/// An editing session on one screen's layout.
#[derive(Clone, Debug)]
pub struct Editor {
    /// The layout file (`Options.wnd`).
    pub file: String,
    /// Its screen.
    pub screen: Screen,
    /// The layout as edited.
    pub tree: WndFile,
    /// The layout as its file last stood on disk (when editing began, or was last saved or
    /// reloaded): the edits are unsaved while `tree` differs from it.
    pub base: WndFile,
    /// The file as it now stands on disk, when it changed under unsaved edits and the modder
    /// has not yet said which to keep.
    pub theirs: Option<WndFile>,
    /// The selected window's name.
    pub selected: Option<String>,
    /// Windows selected with it (Shift+click), which the alignment tools line up with it.
    pub group: Vec<String>,
    /// Why the last edit typed into the panel was refused, shown in the editor's bar until
    /// the next edit or selection.
    pub note: Option<String>,
    /// Which of the window's callbacks the panel shows and sets (an index of the panel's
    /// callback kinds: system, input, tooltip, draw).
    pub(super) callback_kind: usize,
    /// The image slot the panel shows and sets (an index of `editor_values::image_slots` for
    /// the selected window's kind: a state's background, or a part such as a check box's
    /// mark), whose colours the colour field edits. Kept while the panel is rebuilt after each
    /// edit.
    pub(super) image_slot: usize,
    /// Which colour of that slot the colour field shows and sets (an index of
    /// `editor_values::COLOUR_KINDS`: text, text border, image tint, image border).
    pub(super) colour_kind: usize,
    pub(super) undo: Vec<WndFile>,
    pub(super) redo: Vec<WndFile>,
    /// A drag under way: where it began, the window's rectangle then, and the edges it moves
    /// when it began on one of the selected window's resize handles (none: it moves the window).
    pub(super) drag: Option<((f32, f32), ScreenRect, Option<Edges>)>,
    /// Typing replaces the selected window's text (`t` starts, Enter or Escape ends).
    pub typing: bool,
    /// The editor's own panel (`Editor.wnd`), over the edited screen.
    pub(super) panel: Option<crate::ui::LayoutId>,
    /// Which of the panel's two halves (the tree at the left, the fields at the right) are
    /// moved beside the other, away from the selected window they would cover.
    pub(super) docked: [bool; 2],
}

/// Moves every window in `ws`, and theirs, by (dx, dy).
pub(super) fn carry(ws: &mut [crate::ui::wnd::model::WindowDef], dx: i32, dy: i32) {
    for w in ws {
        w.rect = moved(w.rect, dx, dy);
        carry(&mut w.children, dx, dy);
    }
}

/// A note when the window `name` now lies partly outside its parent, where the parent clips
/// it from view.
fn outside_parent(tree: &WndFile, name: &str) -> Option<String> {
    use crate::ui::wnd::model::WindowDef;
    /// The window `name` and its parent, where it has one.
    fn walk<'a>(
        ws: &'a [WindowDef],
        parent: Option<&'a WindowDef>,
        name: &str,
    ) -> Option<(&'a WindowDef, Option<&'a WindowDef>)> {
        ws.iter().find_map(|w| if w.name == name { Some((w, parent)) } else { walk(&w.children, Some(w), name) })
    }
    let (child, Some(parent)) = walk(&tree.windows, None, name)? else { return None };
    let (c, p) = (child.rect, parent.rect);
    let inside = c.upper_left.0 >= p.upper_left.0
        && c.upper_left.1 >= p.upper_left.1
        && c.bottom_right.0 <= p.bottom_right.0
        && c.bottom_right.1 <= p.bottom_right.1;
    (!inside).then(|| {
        format!(
            "{} reaches outside {}: the part outside is clipped from view",
            short_name(name),
            short_name(&parent.name)
        )
    })
}

impl Editor {
    /// True while the layout differs from its file as last seen on disk.
    pub fn unsaved(&self) -> bool {
        !crate::ui::wnd::same_content(&self.tree, &self.base)
    }

    /// Keeps `before` (the tree before a change) for undo; a new change ends what redo had.
    pub(super) fn keep_for_undo(&mut self, before: WndFile) {
        self.undo.push(before);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Keeps the tree as it is for undo: a change is about to be made to it.
    pub(super) fn checkpoint(&mut self) {
        self.keep_for_undo(self.tree.clone());
    }

    /// Makes `after` the tree, the old one kept for undo.
    pub(super) fn remember(&mut self, after: WndFile) {
        let before = std::mem::replace(&mut self.tree, after);
        self.keep_for_undo(before);
    }
}

impl Shell {
    /// True while the layout editor is on.
    pub fn editing(&self) -> bool {
        self.editor.is_some()
    }

    /// The editing session, if any.
    pub fn editor(&self) -> Option<&Editor> {
        self.editor.as_ref()
    }

    /// F10: starts editing the screen on show (in modder mode, from Options), or stops. A
    /// session left with unsaved edits is taken up again where it was, undo history and all.
    pub fn toggle_editor(&mut self) {
        if self.editor.is_some() {
            self.leave_editor();
            return;
        }
        if !self.settings.modder_mode {
            return;
        }
        let Some(screen) = self.screen() else { return };
        if let Some(mut shelved) = self.shelved_edits.remove(screen.layout()) {
            shelved.screen = screen;
            self.editor = Some(shelved);
            self.show_edit();
            return;
        }
        let Some(tree) = self.layouts.get(screen.layout()).cloned() else { return };
        self.editor = Some(Editor {
            file: screen.layout().to_string(),
            screen,
            base: tree.clone(),
            theirs: None,
            tree,
            selected: None,
            group: Vec::new(),
            image_slot: 0,
            colour_kind: 0,
            callback_kind: 0,
            note: None,
            undo: Vec::new(),
            redo: Vec::new(),
            drag: None,
            typing: false,
            panel: None,
            docked: [false; 2],
        });
        self.show_panel();
    }

    /// Turns the editor on over the screen on show (modder mode on for it) and selects the
    /// window `name` (none: nothing selected), as `screenshot --edit` shows it; false if the
    /// editor could not start or has no such window.
    pub fn edit_with(&mut self, name: Option<&str>) -> bool {
        self.settings.modder_mode = true;
        if !self.editing() {
            self.toggle_editor();
        }
        let Some(e) = &mut self.editor else { return false };
        if let Some(name) = name {
            if !e.tree.all_windows().iter().any(|w| w.name == name) {
                return false;
            }
            e.selected = Some(name.to_string());
        }
        self.fill_panel();
        true
    }

    /// Shows the edited tree on screen (the panel stays on top).
    pub(super) fn show_edit(&mut self) {
        let Some(e) = &self.editor else { return };
        let (file, screen, tree) = (e.file.clone(), e.screen, e.tree.clone());
        self.use_layout(&file, tree);
        self.open(screen);
        self.show_panel();
    }

    /// Leaves the editor (its panel goes). Unsaved edits stay on screen and are kept, with
    /// their undo history, for the next F10 on this layout.
    pub fn leave_editor(&mut self) {
        let Some(mut e) = self.editor.take() else { return };
        if let Some(p) = e.panel.take() {
            self.ui.destroy_layout(p);
        }
        (e.typing, e.drag) = (false, None);
        if e.unsaved() {
            self.shelved_edits.insert(e.file.clone(), e);
        }
    }

    /// Throws away the unsaved edits: the layout returns to its file as it stands (the edits
    /// stay in the undo history).
    pub fn discard_edits(&mut self) {
        let Some(e) = &mut self.editor else { return };
        if !e.unsaved() {
            return;
        }
        let base = e.base.clone();
        e.remember(base);
        self.show_edit();
    }

    /// Changes the selected window's rectangle (remembering the old tree for undo).
    pub(super) fn edit_selected(&mut self, change: impl FnOnce(ScreenRect) -> ScreenRect, remember: bool) {
        let alone = self.alt;
        let Some(e) = &mut self.editor else { return };
        let Some(name) = e.selected.clone() else { return };
        let mut after = e.tree.clone();
        let Some(w) = find_mut(&mut after.windows, &name) else { return };
        let from = w.rect;
        w.rect = change(w.rect);
        // A move carries the children along (their rectangles are the screen's, not the
        // parent's), as GUIEdit does, unless Alt is held; a resize leaves them where they are.
        let (dx, dy) = (w.rect.upper_left.0 - from.upper_left.0, w.rect.upper_left.1 - from.upper_left.1);
        let same_size =
            w.rect.bottom_right.0 - from.bottom_right.0 == dx && w.rect.bottom_right.1 - from.bottom_right.1 == dy;
        if same_size && (dx, dy) != (0, 0) && !alone {
            carry(&mut w.children, dx, dy);
        }
        e.note = outside_parent(&after, &name);
        if remember {
            e.remember(after);
        } else {
            e.tree = after;
        }
        self.show_edit();
    }

    /// Changes the tree (remembering the old one for undo) and shows it.
    pub(super) fn edit_tree(&mut self, change: impl FnOnce(&mut WndFile, &str) -> Option<String>) {
        let Some(e) = &mut self.editor else { return };
        let Some(name) = e.selected.clone() else { return };
        let mut after = e.tree.clone();
        let Some(selected) = change(&mut after, &name) else { return };
        e.note = None;
        e.selected = Some(selected).filter(|s| !s.is_empty());
        e.remember(after);
        self.show_edit();
    }

    /// Removes the selected window (and its children).
    pub fn delete_selected(&mut self) {
        self.edit_tree(|tree, name| {
            let (list, i) = siblings_of(&mut tree.windows, name)?;
            list.remove(i);
            Some(String::new())
        });
    }

    /// Copies the selected window beside itself, ten units down and right, and selects the copy.
    pub fn duplicate_selected(&mut self) {
        self.edit_tree(|tree, name| {
            let names: Vec<String> = tree.all_windows().into_iter().map(|w| w.name.clone()).collect();
            let (list, i) = siblings_of(&mut tree.windows, name)?;
            let mut copy = list[i].clone();
            let fresh = (2..).map(|n| format!("{name}{n}")).find(|n| !names.contains(n))?;
            copy.name = fresh.clone();
            copy.rect = moved(copy.rect, 10, 10);
            copy.children.clear();
            list.insert(i + 1, copy);
            Some(fresh)
        });
    }

    /// Moves the selected window one place earlier (`by` −1) or later (+1) among its siblings
    /// (later ones draw on top).
    pub fn reorder_selected(&mut self, by: i32) {
        self.edit_tree(|tree, name| {
            let (list, i) = siblings_of(&mut tree.windows, name)?;
            let j = i as i32 + by;
            if j < 0 || j as usize >= list.len() {
                return None;
            }
            list.swap(i, j as usize);
            Some(name.to_string())
        });
    }

    /// Adds a new window of `kind` inside the selected one (or at the top level with none
    /// selected), 10 units in from its corner, plainly drawn so it shows; selects it.
    pub fn add_window(&mut self, kind: crate::ui::wnd::model::WindowType) {
        let Some(e) = &mut self.editor else { return };
        let file = e.file.clone();
        let before = e.tree.clone();
        let names: Vec<String> = e.tree.all_windows().into_iter().map(|w| w.name.clone()).collect();
        let stem = format!("{file}:New{}", kind.keyword().to_lowercase());
        let Some(name) = (1..).map(|n| format!("{stem}{n}")).find(|n| !names.contains(n)) else { return };
        let parent_rect = e.selected.as_ref().and_then(|s| find_mut(&mut e.tree.windows, s)).map(|w| w.rect);
        let at = parent_rect.map_or((20, 20), |r| (r.upper_left.0 + 10, r.upper_left.1 + 10));
        let res = parent_rect.map_or((800, 600), |r| r.creation_resolution);
        let plain = crate::ui::wnd::model::DrawEntry {
            image: "NoImage".into(),
            color: [70, 80, 70, 255],
            border: [200, 190, 150, 255],
        };
        let template = e.tree.all_windows().first().map(|w| (*w).clone());
        let Some(mut w) = template else { return };
        w.kind = kind;
        w.name = name.clone();
        w.rect = ScreenRect { upper_left: at, bottom_right: (at.0 + 120, at.1 + 30), creation_resolution: res };
        w.text = "New".into();
        w.tooltip_text = String::new();
        w.system_callback = None;
        w.draw_callback = None;
        w.status = crate::ui::wnd::model::status_bit("ENABLED");
        w.style = crate::ui::wnd::model::style_bit(kind.keyword());
        w.enabled = vec![plain.clone()];
        w.disabled = vec![plain.clone()];
        w.hilite = vec![plain];
        w.gadget = None;
        w.anchor = None;
        w.extra.clear();
        w.key_lines.clear();
        w.children.clear();
        let parent = e.selected.clone();
        match parent.and_then(|p| find_mut(&mut e.tree.windows, &p)) {
            Some(p) => p.children.push(w),
            None => e.tree.windows.push(w),
        }
        e.keep_for_undo(before);
        e.selected = Some(name);
        self.show_edit();
    }

    /// Authoring units per screen pixel for the selected window (its placed size over its
    /// authored size).
    pub(super) fn authoring_scale(&self, name: &str) -> (f32, f32) {
        let placed = self.find(name).and_then(|id| self.ui.window(id)).map(|w| (w.rect, w.authored));
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

    /// Selects the window after the selected one, depth first (the first when none is), or
    /// with `back` the one before it (the last when none is); the walk wraps round.
    pub(super) fn select_next(&mut self, back: bool) {
        let Some(e) = &mut self.editor else { return };
        let names: Vec<String> = e.tree.all_windows().into_iter().map(|w| w.name.clone()).collect();
        let n = names.len().max(1);
        let next = match (e.selected.as_ref().and_then(|s| names.iter().position(|m| m == s)), back) {
            (Some(i), false) => names.get((i + 1) % n).cloned(),
            (Some(i), true) => names.get((i + n - 1) % n).cloned(),
            (None, false) => names.first().cloned(),
            (None, true) => names.last().cloned(),
        };
        e.selected = next;
    }

    /// Takes back the last change.
    pub fn undo_edit(&mut self) {
        let Some(e) = &mut self.editor else { return };
        if let Some(prev) = e.undo.pop() {
            let now = std::mem::replace(&mut e.tree, prev);
            e.redo.push(now);
            self.show_edit();
        }
    }

    /// Makes the last change taken back again.
    pub fn redo_edit(&mut self) {
        let Some(e) = &mut self.editor else { return };
        if let Some(next) = e.redo.pop() {
            let now = std::mem::replace(&mut e.tree, next);
            e.undo.push(now);
            self.show_edit();
        }
    }
}
