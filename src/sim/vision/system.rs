//! The vision system: each frame, brings every team's grid up to date with the objects as they
//! stand, and answers the rules' questions about what a player can see.
//!
//! Most objects keep their stamp from frame to frame (the same living object in the same vision
//! cell, with the same team and sight); only those that crossed a cell edge, changed their sight
//! or left cost work. Must not: change objects.

use super::{Sight, Stamp, Vision};
use crate::sim::fixed::Fixed;
use crate::sim::ids::PlayerId;
use crate::sim::object::Object;
use crate::sim::rules::Stat;
use crate::sim::vector::Vec2;
use crate::sim::world::World;

impl Vision {
    /// The disc `o` should have stamped now, if any. What `had` (its stamp) says still holds
    /// while the object keeps its sight and its cell: most frames need no division.
    fn wanted(&self, o: &Object, team: Option<u8>, sight: Fixed, had: Option<&Stamp>) -> Option<Stamp> {
        let team = team?;
        if sight <= Fixed::ZERO || o.health <= 0 {
            return None;
        }
        let radius_sq = match had {
            Some(h) if h.sight == sight => h.radius_sq,
            _ => {
                let r = sight / self.size;
                (r * r).floor_int().max(0)
            }
        };
        let cell = match had {
            Some(h) if self.holds(h.cell, o.pos) => h.cell,
            _ => self.cell_of(o.pos),
        };
        Some(Stamp { id: o.id, team, cell, radius_sq, sight })
    }

    /// True if `p` lies in vision cell `cell` (as [`Vision::cell_of`] would say).
    fn holds(&self, cell: (i32, i32), p: Vec2) -> bool {
        let side = self.size.raw();
        // Within `side` past the cell's corner along both axes: one unsigned test an axis.
        let dx = p.x.raw().wrapping_sub(cell.0 as i64 * side) as u64;
        let dy = p.y.raw().wrapping_sub(cell.1 as i64 * side) as u64;
        side > 0 && dx < side as u64 && dy < side as u64
    }
}

/// Brings every team's grid up to date with the objects as they stand (after the frame's
/// movement and removals). Objects of neutral or defeated players see nothing.
pub(crate) fn update(world: &mut World) {
    let mut vision = std::mem::take(&mut world.vision);
    let slots = world.objects.slot_count();
    if vision.stamps.len() < slots {
        vision.stamps.resize(slots, None);
        vision.stamped_cells.resize(slots, None);
    }
    // Each player's sight upgrades, looked up once a frame.
    let sights = world.upgrade_table(Stat::Sight);
    let sight = |o: &Object| sights.value(o.owner, o.kind, world.rules.template(o.template).vision);
    let teams: Vec<Option<u8>> = world.players.iter().map(|p| (!p.defeated).then_some(p.team)).collect();
    // Every stamp matched its object's team and sight after the last update; unless what
    // those come from changed since, they still do.
    let same_inputs = vision.inputs.as_ref().is_some_and(|(t, s)| *t == teams && *s == sights);
    // And when no object came or went either, an object without a stamp has none to make (no
    // team or no sight, as before), and one with a stamp is the object that made it.
    let census = world.objects.census();
    let mut look = std::mem::take(&mut vision.look);
    look.clear();
    if same_inputs && vision.census == Some(census) {
        // Only a stamped object that left its cell can want another stamp: one tight walk
        // (the stamps reach at least as far as the slots). Unless some health may have fallen
        // to zero, every live object has health, and the positions kept beside the objects
        // say all: the objects themselves are not read.
        if world.objects.may_have_fallen() {
            for (slot, (cell, o)) in vision.stamped_cells.iter().zip(world.objects.slots()).enumerate() {
                if let &Some(cell) = cell
                    && !o.is_some_and(|o| o.health > 0 && vision.holds(cell, o.pos))
                {
                    look.push(slot);
                }
            }
        } else {
            for (slot, (cell, pos)) in vision.stamped_cells.iter().zip(world.objects.positions()).enumerate() {
                if let &Some(cell) = cell
                    && !pos.is_some_and(|p| vision.holds(cell, p))
                {
                    look.push(slot);
                }
            }
        }
        look.extend((slots..vision.stamps.len()).filter(|&slot| vision.stamps[slot].is_some()));
    } else {
        look.extend(0..vision.stamps.len());
    }
    for &slot in &look {
        let o = world.objects.by_slot(slot);
        let had = &vision.stamps[slot];
        if o.is_none() && had.is_none() {
            continue; // a free slot
        }
        let team = |o: &Object| teams.get(o.owner.index()).copied().flatten();
        // Most objects keep their stamp: the same living object in the same cell, with the same
        // team and sight (a stamp is made only with a sight above zero). Checked cheapest first.
        if let (Some(o), Some(h)) = (o, had)
            && h.id == o.id
            && o.health > 0
            && vision.holds(h.cell, o.pos)
            && (same_inputs || (team(o) == Some(h.team) && sight(o) == h.sight))
        {
            continue;
        }
        let wanted = o.and_then(|o| vision.wanted(o, team(o), sight(o), had.as_ref()));
        if *had == wanted {
            continue;
        }
        match (*had, wanted) {
            (Some(old), Some(new)) if old.team == new.team && old.radius_sq == new.radius_sq => vision.shift(old, new),
            (had, wanted) => {
                if let Some(old) = had {
                    vision.apply(old, false);
                }
                if let Some(new) = wanted {
                    vision.apply(new, true);
                }
            }
        }
        vision.stamps[slot] = wanted;
        vision.stamped_cells[slot] = wanted.map(|s| s.cell);
    }
    vision.look = look;
    vision.inputs = Some((teams, sights));
    vision.census = Some(census);
    world.vision = vision;
}

impl World {
    /// What `player`'s team knows of the ground at `p`.
    pub fn sight_at(&self, player: PlayerId, p: Vec2) -> Sight {
        match self.players.get(player.index()) {
            Some(me) => self.vision.sight_at(me.team, p),
            None => Sight::Unknown,
        }
    }

    /// True if `player`'s team sees the point `p` now.
    pub fn visible_to(&self, player: PlayerId, p: Vec2) -> bool {
        self.sight_at(player, p) == Sight::Visible
    }

    /// True if `player` may see object `o` now: its own team's objects always, anything else
    /// while its team has the ground under it in sight.
    pub fn can_see(&self, player: PlayerId, o: &Object) -> bool {
        let team_of = |p: PlayerId| self.players.get(p.index()).map(|p| p.team);
        (team_of(o.owner).is_some() && team_of(o.owner) == team_of(player)) || self.visible_to(player, o.pos)
    }

    /// The vision grids (for the client's shroud and the radar).
    pub fn vision(&self) -> &Vision {
        &self.vision
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::command::{Command, Point, StampedCommand};
    use crate::sim::ids::{CommandId, TemplateId};
    use crate::sim::terrain::Terrain;
    use crate::sim::test_support;

    proptest::proptest! {
        /// The test that lets a stamp keep its cell agrees with working the cell out, on and
        /// off the grid, at cell edges and between them.
        #[test]
        fn a_point_is_held_by_exactly_its_own_cell(
            x in -3_000_000_000i64..3_000_000_000,
            y in -3_000_000_000i64..3_000_000_000,
            dx in -2_000_000i64..2_000_000,
            dy in -2_000_000i64..2_000_000,
        ) {
            let terrain = Terrain::open(64, 64, Fixed::from_int(10), Vec::new());
            let vision = Vision::new(&terrain, 1);
            let p = Vec2::new(Fixed::from_raw(x), Fixed::from_raw(y));
            let q = Vec2::new(Fixed::from_raw(x + dx), Fixed::from_raw(y + dy));
            proptest::prop_assert!(vision.holds(vision.cell_of(p), p));
            proptest::prop_assert_eq!(vision.holds(vision.cell_of(q), p), vision.cell_of(q) == vision.cell_of(p));
        }
    }

    fn order(w: &World, id: u32, command: Command) -> StampedCommand {
        StampedCommand { frame: w.frame(), player: PlayerId(0), id: CommandId(id), command }
    }

    #[test]
    fn sight_follows_a_unit_and_leaves_explored_ground_behind() {
        // test_support's unit sees 60 world units: three vision cells of 20. Player 0's post
        // stands at (15, 15), player 1's at the far corner.
        let mut w = test_support::world(64, vec![(TemplateId(0), 0, Vec2::from_int(200, 200))]);
        let (me, enemy) = (PlayerId(0), PlayerId(1));
        let unit = w.objects().find(|o| o.template == TemplateId(0)).unwrap().id;
        assert!(w.visible_to(me, Vec2::from_int(250, 200)), "within sight from frame 0");
        assert!(!w.visible_to(me, Vec2::from_int(300, 200)), "beyond sight");
        assert!(!w.visible_to(enemy, Vec2::from_int(200, 200)), "the other team sees nothing there");
        assert!(w.visible_to(enemy, Vec2::from_int(620, 620)), "but around its own post");
        let explored = w.vision().explored_count(0);

        let go = [
            order(&w, 0, Command::Select { objects: vec![unit], add: false }),
            order(&w, 1, Command::Move { to: Point { x: 400, y: 200 } }),
        ];
        w.tick(&go);
        for _ in 0..400 {
            w.tick(&[]);
        }
        assert_eq!(w.object(unit).unwrap().pos, Vec2::from_int(400, 200));
        assert!(w.visible_to(me, Vec2::from_int(440, 200)));
        assert_eq!(w.sight_at(me, Vec2::from_int(200, 200)), Sight::Explored, "left behind, remembered");
        assert_eq!(w.sight_at(me, Vec2::from_int(200, 400)), Sight::Unknown, "never seen");
        assert!(w.vision().explored_count(0) > explored);
        let enemy_post = w.objects().find(|o| o.owner == enemy).unwrap();
        assert!(!w.can_see(me, enemy_post), "the enemy's post is out of sight");
        assert!(w.can_see(enemy, enemy_post), "a team always sees its own");
    }

    /// A sight upgrade landing, then its owner's defeat, change what a unit standing still
    /// sees, on the frame they happen: what the stamps were worked out from is checked again
    /// when it changes.
    #[test]
    fn a_sight_upgrade_and_a_defeat_change_what_a_standing_unit_sees() {
        use crate::sim::rules::{Effect, Stat, UpgradeTemplate};
        let mut r = (*test_support::rules()).clone();
        let effect = Effect { kinds: u8::MAX, stat: Stat::Sight, percent: 200 };
        r.upgrades = vec![UpgradeTemplate {
            name: "Optics".into(),
            faction: 0,
            cost: 0,
            research_frames: 1,
            effects: vec![effect],
        }];
        let at = Vec2::from_int(300, 300);
        let mut w = test_support::world_with(std::sync::Arc::new(r), 64, vec![(TemplateId(0), 0, at)]);
        // Sight 60: a point 90 away is out of sight until the sight doubles.
        let far = Vec2::from_int(390, 300);
        w.tick(&[]);
        assert_eq!(w.sight_at(PlayerId(0), far), Sight::Unknown);
        w.players[0].upgrades = 1;
        w.tick(&[]);
        assert_eq!(w.sight_at(PlayerId(0), far), Sight::Visible);
        w.players[0].defeated = true;
        w.tick(&[]);
        assert_eq!(w.sight_at(PlayerId(0), at), Sight::Explored, "a defeated player sees nothing");
        assert_eq!(w.sight_at(PlayerId(0), far), Sight::Explored);
    }

    /// While no object comes or goes and the players' teams and sights stand, the update
    /// looks only at the stamped objects' cells: a crowd on the march, units falling and
    /// arriving in it, sees exactly what it sees when every object is checked every frame.
    #[test]
    fn stamps_kept_between_frames_see_as_stamps_checked_afresh() {
        let still = test_support::march_twice(
            300,
            |fresh| fresh.vision.census = None,
            |frame, kept, fresh| assert_eq!(kept.vision.teams, fresh.vision.teams, "frame {frame}"),
        );
        assert!((200..300).contains(&still), "no object came or went on {still} of 300 frames");
    }

    #[test]
    fn a_destroyed_unit_stops_seeing() {
        let mut w = test_support::world(64, vec![(TemplateId(0), 0, Vec2::from_int(300, 300))]);
        let unit = w.objects().find(|o| o.template == TemplateId(0)).unwrap().id;
        assert!(w.visible_to(PlayerId(0), Vec2::from_int(300, 300)));
        w.objects.get_mut(unit).unwrap().set_health(0);
        w.tick(&[]);
        assert!(w.object(unit).is_none());
        assert_eq!(w.sight_at(PlayerId(0), Vec2::from_int(300, 300)), Sight::Explored);
    }
}
