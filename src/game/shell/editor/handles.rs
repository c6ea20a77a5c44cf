//! The layout editor's resize handles: eight small squares on the selected window's corners
//! and edge middles, which of a window's edges a drag on each one moves, and the rectangle
//! such a drag gives.
//!
//! Must not: touch the screen or the edited tree (`session.rs` applies what these compute).

use crate::ui::Rect;
use crate::ui::wnd::model::ScreenRect;

/// Half the side of a handle's square (pixels): a press this near a handle's centre takes it.
pub(super) const HANDLE: f32 = 4.0;

/// Smallest width and height (authoring units) a resize leaves a window.
const MIN_SIZE: i32 = 4;

/// The edges of a window a resize handle moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Edges {
    /// The left edge follows the pointer.
    pub left: bool,
    /// The top edge follows the pointer.
    pub top: bool,
    /// The right edge follows the pointer.
    pub right: bool,
    /// The bottom edge follows the pointer.
    pub bottom: bool,
}

/// The eight handles of a window on screen: each one's centre and the edges it moves, the
/// corners first (where a small window's handles overlap, a corner wins).
pub(super) fn handles(r: Rect) -> [((f32, f32), Edges); 8] {
    let (x0, y0, x1, y1) = (r.x, r.y, r.right(), r.bottom());
    let (xm, ym) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let e = |left, top, right, bottom| Edges { left, top, right, bottom };
    [
        ((x1, y1), e(false, false, true, true)),
        ((x0, y0), e(true, true, false, false)),
        ((x1, y0), e(false, true, true, false)),
        ((x0, y1), e(true, false, false, true)),
        ((x1, ym), e(false, false, true, false)),
        ((xm, y1), e(false, false, false, true)),
        ((x0, ym), e(true, false, false, false)),
        ((xm, y0), e(false, true, false, false)),
    ]
}

/// The handle of a window on screen at `r` under the pointer at (x, y), if any.
pub(super) fn handle_at(r: Rect, x: f32, y: f32) -> Option<Edges> {
    handles(r).into_iter().find(|((hx, hy), _)| (x - hx).abs() <= HANDLE && (y - hy).abs() <= HANDLE).map(|(_, e)| e)
}

/// `from` with the edges a handle moves moved to where `snap` puts them after a drag of
/// (dx, dy) authoring units; an edge stops `MIN_SIZE` short of the one facing it.
pub(super) fn resized(from: ScreenRect, edges: Edges, dx: i32, dy: i32, snap: impl Fn(i32, bool) -> i32) -> ScreenRect {
    let ((mut x0, mut y0), (mut x1, mut y1)) = (from.upper_left, from.bottom_right);
    if edges.left {
        x0 = snap(x0 + dx, true).min(x1 - MIN_SIZE);
    }
    if edges.right {
        x1 = snap(x1 + dx, true).max(x0 + MIN_SIZE);
    }
    if edges.top {
        y0 = snap(y0 + dy, false).min(y1 - MIN_SIZE);
    }
    if edges.bottom {
        y1 = snap(y1 + dy, false).max(y0 + MIN_SIZE);
    }
    ScreenRect { upper_left: (x0, y0), bottom_right: (x1, y1), ..from }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x0: i32, y0: i32, x1: i32, y1: i32) -> ScreenRect {
        ScreenRect { upper_left: (x0, y0), bottom_right: (x1, y1), creation_resolution: (800, 600) }
    }

    #[test]
    fn each_handle_moves_its_own_edges() {
        let r = Rect::new(100.0, 50.0, 80.0, 40.0);
        let at = |x, y| handle_at(r, x, y);
        assert_eq!(at(181.0, 89.0).map(|e| (e.right, e.bottom, e.left, e.top)), Some((true, true, false, false)));
        assert_eq!(at(100.0, 70.0).map(|e| (e.left, e.top, e.right, e.bottom)), Some((true, false, false, false)));
        assert_eq!(at(140.0, 50.0).map(|e| (e.top, e.left, e.right, e.bottom)), Some((true, false, false, false)));
        assert_eq!(at(105.0, 55.0), None, "five pixels inside a corner is the window, not a handle");
        assert_eq!(at(140.0, 70.0), None);
    }

    #[test]
    fn a_resize_moves_only_the_handles_edges_and_keeps_a_least_size() {
        let none = |v: i32, _| v;
        let top_left = handle_at(Rect::new(0.0, 0.0, 100.0, 50.0), 0.0, 0.0).unwrap();
        assert_eq!(resized(rect(10, 20, 110, 70), top_left, -5, 7, none), rect(5, 27, 110, 70));
        // Dragged past the facing edge, it stops four short of it.
        assert_eq!(resized(rect(10, 20, 110, 70), top_left, 500, 500, none), rect(106, 66, 110, 70));
        let left = Edges { left: true, top: false, right: false, bottom: false };
        assert_eq!(
            resized(rect(10, 20, 110, 70), left, -3, 9, |v, x| if x { v / 5 * 5 } else { v }),
            rect(5, 20, 110, 70)
        );
    }
}
