//! Rectangles in screen pixels and the mapping from a layout's authored rectangles to the
//! screen: the original independent X/Y stretch, or Ridgeline's uniform (aspect-preserving)
//! scale with anchors.

use super::wnd::model::{Anchor, ScalingMode, ScreenRect};

/// A rectangle in screen pixels (y down).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rect {
    /// Left.
    pub x: f32,
    /// Top.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

impl Rect {
    /// A rectangle from its corner and size.
    pub const fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }

    /// Right edge.
    pub fn right(&self) -> f32 {
        self.x + self.w
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }

    /// True if the point is inside (left/top inclusive).
    pub fn contains(&self, px: f32, py: f32) -> bool {
        px >= self.x && py >= self.y && px < self.right() && py < self.bottom()
    }

    /// The overlap of two rectangles (empty if none).
    pub fn intersect(&self, o: &Rect) -> Rect {
        let x = self.x.max(o.x);
        let y = self.y.max(o.y);
        let r = self.right().min(o.right());
        let b = self.bottom().min(o.bottom());
        Rect::new(x, y, (r - x).max(0.0), (b - y).max(0.0))
    }

    /// Shrunk by `d` on every side.
    pub fn inset(&self, d: f32) -> Rect {
        Rect::new(self.x + d, self.y + d, (self.w - 2.0 * d).max(0.0), (self.h - 2.0 * d).max(0.0))
    }
}

/// How layouts are fitted to the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Screen size in pixels.
    pub screen: (f32, f32),
    /// The mode used where a window does not choose one.
    pub mode: ScalingMode,
}

impl Fit {
    /// The uniform scale for a creation resolution (aspect mode).
    pub fn uniform(&self, creation: (i32, i32)) -> f32 {
        let (cw, ch) = (creation.0.max(1) as f32, creation.1.max(1) as f32);
        (self.screen.0 / cw).min(self.screen.1 / ch)
    }

    /// Text and other lengths scale by this (the smaller axis in stretch mode).
    pub fn length_scale(&self, creation: (i32, i32), mode: ScalingMode) -> f32 {
        let (cw, ch) = (creation.0.max(1) as f32, creation.1.max(1) as f32);
        match mode {
            ScalingMode::Stretch => (self.screen.0 / cw).min(self.screen.1 / ch),
            ScalingMode::Aspect => self.uniform(creation),
        }
    }

    /// Places a window: `rect` and `parent_authored` in authoring units (the parent's authored
    /// rectangle, or the whole creation resolution for a root), `parent` its placed rectangle
    /// (the whole screen for a root).
    pub fn place(
        &self,
        rect: &ScreenRect,
        parent_authored: &ScreenRect,
        parent: Rect,
        mode: ScalingMode,
        anchor: Option<Anchor>,
    ) -> Rect {
        let (cw, ch) = (rect.creation_resolution.0.max(1) as f32, rect.creation_resolution.1.max(1) as f32);
        let (x0, y0) = (rect.upper_left.0 as f32, rect.upper_left.1 as f32);
        let (x1, y1) = (rect.bottom_right.0 as f32, rect.bottom_right.1 as f32);
        let (px0, py0) = (parent_authored.upper_left.0 as f32, parent_authored.upper_left.1 as f32);
        let (px1, py1) = (parent_authored.bottom_right.0 as f32, parent_authored.bottom_right.1 as f32);
        let (sx, sy, s) = match mode {
            ScalingMode::Stretch => (self.screen.0 / cw, self.screen.1 / ch, 0.0),
            ScalingMode::Aspect => {
                let s = self.uniform(rect.creation_resolution);
                (s, s, s)
            }
        };
        let a = anchor.unwrap_or_default();
        let axis = |lo: f32,
                    hi: f32,
                    plo: f32,
                    phi: f32,
                    place_lo: f32,
                    place_hi: f32,
                    k: f32,
                    near: bool,
                    far: bool|
         -> (f32, f32) {
            let size = (hi - lo) * k;
            match (near, far) {
                (true, true) => (place_lo + (lo - plo) * k, place_hi - (phi - hi) * k),
                (true, false) => {
                    let a = place_lo + (lo - plo) * k;
                    (a, a + size)
                }
                (false, true) => {
                    let b = place_hi - (phi - hi) * k;
                    (b - size, b)
                }
                (false, false) => {
                    if s == 0.0 {
                        // The original stretch: the same proportional place inside the parent.
                        let pk = if phi > plo { (place_hi - place_lo) / (phi - plo) } else { k };
                        (place_lo + (lo - plo) * pk, place_lo + (hi - plo) * pk)
                    } else {
                        // Uniform: keep the offset from the parent's centre.
                        let (pc, c) = ((plo + phi) / 2.0, (place_lo + place_hi) / 2.0);
                        (c + (lo - pc) * k, c + (hi - pc) * k)
                    }
                }
            }
        };
        let (l, r) = axis(x0, x1, px0, px1, parent.x, parent.right(), sx, a.left, a.right);
        let (t, b) = axis(y0, y1, py0, py1, parent.y, parent.bottom(), sy, a.top, a.bottom);
        Rect::new(l.round(), t.round(), (r - l).round().max(0.0), (b - t).round().max(0.0))
    }
}
