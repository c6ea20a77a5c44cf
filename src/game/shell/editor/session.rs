//! An editing session on one screen's layout (`Editor`): the tree as edited and as last on
//! disk, the selection and its group, the undo history, a drag under way; and every edit it
//! makes — each one undoable, and none touching the screen (the editor shows the tree after
//! each: `panel.rs`).
//!
//! Must not: touch the screen or write files (the rest of `editor/` does).

use crate::game::shell::screen::Screen;
use crate::ui::window::short_name;
use crate::ui::wnd::WndFile;
use crate::ui::wnd::model::{DrawEntry, ScreenRect, WindowDef, WindowType, status_bit, style_bit};

use super::align::{Align, align};
use super::handles::Edges;
use super::tree::{find_mut, moved, siblings_of};
use super::values::image_slots;

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
    /// The image slot the panel shows and sets (an index of `values::image_slots` for
    /// the selected window's kind: a state's background, or a part such as a check box's
    /// mark), whose colours the colour field edits. Kept while the panel is rebuilt after each
    /// edit.
    pub(super) image_slot: usize,
    /// Which colour of that slot the colour field shows and sets (an index of
    /// `values::COLOUR_KINDS`: text, text border, image tint, image border).
    pub(super) colour_kind: usize,
    pub(super) undo: Vec<WndFile>,
    pub(super) redo: Vec<WndFile>,
    /// A drag under way: where it began, the window's rectangle then, and the edges it moves
    /// when it began on one of the selected window's resize handles (none: it moves the window).
    pub(super) drag: Option<((f32, f32), ScreenRect, Option<Edges>)>,
    /// Typing replaces the selected window's text (`t` starts, Enter or Escape ends).
    pub typing: bool,
    /// The label the typed window's text was when typing began (its words are typed over;
    /// the label is written back if the words end as a string-table entry's).
    pub(super) typed_from: Option<String>,
    /// The editor's own panel (`Editor.wnd`), over the edited screen.
    pub(super) panel: Option<crate::ui::LayoutId>,
    /// Which of the panel's two halves (the tree at the left, the fields at the right) are
    /// moved beside the other, away from the selected window they would cover.
    pub(super) docked: [bool; 2],
}

/// Moves every window in `ws`, and theirs, by (dx, dy).
pub(super) fn carry(ws: &mut [WindowDef], dx: i32, dy: i32) {
    for w in ws {
        w.rect = moved(w.rect, dx, dy);
        carry(&mut w.children, dx, dy);
    }
}

/// A note when the window `name` now lies partly outside its parent, where the parent clips
/// it from view.
fn outside_parent(tree: &WndFile, name: &str) -> Option<String> {
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

    /// A session on `screen`'s layout `tree`, read from the layout file `file`, nothing
    /// selected.
    pub(super) fn new(screen: Screen, file: String, tree: WndFile) -> Editor {
        Editor {
            file,
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
            typed_from: None,
            panel: None,
            docked: [false; 2],
        }
    }

    /// Changes the selected window's rectangle (remembering the old tree for undo); a move
    /// carries the children along unless `alone` (Alt held). True when there was one.
    pub(super) fn edit_selected(
        &mut self,
        change: impl FnOnce(ScreenRect) -> ScreenRect,
        remember: bool,
        alone: bool,
    ) -> bool {
        let Some(name) = self.selected.clone() else { return false };
        let mut after = self.tree.clone();
        let Some(w) = find_mut(&mut after.windows, &name) else { return false };
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
        self.note = outside_parent(&after, &name);
        if remember {
            self.remember(after);
        } else {
            self.tree = after;
        }
        true
    }

    /// Changes the tree (remembering the old one for undo): `change` gets the tree and the
    /// selected window's name and returns the name to select (empty: none), or `None` for no
    /// change. True when it changed.
    pub(super) fn edit_tree(&mut self, change: impl FnOnce(&mut WndFile, &str) -> Option<String>) -> bool {
        let Some(name) = self.selected.clone() else { return false };
        let mut after = self.tree.clone();
        let Some(selected) = change(&mut after, &name) else { return false };
        self.note = None;
        self.selected = Some(selected).filter(|s| !s.is_empty());
        self.remember(after);
        true
    }

    /// Removes the selected window (and its children).
    pub(super) fn delete_selected(&mut self) -> bool {
        self.edit_tree(|tree, name| {
            let (list, i) = siblings_of(&mut tree.windows, name)?;
            list.remove(i);
            Some(String::new())
        })
    }

    /// Copies the selected window beside itself, ten units down and right, and selects the copy.
    pub(super) fn duplicate_selected(&mut self) -> bool {
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
        })
    }

    /// Moves the selected window one place earlier (`by` −1) or later (+1) among its siblings
    /// (later ones draw on top).
    pub(super) fn reorder_selected(&mut self, by: i32) -> bool {
        self.edit_tree(|tree, name| {
            let (list, i) = siblings_of(&mut tree.windows, name)?;
            let j = i as i32 + by;
            if j < 0 || j as usize >= list.len() {
                return None;
            }
            list.swap(i, j as usize);
            Some(name.to_string())
        })
    }

    /// Adds a new window of `kind` inside the selected one (or at the top level with none
    /// selected), 10 units in from its corner, plainly drawn so it shows; selects it.
    pub(super) fn add_window(&mut self, kind: WindowType) -> bool {
        let before = self.tree.clone();
        let names: Vec<String> = self.tree.all_windows().into_iter().map(|w| w.name.clone()).collect();
        let stem = format!("{}:New{}", self.file, kind.keyword().to_lowercase());
        let Some(name) = (1..).map(|n| format!("{stem}{n}")).find(|n| !names.contains(n)) else { return false };
        let parent_rect = self.selected.as_ref().and_then(|s| find_mut(&mut self.tree.windows, s)).map(|w| w.rect);
        let at = parent_rect.map_or((20, 20), |r| (r.upper_left.0 + 10, r.upper_left.1 + 10));
        let res = parent_rect.map_or((800, 600), |r| r.creation_resolution);
        let Some(template) = self.tree.all_windows().first().map(|w| (*w).clone()) else { return false };
        let rect = ScreenRect { upper_left: at, bottom_right: (at.0 + 120, at.1 + 30), creation_resolution: res };
        let w = new_window(template, kind, name.clone(), rect);
        match self.selected.clone().and_then(|p| find_mut(&mut self.tree.windows, &p)) {
            Some(p) => p.children.push(w),
            None => self.tree.windows.push(w),
        }
        self.keep_for_undo(before);
        self.selected = Some(name);
        true
    }

    /// Selects the window after the selected one, depth first (the first when none is), or
    /// with `back` the one before it (the last when none is); the walk wraps round.
    pub(super) fn select_next(&mut self, back: bool) {
        let names: Vec<String> = self.tree.all_windows().into_iter().map(|w| w.name.clone()).collect();
        let n = names.len().max(1);
        let next = match (self.selected.as_ref().and_then(|s| names.iter().position(|m| m == s)), back) {
            (Some(i), false) => names.get((i + 1) % n).cloned(),
            (Some(i), true) => names.get((i + n - 1) % n).cloned(),
            (None, false) => names.first().cloned(),
            (None, true) => names.last().cloned(),
        };
        self.selected = next;
    }

    /// Takes back the last change; true when there was one.
    pub(super) fn undo_edit(&mut self) -> bool {
        let Some(prev) = self.undo.pop() else { return false };
        let now = std::mem::replace(&mut self.tree, prev);
        self.redo.push(now);
        true
    }

    /// Makes the last change taken back again; true when there was one.
    pub(super) fn redo_edit(&mut self) -> bool {
        let Some(next) = self.redo.pop() else { return false };
        let now = std::mem::replace(&mut self.tree, next);
        self.undo.push(now);
        true
    }

    /// Throws away the unsaved edits: the layout returns to its file as it stands (the edits
    /// stay in the undo history). True when there were any.
    pub(super) fn discard(&mut self) -> bool {
        if !self.unsaved() {
            return false;
        }
        let base = self.base.clone();
        self.remember(base);
        true
    }

    /// Puts `name` into the group, or takes it out if it is there; with nothing selected yet
    /// it becomes the selection. False when it is the selected window (nothing changes).
    pub(super) fn toggle_in_group(&mut self, name: String) -> bool {
        if self.selected.as_ref() == Some(&name) {
            return false;
        }
        if self.selected.is_none() {
            self.selected = Some(name);
        } else if let Some(i) = self.group.iter().position(|n| *n == name) {
            self.group.remove(i);
        } else {
            self.group.push(name);
        }
        true
    }

    /// The image slots of the selected window's kind (a plain window's when none is
    /// selected), and which of them the panel has chosen.
    pub(super) fn chosen_slot(&self) -> (Vec<(usize, usize, String)>, usize) {
        let kind = self
            .selected
            .as_ref()
            .and_then(|name| self.tree.all_windows().into_iter().find(|w| &w.name == name).map(|w| w.kind))
            .unwrap_or(WindowType::User);
        let slots = image_slots(kind);
        let chosen = self.image_slot.min(slots.len() - 1);
        (slots, chosen)
    }

    /// The state and draw entry of the image slot the panel has chosen for the selected
    /// window.
    pub(super) fn chosen_entry(&self) -> (usize, usize) {
        let (slots, chosen) = self.chosen_slot();
        (slots[chosen].0, slots[chosen].1)
    }

    /// Lines the group up with the selected window (one undo step); the group stays chosen.
    pub(super) fn align_group(&mut self, how: Align) -> bool {
        let group = self.group.clone();
        let changed = self.edit_tree(|tree, name| align(tree, name, &group, how).then(|| name.to_string()));
        self.group = group;
        changed
    }
}

/// A new window of `kind` called `name` at `rect`, made from `template` (a window of the same
/// layout) with every look and callback cleared: plainly drawn so it shows.
fn new_window(template: WindowDef, kind: WindowType, name: String, rect: ScreenRect) -> WindowDef {
    let plain = DrawEntry { image: "NoImage".into(), color: [70, 80, 70, 255], border: [200, 190, 150, 255] };
    let mut w = template;
    w.kind = kind;
    w.name = name;
    w.rect = rect;
    w.text = "New".into();
    w.tooltip_text = String::new();
    w.system_callback = None;
    w.draw_callback = None;
    w.status = status_bit("ENABLED");
    w.style = style_bit(kind.keyword());
    w.enabled = vec![plain.clone()];
    w.disabled = vec![plain.clone()];
    w.hilite = vec![plain];
    w.gadget = None;
    w.anchor = None;
    w.extra.clear();
    w.key_lines.clear();
    w.children.clear();
    w
}
