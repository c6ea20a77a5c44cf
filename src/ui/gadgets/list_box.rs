//! List boxes: a click selects a row (or toggles it in a multi-select list; a second click on
//! the only selected row activates it), the wheel scrolls, and Up, Down, Home, End and Enter
//! work with focus, keeping the selected row in view.

use super::{Pointer, Response};
use crate::ui::event::{EventKind, Key};
use crate::ui::window::Gadget;

pub(crate) fn mouse_down(g: &mut Gadget, p: &Pointer) -> Response {
    let Gadget::ListBox { rows, selected, multi, scroll, row_height, .. } = g else { return Response::default() };
    let row = *scroll + ((p.y - p.rect.y) / row_height.max(1.0)) as usize;
    if row >= rows.len() {
        return Response::handled();
    }
    let activate = !*multi && selected.as_slice() == [row];
    if *multi {
        if let Some(at) = selected.iter().position(|r| *r == row) {
            selected.remove(at);
        } else {
            selected.push(row);
            selected.sort_unstable();
        }
    } else {
        *selected = vec![row];
    }
    let mut r = Response::event(EventKind::ListSelection(selected.clone()));
    if activate {
        r.events.push(EventKind::ListActivated(row));
    }
    r
}

pub(crate) fn wheel(g: &mut Gadget, height: f32, delta: f32) -> Response {
    let Gadget::ListBox { rows, scroll, row_height, .. } = g else { return Response::default() };
    let visible = (height / row_height.max(1.0)).floor().max(1.0) as usize;
    let max_scroll = rows.len().saturating_sub(visible);
    let step = delta.round() as i64;
    *scroll = (*scroll as i64 - step).clamp(0, max_scroll as i64) as usize;
    Response::handled()
}

pub(crate) fn key(g: &mut Gadget, key: Key, height: f32) -> Response {
    let Gadget::ListBox { rows, selected, scroll, row_height, .. } = g else { return Response::default() };
    let cur = selected.first().copied();
    let n = rows.len();
    let mut r = Response::handled();
    let next = match key {
        Key::Up => cur.map_or(0, |c| c.saturating_sub(1)),
        Key::Down => cur.map_or(0, |c| (c + 1).min(n.saturating_sub(1))),
        Key::Home => 0,
        Key::End => n.saturating_sub(1),
        Key::Enter => {
            if let Some(c) = cur {
                r.events.push(EventKind::ListActivated(c));
            }
            n
        }
        _ => return Response::default(),
    };
    if next < n && Some(next) != cur {
        *selected = vec![next];
        let visible = (height / row_height.max(1.0)).floor().max(1.0) as usize;
        if next < *scroll {
            *scroll = next;
        } else if next >= *scroll + visible {
            *scroll = next + 1 - visible;
        }
        r.events.push(EventKind::ListSelection(vec![next]));
    }
    r
}
