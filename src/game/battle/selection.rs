//! What the local player has selected, as shown, and the control groups 0–9 (display state:
//! the synchronized selection changes only through the `Select` commands `input.rs` sends).
//! Also the timing that makes a second click or a second group key a double.
//!
//! Must not: send commands or read input devices (it is told what was picked).

use glam::Vec2;

use crate::sim::World;
use crate::sim::ids::ObjectId;

/// Pixels within which a second click counts as the same place.
pub(super) const DRAG_PX: f32 = 5.0;
/// Seconds between the clicks of a double click, or the key presses of a double group recall.
const DOUBLE_SECONDS: f32 = 0.4;

/// The shown selection and the control groups.
#[derive(Clone, Debug, Default)]
pub(super) struct Selection {
    /// Objects shown as selected.
    pub ids: Vec<ObjectId>,
    /// Control groups 0–9.
    groups: [Vec<ObjectId>; 10],
    /// The group last recalled and when (battle seconds).
    last_recall: Option<(usize, f32)>,
    /// Where and when (battle seconds) the last single click was.
    last_click: Option<(Vec2, f32)>,
    /// Shift is held: picks add to the selection.
    pub shift: bool,
    /// The player's own objects under the last single click, best first (Tab walks them).
    under_click: Vec<ObjectId>,
}

impl Selection {
    /// Forgets objects that are gone.
    pub fn retain_live(&mut self, world: &World) {
        self.ids.retain(|id| world.object(*id).is_some());
    }

    /// Notes a click at `at`; true if it completes a double click.
    pub fn click(&mut self, at: Vec2, now: f32, is_click: bool) -> bool {
        let double =
            is_click && self.last_click.is_some_and(|(p, t)| (p - at).length() < DRAG_PX && now - t < DOUBLE_SECONDS);
        self.last_click = is_click.then_some((at, now));
        double
    }

    /// Notes the objects under a single click, best first (the first is the one picked).
    pub fn note_under_click(&mut self, under: Vec<ObjectId>) {
        self.under_click = under;
    }

    /// The next (`back`: the previous) of the objects under the last click, when the selection
    /// is one of them alone and another lies there too; it becomes the selection.
    pub fn next_under_click(&mut self, world: &World, back: bool) -> Option<ObjectId> {
        self.under_click.retain(|id| world.object(*id).is_some());
        let n = self.under_click.len();
        let [shown] = self.ids[..] else { return None };
        let at = self.under_click.iter().position(|&id| id == shown).filter(|_| n > 1)?;
        let next = self.under_click[if back { (at + n - 1) % n } else { (at + 1) % n }];
        self.ids = vec![next];
        Some(next)
    }

    /// Takes `picked` as the selection, or adds it when Shift is held; returns whether it was
    /// added (what the `Select` command must say).
    pub fn pick(&mut self, picked: &[ObjectId]) -> bool {
        let add = self.shift && !picked.is_empty();
        if add {
            self.ids.extend(picked.iter().copied());
            self.ids.sort();
            self.ids.dedup();
        } else {
            self.ids = picked.to_vec();
        }
        add
    }

    /// Stores the selection as group `n`.
    pub fn store(&mut self, n: usize) {
        if let Some(g) = self.groups.get_mut(n) {
            *g = self.ids.clone();
        }
    }

    /// Recalls group `n` (its living members) as the selection; returns them and whether this
    /// was a second press in quick succession (the camera then goes there). None if the group
    /// is empty.
    pub fn recall(&mut self, n: usize, now: f32, world: &World) -> Option<(Vec<ObjectId>, bool)> {
        let group = self.groups.get_mut(n)?;
        group.retain(|id| world.object(*id).is_some());
        if group.is_empty() {
            return None;
        }
        let members = group.clone();
        let double = self.last_recall.is_some_and(|(g, t)| g == n && now - t < DOUBLE_SECONDS);
        self.last_recall = Some((n, now));
        self.ids = members.clone();
        Some((members, double))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_adds_and_a_plain_pick_replaces() {
        let (a, b) = (ObjectId { index: 1, generation: 0 }, ObjectId { index: 2, generation: 0 });
        let mut s = Selection::default();
        assert!(!s.pick(&[b]));
        s.shift = true;
        assert!(s.pick(&[a]));
        assert_eq!(s.ids, [a, b]);
        s.shift = false;
        assert!(!s.pick(&[a]));
        assert_eq!(s.ids, [a]);
    }

    #[test]
    fn a_second_click_nearby_and_soon_is_a_double() {
        let mut s = Selection::default();
        assert!(!s.click(Vec2::new(10.0, 10.0), 1.0, true));
        assert!(s.click(Vec2::new(12.0, 10.0), 1.2, true));
        assert!(!s.click(Vec2::new(12.0, 10.0), 2.0, true), "too late");
        assert!(!s.click(Vec2::new(40.0, 10.0), 2.1, true), "too far");
    }
}
