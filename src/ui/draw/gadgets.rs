//! How each gadget draws its face in the draw list: a button's label (with its icon), static
//! text with its scroll bar, a check box, a text entry with its caret and selection, a list, a
//! combo box, a slider, a progress bar and tabs. [`super::draw`](super) draws the background, the
//! custom callback, the focus frame and the children around it.
//!
//! Must not: change the window (drawing reads the tree), or know the GPU.

use super::{Align, DrawCmd, line, push_entry, shown_color};
use crate::ui::font::{TextMeasure, wrap};
use crate::ui::gadgets::text_entry;
use crate::ui::geometry::Rect;
use crate::ui::manager::WindowManager;
use crate::ui::text_fit::{MIN_LABEL_SCALE, ellipsized, max_scroll, sibling_scale, static_lines};
use crate::ui::window::{Gadget, GameWindow};
use crate::ui::wnd::model::{DrawEntry, Rgba, WindowType};

/// What drawing one window's face reads: the window in its manager, the text measure, its
/// clip, the draw data of its state, its text size and colour, and whether it has the focus.
pub(super) struct Face<'a> {
    /// The window manager (sibling buttons share one text size).
    pub m: &'a WindowManager,
    /// The window.
    pub w: &'a GameWindow,
    /// Measures text.
    pub tm: &'a dyn TextMeasure,
    /// The clip the window draws inside.
    pub clip: Option<Rect>,
    /// The draw data of the window's current state.
    pub entries: &'a [DrawEntry],
    /// Text size in pixels.
    pub px: f32,
    /// Text colour.
    pub color: Rgba,
    /// Whether the window has the keyboard focus.
    pub focused: bool,
}

impl Face<'_> {
    /// One line of text in the window's face and colour.
    fn text(&self, out: &mut Vec<DrawCmd>, rect: Rect, s: &str, px: f32, align: Align) {
        line(out, self.tm, rect, s, px, self.w.bold, self.color, align);
    }

    /// Clips later drawing to `r` within the window's clip.
    fn clip_to(&self, out: &mut Vec<DrawCmd>, r: Rect) {
        out.push(DrawCmd::Clip(Some(self.clip.map_or(r, |c| c.intersect(&r)))));
    }
}

/// Draws the gadget's face (nothing for a plain window without text).
pub(super) fn draw_gadget(f: &Face<'_>, out: &mut Vec<DrawCmd>) {
    let w = f.w;
    match &w.gadget {
        Gadget::PushButton { .. } | Gadget::None if !w.text.is_empty() => label(f, out),
        Gadget::StaticText { centered, scroll } => static_text(f, *centered, *scroll, out),
        Gadget::CheckBox { checked: on } | Gadget::RadioButton { selected: on, .. } => check_box(f, *on, out),
        Gadget::TextEntry { text, caret, anchor, secret, .. } => entry(f, text, *caret, *anchor, *secret, out),
        Gadget::ListBox { columns, rows, selected, scroll, row_height, .. } => {
            list_box(f, List { columns, rows, selected, scroll: *scroll, row_height: *row_height }, out);
        }
        Gadget::ComboBox { items, selected, .. } => combo_box(f, items, *selected, out),
        Gadget::Slider { min, max, value, vertical } => slider(f, (*min, *max, *value), *vertical, out),
        Gadget::ProgressBar { percent } => {
            let r = w.rect;
            let fill =
                Rect::new(r.x + 2.0, r.y + 2.0, (r.w - 4.0) * (*percent).clamp(0, 100) as f32 / 100.0, r.h - 4.0);
            push_entry(out, fill, f.entries.get(1), [90, 160, 70, 255]);
        }
        Gadget::TabControl { tabs, active, tab_height } => tab_control(f, tabs, *active, *tab_height, out),
        _ => {}
    }
}

/// A button's or a plain window's text: wrapped, centred (left in a plain window), after its
/// icon if it has one; sibling buttons share one size, and a word too long for the button
/// shrinks the text.
fn label(f: &Face<'_>, out: &mut Vec<DrawCmd>) {
    let (w, tm) = (f.w, f.tm);
    // Sibling buttons share one text size: the smallest any of them needs to fit.
    let base = f.px;
    let px = if matches!(w.gadget, Gadget::PushButton { .. }) { f.px * sibling_scale(f.m, w, tm, f.px) } else { f.px };
    let r = icon(f, px, out);
    // A word too long for the button shrinks the text (to 60 % of the layout's size at
    // most) rather than run past its edge.
    let widest = w.text.split(['\n', ' ']).map(|word| tm.width(word, px, w.bold)).fold(0.0, f32::max);
    let px = if widest > r.w - 8.0 { (px * (r.w - 8.0) / widest).max(base * MIN_LABEL_SCALE) } else { px };
    let lines = wrap(tm, &w.text, px, w.bold, r.w - 8.0);
    let lh = tm.line_height(px);
    let top = r.y + (r.h - lh * lines.len() as f32) / 2.0;
    let align = if w.kind == WindowType::User { Align::Left } else { Align::Center };
    for (i, l) in lines.iter().enumerate() {
        f.text(out, Rect::new(r.x + 4.0, top + i as f32 * lh, r.w - 8.0, lh), l, px, align);
    }
}

/// A button's icon, in a square at its left with its key mark at `px`; returns the rectangle
/// left for the text (the whole window when it has no icon, its mark then in the corner).
fn icon(f: &Face<'_>, px: f32, out: &mut Vec<DrawCmd>) -> Rect {
    let (w, r) = (f.w, f.w.rect);
    let Some(image) = &w.icon else {
        // No image: the key in the button's corner, smaller than the label it sits beside.
        key_mark(f, Rect::new(r.x + 3.0, r.y + 1.0, r.w, r.h), px * 0.85, out);
        return r;
    };
    let side = r.h - 4.0;
    let sq = Rect::new(r.x + 2.0, r.y + 2.0, side, side);
    let tint = if w.enabled() { [255; 4] } else { [140, 140, 140, 200] };
    out.push(DrawCmd::Image { rect: sq, name: image.clone(), tint });
    // The key reads at the label's size.
    key_mark(f, Rect::new(sq.x + 1.0, sq.y, sq.w, sq.h), px, out);
    Rect::new(sq.right(), r.y, (r.w - side - 2.0).max(0.0), r.h)
}

/// A window's mark (its key) at `px`, in the top-left corner of `at`; nothing when it has none.
fn key_mark(f: &Face<'_>, at: Rect, px: f32, out: &mut Vec<DrawCmd>) {
    if !f.w.mark.is_empty() {
        let at = Rect::new(at.x, at.y, at.w, f.tm.line_height(px));
        line(out, f.tm, at, &f.w.mark, px, true, [255, 235, 150, 255], Align::Left);
    }
}

/// Static text, `scroll` lines scrolled; a text of more lines than its window holds starts at
/// the lines scrolled past, with a thin bar at the right saying where it is.
fn static_text(f: &Face<'_>, centered: bool, scroll: u32, out: &mut Vec<DrawCmd>) {
    let r = f.w.rect;
    let lines = static_lines(f.w, f.tm, f.px);
    let lh = f.tm.line_height(f.px);
    let total = lh * lines.len() as f32;
    let most = max_scroll(lines.len(), lh, r.h) as usize;
    let first = (scroll as usize).min(most);
    // Only a text with lines to scroll to scrolls and has a bar: one line taller than its
    // window (a big title) is just drawn.
    let scrolls = most > 0;
    let top = if scrolls {
        r.y + 2.0 - first as f32 * lh
    } else if centered || lines.len() == 1 {
        r.y + (r.h - total).max(0.0) / 2.0
    } else {
        r.y + 2.0
    };
    f.clip_to(out, r);
    let align = if centered { Align::Center } else { Align::Left };
    for (i, l) in lines.iter().enumerate() {
        f.text(out, Rect::new(r.x + 2.0, top + i as f32 * lh, r.w - 4.0, lh), l, f.px, align);
    }
    if scrolls {
        let (shown, at) = (r.h / total, first as f32 * lh / total);
        out.push(DrawCmd::Fill { rect: Rect::new(r.right() - 3.0, r.y, 3.0, r.h), color: [0, 0, 0, 90] });
        let bar = Rect::new(r.right() - 3.0, r.y + at * r.h, 3.0, (shown * r.h).max(6.0));
        out.push(DrawCmd::Fill { rect: bar, color: [220, 220, 200, 200] });
    }
    out.push(DrawCmd::Clip(f.clip));
}

/// A check box or radio button: a box (entry 1) with its mark (entry 2) when on, and the
/// caption beside it.
fn check_box(f: &Face<'_>, on: bool, out: &mut Vec<DrawCmd>) {
    let r = f.w.rect;
    let side = (r.h * 0.8).clamp(10.0, 48.0);
    let b = Rect::new(r.x + 2.0, r.y + (r.h - side) / 2.0, side, side);
    push_entry(out, b, f.entries.get(1), [30, 34, 38, 255]);
    if on {
        push_entry(out, b.inset(side * 0.15), f.entries.get(2), [200, 170, 60, 255]);
    }
    let caption = Rect::new(b.right() + 6.0, r.y, r.w - b.w - 8.0, r.h);
    f.text(out, caption, &f.w.text, f.px, Align::Left);
}

/// A text entry: its text (dots when secret) scrolled so the caret stays inside, the
/// selection from `anchor` to the caret, and the caret when focused.
fn entry(f: &Face<'_>, text: &str, caret: usize, anchor: Option<usize>, secret: bool, out: &mut Vec<DrawCmd>) {
    let (w, tm, px) = (f.w, f.tm, f.px);
    let shown: String = if secret { "•".repeat(text.chars().count()) } else { text.to_string() };
    let inner = w.rect.inset(4.0);
    f.clip_to(out, inner);
    let upto = |n: usize| tm.width(&shown.chars().take(n).collect::<String>(), px, w.bold);
    // The text scrolls left so the caret stays inside the field.
    let x = inner.x - text_entry::scroll(upto(caret), inner.w);
    if let Some(a) = anchor {
        let (lo, hi) = (a.min(caret), a.max(caret));
        let (x0, x1) = (x + upto(lo), x + upto(hi));
        out.push(DrawCmd::Fill { rect: Rect::new(x0, inner.y, x1 - x0, inner.h), color: [70, 90, 140, 200] });
    }
    f.text(out, Rect::new(x, inner.y, inner.w, inner.h), &shown, px, Align::Left);
    if f.focused {
        let cx = x + upto(caret);
        let lh = tm.line_height(px);
        let caret_rect = Rect::new(cx.round(), inner.y + (inner.h - lh) / 2.0, 2.0, lh);
        out.push(DrawCmd::Fill { rect: caret_rect, color: f.color });
    }
    out.push(DrawCmd::Clip(f.clip));
}

/// A list box's state as drawn.
struct List<'a> {
    columns: &'a [f32],
    rows: &'a [Vec<String>],
    selected: &'a [usize],
    scroll: usize,
    row_height: f32,
}

/// A list box: the rows that fit from `scroll` on, the selected ones lit (entry 1), and a
/// scroll bar when not all fit.
fn list_box(f: &Face<'_>, list: List<'_>, out: &mut Vec<DrawCmd>) {
    let (w, r) = (f.w, f.w.rect);
    let List { columns, rows, selected, scroll, row_height } = list;
    f.clip_to(out, r);
    let visible = (r.h / row_height.max(1.0)).floor() as usize;
    // The list's own highlight (hover, focus) lights its selected rows only.
    let plain = if w.enabled() { shown_color(w.text_colors.enabled) } else { f.color };
    let lit = if w.enabled() { shown_color(w.text_colors.hilite) } else { f.color };
    for (k, row) in rows.iter().enumerate().skip(scroll).take(visible) {
        let y = r.y + (k - scroll) as f32 * row_height;
        let rr = Rect::new(r.x, y, r.w, row_height);
        let chosen = selected.contains(&k);
        if chosen {
            push_entry(out, rr, f.entries.get(1), [80, 100, 60, 220]);
        }
        let color = if chosen { lit } else { plain };
        let mut x = r.x + 4.0;
        for (c, cell) in row.iter().enumerate() {
            let cw = columns.get(c).copied().unwrap_or(1.0) * r.w;
            let cell_rect = Rect::new(x, y, cw - 6.0, row_height);
            // A cell's text wider than its column ends in an ellipsis at the column's edge,
            // never drawn over the next column's (the screen shows it whole elsewhere).
            let shown = ellipsized(f.tm, cell, f.px, w.bold, cell_rect.w);
            line(out, f.tm, cell_rect, &shown, f.px, w.bold, color, Align::Left);
            x += cw;
        }
    }
    if rows.len() > visible && visible > 0 {
        let track = Rect::new(r.right() - 6.0, r.y, 6.0, r.h);
        out.push(DrawCmd::Fill { rect: track, color: [0, 0, 0, 90] });
        let th = r.h * visible as f32 / rows.len() as f32;
        let ty = r.y + r.h * scroll as f32 / rows.len() as f32;
        out.push(DrawCmd::Fill { rect: Rect::new(track.x, ty, 6.0, th), color: [200, 180, 120, 200] });
    }
    out.push(DrawCmd::Clip(f.clip));
}

/// A closed combo box: the chosen item and the drop-down arrow.
fn combo_box(f: &Face<'_>, items: &[String], selected: Option<usize>, out: &mut Vec<DrawCmd>) {
    let r = f.w.rect;
    let label = selected.and_then(|s| items.get(s)).cloned().unwrap_or_default();
    let inner = Rect::new(r.x + 6.0, r.y, (r.w - r.h * 0.6 - 16.0).max(0.0), r.h);
    f.clip_to(out, inner);
    f.text(out, inner, &label, f.px, Align::Left);
    out.push(DrawCmd::Clip(f.clip));
    // The drop-down arrow: a small stepped triangle.
    let a = (r.h * 0.22).max(4.0);
    let (cx, cy) = (r.right() - a - 8.0, r.y + r.h / 2.0 - a / 2.0);
    let steps = (a * 2.0).ceil() as i32;
    for k in 0..steps {
        let half = a * (1.0 - k as f32 / steps as f32);
        out.push(DrawCmd::Fill { rect: Rect::new(cx - half, cy + k as f32 * 0.5, 2.0 * half, 0.5), color: f.color });
    }
}

/// A slider at `value` between `min` and `max`: its track (entry 1), the filled part when
/// horizontal, and its thumb (entry 2).
fn slider(f: &Face<'_>, (min, max, value): (i32, i32, i32), vertical: bool, out: &mut Vec<DrawCmd>) {
    let (r, entries) = (f.w.rect, f.entries);
    let t = if max > min { (value - min) as f32 / (max - min) as f32 } else { 0.0 };
    if vertical {
        let track = Rect::new(r.x + r.w / 2.0 - 3.0, r.y, 6.0, r.h);
        push_entry(out, track, entries.get(1), [30, 34, 38, 255]);
        let thumb = Rect::new(r.x, r.y + (1.0 - t) * (r.h - 12.0), r.w, 12.0);
        push_entry(out, thumb, entries.get(2), [200, 170, 60, 255]);
    } else {
        let track = Rect::new(r.x, r.y + r.h / 2.0 - 3.0, r.w, 6.0);
        push_entry(out, track, entries.get(1), [30, 34, 38, 255]);
        out.push(DrawCmd::Fill { rect: Rect::new(track.x, track.y, track.w * t, track.h), color: [150, 130, 60, 255] });
        let tw = (r.h * 0.6).max(8.0);
        let thumb = Rect::new(r.x + t * (r.w - tw), r.y, tw, r.h);
        push_entry(out, thumb, entries.get(2), [200, 170, 60, 255]);
    }
}

/// Tabs side by side along the top, the active one in entry 2, the others in entry 1.
fn tab_control(f: &Face<'_>, tabs: &[String], active: usize, tab_height: f32, out: &mut Vec<DrawCmd>) {
    let r = f.w.rect;
    let tw = r.w / tabs.len().max(1) as f32;
    for (i, t) in tabs.iter().enumerate() {
        let tr = Rect::new(r.x + i as f32 * tw, r.y, tw - 2.0, tab_height);
        let (entry, fallback) = if i == active { (2, [70, 80, 60, 255]) } else { (1, [35, 40, 38, 255]) };
        push_entry(out, tr, f.entries.get(entry), fallback);
        f.text(out, tr, t, f.px, Align::Center);
    }
}
