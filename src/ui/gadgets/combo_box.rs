//! Combo boxes: a click opens or closes the drop-down; a click on an item of the open
//! drop-down chooses it (the window manager gives an open drop-down the click first); Up and
//! Down with focus step through the items.

use super::Response;
use crate::ui::event::{EventKind, Key};
use crate::ui::geometry::Rect;
use crate::ui::window::Gadget;

pub(crate) fn mouse_down(g: &mut Gadget) -> Response {
    let Gadget::ComboBox { open, .. } = g else { return Response::default() };
    *open = !*open;
    Response::handled()
}

/// The open drop-down's area for the box at `rect`, and its row height: under the box, or
/// over it when it would run past `screen_h` below and there is more room above.
pub(crate) fn dropdown(g: &Gadget, rect: Rect, screen_h: f32) -> Option<(Rect, f32)> {
    match g {
        Gadget::ComboBox { open: true, items, max_display, .. } => {
            let row = rect.h;
            let h = row * items.len().min(*max_display).max(1) as f32;
            let below = screen_h - rect.bottom();
            let y = if h > below && rect.y > below { rect.y - h } else { rect.bottom() };
            Some((Rect::new(rect.x, y, rect.w, h), row))
        }
        _ => None,
    }
}

/// Closes the drop-down and chooses `item` if there is one.
pub(crate) fn pick(g: &mut Gadget, item: usize) -> Response {
    let Gadget::ComboBox { selected, open, items, .. } = g else { return Response::default() };
    *open = false;
    if item < items.len() {
        *selected = Some(item);
        return Response::event(EventKind::ComboSelected(item));
    }
    Response::handled()
}

/// Closes the drop-down.
pub(crate) fn close(g: &mut Gadget) {
    if let Gadget::ComboBox { open, .. } = g {
        *open = false;
    }
}

pub(crate) fn key(g: &mut Gadget, key: Key) -> Response {
    let Gadget::ComboBox { items, selected, .. } = g else { return Response::default() };
    if !matches!(key, Key::Up | Key::Down) {
        return Response::default();
    }
    let n = items.len();
    if n == 0 {
        return Response::handled();
    }
    let c = selected.unwrap_or(0);
    let next = if key == Key::Up { c.saturating_sub(1) } else { (c + 1).min(n - 1) };
    *selected = Some(next);
    Response::event(EventKind::ComboSelected(next))
}
