//! Placing windows: every window from its authored rectangle, for the screen size and scaling.
//!
//! Must not: change anything but the windows' placed rectangles and list row heights.

use super::super::geometry::{Fit, Rect};
use super::super::window::{Gadget, GameWindow, WindowId};
use super::super::wnd::model::{ScalingMode, ScreenRect};
use super::WindowManager;

impl WindowManager {
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
}

/// What text fitting reads of the tree (`text_fit::sibling_scale`).
impl crate::ui::text_fit::WindowTree for WindowManager {
    fn window(&self, id: WindowId) -> Option<&GameWindow> {
        WindowManager::window(self, id)
    }

    fn font_px(&self, id: WindowId) -> f32 {
        WindowManager::font_px(self, id)
    }
}
