//! The layout editor's several-window tools: Shift+click gathers windows into a group beside
//! the selected one, and the tree panel's buttons line the group up with it — left edges, top
//! edges, or the same size — each as one undoable edit.
//!
//! Must not: change a window outside the group, or change the tree except through the editor's
//! undoable edits.

use crate::ui::wnd::WndFile;
use crate::ui::wnd::model::ScreenRect;

use super::tree::find_mut;

/// How the alignment tools line a group up with the selected window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Left edges on the selected window's left edge (widths kept).
    Left,
    /// Top edges on the selected window's top edge (heights kept).
    Top,
    /// The selected window's width and height (upper-left corners kept).
    Size,
}

/// `rect` lined up with `to` as `how` says.
fn aligned(rect: ScreenRect, to: ScreenRect, how: Align) -> ScreenRect {
    let (w, h) = (rect.bottom_right.0 - rect.upper_left.0, rect.bottom_right.1 - rect.upper_left.1);
    let (tw, th) = (to.bottom_right.0 - to.upper_left.0, to.bottom_right.1 - to.upper_left.1);
    let (x, y) = rect.upper_left;
    let (ul, size) = match how {
        Align::Left => ((to.upper_left.0, y), (w, h)),
        Align::Top => ((x, to.upper_left.1), (w, h)),
        Align::Size => ((x, y), (tw, th)),
    };
    ScreenRect { upper_left: ul, bottom_right: (ul.0 + size.0, ul.1 + size.1), ..rect }
}

/// Lines every window of `group` up with `primary` in `tree`; false when there is nothing to
/// do (no such primary, or nobody in the group).
pub fn align(tree: &mut WndFile, primary: &str, group: &[String], how: Align) -> bool {
    let Some(to) = find_mut(&mut tree.windows, primary).map(|w| w.rect) else { return false };
    let mut changed = false;
    for name in group.iter().filter(|n| n.as_str() != primary) {
        if let Some(w) = find_mut(&mut tree.windows, name) {
            w.rect = aligned(w.rect, to, how);
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: i32, y: i32, w: i32, h: i32) -> ScreenRect {
        ScreenRect { upper_left: (x, y), bottom_right: (x + w, y + h), ..ScreenRect::default() }
    }

    #[test]
    fn each_tool_moves_one_edge_or_the_size_and_keeps_the_rest() {
        let (r, to) = (rect(50, 60, 30, 20), rect(10, 15, 100, 40));
        assert_eq!(aligned(r, to, Align::Left), rect(10, 60, 30, 20));
        assert_eq!(aligned(r, to, Align::Top), rect(50, 15, 30, 20));
        assert_eq!(aligned(r, to, Align::Size), rect(50, 60, 100, 40));
    }
}
