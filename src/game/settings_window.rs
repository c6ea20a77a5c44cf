//! The window's size and place as the settings keep them: following the window the player
//! resized or moved (not while fullscreen or minimised), and whether a saved place still lies
//! on a monitor. Pure functions of sizes and positions, so they are tested without a window.
//!
//! Must not: open, move or resize a window (`app/surface.rs` does), or read or write the file.

use super::settings::Settings;
use crate::content::limits::WINDOW_SIZE;

pub use crate::content::limits::WINDOW_POSITION;

/// How much of a window (each way, in pixels) must lie on a monitor for its saved place to be
/// used: enough of the title bar to grab it.
pub const MIN_VISIBLE: i32 = 64;

/// A monitor's place on the desktop: its top-left corner and size, in pixels.
pub type MonitorRect = ((i32, i32), (u32, u32));

impl Settings {
    /// Follows the window the player resized or moved: `size` (its drawable size) becomes the
    /// resolution, clamped to [`WINDOW_SIZE`], and `position` (its outer top-left corner, if
    /// the system tells it) the window position, clamped to [`WINDOW_POSITION`]. A fullscreen
    /// window, or one with no area (minimised), changes nothing: the size kept is the one the
    /// window returns to. True when something changed.
    pub fn follow_window(&mut self, size: (u32, u32), position: Option<(i32, i32)>, fullscreen: bool) -> bool {
        if fullscreen || size.0 == 0 || size.1 == 0 {
            return false;
        }
        let clamp = |v: u32| v.clamp(*WINDOW_SIZE.start(), *WINDOW_SIZE.end());
        let resolution = (clamp(size.0), clamp(size.1));
        let at = |v: i32| v.clamp(*WINDOW_POSITION.start(), *WINDOW_POSITION.end());
        let position = position.map(|(x, y)| (at(x), at(y))).or(self.window_position);
        let changed = resolution != self.resolution || position != self.window_position;
        self.resolution = resolution;
        self.window_position = position;
        changed
    }

    /// Where to open the window: the saved position when a window of the saved size there
    /// shows at least [`MIN_VISIBLE`] pixels each way on one of `monitors`; none (the window
    /// manager places it) when it would be off every monitor. With no monitors known (the
    /// system does not say), the saved position is trusted.
    pub fn opening_position(&self, monitors: &[MonitorRect]) -> Option<(i32, i32)> {
        let (x, y) = self.window_position?;
        if monitors.is_empty() {
            return Some((x, y));
        }
        let (w, h) = (self.resolution.0 as i64, self.resolution.1 as i64);
        let shows = |((mx, my), (mw, mh)): &MonitorRect| {
            let (mx, my) = (*mx as i64, *my as i64);
            let across = (x as i64 + w).min(mx + *mw as i64) - (x as i64).max(mx);
            let down = (y as i64 + h).min(my + *mh as i64) - (y as i64).max(my);
            across >= MIN_VISIBLE as i64 && down >= MIN_VISIBLE as i64
        };
        monitors.iter().any(shows).then_some((x, y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resized_and_moved_window_is_followed_but_not_while_fullscreen_or_minimised() {
        let mut s = Settings::default();
        assert!(s.follow_window((1366, 741), Some((40, 30)), false));
        assert_eq!((s.resolution, s.window_position), ((1366, 741), Some((40, 30))));
        assert!(!s.follow_window((1366, 741), Some((40, 30)), false), "nothing new");
        // Fullscreen: the monitor's size is not the window's own.
        assert!(!s.follow_window((2560, 1440), Some((0, 0)), true));
        // Minimised (Windows reports it at -32000, -32000 with no area).
        assert!(!s.follow_window((0, 0), Some((-32_000, -32_000)), false));
        assert_eq!((s.resolution, s.window_position), ((1366, 741), Some((40, 30))));
        // A system that cannot tell the position keeps the one known.
        assert!(s.follow_window((800, 600), None, false));
        assert_eq!((s.resolution, s.window_position), ((800, 600), Some((40, 30))));
        // What the settings could not read back is clamped to what they accept.
        assert!(s.follow_window((100, 90_000), Some((-90_000, 5)), false));
        assert_eq!((s.resolution, s.window_position), ((320, 16_384), Some((-32_768, 5))));
    }

    #[test]
    fn a_saved_place_off_every_monitor_is_dropped() {
        let monitors = [((0, 0), (1920, 1080)), ((1920, 0), (1280, 1024))];
        let at = |p: (i32, i32)| Settings { window_position: Some(p), ..Settings::default() };
        assert_eq!(at((100, 50)).opening_position(&monitors), Some((100, 50)));
        assert_eq!(at((2500, 900)).opening_position(&monitors), Some((2500, 900)), "on the second monitor");
        assert_eq!(at((3200, 100)).opening_position(&monitors), None, "right of both");
        assert_eq!(at((-1250, 100)).opening_position(&monitors), None, "30 pixels showing is too few");
        assert_eq!(at((-1200, 100)).opening_position(&monitors), Some((-1200, 100)), "80 pixels showing");
        assert_eq!(at((100, -700)).opening_position(&monitors), None, "above, only its bottom showing");
        assert_eq!(at((100, 50)).opening_position(&[]), Some((100, 50)), "no monitors known: trusted");
        assert_eq!(Settings::default().opening_position(&monitors), None, "none saved");
    }
}
