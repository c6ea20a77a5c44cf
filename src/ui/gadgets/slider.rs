//! Sliders: pressed and dragged to a value (the window takes the mouse), or stepped by the
//! arrow keys, Home and End with focus.

use super::{Pointer, Response};
use crate::ui::event::{EventKind, Key};
use crate::ui::window::Gadget;

pub(crate) fn mouse_down(g: &mut Gadget, p: &Pointer) -> Response {
    let mut r = drag(g, p);
    r.handled = true;
    r.capture = true;
    r
}

pub(crate) fn drag(g: &mut Gadget, p: &Pointer) -> Response {
    let Gadget::Slider { min, max, value, vertical } = g else { return Response::default() };
    let rect = p.rect;
    let t = if *vertical { 1.0 - (p.y - rect.y) / rect.h.max(1.0) } else { (p.x - rect.x) / rect.w.max(1.0) };
    let v = *min + ((*max - *min) as f32 * t.clamp(0.0, 1.0)).round() as i32;
    if v == *value {
        return Response::handled();
    }
    *value = v;
    Response::event(EventKind::SliderChanged(v))
}

pub(crate) fn key(g: &mut Gadget, key: Key) -> Response {
    let Gadget::Slider { min, max, value, .. } = g else { return Response::default() };
    let step = ((*max - *min) / 20).max(1);
    let v = match key {
        Key::Left | Key::Down => (*value - step).max(*min),
        Key::Right | Key::Up => (*value + step).min(*max),
        Key::Home => *min,
        Key::End => *max,
        _ => return Response::default(),
    };
    if v == *value {
        return Response::handled();
    }
    *value = v;
    Response::event(EventKind::SliderChanged(v))
}
