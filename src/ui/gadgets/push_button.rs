//! Push buttons: selected on release over the button (or on the press, for `ON_MOUSE_DOWN`),
//! and by Enter or Space with focus.

use super::{Pointer, Response};
use crate::ui::event::{EventKind, Key};
use crate::ui::window::Gadget;

pub(crate) fn mouse_down(g: &mut Gadget, p: &Pointer) -> Response {
    let Gadget::PushButton { pressed } = g else { return Response::default() };
    if p.on_down {
        return Response::event(EventKind::Selected);
    }
    *pressed = true;
    Response::capture()
}

pub(crate) fn mouse_up(g: &mut Gadget, inside: bool) -> Response {
    let Gadget::PushButton { pressed } = g else { return Response::default() };
    *pressed = false;
    if inside { Response::event(EventKind::Selected) } else { Response::handled() }
}

pub(crate) fn key(key: Key) -> Response {
    match key {
        Key::Enter | Key::Space => Response::event(EventKind::Selected),
        _ => Response::default(),
    }
}
