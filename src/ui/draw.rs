//! The draw list: what the UI looks like this frame, as rectangles, frames, images, text runs
//! and clip rectangles in screen pixels. The renderer draws it in order; nothing here knows
//! the GPU.
//!
//! Each window draws from its state's draw data (`ENABLEDDRAWDATA`, `HILITEDRAWDATA`,
//! `DISABLEDDRAWDATA`): entry 0 is its background; gadgets use further entries for their parts
//! (see `ui/FORMAT.md`).

use super::font::{TextMeasure, wrap};
use super::gadgets::text_entry;
use super::geometry::Rect;
use super::manager::WindowManager;
use super::text_fit::{MIN_LABEL_SCALE, max_scroll, sibling_scale, static_lines};
use super::window::{Gadget, GameWindow, WindowId};
use super::wnd::model::{DrawEntry, Rgba, WindowType, status_bit};

/// One drawing instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum DrawCmd {
    /// A filled rectangle.
    Fill {
        /// Where.
        rect: Rect,
        /// Colour.
        color: Rgba,
    },
    /// A rectangle outline.
    Frame {
        /// Where.
        rect: Rect,
        /// Colour.
        color: Rgba,
        /// Line width in pixels.
        width: f32,
    },
    /// A straight line between two points (overlays: shots, waypoints).
    Line {
        /// Start, pixels.
        from: (f32, f32),
        /// End, pixels.
        to: (f32, f32),
        /// Colour.
        color: Rgba,
        /// Width in pixels.
        width: f32,
    },
    /// A named image stretched over a rectangle (nine-sliced where the image says so).
    Image {
        /// Where.
        rect: Rect,
        /// Image name (see `ui/images.ron`).
        name: String,
        /// Colour multiplied in.
        tint: Rgba,
    },
    /// One line of text; `y` is the top of the line box.
    Text {
        /// Left.
        x: f32,
        /// Top.
        y: f32,
        /// The characters.
        text: String,
        /// Pixel size.
        px: f32,
        /// Bold face.
        bold: bool,
        /// Colour.
        color: Rgba,
        /// Shadow colour, drawn one pixel down and right, if any.
        shadow: Option<Rgba>,
    },
    /// Restrict later drawing to a rectangle (None: no restriction).
    Clip(Option<Rect>),
}

/// Drawing for windows with a custom draw callback: called after a window's background.
pub type CustomDraw<'a> = &'a dyn Fn(&GameWindow, &mut Vec<DrawCmd>);

/// Builds the draw list of every visible window, bottom to top.
pub fn draw_list(m: &WindowManager, text: &dyn TextMeasure, custom: CustomDraw<'_>) -> Vec<DrawCmd> {
    let mut out = Vec::new();
    let (sw, sh) = m.fit().screen;
    for r in m.roots() {
        if m.modal_top() == Some(*r) {
            // Dim everything under a modal window.
            out.push(DrawCmd::Clip(None));
            out.push(DrawCmd::Fill { rect: Rect::new(0.0, 0.0, sw, sh), color: [0, 0, 0, 110] });
        }
        draw_window(m, *r, text, None, custom, &mut out);
    }
    if let Some((tip, (cx, cy))) = m.tooltip() {
        let px = 14.0 * m.fit().length_scale((800, 600), m.fit().mode);
        // A long tip wraps at half the screen's width.
        let lines = wrap(text, &tip, px, false, (sw * 0.5).max(160.0));
        let w = lines.iter().map(|l| text.width(l, px, false)).fold(0.0, f32::max) + 12.0;
        let lh = text.line_height(px);
        let h = lh * lines.len() as f32 + 8.0;
        let x = (cx + 14.0).min(sw - w - 2.0).max(0.0);
        let y = if cy + 20.0 + h > sh { cy - h - 4.0 } else { cy + 20.0 };
        let r = Rect::new(x.round(), y.round(), w.round(), h.round());
        out.push(DrawCmd::Clip(None));
        out.push(DrawCmd::Fill { rect: r, color: [16, 18, 20, 235] });
        out.push(DrawCmd::Frame { rect: r, color: [200, 170, 90, 255], width: 1.0 });
        for (i, l) in lines.into_iter().enumerate() {
            out.push(DrawCmd::Text {
                x: r.x + 6.0,
                y: r.y + 4.0 + i as f32 * lh,
                text: l,
                px,
                bold: false,
                color: [235, 230, 210, 255],
                shadow: None,
            });
        }
    }
    // An open drop-down is drawn over everything.
    if let Some((combo, area, row)) = m.open_combo()
        && let Some(w) = m.window(combo)
    {
        out.push(DrawCmd::Clip(None));
        let entries = &w.enabled_draw;
        let bg = entries.get(1).or(entries.first());
        push_entry(&mut out, area, bg, [20, 24, 28, 240]);
        if let Gadget::ComboBox { items, selected, .. } = &w.gadget {
            let px = m.font_px(combo);
            for (i, item) in items.iter().enumerate().take((area.h / row.max(1.0)) as usize) {
                let r = Rect::new(area.x, area.y + i as f32 * row, area.w, row);
                if Some(i) == *selected {
                    push_entry(&mut out, r, entries.get(2), [90, 110, 60, 255]);
                }
                line(&mut out, text, r.inset(4.0), item, px, w.bold, text_color(w), Align::Left);
            }
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Align {
    Left,
    Center,
}

fn text_color(w: &GameWindow) -> Rgba {
    let c = if !w.enabled() {
        w.text_colors.disabled
    } else if w.hilited {
        w.text_colors.hilite
    } else {
        w.text_colors.enabled
    };
    shown_color(c)
}

/// A text colour from a layout, or the default where the layout leaves it out.
fn shown_color(c: Rgba) -> Rgba {
    if c[3] == 0 { [230, 230, 220, 255] } else { c }
}

fn shadow(w: &GameWindow) -> Option<Rgba> {
    let c = if w.enabled() { w.text_colors.enabled_border } else { w.text_colors.disabled_border };
    (c[3] > 0).then_some(c)
}

/// The draw data of a window's current state.
fn state_entries(w: &GameWindow) -> &[DrawEntry] {
    if !w.enabled() && !w.disabled_draw.is_empty() {
        &w.disabled_draw
    } else if (w.hilited || matches!(w.gadget, Gadget::PushButton { pressed: true })) && !w.hilite_draw.is_empty() {
        &w.hilite_draw
    } else {
        &w.enabled_draw
    }
}

fn push_entry(out: &mut Vec<DrawCmd>, rect: Rect, e: Option<&DrawEntry>, fallback: Rgba) {
    match e {
        Some(e) if e.has_image() => out.push(DrawCmd::Image {
            rect,
            name: e.image.clone(),
            tint: if e.color[3] == 0 { [255; 4] } else { e.color },
        }),
        Some(e) => {
            if e.color[3] > 0 {
                out.push(DrawCmd::Fill { rect, color: e.color });
            }
            if e.border[3] > 0 {
                out.push(DrawCmd::Frame { rect, color: e.border, width: 1.0 });
            }
        }
        None => {
            if fallback[3] > 0 {
                out.push(DrawCmd::Fill { rect, color: fallback });
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn line(
    out: &mut Vec<DrawCmd>,
    m: &dyn TextMeasure,
    rect: Rect,
    s: &str,
    px: f32,
    bold: bool,
    color: Rgba,
    align: Align,
) {
    let h = m.line_height(px);
    let w = m.width(s, px, bold);
    let x = match align {
        Align::Left => rect.x,
        Align::Center => rect.x + (rect.w - w) / 2.0,
    };
    out.push(DrawCmd::Text {
        x: x.round(),
        y: (rect.y + (rect.h - h) / 2.0).round(),
        text: s.to_string(),
        px,
        bold,
        color,
        shadow: None,
    });
}

fn set_shadow(out: &mut [DrawCmd], from: usize, sh: Option<Rgba>) {
    for c in &mut out[from..] {
        if let DrawCmd::Text { shadow, .. } = c {
            *shadow = sh;
        }
    }
}

fn draw_window(
    m: &WindowManager,
    id: WindowId,
    tm: &dyn TextMeasure,
    clip: Option<Rect>,
    custom: CustomDraw<'_>,
    out: &mut Vec<DrawCmd>,
) {
    let Some(w) = m.window(id) else { return };
    if !w.visible() {
        return;
    }
    let r = w.rect;
    let entries = state_entries(w);
    let px = m.font_px(id);
    let color = text_color(w);
    let first_text = out.len();
    let focused = m.focus() == Some(id);
    // The original game's "draw nothing" callback: only the children show.
    if w.draw_callback.as_deref() == Some(NO_DRAW) {
        draw_children(m, w, tm, clip, custom, out);
        return;
    }
    // Background.
    let see_thru = w.status & status_bit("SEE_THRU") != 0;
    if !see_thru {
        let pressed_entry = match &w.gadget {
            Gadget::PushButton { pressed: true } => entries.get(1).or(entries.first()),
            _ => entries.first(),
        };
        push_entry(out, r, pressed_entry, [0, 0, 0, 0]);
    }
    if w.draw_callback.is_some() {
        custom(w, out);
    }
    match &w.gadget {
        Gadget::PushButton { .. } | Gadget::None if !w.text.is_empty() => {
            // Sibling buttons share one text size: the smallest any of them needs to fit.
            let base = px;
            let px = if matches!(w.gadget, Gadget::PushButton { .. }) { px * sibling_scale(m, w, tm, px) } else { px };
            // An icon takes a square at the left; the text centres in what is left.
            let r = match &w.icon {
                Some((image, mark)) => {
                    let side = r.h - 4.0;
                    let sq = Rect::new(r.x + 2.0, r.y + 2.0, side, side);
                    let tint = if w.enabled() { [255; 4] } else { [140, 140, 140, 200] };
                    out.push(DrawCmd::Image { rect: sq, name: image.clone(), tint });
                    if !mark.is_empty() {
                        // The key reads at the label's size.
                        let mark_px = px;
                        let at = Rect::new(sq.x + 1.0, sq.y, sq.w, tm.line_height(mark_px));
                        line(out, tm, at, mark, mark_px, true, [255, 235, 150, 255], Align::Left);
                    }
                    Rect::new(sq.right(), r.y, (r.w - side - 2.0).max(0.0), r.h)
                }
                None => r,
            };
            // A word too long for the button shrinks the text (to 60 % of the layout's size at
            // most) rather than run past its edge.
            let widest = w.text.split(['\n', ' ']).map(|word| tm.width(word, px, w.bold)).fold(0.0, f32::max);
            let px = if widest > r.w - 8.0 { (px * (r.w - 8.0) / widest).max(base * MIN_LABEL_SCALE) } else { px };
            let lines = wrap(tm, &w.text, px, w.bold, r.w - 8.0);
            let lh = tm.line_height(px);
            let top = r.y + (r.h - lh * lines.len() as f32) / 2.0;
            for (i, l) in lines.iter().enumerate() {
                line(
                    out,
                    tm,
                    Rect::new(r.x + 4.0, top + i as f32 * lh, r.w - 8.0, lh),
                    l,
                    px,
                    w.bold,
                    color,
                    if w.kind == WindowType::User { Align::Left } else { Align::Center },
                );
            }
        }
        Gadget::StaticText { centered, scroll } => {
            let lines = static_lines(w, tm, px);
            let lh = tm.line_height(px);
            let total = lh * lines.len() as f32;
            // A text taller than its window starts at the lines scrolled past, with a thin bar
            // at the right saying where it is.
            let first = (*scroll as usize).min(max_scroll(lines.len(), lh, r.h) as usize);
            let top = if total > r.h {
                r.y + 2.0 - first as f32 * lh
            } else if *centered || lines.len() == 1 {
                r.y + (r.h - total).max(0.0) / 2.0
            } else {
                r.y + 2.0
            };
            out.push(DrawCmd::Clip(Some(clip.map_or(r, |c| c.intersect(&r)))));
            for (i, l) in lines.iter().enumerate() {
                let align = if *centered { Align::Center } else { Align::Left };
                line(out, tm, Rect::new(r.x + 2.0, top + i as f32 * lh, r.w - 4.0, lh), l, px, w.bold, color, align);
            }
            if total > r.h {
                let (shown, at) = (r.h / total, first as f32 * lh / total);
                out.push(DrawCmd::Fill { rect: Rect::new(r.right() - 3.0, r.y, 3.0, r.h), color: [0, 0, 0, 90] });
                let bar = Rect::new(r.right() - 3.0, r.y + at * r.h, 3.0, (shown * r.h).max(6.0));
                out.push(DrawCmd::Fill { rect: bar, color: [220, 220, 200, 200] });
            }
            out.push(DrawCmd::Clip(clip));
        }
        Gadget::CheckBox { checked: on } | Gadget::RadioButton { selected: on, .. } => {
            // A box (entry 1) with its mark (entry 2) when on, and the caption beside it.
            let side = (r.h * 0.8).clamp(10.0, 48.0);
            let b = Rect::new(r.x + 2.0, r.y + (r.h - side) / 2.0, side, side);
            push_entry(out, b, entries.get(1), [30, 34, 38, 255]);
            if *on {
                push_entry(out, b.inset(side * 0.15), entries.get(2), [200, 170, 60, 255]);
            }
            let caption = Rect::new(b.right() + 6.0, r.y, r.w - b.w - 8.0, r.h);
            line(out, tm, caption, &w.text, px, w.bold, color, Align::Left);
        }
        Gadget::TextEntry { text, caret, anchor, secret, .. } => {
            let shown: String = if *secret { "•".repeat(text.chars().count()) } else { text.clone() };
            let inner = r.inset(4.0);
            out.push(DrawCmd::Clip(Some(clip.map_or(inner, |c| c.intersect(&inner)))));
            let upto = |n: usize| tm.width(&shown.chars().take(n).collect::<String>(), px, w.bold);
            // The text scrolls left so the caret stays inside the field.
            let x = inner.x - text_entry::scroll(upto(*caret), inner.w);
            if let Some(a) = anchor {
                let (lo, hi) = (*a.min(caret), *a.max(caret));
                let (x0, x1) = (x + upto(lo), x + upto(hi));
                out.push(DrawCmd::Fill { rect: Rect::new(x0, inner.y, x1 - x0, inner.h), color: [70, 90, 140, 200] });
            }
            line(out, tm, Rect::new(x, inner.y, inner.w, inner.h), &shown, px, w.bold, color, Align::Left);
            if focused {
                let cx = x + upto(*caret);
                let lh = tm.line_height(px);
                out.push(DrawCmd::Fill { rect: Rect::new(cx.round(), inner.y + (inner.h - lh) / 2.0, 2.0, lh), color });
            }
            out.push(DrawCmd::Clip(clip));
        }
        Gadget::ListBox { columns, rows, selected, scroll, row_height, .. } => {
            out.push(DrawCmd::Clip(Some(clip.map_or(r, |c| c.intersect(&r)))));
            let visible = (r.h / row_height.max(1.0)).floor() as usize;
            // The list's own highlight (hover, focus) lights its selected rows only.
            let plain = if w.enabled() { shown_color(w.text_colors.enabled) } else { color };
            let lit = if w.enabled() { shown_color(w.text_colors.hilite) } else { color };
            for (k, row) in rows.iter().enumerate().skip(*scroll).take(visible) {
                let y = r.y + (k - scroll) as f32 * row_height;
                let rr = Rect::new(r.x, y, r.w, *row_height);
                let chosen = selected.contains(&k);
                if chosen {
                    push_entry(out, rr, entries.get(1), [80, 100, 60, 220]);
                }
                let color = if chosen { lit } else { plain };
                let mut x = r.x + 4.0;
                for (c, cell) in row.iter().enumerate() {
                    let cw = columns.get(c).copied().unwrap_or(1.0) * r.w;
                    line(out, tm, Rect::new(x, y, cw - 6.0, *row_height), cell, px, w.bold, color, Align::Left);
                    x += cw;
                }
            }
            if rows.len() > visible && visible > 0 {
                let track = Rect::new(r.right() - 6.0, r.y, 6.0, r.h);
                out.push(DrawCmd::Fill { rect: track, color: [0, 0, 0, 90] });
                let th = r.h * visible as f32 / rows.len() as f32;
                let ty = r.y + r.h * *scroll as f32 / rows.len() as f32;
                out.push(DrawCmd::Fill { rect: Rect::new(track.x, ty, 6.0, th), color: [200, 180, 120, 200] });
            }
            out.push(DrawCmd::Clip(clip));
        }
        Gadget::ComboBox { items, selected, .. } => {
            let label = selected.and_then(|s| items.get(s)).cloned().unwrap_or_default();
            let inner = Rect::new(r.x + 6.0, r.y, (r.w - r.h * 0.6 - 16.0).max(0.0), r.h);
            out.push(DrawCmd::Clip(Some(clip.map_or(inner, |c| c.intersect(&inner)))));
            line(out, tm, inner, &label, px, w.bold, color, Align::Left);
            out.push(DrawCmd::Clip(clip));
            // The drop-down arrow: a small stepped triangle.
            let a = (r.h * 0.22).max(4.0);
            let (cx, cy) = (r.right() - a - 8.0, r.y + r.h / 2.0 - a / 2.0);
            let steps = (a * 2.0).ceil() as i32;
            for k in 0..steps {
                let half = a * (1.0 - k as f32 / steps as f32);
                out.push(DrawCmd::Fill { rect: Rect::new(cx - half, cy + k as f32 * 0.5, 2.0 * half, 0.5), color });
            }
        }
        Gadget::Slider { min, max, value, vertical } => {
            let t = if max > min { (*value - *min) as f32 / (*max - *min) as f32 } else { 0.0 };
            if *vertical {
                let track = Rect::new(r.x + r.w / 2.0 - 3.0, r.y, 6.0, r.h);
                push_entry(out, track, entries.get(1), [30, 34, 38, 255]);
                let thumb = Rect::new(r.x, r.y + (1.0 - t) * (r.h - 12.0), r.w, 12.0);
                push_entry(out, thumb, entries.get(2), [200, 170, 60, 255]);
            } else {
                let track = Rect::new(r.x, r.y + r.h / 2.0 - 3.0, r.w, 6.0);
                push_entry(out, track, entries.get(1), [30, 34, 38, 255]);
                out.push(DrawCmd::Fill {
                    rect: Rect::new(track.x, track.y, track.w * t, track.h),
                    color: [150, 130, 60, 255],
                });
                let tw = (r.h * 0.6).max(8.0);
                let thumb = Rect::new(r.x + t * (r.w - tw), r.y, tw, r.h);
                push_entry(out, thumb, entries.get(2), [200, 170, 60, 255]);
            }
        }
        Gadget::ProgressBar { percent } => {
            let fill =
                Rect::new(r.x + 2.0, r.y + 2.0, (r.w - 4.0) * (*percent).clamp(0, 100) as f32 / 100.0, r.h - 4.0);
            push_entry(out, fill, entries.get(1), [90, 160, 70, 255]);
        }
        Gadget::TabControl { tabs, active, tab_height } => {
            let tw = r.w / tabs.len().max(1) as f32;
            for (i, t) in tabs.iter().enumerate() {
                let tr = Rect::new(r.x + i as f32 * tw, r.y, tw - 2.0, *tab_height);
                push_entry(
                    out,
                    tr,
                    entries.get(if i == *active { 2 } else { 1 }),
                    if i == *active { [70, 80, 60, 255] } else { [35, 40, 38, 255] },
                );
                line(out, tm, tr, t, px, w.bold, color, Align::Center);
            }
        }
        _ => {}
    }
    set_shadow(out, first_text, shadow(w));
    if focused && w.tab_stop() {
        out.push(DrawCmd::Frame { rect: r.inset(-1.0), color: [240, 210, 120, 255], width: 1.0 });
    }
    draw_children(m, w, tm, clip, custom, out);
}

/// The draw callback that draws nothing of the window itself (the original game's name).
pub const NO_DRAW: &str = "W3DNoDraw";

/// Draws `w`'s children, clipped to it.
fn draw_children(
    m: &WindowManager,
    w: &GameWindow,
    tm: &dyn TextMeasure,
    clip: Option<Rect>,
    custom: CustomDraw<'_>,
    out: &mut Vec<DrawCmd>,
) {
    let child_clip = Some(clip.map_or(w.rect, |c| c.intersect(&w.rect)));
    if !w.children.is_empty() {
        out.push(DrawCmd::Clip(child_clip));
        for c in &w.children {
            draw_window(m, *c, tm, child_clip, custom, out);
        }
        out.push(DrawCmd::Clip(clip));
    }
}
