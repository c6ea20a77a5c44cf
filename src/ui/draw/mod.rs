//! The draw list: what the UI looks like this frame, as rectangles, frames, images, text runs
//! and clip rectangles in screen pixels. The renderer draws it in order; nothing here knows
//! the GPU.
//!
//! Each window draws from its state's draw data (`ENABLEDDRAWDATA`, `HILITEDRAWDATA`,
//! `DISABLEDDRAWDATA`): entry 0 is its background; gadgets use further entries for their parts
//! (see `ui/FORMAT.md`).

mod gadgets;
use crate::ui::font::{InFace, TextMeasure, wrap};
use crate::ui::geometry::Rect;
use crate::ui::manager::WindowManager;
use crate::ui::window::{Gadget, GameWindow, WindowId};
use crate::ui::wnd::model::{DrawEntry, Rgba, status_bit};
use gadgets::{Face, draw_gadget};

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
    /// Later text draws in this face (0: the game's own; see `font.rs`) until the next.
    Font(u16),
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
        let mut x = (cx + 14.0).min(sw - w - 2.0).max(0.0);
        let y = if cy + 20.0 + h > sh { cy - h - 4.0 } else { cy + 20.0 };
        // Beside a panel level with the cursor, not over it: the tip ends where the panel
        // starts (one to the right) or starts where it ends (one to the left).
        for p in m.panels_beside_cursor() {
            let overlaps = x < p.x + p.w && p.x < x + w && y < p.y + p.h && p.y < y + h;
            if overlaps && p.x >= cx {
                x = (p.x - w - 2.0).max(0.0);
            } else if overlaps {
                x = (p.x + p.w + 2.0).min(sw - w - 2.0).max(0.0);
            }
        }
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

/// Where a line of text sits in its rectangle.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Align {
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
pub(super) fn shown_color(c: Rgba) -> Rgba {
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

/// Draws one draw-data entry over `rect` (its image, or its colour and border), or `fallback`
/// where the layout gives none.
pub(super) fn push_entry(out: &mut Vec<DrawCmd>, rect: Rect, e: Option<&DrawEntry>, fallback: Rgba) {
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

/// One line of text in `rect`, centred in its height and placed by `align`.
#[allow(clippy::too_many_arguments)]
pub(super) fn line(
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
    // A skinned layout (a faction's HUD) draws its frames tinted and its text in the skin's
    // colours; custom drawing and icons keep their own.
    let skin = m.skin_of(w);
    let skinned: Vec<DrawEntry>;
    let entries = match skin {
        Some(s) => {
            skinned = state_entries(w).iter().map(|e| s.tinted(e)).collect();
            &skinned
        }
        None => state_entries(w),
    };
    let px = m.font_px(id);
    let color = skin.and_then(|s| s.text_color(w)).map_or_else(|| text_color(w), shown_color);
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
    // A mod's font: measured and drawn in its face.
    let in_face = InFace { inner: tm, face: w.face };
    if w.face != 0 {
        out.push(DrawCmd::Font(w.face));
    }
    draw_gadget(&Face { m, w, tm: &in_face, clip, entries, px, color, focused }, out);
    if w.face != 0 {
        out.push(DrawCmd::Font(0));
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
