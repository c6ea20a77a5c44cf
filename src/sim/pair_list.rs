//! Separation's list of close pairs, kept from frame to frame while it still holds every pair
//! that could overlap (a Verlet list).
//!
//! The list is made from the neighbour grid with a margin, the skin: it holds every pair of
//! units less than the sum of their radii plus the skin apart along both axes. While no unit has
//! moved more than half the skin along either axis since, and the units are the same ones with
//! the same radii, a pair left out is still at least the sum of their radii apart along one
//! axis, so it cannot overlap, and the list's pairs are all separation must test. A unit that
//! went further, or one that came or went, makes a new list. Units on the march move a unit or
//! so a frame, so a list lasts several frames; units at rest keep theirs for good.
//!
//! The grid's buckets are at least twice the widest radius, so two units that touch lie in the
//! same or touching buckets; the skin is what is left of a bucket side, so the list costs no
//! wider grid than testing pairs each frame would.
//! Must not: change the game. It is a cache: any list that passes [`PairList::covers`] gives the
//! pushes of testing every pair, and nothing of it is hashed.

use super::fixed::Fixed;
use super::spatial::{Entry, SpatialIndex};
use super::vector::Vec2;

/// The narrowest buckets of the neighbour grid: 2^5 = 32 world units (twice the largest unit
/// radius shipped, 13, fits; wider units widen them).
const MIN_BUCKET_LOG2: u32 = 5;

/// Bucket side (log2) for the neighbour grid of `entries`: at least twice the largest radius.
fn bucket_log2(entries: &[Entry]) -> u32 {
    let widest = entries.iter().map(|e| e.radius).max().unwrap_or(Fixed::ZERO);
    let reach = ((widest + widest).raw().clamp(1, 1 << 46) as u64).div_ceil(1 << Fixed::FRAC_BITS);
    reach.next_power_of_two().trailing_zeros().max(MIN_BUCKET_LOG2)
}

/// The close pairs of a set of units, as of the frame the list was made.
#[derive(Clone, Debug, Default)]
pub struct PairList {
    /// Each unit's slot, radius and position when the list was made (raw bits), in the order
    /// the units came.
    units: Vec<(u32, i64, i64, i64)>,
    /// How far (raw, along each axis) a unit may go from where it was before the list may miss
    /// a pair: half the skin.
    slack: i64,
    /// Pairs of positions in the units' order, the lower slot first.
    pairs: Vec<(u32, u32)>,
    /// The units with their position in the list as their slot (scratch for a build).
    keyed: Vec<Entry>,
    /// The neighbour grid a build sweeps (its buffers kept between builds).
    grid: SpatialIndex,
    /// Lists made so far (for the benchmark's figures and the tests).
    builds: u64,
}

impl PairList {
    /// True if the list holds every pair of `entries` that may overlap: the same units (slots
    /// and radii) in the same order, none further than the slack from where it was.
    pub fn covers(&self, entries: &[Entry]) -> bool {
        let slack = self.slack;
        entries.len() == self.units.len()
            && entries.iter().zip(&self.units).all(|(e, &(slot, radius, x, y))| {
                // One test of the larger axis distance: the branch is foreseen, nearly always taken.
                let moved =
                    e.pos.x.raw().wrapping_sub(x).unsigned_abs().max(e.pos.y.raw().wrapping_sub(y).unsigned_abs());
                e.slot == slot && e.radius.raw() == radius && moved <= slack as u64
            })
    }

    /// Moves each of `entries` to where `position` says its slot's unit now is (left where it
    /// was if it says nothing), and tells whether the list still holds every pair of them that
    /// may overlap, as [`PairList::covers`] would: one pass for units whose positions alone
    /// changed since the last frame.
    pub fn follow(&self, entries: &mut [Entry], position: impl Fn(u32) -> Option<Vec2>) -> bool {
        if entries.len() != self.units.len() {
            for e in entries.iter_mut() {
                if let Some(p) = position(e.slot) {
                    e.pos = p;
                }
            }
            return false;
        }
        let slack = self.slack as u64;
        let mut holds = true;
        for (e, &(slot, radius, x, y)) in entries.iter_mut().zip(&self.units) {
            if let Some(p) = position(e.slot) {
                e.pos = p;
            }
            let moved = e.pos.x.raw().wrapping_sub(x).unsigned_abs().max(e.pos.y.raw().wrapping_sub(y).unsigned_abs());
            // Every unit is moved, so no early way out: the tests are summed.
            holds &= e.slot == slot && e.radius.raw() == radius && moved <= slack;
        }
        holds
    }

    /// Puts the unit at `i` (in the list's order) at `pos` as though the list had been made
    /// with it there: for a unit that has left, parked where it can overlap none of the others
    /// (then the list still holds every pair that may overlap). Nothing for an `i` past the end.
    pub fn park(&mut self, i: usize, pos: Vec2) {
        if let Some(u) = self.units.get_mut(i) {
            (u.2, u.3) = (pos.x.raw(), pos.y.raw());
        }
    }

    /// Keeps the list if it still holds every pair of `entries` that may overlap, or makes it
    /// again over a world of `size`.
    pub fn refresh(&mut self, size: Vec2, entries: &[Entry]) {
        if !self.covers(entries) {
            self.build(size, entries);
        }
    }

    /// Makes the list of `entries` (in slot order) over a world of `size`.
    pub fn build(&mut self, size: Vec2, entries: &[Entry]) {
        self.builds += 1;
        let bucket_log2 = bucket_log2(entries);
        let side = 1i64 << (Fixed::FRAC_BITS + bucket_log2.min(30));
        let widest = entries.iter().map(|e| e.radius.raw()).max().unwrap_or(0);
        // Pairs less than a bucket side apart along both axes come from the grid, so the sum of
        // two radii plus the skin must stay within it.
        let skin = side.saturating_sub(widest.saturating_mul(2)).max(0);
        self.slack = skin / 2;
        self.keyed.clear();
        self.keyed.extend(entries.iter().enumerate().map(|(i, e)| Entry { slot: i as u32, ..*e }));
        self.grid.rebuild_for_pairs(size, bucket_log2, &self.keyed);
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.grid.for_each_close_run(|a, others| {
            let (ax, ay) = (a.pos.x.raw(), a.pos.y.raw());
            for b in others {
                let reach = a.radius.raw().saturating_add(b.radius.raw()).saturating_add(skin) as u64;
                let apart =
                    b.pos.x.raw().wrapping_sub(ax).unsigned_abs().max(b.pos.y.raw().wrapping_sub(ay).unsigned_abs());
                if apart < reach {
                    let (i, j) = (a.slot, b.slot);
                    pairs.push(if entries[i as usize].slot < entries[j as usize].slot { (i, j) } else { (j, i) });
                }
            }
        });
        self.units.clear();
        self.units.extend(entries.iter().map(|e| (e.slot, e.radius.raw(), e.pos.x.raw(), e.pos.y.raw())));
    }

    /// The pairs, as positions in the units' order (the lower slot first).
    pub fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// How many lists have been made.
    pub fn builds(&self) -> u64 {
        self.builds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(slot: u32, x: i64, y: i64, radius: i64) -> Entry {
        Entry {
            slot,
            pos: Vec2::new(Fixed::from_raw(x), Fixed::from_raw(y)),
            radius: Fixed::from_int(radius),
            owner: 0,
            air: false,
        }
    }

    #[test]
    fn a_list_holds_the_pairs_within_the_skin_and_lapses_past_the_slack() {
        let one = 1i64 << Fixed::FRAC_BITS;
        // Radii 3: buckets of 32, skin 32 − 6 = 26, slack 13. Units 0 and 1 are 20 apart (in
        // the list: 20 < 6 + 26); unit 2 is 40 from unit 1 (not: 40 ≥ 32).
        let mut entries =
            vec![unit(4, 100 * one, 100 * one, 3), unit(7, 120 * one, 100 * one, 3), unit(9, 160 * one, 100 * one, 3)];
        let mut list = PairList::default();
        list.build(Vec2::from_int(1000, 1000), &entries);
        assert_eq!(list.pairs(), &[(0, 1)]);
        assert!(list.covers(&entries));
        entries[2].pos.x = Fixed::from_raw(147 * one);
        assert!(list.covers(&entries), "13 along x is within the slack");
        entries[2].pos.x = Fixed::from_raw(147 * one - 1);
        assert!(!list.covers(&entries), "past the slack by the smallest step");
        entries[2].pos.x = Fixed::from_raw(160 * one);
        entries[1].radius = Fixed::from_int(4);
        assert!(!list.covers(&entries), "a changed radius");
        entries[1].radius = Fixed::from_int(3);
        assert!(!list.covers(&entries[..2]), "a unit gone");
        assert!(list.covers(&entries));
    }
    #[test]
    fn a_parked_unit_is_followed_where_it_was_parked() {
        let one = 1i64 << Fixed::FRAC_BITS;
        let entries: Vec<Entry> = (0..3).map(|k| unit(2 * k as u32, (100 + 10 * k) * one, 100 * one, 3)).collect();
        let mut list = PairList::default();
        list.build(Vec2::from_int(1000, 1000), &entries);
        let far = Vec2::new(Fixed::from_raw(-(1 << 60)), Fixed::from_raw(-(1 << 60)));
        let mut parked = entries.clone();
        parked[1].pos = far;
        assert!(!list.covers(&parked), "a unit moved far");
        list.park(1, far);
        assert!(list.covers(&parked), "the same unit parked there");
        // Its slot says nothing any more: it stays where it is parked, and the list holds.
        assert!(list.follow(&mut parked, |slot| (slot != 2).then(|| Vec2::from_int(100 + 5 * slot as i64, 100))));
        assert_eq!(parked[1].pos, far);
        list.park(7, far);
        assert_eq!(list.pairs().len(), 3, "nothing for a unit not in the list");
    }

    #[test]
    fn following_moves_every_unit_and_says_what_covers_says() {
        let one = 1i64 << Fixed::FRAC_BITS;
        let entries =
            vec![unit(4, 100 * one, 100 * one, 3), unit(7, 120 * one, 100 * one, 3), unit(9, 160 * one, 100 * one, 3)];
        let mut list = PairList::default();
        list.build(Vec2::from_int(1000, 1000), &entries);
        // Where each slot's unit stands now: units 4 and 7 a little moved, unit 9 by 13 (within
        // the slack) or 14 (past it).
        for (step, covered) in [(13, true), (14, false)] {
            let now = |slot: u32| {
                let base = entries.iter().find(|e| e.slot == slot).map(|e| e.pos)?;
                let along = if slot == 9 { step } else { slot as i64 - 5 };
                Some(Vec2::new(base.x + Fixed::from_raw(along * one), base.y))
            };
            let mut followed = entries.clone();
            let held = list.follow(&mut followed, now);
            let positions: Vec<Vec2> = followed.iter().map(|e| e.pos).collect();
            assert_eq!(positions, entries.iter().map(|e| now(e.slot).unwrap()).collect::<Vec<_>>(), "every unit moved");
            assert_eq!(held, list.covers(&followed));
            assert_eq!(held, covered, "unit 9 moved {step}");
        }
        // A unit more than the list was made from: still all moved, and not covered.
        let mut more = entries.clone();
        more.push(unit(11, 0, 0, 3));
        assert!(!list.follow(&mut more, |_| Some(Vec2::from_int(5, 5))));
        assert!(more.iter().all(|e| e.pos == Vec2::from_int(5, 5)));
    }
}
