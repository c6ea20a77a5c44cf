//! Shells in flight: weapons with a `projectile_speed` fire a shell at the point where the
//! target stood, and it lands there a distance-to-speed number of frames later. A target that
//! moved on is missed; a blast (`area`) hurts every enemy within its radius, less toward the
//! edge.
//!
//! Shells are state: kept in firing order and hashed. Must not: home in on a target, or hurt
//! the firing team.

use super::fixed::Fixed;
use super::hash::StateHasher;
use super::ids::{ObjectId, PlayerId, WeaponId};
use super::vector::Vec2;
use super::world::World;

/// A shell lands on its target if the target stands this close to the aim point (beyond its
/// radius).
const HIT_TOLERANCE: i64 = 4;
/// Damage at a blast's edge, in percent of its centre's.
const EDGE_PERCENT: i64 = 40;

/// One shell in flight.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Projectile {
    /// The firing player.
    pub owner: PlayerId,
    /// Who fired it (it may be gone by the time it lands).
    pub shooter: ObjectId,
    /// The weapon.
    pub weapon: WeaponId,
    /// What it was fired at.
    pub target: ObjectId,
    /// Where it was fired from.
    pub from: Vec2,
    /// Where it lands.
    pub aim: Vec2,
    /// Frames until it lands.
    pub frames_left: u32,
    /// Its damage in percent (the shooter's rank when it fired).
    pub damage_percent: u32,
}

impl Projectile {
    /// Feeds it to the hasher.
    pub fn hash_into(&self, h: &mut StateHasher) {
        // Exhaustive: a new field does not compile until it is hashed here.
        let Projectile { owner, shooter, weapon, target, from, aim, frames_left, damage_percent } = self;
        h.write_words(&[
            owner.0 as u64 | (weapon.0 as u64) << 8 | (*damage_percent as u64) << 32,
            shooter.to_bits(),
            target.to_bits(),
            from.x.raw() as u64,
            from.y.raw() as u64,
            aim.x.raw() as u64,
            aim.y.raw() as u64,
            *frames_left as u64,
        ]);
    }
}

/// Moves every shell a frame on; those that arrive land, in firing order.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn update(world: &mut World) {
    if world.projectiles.is_empty() {
        return;
    }
    let mut flying = std::mem::take(&mut world.projectiles);
    let mut landed = Vec::new();
    flying.retain_mut(|p| {
        p.frames_left = p.frames_left.saturating_sub(1);
        if p.frames_left == 0 {
            landed.push(p.clone());
            false
        } else {
            true
        }
    });
    world.projectiles = flying;
    for p in landed {
        land(world, &p);
    }
}

/// A shell lands: a blast hurts every enemy in reach; a plain shell hits its target if the
/// target still stands at the aim point.
fn land(world: &mut World, p: &Projectile) {
    let rules = std::sync::Arc::clone(&world.rules);
    let w = rules.weapon(p.weapon);
    let Some(team) = world.players.get(p.owner.index()).map(|pl| pl.team) else { return };
    let enemy = |world: &World, owner: PlayerId| {
        owner != PlayerId::NEUTRAL && world.players.get(owner.index()).is_some_and(|pl| pl.team != team)
    };
    if w.area > Fixed::ZERO {
        // Every enemy within the blast, in slot order; less damage toward the edge.
        let mut struck: Vec<(ObjectId, u32)> = Vec::new();
        for o in world.objects.iter() {
            if o.health <= 0 || !enemy(world, o.owner) || !w.targets.hits(o.kind.is_air()) {
                continue;
            }
            let reach = w.area + rules.template(o.template).radius;
            let d = (o.pos - p.aim).length();
            if d <= reach {
                let falloff = 100 - (100 - EDGE_PERCENT) * (d / reach).mul_int(1000).floor_int().clamp(0, 1000) / 1000;
                struck.push((o.id, (p.damage_percent as i64 * falloff / 100) as u32));
            }
        }
        for (id, percent) in struck {
            super::damage::strike(world, p.shooter, p.owner, p.weapon, id, percent);
        }
    } else if let Some(t) = world.objects.get(p.target) {
        let reach = rules.template(t.template).radius + Fixed::from_int(HIT_TOLERANCE);
        if t.health > 0 && (t.pos - p.aim).length_squared() <= reach * reach {
            super::damage::strike(world, p.shooter, p.owner, p.weapon, p.target, p.damage_percent);
        }
    }
}

impl World {
    /// Shells in flight, in firing order (for drawing).
    pub fn projectiles(&self) -> &[Projectile] {
        &self.projectiles
    }
}
