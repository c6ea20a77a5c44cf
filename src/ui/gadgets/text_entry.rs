//! Text entries: a click puts the caret at the nearest character boundary; arrows, Home and
//! End move it (Shift selects); Ctrl+A selects everything; Backspace and Delete erase; Enter
//! finishes; typed characters replace the selection, up to the field's length (digits only in
//! a numeric field). A text wider than its field scrolls so the caret stays in view.

use super::{Pointer, Response};
use crate::ui::event::{EventKind, Key};
use crate::ui::window::Gadget;

pub(crate) fn mouse_down(g: &mut Gadget, p: &Pointer) -> Response {
    let Gadget::TextEntry { text, caret, anchor, secret, .. } = g else { return Response::default() };
    // The text is drawn 4 px inside the field, as draw.rs does.
    let n = text.chars().count();
    *caret = match &p.measure {
        None => n,
        Some(m) => {
            let shown: Vec<char> = if *secret { vec!['•'; n] } else { text.chars().collect() };
            let to_caret = m.width(&shown[..(*caret).min(n)].iter().collect::<String>(), p.font_px, p.bold);
            let target = p.x - p.rect.x - 4.0 + scroll(to_caret, p.rect.w - 8.0);
            (0..=n)
                .min_by(|a, b| {
                    let wa = m.width(&shown[..*a].iter().collect::<String>(), p.font_px, p.bold);
                    let wb = m.width(&shown[..*b].iter().collect::<String>(), p.font_px, p.bold);
                    (wa - target).abs().total_cmp(&(wb - target).abs())
                })
                .unwrap_or(n)
        }
    };
    *anchor = None;
    Response::handled()
}

/// How far a field's text is shifted left so that the caret, `to_caret` pixels into the
/// text, stays inside a field `inner_width` pixels wide (the caret's 2 px included). Drawing
/// and clicking both use it, so a click lands on the character under the pointer.
pub(crate) fn scroll(to_caret: f32, inner_width: f32) -> f32 {
    (to_caret + 2.0 - inner_width).max(0.0)
}

pub(crate) fn key(g: &mut Gadget, key: Key, shift: bool) -> Response {
    let Gadget::TextEntry { text, caret, anchor, .. } = g else { return Response::default() };
    let len = text.chars().count();
    let before = text.clone();
    let mut r = Response::handled();
    match key {
        Key::Left | Key::Right | Key::Home | Key::End => {
            if shift && anchor.is_none() {
                *anchor = Some(*caret);
            } else if !shift {
                *anchor = None;
            }
            *caret = match key {
                Key::Left => caret.saturating_sub(1),
                Key::Right => (*caret + 1).min(len),
                Key::Home => 0,
                _ => len,
            };
        }
        Key::Backspace | Key::Delete => {
            if !delete_selection(text, caret, anchor) {
                if key == Key::Backspace && *caret > 0 {
                    remove_char(text, *caret - 1);
                    *caret -= 1;
                } else if key == Key::Delete && *caret < len {
                    remove_char(text, *caret);
                }
            }
        }
        Key::SelectAll => {
            *anchor = Some(0);
            *caret = len;
        }
        Key::Enter => r.events.push(EventKind::EditDone(text.clone())),
        _ => return Response::default(),
    }
    if *text != before {
        r.events = vec![EventKind::TextChanged(text.clone())];
    }
    r
}

pub(crate) fn char(g: &mut Gadget, c: char) -> Response {
    let Gadget::TextEntry { text, caret, anchor, max_len, numeric, .. } = g else { return Response::default() };
    if c.is_control() || (*numeric && !c.is_ascii_digit()) {
        return Response::handled();
    }
    delete_selection(text, caret, anchor);
    if text.chars().count() >= *max_len {
        return Response::handled();
    }
    let byte = text.char_indices().nth(*caret).map_or(text.len(), |(b, _)| b);
    text.insert(byte, c);
    *caret += 1;
    Response::event(EventKind::TextChanged(text.clone()))
}

fn remove_char(text: &mut String, at: usize) {
    if let Some((b, _)) = text.char_indices().nth(at) {
        text.remove(b);
    }
}

/// Removes the selected characters; true if there was a selection.
fn delete_selection(text: &mut String, caret: &mut usize, anchor: &mut Option<usize>) -> bool {
    let Some(a) = anchor.take() else { return false };
    let (lo, hi) = (a.min(*caret), a.max(*caret));
    if lo == hi {
        return false;
    }
    let chars: Vec<char> = text.chars().collect();
    *text = chars[..lo.min(chars.len())].iter().chain(&chars[hi.min(chars.len())..]).collect();
    *caret = lo;
    true
}
