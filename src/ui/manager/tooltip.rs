//! Tooltips: hover time on a window with a tooltip, and when the tip is due.
//!
//! Must not: route input (hover itself is tracked by `routing.rs`).

use super::{DEFAULT_TOOLTIP_DELAY_MS, WindowManager};

impl WindowManager {
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
        let id = self.hover?;
        let w = self.window(id)?;
        // No tip over an open drop-down: the list is what the player reads then.
        if w.tooltip.is_empty() || self.capture.is_some() || self.open_combo().is_some() {
            return None;
        }
        // Hover is found when the cursor moves: a window hidden or covered since, under a
        // cursor at rest, has no tip (a closed dialog's button would leave its tip behind).
        if self.hit(self.cursor.0, self.cursor.1) != Some(id) {
            return None;
        }
        let delay = u32::try_from(w.tooltip_delay).unwrap_or(DEFAULT_TOOLTIP_DELAY_MS);
        Some((w.tooltip.clone(), delay))
    }

    /// The screen rectangles of the visible top-level windows level with the cursor (their
    /// height spans its row) other than the one it is over: a tip must not cover them (a
    /// control-bar tip beside the selection panel goes beside it, not over it).
    pub fn panels_beside_cursor(&self) -> Vec<crate::ui::Rect> {
        let mut under = self.hover;
        while let Some(parent) = under.and_then(|id| self.window(id)).and_then(|w| w.parent) {
            under = Some(parent);
        }
        let cy = self.cursor.1;
        self.roots()
            .iter()
            .filter(|&&id| Some(id) != under)
            .filter_map(|&id| self.window(id))
            .filter(|w| w.visible() && w.rect.y <= cy && cy <= w.rect.y + w.rect.h)
            .map(|w| w.rect)
            .collect()
    }

    /// The tooltip to show and where (the cursor), once the cursor has rested long enough.
    pub fn tooltip(&self) -> Option<(String, (f32, f32))> {
        let (text, delay) = self.tooltip_source()?;
        (self.hover_ms >= delay).then_some((text, self.cursor))
    }
}
