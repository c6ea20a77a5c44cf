//! Command validation and execution: turns one stamped command into changes to the world, or
//! into a [`RejectReason`] that every machine records alike.
//!
//! Must not: panic on any command, however malformed; partially apply a rejected command.

use super::command::{Command, MAX_SELECTION, Point, RejectReason};
use super::fixed::Fixed;
use super::ids::{ObjectId, PlayerId};
use super::movement;
use super::object::Order;
use super::vector::Vec2;
use super::world::World;

/// Spacing of formation slots, in unit radii.
const FORMATION_SPACING_RADII: i64 = 3;

impl World {
    /// Validates and executes one command for `player`.
    pub(crate) fn apply(&mut self, player: PlayerId, command: &Command) -> Result<(), RejectReason> {
        let live = self.players.get(player.index()).is_some_and(|p| !p.defeated);
        if !live {
            return Err(RejectReason::NoSuchPlayer);
        }
        match command {
            Command::Select { objects, add } => self.select(player, objects, *add),
            Command::Move { to } => {
                let goal = self.point_on_map(*to)?;
                self.order_formation(player, goal, |goal| Order::Move { goal })
            }
            Command::AttackMove { to } => {
                let goal = self.point_on_map(*to)?;
                self.order_formation(player, goal, |goal| Order::AttackMove { goal })
            }
            Command::Attack { target } => self.attack(player, *target),
            Command::Stop => {
                let ids = self.selected_objects(player, |_, _| true)?;
                for id in ids {
                    if let Some(mut o) = self.objects.get_mut(id) {
                        o.set_order(Order::Idle);
                        o.set_target(None);
                        o.clear_nav();
                    }
                }
                Ok(())
            }
            Command::Guard { at } => {
                let anchor = at.map(|p| self.point_on_map(p)).transpose()?;
                let ids = self.selected_objects(player, |w, id| w.is_mobile(id) || w.is_armed(id))?;
                for id in ids {
                    if let Some(mut o) = self.objects.get_mut(id) {
                        let anchor = anchor.unwrap_or(o.pos);
                        o.set_order(Order::Guard { anchor });
                        o.set_target(None);
                    }
                }
                Ok(())
            }
        }
    }

    fn point_on_map(&self, p: Point) -> Result<Vec2, RejectReason> {
        let v = p.to_vec2();
        if self.terrain.contains(v) { Ok(v) } else { Err(RejectReason::OutsideMap(p)) }
    }

    fn select(&mut self, player: PlayerId, objects: &[ObjectId], add: bool) -> Result<(), RejectReason> {
        // Objects that died while the command was in flight are dropped quietly; naming only
        // the dead, or anything of another player's, is refused.
        let mut live = Vec::with_capacity(objects.len());
        for &id in objects {
            match self.objects.get(id) {
                None => {}
                Some(o) if o.owner != player => return Err(RejectReason::NotOwner(id)),
                Some(_) => live.push(id),
            }
        }
        if let (true, Some(&first)) = (live.is_empty(), objects.first()) {
            return Err(RejectReason::UnknownObject(first));
        }
        let p = &mut self.players[player.index()];
        let mut next = if add { p.selection.clone() } else { Vec::new() };
        next.extend_from_slice(&live);
        next.sort();
        next.dedup();
        if next.len() > MAX_SELECTION {
            return Err(RejectReason::SelectionTooLarge(next.len()));
        }
        p.selection = next;
        Ok(())
    }

    /// The player's selected objects that pass `keep`; an error if none do.
    fn selected_objects(
        &self,
        player: PlayerId,
        keep: impl Fn(&World, ObjectId) -> bool,
    ) -> Result<Vec<ObjectId>, RejectReason> {
        let ids: Vec<ObjectId> = self.players[player.index()]
            .selection
            .iter()
            .copied()
            .filter(|&id| self.objects.get(id).is_some() && keep(self, id))
            .collect();
        if ids.is_empty() { Err(RejectReason::NothingSelected) } else { Ok(ids) }
    }

    pub(crate) fn is_mobile(&self, id: ObjectId) -> bool {
        self.objects.get(id).is_some_and(|o| self.rules.template(o.template).is_mobile())
    }

    pub(crate) fn is_armed(&self, id: ObjectId) -> bool {
        self.objects.get(id).is_some_and(|o| !self.rules.template(o.template).weapons.is_empty())
    }

    /// Gives every selected mobile unit an order toward its own slot of a square formation
    /// centred on `goal`, so a group does not pile onto one point.
    fn order_formation(
        &mut self,
        player: PlayerId,
        goal: Vec2,
        make: impl Fn(Vec2) -> Order,
    ) -> Result<(), RejectReason> {
        let ids = self.selected_objects(player, |w, id| w.is_mobile(id))?;
        let n = ids.len() as i64;
        let side = (n as u64).isqrt() as i64 + i64::from((n as u64).isqrt().pow(2) < n as u64);
        let widest = ids
            .iter()
            .filter_map(|&id| self.objects.get(id))
            .map(|o| self.rules.template(o.template).radius)
            .max()
            .unwrap_or(Fixed::ONE);
        let spacing = widest.mul_int(FORMATION_SPACING_RADII);
        for (k, id) in ids.into_iter().enumerate() {
            let (col, row) = (k as i64 % side, k as i64 / side);
            let offset = Vec2::new(
                spacing.mul_int(2 * col - (side - 1)).div_int(2),
                spacing.mul_int(2 * row - (side - 1)).div_int(2),
            );
            let mut slot = goal + offset;
            if !self.terrain.passable_at(slot) {
                slot = goal;
            }
            if let Some(mut o) = self.objects.get_mut(id) {
                o.set_order(make(slot));
                o.set_target(None);
                movement::set_goal(&mut o, slot, &mut self.pathfinder);
            }
        }
        Ok(())
    }

    fn attack(&mut self, player: PlayerId, target: ObjectId) -> Result<(), RejectReason> {
        let Some(t) = self.objects.get(target) else {
            return Err(RejectReason::UnknownObject(target));
        };
        let owner = &self.players[player.index()];
        // Neutral objects (scenery, supply piles) cannot be attacked.
        let enemy = self.players.get(t.owner.index()).is_some_and(|victim| t.owner != player && owner.is_enemy(victim));
        if !enemy {
            return Err(RejectReason::InvalidTarget(target));
        }
        let ids = self.selected_objects(player, |w, id| w.is_armed(id))?;
        for id in ids {
            if let Some(mut o) = self.objects.get_mut(id) {
                o.set_order(Order::Attack { target });
                o.set_target(Some(target));
            }
        }
        Ok(())
    }
}
