//! Hits: one shot or blast fragment landing on an object — armour, the weapon's spread drawn
//! from the game's RNG, the `Hit` event — and the veterancy a kill earns the shooter (a new
//! rank raises its health and is announced with `Promoted`). Combat's instant weapons and
//! landing shells both strike through here.
//!
//! Must not: choose targets or destroy objects (health at or below zero is collected at the end
//! of the tick).

use super::event::GameEvent;
use super::ids::{ObjectId, PlayerId, WeaponId};
use super::rules::Stat;
use super::world::World;

/// One hit of `weapon` on `victim` at `percent` of its damage (the shooter's rank, a blast's
/// falloff): armour, the weapon's spread (drawn from the game's RNG, in the order hits happen,
/// so every machine draws the same numbers), the `Hit` event, and a kill credited to the
/// shooter. Returns the victim's owner, or none if it is gone.
pub(crate) fn strike(
    world: &mut World,
    shooter: ObjectId,
    owner: PlayerId,
    weapon: WeaponId,
    victim: ObjectId,
    percent: u32,
) -> Option<PlayerId> {
    let rules = std::sync::Arc::clone(&world.rules);
    let armor = world.objects.get(victim).map_or(100, |v| world.upgraded(v.owner, v.kind, Stat::Armor));
    let mut v = world.objects.get_mut(victim)?;
    let t_victim = rules.template(v.template);
    let base = rules.damage_after_armor(weapon, t_victim.armor);
    let base = (base as i64 * percent as i64 * armor as i64 / 10_000) as i32;
    let spread = rules.weapon(weapon).spread as i32;
    let damage = if spread > 0 && base > 0 {
        let r = world.rng.range(-spread, spread + 1);
        (base as i64 * (100 + r) as i64 / 100) as i32
    } else {
        base
    };
    let was_alive = v.health > 0;
    v.set_health(v.health.saturating_sub(damage));
    let (victim_owner, at, killed) = (v.owner, v.pos, was_alive && v.health <= 0);
    drop(v);
    world.events.push(GameEvent::Hit { target: victim, attacker: shooter, damage, at });
    if killed && victim_owner != owner && victim_owner != PlayerId::NEUTRAL {
        world.events.push(GameEvent::KillCredited { victim, by: owner });
        credit_kill(world, shooter, t_victim.cost);
    }
    Some(victim_owner)
}

/// Adds `worth` to the shooter's veterancy; a new rank raises its health by the rank's share
/// and is announced.
fn credit_kill(world: &mut World, shooter: ObjectId, worth: i64) {
    let rules = std::sync::Arc::clone(&world.rules);
    let Some(mut o) = world.objects.get_mut(shooter) else { return };
    let before = rules.rank(o.template, o.xp);
    let xp = (o.xp as i64).saturating_add(worth.max(0)).min(u32::MAX as i64) as u32;
    o.set_xp(xp);
    let after = rules.rank(o.template, xp);
    if after > before {
        let max = rules.template(o.template).max_health as i64;
        let (_, old) = rules.rank_bonus(o.template, before);
        let (_, new) = rules.rank_bonus(o.template, after);
        let gain = (max * (new as i64 - old as i64) / 100).max(0) as i32;
        o.set_health(o.health.saturating_add(gain));
        let (owner, at) = (o.owner, o.pos);
        drop(o);
        world.events.push(GameEvent::Promoted { object: shooter, owner, rank: after, at });
    }
}
