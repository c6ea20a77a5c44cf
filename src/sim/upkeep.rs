//! Upkeep of finished structures: fire, repair and the power switch.
//!
//! A structure below its faction's `burn_below` share of health burns, losing `burn_rate` of
//! its health a second until it is repaired above the line or falls. A structure its owner has
//! set repairing regains health at the faction's `repair_time` pace and costs `repair_cost`
//! (percent of its price for a full repair) as it goes; repair puts the fire out, pauses while
//! the owner cannot pay, and switches itself off at full health. A powered-down structure uses
//! no power and neither works nor shoots (production, research and combat skip an object whose
//! `powered_down` is set). Health changes every [`UPKEEP_PERIOD`] frames, in id order.
//! Must not: keep state of its own (the switches are hashed object fields), or touch units.

use super::command::RejectReason;
use super::ids::{ObjectId, PlayerId};
use super::object::Object;
use super::rules::{ObjectKind, Upkeep};
use super::world::World;

/// Frames between two steps of fire and repair.
pub const UPKEEP_PERIOD: u32 = 15;

/// Repairs and fires of this frame, if it is an upkeep frame.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn step(world: &mut World) {
    if !world.frame.0.is_multiple_of(UPKEEP_PERIOD) {
        return;
    }
    let rules = std::sync::Arc::clone(&world.rules);
    let scans = std::sync::Arc::clone(&world.scans);
    let mut structures = std::mem::take(&mut world.caches.structures);
    world.objects.keep_members(&scans.structures, &mut structures);
    for slot in structures.slots().iter().map(|&s| s as usize) {
        let Some(o) = world.objects.by_slot(slot) else { continue };
        if !o.is_complete() || o.health <= 0 {
            continue;
        }
        let t = rules.template(o.template);
        let Some(upkeep) = rules.factions.get(t.faction as usize).map(|f| f.upkeep) else { continue };
        let max = t.max_health as i64;
        let (id, owner, health, repairing) = (o.id, o.owner, o.health as i64, o.repairing);
        if repairing {
            let missing = max - health;
            if missing <= 0 {
                if let Some(mut s) = world.objects.by_slot_mut(slot) {
                    s.change(|s| s.repairing = false);
                }
                continue;
            }
            let heal = (max * UPKEEP_PERIOD as i64 / upkeep.repair_frames.max(1) as i64).clamp(1, missing);
            let cost = repair_cost(t.cost, upkeep, heal, max);
            let Some(p) = world.players.get_mut(owner.index()) else { continue };
            if p.money < cost {
                continue; // repair waits for money
            }
            p.money -= cost;
            let Some(mut s) = world.objects.by_slot_mut(slot) else { continue };
            let now = (health + heal).min(max) as i32;
            s.set_health(now);
            if now as i64 >= max {
                s.change(|s| s.repairing = false);
            }
            drop(s);
            world.events.push(super::event::GameEvent::Repaired { object: id, owner, health: now });
        } else if burning(health, max, upkeep) {
            let loss = (max * upkeep.burn_per_mille as i64 * UPKEEP_PERIOD as i64
                / (1000 * super::ids::FRAMES_PER_SECOND as i64))
                .max(1);
            if let Some(mut s) = world.objects.by_slot_mut(slot) {
                s.set_health((health - loss) as i32);
            }
        }
    }
    world.caches.structures = structures;
}

/// What healing `heal` of a structure's `max` health costs, for one of price `price`.
fn repair_cost(price: i64, upkeep: Upkeep, heal: i64, max: i64) -> i64 {
    let cost = price * upkeep.repair_cost as i64 * heal / (max.max(1) * 100);
    if price > 0 && upkeep.repair_cost > 0 { cost.max(1) } else { cost }
}

/// True when `health` of `max` is under the burning line.
fn burning(health: i64, max: i64, upkeep: Upkeep) -> bool {
    health > 0 && health * 100 < max * upkeep.burn_below as i64
}

impl World {
    /// True while a finished structure burns (below its faction's line and not being repaired).
    pub fn is_burning(&self, o: &Object) -> bool {
        if o.kind != ObjectKind::Structure || !o.is_complete() || o.repairing {
            return false;
        }
        let t = self.rules.template(o.template);
        self.rules
            .factions
            .get(t.faction as usize)
            .is_some_and(|f| burning(o.health as i64, t.max_health as i64, f.upkeep))
    }

    /// `Ok(on)` if `player` may switch repair of `structure` to `on` (the opposite of now):
    /// its own finished structure, damaged when switching on.
    pub fn can_repair(&self, player: PlayerId, structure: ObjectId) -> Result<bool, RejectReason> {
        self.own_complete_structure(player, structure)?;
        let o = self.objects.get(structure).ok_or(RejectReason::UnknownObject(structure))?;
        let on = !o.repairing;
        if on && o.health >= self.rules.template(o.template).max_health {
            return Err(RejectReason::NotDamaged(structure));
        }
        Ok(on)
    }

    /// `Ok(down)` if `player` may switch `structure` to powered down (`true`) or back on: its
    /// own finished structure that uses power.
    pub fn can_power_down(&self, player: PlayerId, structure: ObjectId) -> Result<bool, RejectReason> {
        self.own_complete_structure(player, structure)?;
        let o = self.objects.get(structure).ok_or(RejectReason::UnknownObject(structure))?;
        if self.rules.template(o.template).power >= 0 {
            return Err(RejectReason::InvalidTarget(structure));
        }
        Ok(!o.powered_down)
    }

    /// Executes `Repair`: switches repair on or off.
    pub(crate) fn toggle_repair(&mut self, player: PlayerId, structure: ObjectId) -> Result<(), RejectReason> {
        let on = self.can_repair(player, structure)?;
        if let Some(mut o) = self.objects.get_mut(structure) {
            o.change(|o| o.repairing = on);
        }
        Ok(())
    }

    /// Executes `PowerDown`: switches the structure off or back on.
    pub(crate) fn toggle_power(&mut self, player: PlayerId, structure: ObjectId) -> Result<(), RejectReason> {
        let down = self.can_power_down(player, structure)?;
        if let Some(mut o) = self.objects.get_mut(structure) {
            o.change(|o| o.powered_down = down);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::sim::command::{Command, RejectReason, StampedCommand};
    use crate::sim::event::GameEvent;
    use crate::sim::ids::{CommandId, Frame, ObjectId, PlayerId, TemplateId, WeaponId};
    use crate::sim::test_support;
    use crate::sim::vector::Vec2;
    use crate::sim::world::World;

    fn cmd(player: u8, id: u32, command: Command) -> StampedCommand {
        StampedCommand { frame: Frame(0), player: PlayerId(player), id: CommandId(id), command }
    }

    fn post_of(w: &World, player: u8) -> ObjectId {
        w.objects().find(|o| o.owner == PlayerId(player) && o.template == TemplateId(1)).map(|o| o.id).unwrap()
    }

    #[test]
    fn a_burning_structure_burns_down_unless_it_is_repaired() {
        // test_support's post: 50 health, price 100; its faction burns below 25 % losing 1 %
        // of its health a second (at least 1 a step of 15 frames), and a repair from nothing
        // takes 300 frames (2 health a step: 50 × 15 / 300 = 2.5, rounded down) at 50 % of the
        // price (2 a step: 100 × 50 % × 2 / 50).
        let mut w = test_support::world(64, vec![]);
        let post = post_of(&w, 0);
        w.objects.get_mut(post).unwrap().set_health(12);
        w.players[0].money = 1000;
        assert!(w.is_burning(w.object(post).unwrap()));
        let mut mended = w.clone();
        // Left alone it loses 1 a step: 12 steps of 15 frames.
        let mut fell_at = None;
        for _ in 0..300 {
            let report = w.tick(&[]);
            if report.events.iter().any(|e| matches!(e, GameEvent::Killed { object, .. } if *object == post)) {
                fell_at = Some(w.frame().0);
                break;
            }
        }
        assert_eq!(fell_at, Some(12 * 15 - 14), "the 12th step is on frame 165 (steps on 0, 15, …)");
        // Repaired, it climbs 2 a step to 50: 19 steps, 38 money, and the repair switches off.
        let report = mended.tick(&[cmd(0, 1, Command::Repair { structure: post })]);
        assert!(report.rejections.is_empty(), "{:?}", report.rejections);
        assert!(!mended.is_burning(mended.object(post).unwrap()), "repair puts the fire out");
        for _ in 0..400 {
            mended.tick(&[]);
        }
        let p = mended.object(post).unwrap();
        assert_eq!((p.health, p.repairing), (50, false));
        assert_eq!(mended.players[0].money, 1000 - 38);
        // At full health there is nothing to repair.
        let report = mended.tick(&[cmd(0, 2, Command::Repair { structure: post })]);
        assert_eq!(report.rejections[0].reason, RejectReason::NotDamaged(post));
    }

    #[test]
    fn repair_waits_while_its_owner_cannot_pay() {
        let mut w = test_support::world(64, vec![]);
        let post = post_of(&w, 0);
        w.objects.get_mut(post).unwrap().set_health(30);
        w.players[0].money = 3;
        w.tick(&[cmd(0, 1, Command::Repair { structure: post })]);
        for _ in 0..100 {
            w.tick(&[]);
        }
        // One step of 2 money, then 1 left: less than a step costs.
        let p = w.object(post).unwrap();
        assert_eq!((p.health, p.repairing, w.players[0].money), (32, true, 1));
    }

    #[test]
    fn a_powered_down_turret_uses_no_power_and_holds_its_fire_until_switched_back_on() {
        // The post makes 5 power; template 3, a turret, uses 2 and carries the gun.
        let mut r = (*test_support::rules()).clone();
        r.templates[1].power = 5;
        let turret = crate::sim::rules::ObjectTemplate {
            name: "Turret".into(),
            power: -2,
            max_health: 10_000,
            weapons: vec![WeaponId(0)],
            ..r.templates[1].clone()
        };
        r.templates.push(turret);
        let mut w = test_support::world_with(
            Arc::new(r),
            64,
            vec![(TemplateId(3), 0, Vec2::from_int(300, 300)), (TemplateId(0), 1, Vec2::from_int(330, 300))],
        );
        let turret = w.objects().find(|o| o.template == TemplateId(3)).unwrap().id;
        let shots = |w: &mut World, frames: u32| -> usize {
            (0..frames)
                .flat_map(|_| w.tick(&[]).events)
                .filter(|e| matches!(e, GameEvent::WeaponFired { shooter, .. } if *shooter == turret))
                .count()
        };
        assert_eq!(w.power(PlayerId(0)).used, 2);
        w.tick(&[cmd(0, 1, Command::PowerDown { structure: turret })]);
        assert!(w.object(turret).unwrap().powered_down);
        assert_eq!(w.power(PlayerId(0)).used, 0, "switched off, it uses nothing");
        // The enemy unit shoots back and would be in its range: the turret stays silent.
        let enemy = w.objects().find(|o| o.template == TemplateId(0)).unwrap().id;
        w.objects.get_mut(enemy).unwrap().set_health(10_000);
        assert_eq!(shots(&mut w, 60), 0);
        w.tick(&[cmd(0, 2, Command::PowerDown { structure: turret })]);
        assert_eq!(w.power(PlayerId(0)).used, 2);
        assert!(shots(&mut w, 30) > 0, "back on, it fires");
        // A structure that uses no power has no switch.
        let post = post_of(&w, 0);
        let report = w.tick(&[cmd(0, 3, Command::PowerDown { structure: post })]);
        assert_eq!(report.rejections[0].reason, RejectReason::InvalidTarget(post));
    }
}
