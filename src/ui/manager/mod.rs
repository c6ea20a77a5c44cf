//! The window manager: owns the window arena and the layouts, places windows on the screen,
//! and routes input to them. Split the way Masonry splits its passes: `tree.rs` (the arena:
//! creating and destroying windows and layouts, showing, enabling, stacking, the modal stack),
//! `layout.rs` (placing windows for the screen), `routing.rs` (input: capture first, then the
//! top modal window's subtree, else the deepest enabled, visible window under the cursor,
//! bubbling to parents; keys follow focus and tab order) and `tooltip.rs`. What each gadget
//! does with the input it is given lives in `ui/gadgets/`, one file per kind.
//!
//! Must not: draw (see `draw/`) or decide what an event means (screens do).

mod layout;
mod routing;
mod tooltip;
mod tree;

use std::collections::VecDeque;

use super::event::{EventKind, UiEvent};
use super::font::TextMeasure;
use super::gadgets::Response;
use super::geometry::Fit;
use super::routes;
use super::window::{GameWindow, WindowId, name_key};
use super::wnd::model::ScalingMode;

/// A layout's handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LayoutId(pub u32);

/// A loaded layout: its root windows and lifetime callbacks.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Handle.
    pub id: LayoutId,
    /// The file it came from.
    pub file: String,
    /// Root windows.
    pub roots: Vec<WindowId>,
    /// `LAYOUTINIT` callback.
    pub init: Option<String>,
    /// `LAYOUTUPDATE` callback.
    pub update: Option<String>,
    /// `LAYOUTSHUTDOWN` callback.
    pub shutdown: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Slot {
    generation: u32,
    window: Option<GameWindow>,
}

/// Measures text for placing the caret where the player clicks.
pub type SharedMeasure = std::sync::Arc<dyn TextMeasure + Send + Sync>;

/// The retained window system.
#[derive(Clone)]
pub struct WindowManager {
    slots: Vec<Slot>,
    roots: Vec<WindowId>,
    layouts: Vec<Layout>,
    next_layout: u32,
    fit: Fit,
    focus: Option<WindowId>,
    capture: Option<WindowId>,
    hover: Option<WindowId>,
    modal: Vec<WindowId>,
    events: VecDeque<UiEvent>,
    cursor: (f32, f32),
    hover_ms: u32,
    measure: Option<SharedMeasure>,
    /// The string table texts given by label resolve through (none: labels show as they are).
    labels: Option<crate::ui::labels::SharedLabels>,
    /// The layout file drawn in a skin, and the skin (none: every layout in its own look).
    skin: Option<(String, crate::ui::skin::Skin)>,
}

impl std::fmt::Debug for WindowManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowManager").field("roots", &self.roots).field("focus", &self.focus).finish_non_exhaustive()
    }
}

/// Hover time before a tooltip shows when the layout does not say.
pub const DEFAULT_TOOLTIP_DELAY_MS: u32 = 600;

impl WindowManager {
    /// An empty manager for a screen of `screen` pixels.
    pub fn new(screen: (f32, f32), mode: ScalingMode) -> WindowManager {
        WindowManager {
            slots: Vec::new(),
            roots: Vec::new(),
            layouts: Vec::new(),
            next_layout: 0,
            fit: Fit { screen, mode },
            focus: None,
            capture: None,
            hover: None,
            modal: Vec::new(),
            events: VecDeque::new(),
            cursor: (-1.0, -1.0),
            hover_ms: 0,
            measure: None,
            labels: None,
            skin: None,
        }
    }

    /// Draws the windows of the layout loaded from `file` in `skin` over their own colours
    /// (None: every layout in its own look). Only drawing changes: the windows keep their data.
    /// Called every frame by the HUD: the skin is copied only when it changes.
    pub fn set_skin(&mut self, file: &str, skin: Option<&crate::ui::skin::Skin>) {
        let same = match (&self.skin, skin) {
            (Some((f, s)), Some(new)) => f == file && s == new,
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.skin = skin.map(|s| (file.to_string(), s.clone()));
        }
    }

    /// The skin `w` is drawn in, if its layout has one.
    pub fn skin_of(&self, w: &GameWindow) -> Option<&crate::ui::skin::Skin> {
        let (file, skin) = self.skin.as_ref()?;
        self.layouts.iter().any(|l| l.id.0 == w.layout && &l.file == file).then_some(skin)
    }

    /// Text measurement for caret placement (without it a click puts the caret at the end).
    pub fn set_text_measure(&mut self, measure: SharedMeasure) {
        self.measure = Some(measure);
    }

    /// The string table windows created from now on take their labelled texts from.
    pub fn set_labels(&mut self, labels: crate::ui::labels::SharedLabels) {
        self.labels = Some(labels);
    }

    /// The string table in use, if any.
    pub fn labels(&self) -> Option<crate::ui::labels::SharedLabels> {
        self.labels.clone()
    }

    /// Uses `labels` from now on if they differ from the table in use; true if they did.
    pub fn set_labels_if_changed(&mut self, labels: crate::ui::labels::Labels) -> bool {
        if self.labels.as_deref() == Some(&labels) {
            return false;
        }
        self.labels = Some(std::sync::Arc::new(labels));
        true
    }

    /// The text shown for a layout's `text` (a label resolved through the string table).
    pub(crate) fn shown_text(&self, text: &str) -> String {
        self.labels.as_ref().map_or(text, |l| l.resolve(text)).to_string()
    }

    /// Screen size and default scaling.
    pub fn fit(&self) -> Fit {
        self.fit
    }

    /// A window by id (None if destroyed).
    pub fn window(&self, id: WindowId) -> Option<&GameWindow> {
        self.slots.get(id.index as usize).filter(|s| s.generation == id.generation).and_then(|s| s.window.as_ref())
    }

    /// A window by id, mutably.
    pub fn window_mut(&mut self, id: WindowId) -> Option<&mut GameWindow> {
        self.slots.get_mut(id.index as usize).filter(|s| s.generation == id.generation).and_then(|s| s.window.as_mut())
    }

    /// Root windows, bottom to top.
    pub fn roots(&self) -> &[WindowId] {
        &self.roots
    }

    /// Loaded layouts.
    pub fn layouts(&self) -> &[Layout] {
        &self.layouts
    }

    /// Finds a window by its full name (`File.wnd:Id`).
    pub fn find(&self, name: &str) -> Option<WindowId> {
        let key = name_key(name);
        self.slots.iter().filter_map(|s| s.window.as_ref()).find(|w| w.key == key && w.name == name).map(|w| w.id)
    }

    /// The window a layout's action names: `File.wnd:Name` by its full name, a bare `Name`
    /// among the windows of `from`'s layout (the layout the clicked window belongs to).
    pub fn find_near(&self, target: &str, from: WindowId) -> Option<WindowId> {
        if target.contains(':') {
            return self.find(target);
        }
        let layout = self.window(from)?.layout;
        self.slots
            .iter()
            .filter_map(|s| s.window.as_ref())
            .find(|w| w.layout == layout && super::window::short_name(&w.name) == target)
            .map(|w| w.id)
    }

    /// The window with keyboard focus.
    pub fn focus(&self) -> Option<WindowId> {
        self.focus
    }

    /// The window holding the mouse capture.
    pub fn capture(&self) -> Option<WindowId> {
        self.capture
    }

    /// The window under the cursor.
    pub fn hover(&self) -> Option<WindowId> {
        self.hover
    }

    /// Gives keyboard focus to a window (if it can take it).
    pub fn set_focus(&mut self, id: Option<WindowId>) {
        self.focus = id.filter(|i| self.window(*i).is_some_and(GameWindow::focusable));
    }

    /// Presses `id` as a click does (its `Selected` event is queued) if it and every window
    /// above it are shown and enabled; false otherwise.
    pub fn press(&mut self, id: WindowId) -> bool {
        if !self.usable(id) {
            return false;
        }
        self.emit(id, EventKind::Selected);
        true
    }

    /// Every window of the layout loaded from `file`, each parent before its children.
    pub fn windows_of(&self, file: &str) -> Vec<WindowId> {
        let mut out = Vec::new();
        let mut todo: Vec<WindowId> =
            self.layouts.iter().filter(|l| l.file == file).flat_map(|l| l.roots.iter().rev().copied()).collect();
        while let Some(id) = todo.pop() {
            out.push(id);
            if let Some(w) = self.window(id) {
                todo.extend(w.children.iter().rev().copied());
            }
        }
        out
    }

    /// The lines static text `id` shows, wrapped to its width at its font size (None: not a
    /// window, or no text measure is set).
    pub fn wrapped_lines(&self, id: WindowId) -> Option<usize> {
        let (tm, w) = (self.measure.as_ref()?, self.window(id)?);
        Some(crate::ui::text_fit::static_lines(w, tm.as_ref(), self.font_px(id)).len())
    }

    /// Takes the queued events.
    pub fn drain_events(&mut self) -> Vec<UiEvent> {
        self.events.drain(..).collect()
    }

    fn is_ancestor_or_self(&self, ancestor: WindowId, mut w: WindowId) -> bool {
        loop {
            if w == ancestor {
                return true;
            }
            match self.window(w).and_then(|x| x.parent) {
                Some(p) => w = p,
                None => return false,
            }
        }
    }

    /// True if the window and all its ancestors are visible.
    pub fn shown(&self, mut id: WindowId) -> bool {
        loop {
            let Some(w) = self.window(id) else { return false };
            if !w.visible() {
                return false;
            }
            match w.parent {
                Some(p) => id = p,
                None => return true,
            }
        }
    }

    fn usable(&self, id: WindowId) -> bool {
        let mut cur = Some(id);
        while let Some(c) = cur {
            let Some(w) = self.window(c) else { return false };
            if !w.enabled() || !w.visible() {
                return false;
            }
            cur = w.parent;
        }
        true
    }

    fn emit(&mut self, window: WindowId, kind: EventKind) {
        let Some(w) = self.window(window) else { return };
        let name = w.name.clone();
        // The nearest window with a system callback hears it; the original's generic callbacks
        // (`PassSelectedButtonsToParentSystem`, a gadget's own…) hand it on or stop it.
        let mut owner = Some(window);
        let mut callback = None;
        while let Some(o) = owner {
            let Some(ow) = self.window(o) else { break };
            match ow.system_callback.as_deref().map(|n| (n, routes::route(n))) {
                None => owner = ow.parent,
                Some((_, Some(r))) if routes::passes(r, &kind) => owner = ow.parent,
                Some((_, Some(_))) => break,
                Some((n, None)) => {
                    callback = Some(n.to_string());
                    break;
                }
            }
        }
        self.events.push_back(UiEvent { window, name, owner, callback, kind });
    }

    /// The cursor position last seen.
    pub fn cursor(&self) -> (f32, f32) {
        self.cursor
    }

    /// The top modal window, if any.
    pub fn modal_top(&self) -> Option<WindowId> {
        self.modal.last().copied()
    }

    /// Carries out what a gadget of `id` answered: the capture it takes, the events it raised.
    fn apply(&mut self, id: WindowId, r: Response) {
        if r.capture {
            self.capture = Some(id);
        }
        for e in r.events {
            self.emit(id, e);
        }
    }
}
