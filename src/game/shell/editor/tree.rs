//! The layout editor's work on a layout's window tree: finding a window and its siblings,
//! moving a rectangle, and snapping a dragged edge to a sibling's edge or the grid.
//!
//! Must not: know the shell or the screen (plain functions over the tree).

use crate::ui::wnd::WndFile;
use crate::ui::wnd::model::{ScreenRect, WindowDef};

/// The parent list of the window called `name`, and its index there.
pub(super) fn siblings_of<'a>(windows: &'a mut Vec<WindowDef>, name: &str) -> Option<(&'a mut Vec<WindowDef>, usize)> {
    if let Some(i) = windows.iter().position(|w| w.name == name) {
        return Some((windows, i));
    }
    for w in windows.iter_mut() {
        if let Some(found) = siblings_of(&mut w.children, name) {
            return Some(found);
        }
    }
    None
}

/// The window called `name` in a tree.
pub(super) fn find_mut<'a>(windows: &'a mut [WindowDef], name: &str) -> Option<&'a mut WindowDef> {
    for w in windows {
        if w.name == name {
            return Some(w);
        }
        if let Some(found) = find_mut(&mut w.children, name) {
            return Some(found);
        }
    }
    None
}

/// `r` moved by (dx, dy).
pub(super) fn moved(r: ScreenRect, dx: i32, dy: i32) -> ScreenRect {
    ScreenRect {
        upper_left: (r.upper_left.0 + dx, r.upper_left.1 + dy),
        bottom_right: (r.bottom_right.0 + dx, r.bottom_right.1 + dy),
        ..r
    }
}

/// A dragged edge within this many units of a sibling's edge lands on it.
const SNAP: i32 = 4;
/// Otherwise dragged positions land on this grid (authoring units).
const GRID: i32 = 5;

/// `value` moved onto the nearest of `edges` within [`SNAP`], else onto the grid.
pub(super) fn snap(value: i32, edges: &[i32]) -> i32 {
    match edges.iter().map(|&e| (e - value, e)).filter(|(d, _)| d.abs() <= SNAP).min_by_key(|(d, _)| d.abs()) {
        Some((_, e)) => e,
        None => (value as f32 / GRID as f32).round() as i32 * GRID,
    }
}

/// The edges (x, y) of `name`'s siblings, where a drag may snap.
pub(super) fn sibling_edges(tree: &mut WndFile, name: &str) -> (Vec<i32>, Vec<i32>) {
    let Some((list, i)) = siblings_of(&mut tree.windows, name) else { return (Vec::new(), Vec::new()) };
    let others = list.iter().enumerate().filter(|(k, _)| *k != i).map(|(_, w)| w.rect);
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for r in others {
        xs.extend([r.upper_left.0, r.bottom_right.0]);
        ys.extend([r.upper_left.1, r.bottom_right.1]);
    }
    (xs, ys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drags_snap_to_a_near_edge_else_to_the_grid() {
        assert_eq!(snap(103, &[]), 105);
        assert_eq!(snap(102, &[]), 100);
        assert_eq!(snap(103, &[106]), 106, "an edge three away wins over the grid");
        assert_eq!(snap(103, &[108]), 105, "an edge five away does not");
        assert_eq!(snap(104, &[100, 106]), 106, "the nearer of two");
    }
}
