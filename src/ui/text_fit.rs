//! How text fits its window: the size a button's label shrinks to so its words fit (one size
//! for a row of buttons), and the lines a static text shows and how far it can scroll.
//!
//! Must not: draw (`draw.rs` does, with what this works out).

use super::font::{TextMeasure, wrap, wrap_breaking};
use super::window::{Gadget, GameWindow, WindowId};
use super::wnd::model::status_bit;

/// The window tree as text fitting reads it (the window manager's): a window by id and its
/// font size on the screen. A trait here, so this leaf needs nothing of the manager.
pub(crate) trait WindowTree {
    /// A window by id (None if destroyed).
    fn window(&self, id: WindowId) -> Option<&GameWindow>;
    /// Font size in pixels of a window at the current screen size.
    fn font_px(&self, id: WindowId) -> f32;
}

/// The room a button's label has: its width less the margins and, with an icon, the icon's
/// square.
fn label_width(w: &GameWindow) -> f32 {
    let side = if w.icon.is_some() { w.rect.h - 4.0 + 2.0 } else { 0.0 };
    (w.rect.w - side).max(0.0) - 8.0
}

/// The smallest a button's label may shrink to, as a share of the layout's size.
pub(crate) const MIN_LABEL_SCALE: f32 = 0.6;

/// How much a button's label at `px` must shrink for its longest word to fit its width and
/// its wrapped lines its height (1: it fits), never below [`MIN_LABEL_SCALE`].
fn label_scale(w: &GameWindow, tm: &dyn TextMeasure, px: f32) -> f32 {
    let room = label_width(w);
    let widest = w.text.split(['\n', ' ']).map(|word| tm.width(word, px, w.bold)).fold(0.0, f32::max);
    let mut scale = if widest > room && widest > 0.0 { (room / widest).max(MIN_LABEL_SCALE) } else { 1.0 };
    // Taller than the button once wrapped: smaller steps until it fits or the floor is reached.
    let tall = |scale: f32| {
        let lines = wrap(tm, &w.text, px * scale, w.bold, room).len() as f32;
        lines * tm.line_height(px * scale) > w.rect.h
    };
    while scale > MIN_LABEL_SCALE && tall(scale) {
        scale = (scale - 0.05).max(MIN_LABEL_SCALE);
    }
    scale
}

/// The smallest label scale among `w` and its visible sibling push buttons of the same font
/// size, so a row of buttons reads at one size.
pub(crate) fn sibling_scale(m: &dyn WindowTree, w: &GameWindow, tm: &dyn TextMeasure, px: f32) -> f32 {
    let Some(parent) = w.parent.and_then(|p| m.window(p)) else { return label_scale(w, tm, px) };
    parent
        .children
        .iter()
        .filter(|&&c| m.font_px(c) == px)
        .filter_map(|&c| m.window(c))
        .filter(|s| s.visible() && !s.text.is_empty() && matches!(s.gadget, Gadget::PushButton { .. }))
        .map(|s| label_scale(s, tm, px))
        .fold(1.0, f32::min)
}

/// The lines a static text shows: wrapped to its width (in a window of several lines, a word
/// too long for it broken, so a long path in a message keeps its ends), or one line with
/// `ONE_LINE`.
pub(crate) fn static_lines(w: &GameWindow, tm: &dyn TextMeasure, px: f32) -> Vec<String> {
    if w.status & status_bit("ONE_LINE") != 0 {
        vec![ellipsized(tm, &w.text, px, w.bold, w.rect.w - 4.0)]
    } else {
        // Only a window with room for more lines breaks a long word (a one-line label keeps
        // its word whole rather than spill a piece it cannot show).
        let room = w.rect.h - 4.0 >= 2.0 * tm.line_height(px);
        if room {
            wrap_breaking(tm, &w.text, px, w.bold, w.rect.w - 4.0)
        } else {
            wrap(tm, &w.text, px, w.bold, w.rect.w - 4.0)
        }
    }
}

/// The most lines a static text of `lines` lines `lh` high can scroll in a window `h` high.
pub(crate) fn max_scroll(lines: usize, lh: f32, h: f32) -> u32 {
    let fit = ((h - 4.0) / lh.max(1.0)).floor().max(1.0) as usize;
    lines.saturating_sub(fit) as u32
}

/// `text` as it fits `width` at `px`: whole, or cut after as many characters as leave room for
/// an ellipsis ("Computer 1 (bru…"; the ellipsis alone when not even one fits).
pub(crate) fn ellipsized(tm: &dyn TextMeasure, text: &str, px: f32, bold: bool, width: f32) -> String {
    if tm.width(text, px, bold) <= width {
        return text.to_string();
    }
    let cut = |end: usize| format!("{}…", text[..end].trim_end());
    // The longest prefix that fits, found by halving (a prefix is never wider than a longer one).
    let ends: Vec<usize> = text.char_indices().map(|(i, _)| i).skip(1).collect();
    let fits = ends.partition_point(|&end| tm.width(&cut(end), px, bold) <= width);
    fits.checked_sub(1).and_then(|k| ends.get(k)).map_or_else(|| "…".to_string(), |&end| cut(end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::font::FixedMeasure;

    #[test]
    fn a_text_too_wide_ends_in_an_ellipsis_within_the_width() {
        // Every character is 5 px wide at 10 px.
        assert_eq!(ellipsized(&FixedMeasure, "Puesto de mando", 10.0, false, 75.0), "Puesto de mando");
        assert_eq!(ellipsized(&FixedMeasure, "Puesto de mando", 10.0, false, 50.0), "Puesto de…");
        // A space before the cut is dropped, not shown before the ellipsis.
        assert_eq!(ellipsized(&FixedMeasure, "Puesto de mando", 10.0, false, 40.0), "Puesto…");
        assert_eq!(ellipsized(&FixedMeasure, "Puesto", 10.0, false, 3.0), "…");
    }
}
