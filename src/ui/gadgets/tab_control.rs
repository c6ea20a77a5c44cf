//! Tab controls: a click on the tab strip along the top picks a tab.

use super::{Pointer, Response};
use crate::ui::event::EventKind;
use crate::ui::window::Gadget;

pub(crate) fn mouse_down(g: &mut Gadget, p: &Pointer) -> Response {
    let Gadget::TabControl { tabs, active, tab_height } = g else { return Response::default() };
    let rect = p.rect;
    if p.y < rect.y + *tab_height && !tabs.is_empty() {
        let t = (((p.x - rect.x) / (rect.w / tabs.len() as f32)) as usize).min(tabs.len() - 1);
        if t != *active {
            *active = t;
            return Response::event(EventKind::TabChanged(t));
        }
    }
    Response::handled()
}
