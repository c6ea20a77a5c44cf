//! Input routing: which window an input goes to. The mouse: an open drop-down first, then the
//! window holding the capture, then the deepest usable window under the cursor within the
//! modal scope, bubbling to parents while a window's gadget does not handle it (a disabled
//! window swallows it). Keys: Tab walks the tab order, Escape closes a drop-down, the rest go
//! to the focused gadget, and what it leaves goes to its owner as `KeyUnhandled`.
//!
//! Must not: know what a gadget does with the input (`ui/gadgets/` does).

use super::super::event::{EventKind, Input, Key, MouseButton};
use super::super::gadgets::{self, Pointer, combo_box, radio_button};
use super::super::geometry::Rect;
use super::super::window::WindowId;
use super::super::wnd::model::status_bit;
use super::WindowManager;

impl WindowManager {
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

    /// The windows input may reach: the top modal window, else every root.
    fn scope(&self) -> Vec<WindowId> {
        match self.modal.last() {
            Some(m) => vec![*m],
            None => self.roots.clone(),
        }
    }

    /// The deepest visible window under a point that accepts input, within the modal scope.
    pub fn hit(&self, x: f32, y: f32) -> Option<WindowId> {
        self.scope().iter().rev().find_map(|r| self.hit_in(*r, x, y))
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

    /// An open combo box's drop-down area and row height, if any is open.
    pub fn open_combo(&self) -> Option<(WindowId, Rect, f32)> {
        let screen_h = self.fit().screen.1;
        self.slots
            .iter()
            .filter_map(|s| s.window.as_ref())
            .find_map(|w| combo_box::dropdown(&w.gadget, w.rect, screen_h).map(|(area, row)| (w.id, area, row)))
    }

    /// What a gadget needs to know of its window `id` for the mouse at (x, y).
    fn pointer(&self, id: WindowId, x: f32, y: f32) -> Option<Pointer> {
        let w = self.window(id)?;
        Some(Pointer {
            x,
            y,
            rect: w.rect,
            font_px: self.font_px(id),
            bold: w.bold,
            on_down: w.status & status_bit("ON_MOUSE_DOWN") != 0,
            measure: self.measure.clone(),
        })
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
            self.drag(c, x, y);
            return true;
        }
        over.is_some() || !self.modal.is_empty()
    }

    fn drag(&mut self, id: WindowId, x: f32, y: f32) {
        let Some(p) = self.pointer(id, x, y) else { return };
        let Some(w) = self.window_mut(id) else { return };
        let r = gadgets::drag(&mut w.gadget, &p);
        self.apply(id, r);
    }

    fn mouse_down(&mut self, x: f32, y: f32, button: MouseButton) -> bool {
        self.cursor = (x, y);
        self.hover_ms = 0;
        // An open drop-down takes the click first.
        if let Some((combo, area, row)) = self.open_combo() {
            if area.contains(x, y) {
                let item = ((y - area.y) / row.max(1.0)) as usize;
                let r = self.window_mut(combo).map(|w| combo_box::pick(&mut w.gadget, item)).unwrap_or_default();
                self.apply(combo, r);
                return true;
            }
            if let Some(w) = self.window_mut(combo) {
                combo_box::close(&mut w.gadget);
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
            let (parent, focusable) = (w.parent, w.focusable());
            if focusable {
                self.focus = Some(id);
            }
            let Some(p) = self.pointer(id, x, y) else { return true };
            let Some(w) = self.window_mut(id) else { return true };
            let r = gadgets::mouse_down(&mut w.gadget, &p);
            let handled = r.handled;
            self.apply(id, r);
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
        let Some(w) = self.window_mut(id) else { return true };
        let r = gadgets::mouse_up(&mut w.gadget, inside);
        let group = radio_button::group(&w.gadget);
        // A radio button chosen clears the others of its group among its siblings.
        if let (Some(group), true) = (group, r.events.contains(&EventKind::RadioSelected)) {
            let siblings = parent.and_then(|p| self.window(p)).map(|p| p.children.clone()).unwrap_or_default();
            for s in siblings.into_iter().filter(|s| *s != id) {
                if let Some(sw) = self.window_mut(s) {
                    radio_button::clear_if_in(&mut sw.gadget, group);
                }
            }
        }
        self.apply(id, r);
        true
    }

    fn wheel(&mut self, x: f32, y: f32, delta: f32) -> bool {
        // A long static text under the cursor scrolls (texts take no clicks, so the hit test
        // passes over them).
        if let Some(text) = self.text_under(x, y)
            && self.scroll_text(text, delta)
        {
            return true;
        }
        let mut cur = self.hit(x, y);
        let over = cur.is_some();
        while let Some(id) = cur {
            let Some(w) = self.window_mut(id) else { break };
            let (parent, height) = (w.parent, w.rect.h);
            let r = gadgets::wheel(&mut w.gadget, height, delta);
            if r.handled {
                self.apply(id, r);
                return true;
            }
            cur = parent;
        }
        over || !self.modal.is_empty()
    }

    /// The deepest visible static text under (x, y) within the modal scope, if any.
    fn text_under(&self, x: f32, y: f32) -> Option<WindowId> {
        fn walk(m: &WindowManager, id: WindowId, x: f32, y: f32) -> Option<WindowId> {
            let w = m.window(id)?;
            if !w.visible() || !w.rect.contains(x, y) {
                return None;
            }
            let deeper = w.children.iter().rev().find_map(|c| walk(m, *c, x, y));
            deeper.or_else(|| matches!(w.gadget, crate::ui::window::Gadget::StaticText { .. }).then_some(id))
        }
        self.scope().iter().rev().find_map(|r| walk(self, *r, x, y))
    }

    /// Scrolls a static text taller than its window by the wheel's `delta` (three lines a
    /// notch); true if it did.
    fn scroll_text(&mut self, id: WindowId, delta: f32) -> bool {
        let px = self.font_px(id);
        let (Some(tm), Some(w)) = (self.measure.clone(), self.window(id)) else { return false };
        let crate::ui::window::Gadget::StaticText { scroll, .. } = w.gadget else { return false };
        let lines = crate::ui::text_fit::static_lines(w, tm.as_ref(), px).len();
        let most = crate::ui::text_fit::max_scroll(lines, tm.line_height(px), w.rect.h);
        if most == 0 {
            return false;
        }
        let to = (scroll as i64 - (delta * 3.0).round() as i64).clamp(0, most as i64) as u32;
        if let Some(crate::ui::window::Gadget::StaticText { scroll, .. }) = self.window_mut(id).map(|w| &mut w.gadget) {
            *scroll = to;
        }
        true
    }

    /// Windows that take part in tab order, depth first, within the modal scope.
    pub fn tab_order(&self) -> Vec<WindowId> {
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
        let mut out = Vec::new();
        for r in self.scope() {
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
        if key == Key::Escape
            && let Some((combo, _, _)) = self.open_combo()
        {
            if let Some(w) = self.window_mut(combo) {
                combo_box::close(&mut w.gadget);
            }
            return true;
        }
        if let Some(f) = self.focus.filter(|f| self.usable(*f))
            && let Some(w) = self.window_mut(f)
        {
            let height = w.rect.h;
            let r = gadgets::key(&mut w.gadget, key, shift, height);
            if r.handled {
                self.apply(f, r);
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

    fn char(&mut self, c: char) -> bool {
        let Some(f) = self.focus.filter(|f| self.usable(*f)) else { return !self.modal.is_empty() };
        let Some(r) = self.window_mut(f).and_then(|w| gadgets::char(&mut w.gadget, c)) else { return false };
        self.apply(f, r);
        true
    }
}
