//! The window manager: owns the window arena and the layouts, places windows on the screen,
//! and routes input: capture first, then the top modal window's subtree, else the deepest
//! enabled, visible window under the cursor, bubbling to parents when a window does not
//! handle it. Keyboard input follows focus and tab order. Gadgets turn input into
//! [`UiEvent`]s queued for their owners' system callbacks.
//!
//! Must not: draw (see `draw.rs`) or decide what an event means (screens do).

use std::collections::VecDeque;

use super::event::{EventKind, Input, Key, MouseButton, UiEvent};
use super::font::TextMeasure;
use super::geometry::{Fit, Rect};
use super::window::{Gadget, GameWindow, WindowId, name_key};
use super::wnd::model::{ScalingMode, ScreenRect, WindowDef, WndFile, status_bit};

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
struct Slot {
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
        }
    }

    /// Text measurement for caret placement (without it a click puts the caret at the end).
    pub fn set_text_measure(&mut self, measure: SharedMeasure) {
        self.measure = Some(measure);
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

    /// Creates the windows of a layout file on top of everything; returns its handle.
    pub fn create_layout(&mut self, file_name: &str, file: &WndFile) -> LayoutId {
        let id = LayoutId(self.next_layout);
        self.next_layout += 1;
        let mut roots = Vec::new();
        for def in &file.windows {
            let w = self.create(def, None, id.0, self.fit.mode);
            self.roots.push(w);
            roots.push(w);
        }
        self.layouts.push(Layout {
            id,
            file: file_name.to_string(),
            roots,
            init: file.layout_init.clone(),
            update: file.layout_update.clone(),
            shutdown: file.layout_shutdown.clone(),
        });
        self.relayout();
        id
    }

    fn alloc(&mut self) -> WindowId {
        if let Some(i) = self.slots.iter().position(|s| s.window.is_none()) {
            WindowId { index: i as u32, generation: self.slots[i].generation }
        } else {
            self.slots.push(Slot::default());
            WindowId { index: self.slots.len() as u32 - 1, generation: 0 }
        }
    }

    fn create(&mut self, def: &WindowDef, parent: Option<WindowId>, layout: u32, mode: ScalingMode) -> WindowId {
        let id = self.alloc();
        let mode = def.scaling.unwrap_or(mode);
        let font = def.font.clone().unwrap_or_default();
        let window = GameWindow {
            id,
            name: def.name.clone(),
            key: name_key(&def.name),
            kind: def.kind,
            parent,
            children: Vec::new(),
            layout,
            authored: def.rect,
            rect: Rect::default(),
            status: def.status,
            style: def.style,
            text: def.text.clone(),
            tooltip: def.tooltip_text.clone(),
            tooltip_delay: def.tooltip_delay,
            font_px: if font.size > 0 { font.size as f32 } else { 14.0 },
            bold: font.bold,
            text_colors: def.text_colors,
            enabled_draw: def.enabled.clone(),
            disabled_draw: def.disabled.clone(),
            hilite_draw: def.hilite.clone(),
            system_callback: def.system_callback.clone(),
            draw_callback: def.draw_callback.clone(),
            gadget: Gadget::from_def(def),
            hilited: false,
            scaling: mode,
            anchor: def.anchor,
        };
        self.slots[id.index as usize].window = Some(window);
        let kids: Vec<WindowId> = def.children.iter().map(|c| self.create(c, Some(id), layout, mode)).collect();
        if let Some(w) = self.window_mut(id) {
            w.children = kids;
        }
        id
    }

    /// Changes the screen size or default scaling and places every window again.
    pub fn resize(&mut self, screen: (f32, f32), mode: ScalingMode) {
        let changed_mode = mode != self.fit.mode;
        self.fit = Fit { screen, mode };
        if changed_mode {
            for s in &mut self.slots {
                if let Some(w) = &mut s.window {
                    w.scaling = mode;
                }
            }
        }
        self.relayout();
    }

    /// Places every window from its authored rectangle.
    pub fn relayout(&mut self) {
        let screen = Rect::new(0.0, 0.0, self.fit.screen.0, self.fit.screen.1);
        for root in self.roots.clone() {
            let Some(w) = self.window(root) else { continue };
            let whole = ScreenRect {
                upper_left: (0, 0),
                bottom_right: w.authored.creation_resolution,
                creation_resolution: w.authored.creation_resolution,
            };
            self.place(root, &whole, screen);
        }
    }

    fn place(&mut self, id: WindowId, parent_authored: &ScreenRect, parent: Rect) {
        let fit = self.fit;
        let Some(w) = self.window_mut(id) else { return };
        let rect = fit.place(&w.authored, parent_authored, parent, w.scaling, w.anchor);
        w.rect = rect;
        // List rows grow with the text so scaled fonts never overlap.
        let font = w.font_px * fit.length_scale(w.authored.creation_resolution, w.scaling);
        if let Gadget::ListBox { row_height, .. } = &mut w.gadget {
            *row_height = (font * 1.45).round().max(12.0);
        }
        let authored = w.authored;
        let children = w.children.clone();
        for c in children {
            self.place(c, &authored, rect);
        }
    }

    /// Font size in pixels of a window at the current screen size.
    pub fn font_px(&self, id: WindowId) -> f32 {
        self.window(id).map_or(14.0, |w| w.font_px * self.fit.length_scale(w.authored.creation_resolution, w.scaling))
    }

    /// Destroys a layout's windows and forgets it.
    pub fn destroy_layout(&mut self, layout: LayoutId) {
        if let Some(pos) = self.layouts.iter().position(|l| l.id == layout) {
            let l = self.layouts.remove(pos);
            for r in l.roots {
                self.destroy(r);
            }
        }
    }

    /// Destroys a window and its subtree.
    pub fn destroy(&mut self, id: WindowId) {
        let Some(w) = self.window(id) else { return };
        let (children, parent) = (w.children.clone(), w.parent);
        for c in children {
            self.destroy(c);
        }
        if let Some(p) = parent.and_then(|p| self.window_mut(p)) {
            p.children.retain(|c| *c != id);
        }
        self.roots.retain(|r| *r != id);
        self.modal.retain(|m| *m != id);
        for slot in [&mut self.focus, &mut self.capture, &mut self.hover] {
            if *slot == Some(id) {
                *slot = None;
            }
        }
        let s = &mut self.slots[id.index as usize];
        s.window = None;
        s.generation = s.generation.wrapping_add(1);
    }

    /// Shows or hides a window (and so its subtree).
    pub fn show(&mut self, id: WindowId, visible: bool) {
        if let Some(w) = self.window_mut(id) {
            w.set_status(status_bit("HIDDEN"), !visible);
        }
        if !visible {
            self.drop_state_under(id);
        }
    }

    /// Enables or disables a window.
    pub fn enable(&mut self, id: WindowId, enabled: bool) {
        if let Some(w) = self.window_mut(id) {
            w.set_status(status_bit("ENABLED"), enabled);
        }
        if !enabled {
            self.drop_state_under(id);
        }
    }

    /// Forgets focus and capture that lie in a hidden or disabled subtree.
    fn drop_state_under(&mut self, id: WindowId) {
        for f in [self.focus, self.capture].into_iter().flatten() {
            if self.is_ancestor_or_self(id, f) {
                if self.focus == Some(f) {
                    self.focus = None;
                }
                if self.capture == Some(f) {
                    self.capture = None;
                }
            }
        }
    }

    /// Raises a window above its siblings (a root above every other root).
    pub fn bring_to_front(&mut self, id: WindowId) {
        let parent = self.window(id).and_then(|w| w.parent);
        match parent {
            None => {
                self.roots.retain(|r| *r != id);
                self.roots.push(id);
            }
            Some(p) => {
                if let Some(pw) = self.window_mut(p) {
                    pw.children.retain(|c| *c != id);
                    pw.children.push(id);
                }
            }
        }
    }

    /// Makes a window modal: until popped, input goes only to its subtree.
    pub fn push_modal(&mut self, id: WindowId) {
        self.show(id, true);
        self.bring_to_front(id);
        self.modal.retain(|m| *m != id);
        self.modal.push(id);
        self.focus = None;
    }

    /// Ends a window's modality.
    pub fn pop_modal(&mut self, id: WindowId) {
        self.modal.retain(|m| *m != id);
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
        let mut owner = Some(window);
        while let Some(o) = owner {
            match self.window(o) {
                Some(ow) if ow.system_callback.is_some() => break,
                Some(ow) => owner = ow.parent,
                None => owner = None,
            }
        }
        let callback = owner.and_then(|o| self.window(o)).and_then(|o| o.system_callback.clone());
        self.events.push_back(UiEvent { window, name, owner, callback, kind });
    }

    /// The deepest visible window under a point that accepts input, within the modal scope.
    pub fn hit(&self, x: f32, y: f32) -> Option<WindowId> {
        let scope: Vec<WindowId> = match self.modal.last() {
            Some(m) => vec![*m],
            None => self.roots.clone(),
        };
        for r in scope.iter().rev() {
            if let Some(h) = self.hit_in(*r, x, y) {
                return Some(h);
            }
        }
        None
    }

    fn hit_in(&self, id: WindowId, x: f32, y: f32) -> Option<WindowId> {
        let w = self.window(id)?;
        if !w.visible() || !w.rect.contains(x, y) {
            return None;
        }
        for c in w.children.iter().rev() {
            if let Some(h) = self.hit_in(*c, x, y) {
                return Some(h);
            }
        }
        let see_through = w.status & status_bit("SEE_THRU") != 0;
        (w.accepts_input() && !see_through).then_some(id)
    }

    /// An open combo box's drop-down area, if any is open.
    pub fn open_combo(&self) -> Option<(WindowId, Rect, f32)> {
        self.slots.iter().filter_map(|s| s.window.as_ref()).find_map(|w| match &w.gadget {
            Gadget::ComboBox { open: true, items, max_display, .. } => {
                let row = w.rect.h;
                let n = items.len().min(*max_display).max(1) as f32;
                Some((w.id, Rect::new(w.rect.x, w.rect.bottom(), w.rect.w, row * n), row))
            }
            _ => None,
        })
    }

    /// Feeds one input; returns true if the UI consumed it (it must not reach the game).
    pub fn handle(&mut self, input: Input) -> bool {
        match input {
            Input::MouseMove { x, y } => self.mouse_move(x, y),
            Input::MouseDown { x, y, button } => self.mouse_down(x, y, button),
            Input::MouseUp { x, y, button } => self.mouse_up(x, y, button),
            Input::Wheel { x, y, delta } => self.wheel(x, y, delta),
            Input::Key { key, shift } => self.key(key, shift),
            Input::Char(c) => self.char(c),
        }
    }

    fn mouse_move(&mut self, x: f32, y: f32) -> bool {
        self.cursor = (x, y);
        let over = self.hit(x, y);
        if over != self.hover {
            if let Some(old) = self.hover {
                if let Some(w) = self.window_mut(old) {
                    w.hilited = false;
                }
                self.emit(old, EventKind::MouseLeft);
            }
            if let Some(new) = over {
                if let Some(w) = self.window_mut(new) {
                    w.hilited = true;
                }
                self.emit(new, EventKind::MouseEntered);
            }
            self.hover = over;
            self.hover_ms = 0;
        }
        if let Some(c) = self.capture {
            self.drag_slider(c, x, y);
            return true;
        }
        over.is_some() || !self.modal.is_empty()
    }

    fn drag_slider(&mut self, id: WindowId, x: f32, y: f32) {
        let Some(w) = self.window_mut(id) else { return };
        let rect = w.rect;
        if let Gadget::Slider { min, max, value, vertical } = &mut w.gadget {
            let t = if *vertical { 1.0 - (y - rect.y) / rect.h.max(1.0) } else { (x - rect.x) / rect.w.max(1.0) };
            let v = *min + ((*max - *min) as f32 * t.clamp(0.0, 1.0)).round() as i32;
            if v != *value {
                *value = v;
                self.emit(id, EventKind::SliderChanged(v));
            }
        }
    }

    fn mouse_down(&mut self, x: f32, y: f32, button: MouseButton) -> bool {
        self.cursor = (x, y);
        self.hover_ms = 0;
        // An open drop-down takes the click first.
        if let Some((combo, area, row)) = self.open_combo() {
            if area.contains(x, y) {
                let item = ((y - area.y) / row.max(1.0)) as usize;
                if let Some(Gadget::ComboBox { selected, open, items, .. }) =
                    self.window_mut(combo).map(|w| &mut w.gadget)
                {
                    *open = false;
                    if item < items.len() {
                        *selected = Some(item);
                        self.emit(combo, EventKind::ComboSelected(item));
                    }
                }
                return true;
            }
            if let Some(Gadget::ComboBox { open, .. }) = self.window_mut(combo).map(|w| &mut w.gadget) {
                *open = false;
            }
        }
        let Some(target) = self.hit(x, y) else {
            self.focus = None;
            return !self.modal.is_empty();
        };
        if button != MouseButton::Left {
            return true;
        }
        let mut cur = Some(target);
        while let Some(id) = cur {
            if !self.usable(id) {
                return true; // a disabled window swallows the click
            }
            let Some(w) = self.window(id) else { return true };
            let (rect, parent, on_down) = (w.rect, w.parent, w.status & status_bit("ON_MOUSE_DOWN") != 0);
            let (focusable, bold) = (w.focusable(), w.bold);
            if focusable {
                self.focus = Some(id);
            }
            let px = self.font_px(id);
            let measure = self.measure.clone();
            let handled = match &mut self.window_mut(id).map(|w| &mut w.gadget) {
                Some(Gadget::PushButton { pressed }) => {
                    if on_down {
                        self.emit(id, EventKind::Selected);
                    } else {
                        *pressed = true;
                        self.capture = Some(id);
                    }
                    true
                }
                Some(Gadget::CheckBox { .. } | Gadget::RadioButton { .. }) => {
                    self.capture = Some(id);
                    true
                }
                Some(Gadget::TextEntry { text, caret, anchor, secret, .. }) => {
                    // The caret goes to the character boundary nearest the click (the text is
                    // drawn 4 px inside the field, as draw.rs does).
                    let n = text.chars().count();
                    *caret = match &measure {
                        None => n,
                        Some(m) => {
                            let shown: Vec<char> = if *secret { vec!['•'; n] } else { text.chars().collect() };
                            let target = x - rect.x - 4.0;
                            (0..=n)
                                .min_by(|a, b| {
                                    let wa = m.width(&shown[..*a].iter().collect::<String>(), px, bold);
                                    let wb = m.width(&shown[..*b].iter().collect::<String>(), px, bold);
                                    (wa - target).abs().total_cmp(&(wb - target).abs())
                                })
                                .unwrap_or(n)
                        }
                    };
                    *anchor = None;
                    true
                }
                Some(Gadget::ListBox { rows, selected, multi, scroll, row_height, .. }) => {
                    let row = *scroll + ((y - rect.y) / row_height.max(1.0)) as usize;
                    if row < rows.len() {
                        // A second click on the only selected row activates it (single select).
                        let activate = !*multi && selected.as_slice() == [row];
                        if *multi {
                            if let Some(p) = selected.iter().position(|r| *r == row) {
                                selected.remove(p);
                            } else {
                                selected.push(row);
                                selected.sort_unstable();
                            }
                        } else {
                            *selected = vec![row];
                        }
                        let sel = selected.clone();
                        self.emit(id, EventKind::ListSelection(sel));
                        if activate {
                            self.emit(id, EventKind::ListActivated(row));
                        }
                    }
                    true
                }
                Some(Gadget::ComboBox { open, .. }) => {
                    *open = !*open;
                    true
                }
                Some(Gadget::Slider { .. }) => {
                    self.capture = Some(id);
                    self.drag_slider(id, x, y);
                    true
                }
                Some(Gadget::TabControl { tabs, active, tab_height }) => {
                    if y < rect.y + *tab_height && !tabs.is_empty() {
                        let t = (((x - rect.x) / (rect.w / tabs.len() as f32)) as usize).min(tabs.len() - 1);
                        if t != *active {
                            *active = t;
                            self.emit(id, EventKind::TabChanged(t));
                        }
                    }
                    true
                }
                _ => false,
            };
            if handled {
                return true;
            }
            cur = parent;
        }
        true
    }

    fn mouse_up(&mut self, x: f32, y: f32, button: MouseButton) -> bool {
        self.cursor = (x, y);
        let Some(id) = self.capture.take() else {
            return self.hit(x, y).is_some() || !self.modal.is_empty();
        };
        if button != MouseButton::Left {
            self.capture = Some(id);
            return true;
        }
        let inside = self.window(id).is_some_and(|w| w.rect.contains(x, y)) && self.usable(id);
        let parent = self.window(id).and_then(|w| w.parent);
        match self.window_mut(id).map(|w| &mut w.gadget) {
            Some(Gadget::PushButton { pressed }) => {
                *pressed = false;
                if inside {
                    self.emit(id, EventKind::Selected);
                }
            }
            Some(Gadget::CheckBox { checked }) if inside => {
                *checked = !*checked;
                let c = *checked;
                self.emit(id, EventKind::Toggled(c));
            }
            Some(Gadget::RadioButton { group, selected }) if inside => {
                let group = *group;
                *selected = true;
                let siblings = parent.and_then(|p| self.window(p)).map(|p| p.children.clone()).unwrap_or_default();
                for s in siblings {
                    if s == id {
                        continue;
                    }
                    if let Some(Gadget::RadioButton { group: g, selected }) = self.window_mut(s).map(|w| &mut w.gadget)
                    {
                        if *g == group {
                            *selected = false;
                        }
                    }
                }
                self.emit(id, EventKind::RadioSelected);
            }
            _ => {}
        }
        true
    }

    fn wheel(&mut self, x: f32, y: f32, delta: f32) -> bool {
        let mut cur = self.hit(x, y);
        let over = cur.is_some();
        while let Some(id) = cur {
            let parent = self.window(id).and_then(|w| w.parent);
            let h = self.window(id).map_or(0.0, |w| w.rect.h);
            if let Some(Gadget::ListBox { rows, scroll, row_height, .. }) = self.window_mut(id).map(|w| &mut w.gadget) {
                let visible = (h / row_height.max(1.0)).floor().max(1.0) as usize;
                let max_scroll = rows.len().saturating_sub(visible);
                let step = delta.round() as i64;
                *scroll = (*scroll as i64 - step).clamp(0, max_scroll as i64) as usize;
                return true;
            }
            cur = parent;
        }
        over || !self.modal.is_empty()
    }

    /// Windows that take part in tab order, depth first, within the modal scope.
    pub fn tab_order(&self) -> Vec<WindowId> {
        let scope: Vec<WindowId> = match self.modal.last() {
            Some(m) => vec![*m],
            None => self.roots.clone(),
        };
        let mut out = Vec::new();
        fn walk(m: &WindowManager, id: WindowId, out: &mut Vec<WindowId>) {
            let Some(w) = m.window(id) else { return };
            if !w.visible() || !w.enabled() {
                return;
            }
            if w.tab_stop() && w.focusable() {
                out.push(id);
            }
            for c in &w.children {
                walk(m, *c, out);
            }
        }
        for r in scope {
            walk(self, r, &mut out);
        }
        out
    }

    fn key(&mut self, key: Key, shift: bool) -> bool {
        if key == Key::Tab {
            let order = self.tab_order();
            if order.is_empty() {
                return !self.modal.is_empty();
            }
            let pos = self.focus.and_then(|f| order.iter().position(|o| *o == f));
            let next = match (pos, shift) {
                (None, false) => 0,
                (None, true) => order.len() - 1,
                (Some(p), false) => (p + 1) % order.len(),
                (Some(p), true) => (p + order.len() - 1) % order.len(),
            };
            self.focus = Some(order[next]);
            return true;
        }
        if key == Key::Escape {
            if let Some((combo, _, _)) = self.open_combo() {
                if let Some(Gadget::ComboBox { open, .. }) = self.window_mut(combo).map(|w| &mut w.gadget) {
                    *open = false;
                }
                return true;
            }
        }
        if let Some(f) = self.focus.filter(|f| self.usable(*f)) {
            if self.key_to_gadget(f, key, shift) {
                return true;
            }
        }
        // Unhandled: the owner of the focus (or of the top modal window, or of the top layout)
        // hears about it.
        let target = self.focus.or_else(|| self.modal.last().copied()).or_else(|| self.roots.last().copied());
        match target {
            Some(t) => {
                self.emit(t, EventKind::KeyUnhandled(key));
                true
            }
            None => false,
        }
    }

    fn key_to_gadget(&mut self, id: WindowId, key: Key, shift: bool) -> bool {
        let h = self.window(id).map_or(0.0, |w| w.rect.h);
        let mut event = None;
        let handled = match self.window_mut(id).map(|w| &mut w.gadget) {
            Some(Gadget::TextEntry { text, caret, anchor, .. }) => {
                let len = text.chars().count();
                let before = text.clone();
                match key {
                    Key::Left | Key::Right | Key::Home | Key::End => {
                        if shift && anchor.is_none() {
                            *anchor = Some(*caret);
                        } else if !shift {
                            *anchor = None;
                        }
                        *caret = match key {
                            Key::Left => caret.saturating_sub(1),
                            Key::Right => (*caret + 1).min(len),
                            Key::Home => 0,
                            _ => len,
                        };
                    }
                    Key::Backspace | Key::Delete => {
                        if !delete_selection(text, caret, anchor) {
                            if key == Key::Backspace && *caret > 0 {
                                remove_char(text, *caret - 1);
                                *caret -= 1;
                            } else if key == Key::Delete && *caret < len {
                                remove_char(text, *caret);
                            }
                        }
                    }
                    Key::Enter => event = Some(EventKind::EditDone(text.clone())),
                    _ => return false,
                }
                if *text != before {
                    event = Some(EventKind::TextChanged(text.clone()));
                }
                true
            }
            Some(Gadget::ListBox { rows, selected, scroll, row_height, .. }) => {
                let cur = selected.first().copied();
                let n = rows.len();
                let next = match key {
                    Key::Up => cur.map_or(0, |c| c.saturating_sub(1)),
                    Key::Down => cur.map_or(0, |c| (c + 1).min(n.saturating_sub(1))),
                    Key::Home => 0,
                    Key::End => n.saturating_sub(1),
                    Key::Enter => {
                        if let Some(c) = cur {
                            event = Some(EventKind::ListActivated(c));
                        }
                        n
                    }
                    _ => return false,
                };
                if next < n && Some(next) != cur {
                    *selected = vec![next];
                    let visible = (h / row_height.max(1.0)).floor().max(1.0) as usize;
                    if next < *scroll {
                        *scroll = next;
                    } else if next >= *scroll + visible {
                        *scroll = next + 1 - visible;
                    }
                    event = Some(EventKind::ListSelection(vec![next]));
                }
                true
            }
            Some(Gadget::Slider { min, max, value, .. }) => {
                let step = ((*max - *min) / 20).max(1);
                let v = match key {
                    Key::Left | Key::Down => (*value - step).max(*min),
                    Key::Right | Key::Up => (*value + step).min(*max),
                    Key::Home => *min,
                    Key::End => *max,
                    _ => return false,
                };
                if v != *value {
                    *value = v;
                    event = Some(EventKind::SliderChanged(v));
                }
                true
            }
            Some(Gadget::PushButton { .. }) if matches!(key, Key::Enter | Key::Space) => {
                event = Some(EventKind::Selected);
                true
            }
            Some(Gadget::CheckBox { checked }) if key == Key::Space => {
                *checked = !*checked;
                event = Some(EventKind::Toggled(*checked));
                true
            }
            Some(Gadget::ComboBox { items, selected, .. }) if matches!(key, Key::Up | Key::Down) => {
                let n = items.len();
                if n > 0 {
                    let c = selected.unwrap_or(0);
                    let next = if key == Key::Up { c.saturating_sub(1) } else { (c + 1).min(n - 1) };
                    *selected = Some(next);
                    event = Some(EventKind::ComboSelected(next));
                }
                true
            }
            _ => false,
        };
        if let Some(e) = event {
            self.emit(id, e);
        }
        handled
    }

    fn char(&mut self, c: char) -> bool {
        let Some(f) = self.focus.filter(|f| self.usable(*f)) else { return !self.modal.is_empty() };
        let mut changed = None;
        if let Some(Gadget::TextEntry { text, caret, anchor, max_len, numeric, .. }) =
            self.window_mut(f).map(|w| &mut w.gadget)
        {
            if c.is_control() || (*numeric && !c.is_ascii_digit()) {
                return true;
            }
            delete_selection(text, caret, anchor);
            if text.chars().count() < *max_len {
                let byte = text.char_indices().nth(*caret).map_or(text.len(), |(b, _)| b);
                text.insert(byte, c);
                *caret += 1;
                changed = Some(text.clone());
            }
        } else {
            return false;
        }
        if let Some(t) = changed {
            self.emit(f, EventKind::TextChanged(t));
        }
        true
    }

    /// The cursor position last seen.
    pub fn cursor(&self) -> (f32, f32) {
        self.cursor
    }

    /// Lets time pass for hover-dependent behaviour; returns true when a tooltip has just
    /// become due (the screen should be drawn again).
    pub fn advance(&mut self, ms: u32) -> bool {
        let before = self.tooltip().is_some();
        self.hover_ms = self.hover_ms.saturating_add(ms);
        !before && self.tooltip().is_some()
    }

    /// True while the cursor rests on a window whose tooltip is not showing yet.
    pub fn tooltip_pending(&self) -> bool {
        self.tooltip_source().is_some() && self.tooltip().is_none()
    }

    fn tooltip_source(&self) -> Option<(String, u32)> {
        let w = self.window(self.hover?)?;
        if w.tooltip.is_empty() || self.capture.is_some() {
            return None;
        }
        let delay = u32::try_from(w.tooltip_delay).unwrap_or(DEFAULT_TOOLTIP_DELAY_MS);
        Some((w.tooltip.clone(), delay))
    }

    /// The tooltip to show and where (the cursor), once the cursor has rested long enough.
    pub fn tooltip(&self) -> Option<(String, (f32, f32))> {
        let (text, delay) = self.tooltip_source()?;
        (self.hover_ms >= delay).then_some((text, self.cursor))
    }

    /// The top modal window, if any.
    pub fn modal_top(&self) -> Option<WindowId> {
        self.modal.last().copied()
    }
}

fn remove_char(text: &mut String, at: usize) {
    if let Some((b, _)) = text.char_indices().nth(at) {
        text.remove(b);
    }
}

/// Removes the selected characters; true if there was a selection.
fn delete_selection(text: &mut String, caret: &mut usize, anchor: &mut Option<usize>) -> bool {
    let Some(a) = anchor.take() else { return false };
    let (lo, hi) = (a.min(*caret), a.max(*caret));
    if lo == hi {
        return false;
    }
    let chars: Vec<char> = text.chars().collect();
    *text = chars[..lo.min(chars.len())].iter().chain(&chars[hi.min(chars.len())..]).collect();
    *caret = lo;
    true
}
