//! Radio buttons: a release over the button selects it; the window manager then clears the
//! other buttons of its group among its siblings ([`clear_if_in`]).

use super::Response;
use crate::ui::event::EventKind;
use crate::ui::window::Gadget;

pub(crate) fn mouse_up(g: &mut Gadget, inside: bool) -> Response {
    let Gadget::RadioButton { selected, .. } = g else { return Response::default() };
    if !inside {
        return Response::handled();
    }
    *selected = true;
    Response::event(EventKind::RadioSelected)
}

/// The group of a radio button.
pub(crate) fn group(g: &Gadget) -> Option<i64> {
    match g {
        Gadget::RadioButton { group, .. } => Some(*group),
        _ => None,
    }
}

/// Unselects a sibling radio button of `group`.
pub(crate) fn clear_if_in(g: &mut Gadget, group: i64) {
    if let Gadget::RadioButton { group: g2, selected } = g
        && *g2 == group
    {
        *selected = false;
    }
}
