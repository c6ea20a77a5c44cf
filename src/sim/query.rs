//! The game's questions, answered once: may this player buy that, may this factory queue it,
//! does this structure fit there. Command execution (`apply.rs`), the AI and the client's
//! control bar all ask here, and get the very [`RejectReason`] the command would get.
//!
//! Must not: change the world (every query takes `&self`).

use super::command::{Blocker, Point, RejectReason};
use super::fixed::Fixed;
use super::ids::{ObjectId, PlayerId, TemplateId};
use super::production;
use super::terrain::Cell;
use super::vector::Vec2;
use super::world::World;

impl World {
    /// `Ok` if `player` has a finished structure of each of `template`'s prerequisites.
    pub fn prerequisites_met(&self, player: PlayerId, template: TemplateId) -> Result<(), RejectReason> {
        let t = self.rules.templates.get(template.0 as usize).ok_or(RejectReason::UnknownTemplate(template))?;
        for &need in &t.prerequisites {
            let has = self.objects.owned_of(player, need).any(|o| o.is_complete());
            if !has {
                return Err(RejectReason::MissingPrerequisite(need));
            }
        }
        Ok(())
    }

    /// The price if `player` may buy `template` now: its prerequisites stand finished and the
    /// money is there.
    pub fn can_purchase(&self, player: PlayerId, template: TemplateId) -> Result<i64, RejectReason> {
        self.prerequisites_met(player, template)?;
        let cost = self.rules.template(template).cost;
        let money = self.players.get(player.index()).ok_or(RejectReason::NoSuchPlayer)?.money;
        if money < cost {
            return Err(RejectReason::NotEnoughMoney { cost, money });
        }
        Ok(cost)
    }

    /// What selling `id` would pay `player`: the faction's share of its price plus everything
    /// its queue holds and the research under way; refused for anything but the player's own finished structure.
    pub fn can_sell(&self, player: PlayerId, id: ObjectId) -> Result<i64, RejectReason> {
        self.own_complete_structure(player, id)?;
        // Already sold (or falling) this frame.
        if self.objects.is_leaving(id) {
            return Err(RejectReason::UnknownObject(id));
        }
        let o = self.objects.get(id).ok_or(RejectReason::UnknownObject(id))?;
        let t = self.rules.template(o.template);
        if t.kind != super::rules::ObjectKind::Structure {
            return Err(RejectReason::InvalidTarget(id));
        }
        let faction = self.players.get(player.index()).map_or(0, |p| p.faction);
        let share = self.rules.factions.get(faction as usize).map_or(50, |f| f.sell_refund) as i64;
        let queued: i64 = self.factories.queue(id).iter().map(|j| self.rules.template(j.template).cost).sum();
        Ok(t.cost * share / 100 + queued + self.research_refund(id))
    }

    /// `Ok` if `id` is `player`'s own finished structure.
    pub fn own_complete_structure(&self, player: PlayerId, id: ObjectId) -> Result<(), RejectReason> {
        let o = self.objects.get(id).ok_or(RejectReason::UnknownObject(id))?;
        if o.owner != player {
            return Err(RejectReason::NotOwner(id));
        }
        if !o.kind.blocks_ground() {
            return Err(RejectReason::InvalidTarget(id));
        }
        if !o.is_complete() {
            return Err(RejectReason::NotReady(id));
        }
        Ok(())
    }

    /// The price if `player` may queue `template` at `factory` now, as `Produce` would: the
    /// factory is theirs and finished, it makes that unit, its queue has room, and the unit can
    /// be bought.
    pub fn can_produce(&self, player: PlayerId, factory: ObjectId, template: TemplateId) -> Result<i64, RejectReason> {
        self.own_complete_structure(player, factory)?;
        let f = self.objects.get(factory).ok_or(RejectReason::UnknownObject(factory))?;
        let makes = self.rules.template(f.template).builds.contains(&template)
            && self.rules.templates.get(template.0 as usize).is_some_and(|t| t.is_mobile());
        if !makes {
            return Err(RejectReason::CannotBuild(factory, template));
        }
        if self.factories.queue(factory).len() >= production::MAX_QUEUE {
            return Err(RejectReason::QueueFull(factory));
        }
        self.can_purchase(player, template)
    }

    /// The price if `builder` (of `player`) may raise `template` now, wherever it fits: the
    /// builder is theirs and mobile, it builds that structure, and the structure can be bought.
    pub fn can_build(&self, player: PlayerId, builder: ObjectId, template: TemplateId) -> Result<i64, RejectReason> {
        let b = self.objects.get(builder).ok_or(RejectReason::UnknownObject(builder))?;
        if b.owner != player {
            return Err(RejectReason::NotOwner(builder));
        }
        let t = self.rules.templates.get(template.0 as usize).ok_or(RejectReason::UnknownTemplate(template))?;
        let bt = self.rules.template(b.template);
        if !bt.is_mobile() || !bt.builds.contains(&template) || !t.kind.blocks_ground() {
            return Err(RejectReason::CannotBuild(builder, template));
        }
        self.can_purchase(player, template)
    }

    /// Where a structure of `footprint` placed at `p` stands: the centre of the cells it covers.
    /// Along a side of odd length that is the centre of the cell under `p`; along an even one
    /// the cell corner nearest `p` (so the rule is the same from every side of the map: a
    /// base laid out in one corner and turned into another snaps alike).
    pub fn snap_structure(&self, p: Vec2, footprint: (u8, u8)) -> Vec2 {
        let size = self.terrain.cell_size();
        let half = size.div_int(2);
        let axis = |v: Fixed, n: u8| {
            if n % 2 == 1 {
                size.mul_int((v / size).floor_int()) + half
            } else {
                size.mul_int(((v + half) / size).floor_int())
            }
        };
        Vec2::new(axis(p.x, footprint.0), axis(p.y, footprint.1))
    }

    /// Where `template` would stand if placed at `at`, if it fits there: the point is on the
    /// map, every cell of its footprint is passable, and no unit but `builder` stands on it.
    /// Exactly what `Build` checks of the place.
    pub fn placement(&self, template: TemplateId, at: Point, builder: Option<ObjectId>) -> Result<Vec2, RejectReason> {
        let t = self.rules.templates.get(template.0 as usize).ok_or(RejectReason::UnknownTemplate(template))?;
        let centre = self.snap_structure(self.point_on_map(at)?, t.footprint);
        let cells = || self.terrain.footprint(centre, t.footprint);
        if cells().any(|c| self.terrain.terrain_blocked(c)) {
            return Err(RejectReason::BadPlacement(at, Blocker::Ground));
        }
        if cells().any(|c| !self.terrain.passable(c)) {
            return Err(RejectReason::BadPlacement(at, Blocker::Structure));
        }
        let size = self.terrain.cell_size();
        let (half_w, half_h) =
            (size.mul_int(t.footprint.0 as i64).div_int(2), size.mul_int(t.footprint.1 as i64).div_int(2));
        let standing = self.objects.iter().any(|o| {
            let r = self.rules.template(o.template).radius;
            !o.kind.blocks_ground()
                && Some(o.id) != builder
                && (o.pos.x - centre.x).abs() < half_w + r
                && (o.pos.y - centre.y).abs() < half_h + r
        });
        if standing {
            return Err(RejectReason::BadPlacement(at, Blocker::Unit));
        }
        Ok(centre)
    }

    /// Where a unit at `from` stands to work on a structure of `footprint` centred at `centre`:
    /// the centre of the open cell bordering the footprint that it can walk to, nearest to it
    /// (ties: lowest row, then column); none if no such cell is in its region of the ground.
    pub fn approach(&self, centre: Vec2, footprint: (u8, u8), from: Vec2) -> Option<Vec2> {
        let terrain = &self.terrain;
        let regions = self.pathfinder.regions();
        let home = terrain.nearest_passable(terrain.cell_of(from), 4)?;
        let region = regions.of(terrain, home);
        let cells: Vec<Cell> = terrain.footprint(centre, footprint).collect();
        let (x0, y0) = (cells.iter().map(|c| c.x).min()? - 1, cells.iter().map(|c| c.y).min()? - 1);
        let (x1, y1) = (cells.iter().map(|c| c.x).max()? + 1, cells.iter().map(|c| c.y).max()? + 1);
        let border = (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| Cell { x, y }));
        border
            .filter(|c| c.x == x0 || c.x == x1 || c.y == y0 || c.y == y1)
            .filter(|&c| terrain.passable(c) && regions.of(terrain, c) == region)
            .map(|c| terrain.center(c))
            .min_by_key(|p| ((*p - from).length_squared(), p.y, p.x))
    }

    /// True if a ground unit at `a` could walk to `b` (both on the same connected ground, as of
    /// the last frame). Map knowledge every player has: no unit or vision is consulted.
    pub fn same_ground(&self, a: Vec2, b: Vec2) -> bool {
        self.ground_at(a).is_some_and(|x| self.ground_at(b) == Some(x))
    }

    /// The connected ground a ground unit at `p` stands on (the nearest open cell's, as of the
    /// last frame), if any: two points with the same answer are on the same ground. For a
    /// question asked about many points and one place, take that place's answer once.
    pub fn ground_at(&self, p: Vec2) -> Option<u32> {
        let terrain = &self.terrain;
        let region =
            terrain.nearest_passable(terrain.cell_of(p), 4).map(|c| self.pathfinder.regions().of(terrain, c))?;
        (region != super::regions::NO_REGION).then_some(region)
    }

    /// `p` as a point on the map, or why not.
    pub fn point_on_map(&self, p: Point) -> Result<Vec2, RejectReason> {
        let v = p.to_vec2();
        if self.terrain.contains(v) { Ok(v) } else { Err(RejectReason::OutsideMap(p)) }
    }
}
