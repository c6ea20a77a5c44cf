//! The window arena: creating a layout's windows, destroying windows and layouts, showing,
//! enabling and stacking them, and the modal stack.
//!
//! Must not: route input or place windows (beyond asking for a relayout).

use super::super::geometry::Rect;
use super::super::window::{Gadget, GameWindow, WindowId, name_key};
use super::super::wnd::model::{ScalingMode, WindowDef, WndFile, status_bit};
use super::{Layout, LayoutId, Slot, WindowManager};

impl WindowManager {
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
            text: self.shown_text(&def.text),
            tooltip: self.shown_text(&def.tooltip_text),
            tooltip_delay: def.tooltip_delay,
            click_sound: def.click_sound.clone(),
            action: def.action.clone(),
            hover_sound: def.hover_sound.clone(),
            font_px: if font.size > 0 { font.size as f32 } else { 14.0 },
            bold: font.bold,
            face: self.measure.as_ref().map_or(0, |m| m.face_of(&font.name)),
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
            icon: None,
            mark: String::new(),
        };
        self.slots[id.index as usize].window = Some(window);
        let kids: Vec<WindowId> = def.children.iter().map(|c| self.create(c, Some(id), layout, mode)).collect();
        if let Some(w) = self.window_mut(id) {
            w.children = kids;
        }
        id
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
}
