//! What a computer player knows of its enemies: only what its team's vision shows, plus what it
//! remembers having seen (structures where they stood, units for a while) and which start
//! positions it has looked at.
//!
//! The memory belongs to the AI, not the simulation: it is not hashed, but it changes only from
//! the world it is shown, so the same game gives the same memory on every run.
//! Must not: look at an enemy object the player's team cannot see now.

use std::collections::BTreeMap;

use crate::sim::Relation;
use crate::sim::fixed::Fixed;
use crate::sim::ids::{ObjectId, PlayerId, TemplateId};
use crate::sim::vector::Vec2;
use crate::sim::vision::Sight;
use crate::sim::world::World;

/// Frames an enemy unit out of sight is still counted (it may have moved or died since).
const UNIT_MEMORY_FRAMES: u32 = 30 * 45;
/// Spacing of the points an AI sweeps when it knows of no enemy anywhere (world units).
const HUNT_SPACING: i64 = 160;
/// A lattice point seen this recently is not looked at again while older ones are left.
const HUNT_FRESH_FRAMES: u32 = 30 * 120;
/// Search parties head for points at least this far apart while such points are left.
const HUNT_PARTY_APART: i64 = 480;
/// A start position counts as scouted when seen with no known enemy structure this close.
const START_CLEAR_RADIUS: i64 = 250;

/// One enemy object as last seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sighting {
    /// The object.
    pub id: ObjectId,
    /// Where it was.
    pub pos: Vec2,
    /// What it is.
    pub template: TemplateId,
    /// Whose it is.
    pub owner: PlayerId,
    /// Its health then.
    pub health: i32,
    /// The frame it was last seen.
    pub frame: u32,
}

/// A computer player's knowledge of the enemy.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Memory {
    structures: BTreeMap<ObjectId, Sighting>,
    units: BTreeMap<ObjectId, Sighting>,
    /// Start positions looked at and found empty of enemy structures.
    cleared: Vec<bool>,
    /// The frame of the last observation.
    now: u32,
    /// When each point of the hunting lattice was last in sight (row-major; empty until the
    /// first observation).
    swept: Vec<u32>,
    /// The hunting lattice (fixed for a game; made at the first observation).
    lattice: Vec<Vec2>,
}

impl Memory {
    /// Takes in what `me`'s team sees now; forgets what it sees is gone.
    pub fn observe(&mut self, world: &World, me: PlayerId) {
        let frame = world.frame().0;
        self.now = frame;
        if world.players().get(me.index()).is_none() {
            return;
        }
        // Which players are live enemies, found once rather than for every object.
        let live_enemies: Vec<bool> =
            world.players().iter().map(|p| world.relation(me, p.id) == Relation::Enemy && !p.defeated).collect();
        let enemy = |owner: PlayerId| live_enemies.get(owner.index()).copied().unwrap_or(false);
        for o in world.objects_owned_by(enemy).filter(|o| world.can_see(me, o)) {
            let s = Sighting { id: o.id, pos: o.pos, template: o.template, owner: o.owner, health: o.health, frame };
            if o.kind.blocks_ground() {
                self.structures.insert(o.id, s);
            } else {
                self.units.insert(o.id, s);
            }
        }
        // A remembered place in sight now without its object there: gone (or moved on).
        let stale = |s: &Sighting| s.frame != frame && world.visible_to(me, s.pos);
        self.structures.retain(|_, s| !stale(s));
        self.units.retain(|_, s| !stale(s) && frame.saturating_sub(s.frame) <= UNIT_MEMORY_FRAMES);
        // Defeated players' remains are not worth chasing.
        self.structures.retain(|_, s| world.players().get(s.owner.index()).is_some_and(|p| !p.defeated));
        if self.lattice.is_empty() {
            self.lattice = hunt_lattice(world);
        }
        self.swept.resize(self.lattice.len(), 0);
        for (i, p) in self.lattice.iter().enumerate() {
            if world.visible_to(me, *p) {
                self.swept[i] = frame;
            }
        }
        let starts = world.terrain().start_positions();
        self.cleared.resize(starts.len(), false);
        let r = Fixed::from_int(START_CLEAR_RADIUS);
        for (i, &p) in starts.iter().enumerate() {
            let near_structure = self.structures.values().any(|s| (s.pos - p).length_squared() <= r * r);
            if near_structure {
                self.cleared[i] = false;
            } else if world.sight_at(me, p) == Sight::Visible {
                self.cleared[i] = true;
            }
        }
    }

    /// Enemy structures known, by id.
    pub fn structures(&self) -> impl Iterator<Item = &Sighting> {
        self.structures.values()
    }

    /// Enemy units seen lately, by id.
    pub fn units(&self) -> impl Iterator<Item = &Sighting> {
        self.units.values()
    }

    /// Enemy units in sight at the last observation, by id.
    pub fn units_in_sight(&self) -> impl Iterator<Item = &Sighting> {
        self.units.values().filter(|s| s.frame == self.now)
    }

    /// True once start position `index` has been looked at with no enemy structure there.
    pub fn is_cleared(&self, index: usize) -> bool {
        self.cleared.get(index).copied().unwrap_or(false)
    }

    /// The nearest start position to `from` not yet looked at (or with an enemy base known
    /// there), other than `home`; ties by index.
    pub fn unscouted_start(&self, world: &World, home: Vec2, from: Vec2) -> Option<Vec2> {
        let starts = world.terrain().start_positions();
        let r = Fixed::from_int(START_CLEAR_RADIUS);
        starts
            .iter()
            .enumerate()
            .filter(|(i, p)| !self.cleared.get(*i).copied().unwrap_or(false) && (**p - home).length_squared() > r * r)
            .min_by_key(|(i, p)| ((**p - from).length_squared(), *i))
            .map(|(_, p)| *p)
    }

    /// Where to look next when no enemy is known: see [`Memory::hunt_point_apart`].
    pub fn hunt_point(&self, world: &World, me: PlayerId, from: Vec2) -> Option<Vec2> {
        self.hunt_point_apart(world, me, from, &[])
    }

    /// Where a search party at `from` looks next when no enemy is known, other parties
    /// heading for `taken`: a point of a lattice over the map, on ground reachable from the
    /// party and out of sight now. Points not seen for two minutes (or never) come first, the
    /// nearest of those, so a party sweeps what is around it instead of crossing the map to
    /// the single longest-unseen point; once all were seen lately, the longest unseen. A point
    /// at least [`HUNT_PARTY_APART`] from every taken one comes first, so parties fan out.
    /// None with nowhere to look (or before the first observation).
    pub fn hunt_point_apart(&self, world: &World, me: PlayerId, from: Vec2, taken: &[Vec2]) -> Option<Vec2> {
        let ground = world.ground_at(from)?;
        let open: Vec<(usize, Vec2)> = self
            .lattice
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, p)| world.ground_at(*p) == Some(ground) && !world.visible_to(me, *p))
            .collect();
        let key = |&(i, p): &(usize, Vec2)| {
            let seen = self.swept.get(i).copied().unwrap_or(0);
            let fresh = seen != 0 && self.now.saturating_sub(seen) < HUNT_FRESH_FRAMES;
            // Stale points by distance alone; fresh ones oldest first.
            (fresh, if fresh { seen } else { 0 }, (p - from).length_squared(), i)
        };
        let apart = Fixed::from_int(HUNT_PARTY_APART);
        let far_from_taken = |p: &Vec2| taken.iter().all(|t| (*t - *p).length_squared() >= apart * apart);
        open.iter()
            .filter(|(_, p)| far_from_taken(p))
            .min_by_key(|c| key(c))
            .or_else(|| open.iter().min_by_key(|c| key(c)))
            .map(|&(_, p)| p)
    }

    /// Counts the lattice point nearest `p` as looked at now: a search party that could not
    /// reach it in time gives it up instead of trying for ever.
    pub fn give_up_hunt_point(&mut self, p: Vec2) {
        let nearest = self.lattice.iter().enumerate().min_by_key(|(i, q)| ((**q - p).length_squared(), *i));
        if let Some((i, _)) = nearest
            && let Some(s) = self.swept.get_mut(i)
        {
            *s = self.now;
        }
    }
}

/// The points an AI sweeps when hunting: every [`HUNT_SPACING`] world units over the map, on
/// open ground (structures aside, so the lattice never changes during a game), row by row.
fn hunt_lattice(world: &World) -> Vec<Vec2> {
    let size = world.terrain().world_size();
    let step = Fixed::from_int(HUNT_SPACING);
    let half = step.div_int(2);
    let (nx, ny) = ((size.x / step).floor_int().max(1), (size.y / step).floor_int().max(1));
    (0..ny)
        .flat_map(|j| (0..nx).map(move |i| Vec2::new(step.mul_int(i) + half, step.mul_int(j) + half)))
        .filter(|p| !world.terrain().terrain_blocked(world.terrain().cell_of(*p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::test_support;

    #[test]
    fn an_enemy_out_of_sight_is_not_known_and_one_in_sight_is() {
        // Player 0's post at (15, 15), player 1's at (625, 625); test units see 60 units.
        let mut w = test_support::world(64, vec![(TemplateId(0), 1, Vec2::from_int(300, 300))]);
        let mut m = Memory::default();
        m.observe(&w, PlayerId(0));
        assert_eq!(m.units().count(), 0, "the enemy unit stands in the dark");
        assert_eq!(m.structures().count(), 0);
        // Player 0's own unit comes close enough to see it.
        let mine = crate::sim::object::Object::new(
            TemplateId(0),
            PlayerId(0),
            w.rules().template(TemplateId(0)),
            Vec2::from_int(260, 300),
            crate::sim::angle::Angle::ZERO,
        );
        w.objects.spawn(mine);
        w.objects.flush();
        w.tick(&[]);
        m.observe(&w, PlayerId(0));
        let seen: Vec<_> = m.units().map(|s| s.owner).collect();
        assert_eq!(seen, vec![PlayerId(1)]);
        // The enemy base's start is unscouted, its own is not offered.
        let home = Vec2::from_int(15, 15);
        assert_eq!(m.unscouted_start(&w, home, home), Some(Vec2::from_int(625, 625)));
    }

    #[test]
    fn search_parties_sweep_near_points_first_fan_out_and_give_up_on_one() {
        // A 640-unit field: the hunting lattice is every 160 units from 80 to 560.
        let mut w = test_support::world(64, vec![]);
        for _ in 0..3 {
            w.tick(&[]);
        }
        let mut m = Memory::default();
        m.observe(&w, PlayerId(0));
        let me = PlayerId(0);
        let far = Vec2::from_int(560, 560);
        // Nothing seen there yet: a party looks at the point it stands on first, not at the
        // far corner, although none of them has been seen.
        assert_eq!(m.hunt_point(&w, me, far), Some(far));
        // A second party, with the first heading there, takes the nearest point at least 480
        // units away (two tie at 480; the first in lattice order).
        assert_eq!(m.hunt_point_apart(&w, me, far, &[far]), Some(Vec2::from_int(560, 80)));
        // A point given up counts as looked at: the next nearest comes first.
        m.give_up_hunt_point(far);
        assert_eq!(m.hunt_point(&w, me, far), Some(Vec2::from_int(560, 400)));
        // Two minutes on, the point given up is stale again and, nearest, comes first: ahead of
        // points never seen (the army no longer crosses the map for the longest-unseen one).
        m.now += HUNT_FRESH_FRAMES;
        assert_eq!(m.hunt_point(&w, me, far), Some(far));
    }
}
