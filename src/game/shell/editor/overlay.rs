//! The layout editor's marks over the screen it edits: the bar along the bottom saying what
//! the keys do (or why the last edit was refused), the outlines of the selected window and its
//! group, the selected window's name and its resize handles.
//!
//! Must not: change the edited layout or the editor's state; it only draws what they are.

use crate::ui::Rect;
use crate::ui::draw::DrawCmd;

use crate::ui::WindowManager;

use super::handles::{HANDLE, handles};
use super::session::Editor;

/// The editor's marks over the screen `ui` shows: the bar, the selected window's outline,
/// name and handles, and its group's outlines.
pub(super) fn overlay(e: &Editor, ui: &WindowManager) -> Vec<DrawCmd> {
    let (w, h) = ui.fit().screen;
    let mut out = vec![DrawCmd::Fill { rect: Rect::new(0.0, h - 24.0, w, 24.0), color: [0, 0, 0, 200] }];
    // A star after the name while there are unsaved edits, as editors mark them.
    let file = if e.unsaved() { format!("{}*", e.file) } else { e.file.clone() };
    out.push(DrawCmd::Text {
            x: 8.0,
            y: h - 21.0,
            text: if let Some(note) = &e.note {
                format!("Editing {file} — {note}")
            } else if e.typing {
                format!("Editing {file} — typing the text of the selected window; Enter ends")
            } else {
                format!(
                    "Editing {file} — click (Shift: group), drag (handles: resize), arrows; t text, d duplicate, Del delete, u undo, r redo, s save, x discard, Esc leave"
                )
            },
            px: 14.0,
            bold: true,
            color: [255, 220, 90, 255],
            shadow: Some([0, 0, 0, 255]),
        });
    let rect: Option<Rect> = e.selected.as_ref().and_then(|n| ui.find(n)).and_then(|id| ui.window(id)).map(|w| w.rect);
    for r in e.group.iter().filter_map(|n| ui.find(n)).filter_map(|id| ui.window(id)).map(|w| w.rect) {
        out.push(DrawCmd::Frame { rect: r, color: [120, 200, 255, 255], width: 2.0 });
    }
    if let (Some(r), Some(name)) = (rect, &e.selected) {
        out.push(DrawCmd::Frame { rect: r, color: [255, 220, 90, 255], width: 2.0 });
        // The resize handles: dark-edged squares a drag takes.
        for ((hx, hy), _) in handles(r) {
            let square = Rect::new(hx - HANDLE, hy - HANDLE, 2.0 * HANDLE, 2.0 * HANDLE);
            out.push(DrawCmd::Fill { rect: square, color: [20, 20, 20, 255] });
            out.push(DrawCmd::Fill { rect: square.inset(1.0), color: [255, 220, 90, 255] });
        }
        out.push(DrawCmd::Text {
            x: r.x,
            y: (r.y - 16.0).max(0.0),
            text: name.clone(),
            px: 12.0,
            bold: false,
            color: [255, 220, 90, 255],
            shadow: Some([0, 0, 0, 255]),
        });
    }
    out
}
