//! Check boxes: toggled by a release over the box or by Space with focus.

use super::Response;
use crate::ui::event::{EventKind, Key};
use crate::ui::window::Gadget;

fn toggle(g: &mut Gadget) -> Response {
    let Gadget::CheckBox { checked } = g else { return Response::default() };
    *checked = !*checked;
    Response::event(EventKind::Toggled(*checked))
}

pub(crate) fn mouse_up(g: &mut Gadget, inside: bool) -> Response {
    if inside { toggle(g) } else { Response::handled() }
}

pub(crate) fn key(g: &mut Gadget, key: Key) -> Response {
    if key == Key::Space { toggle(g) } else { Response::default() }
}
