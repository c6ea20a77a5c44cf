//! Combat: choosing targets, closing in, turning to face and firing instant-hit weapons.
//!
//! Units on `Move` ignore enemies; `Idle` units shoot what is in range; `AttackMove` and
//! `Guard` units chase what they see; `Attack` chases one target to its death, or until it
//! passes out of the team's sight. Only targets the team sees ([`super::vision`]) are chosen. Target scans run
//! for each unit every [`SCAN_INTERVAL`] frames, staggered by id, over a coarse bucket grid.
//! Must not: destroy objects here (health at or below zero is collected at the end of the tick).

use super::event::GameEvent;
use super::fixed::Fixed;
use super::ids::{ObjectId, PlayerId};
use super::movement::{facing_to, set_goal};
use super::object::Order;
use super::rules::ObjectKind;
use super::spatial::{Entry, SpatialIndex};
use super::vector::Vec2;
use super::vision::Sight;
use super::world::World;

/// Frames between target scans of one unit.
const SCAN_INTERVAL: u32 = 15;
/// Frames between path updates while chasing.
const CHASE_INTERVAL: u32 = 10;
/// Side of the buckets used for target scans: 2^7 = 128 world units.
const BUCKET_LOG2: u32 = 7;
/// Most a weapon may be off its target's bearing and still fire (angle units, about 11°).
const FIRE_CONE: i32 = 2048;

/// What is known of a target at the start of a unit's turn.
struct Seen {
    id: ObjectId,
    pos: Vec2,
    radius: Fixed,
}

/// Runs one frame of combat for every armed object, in id order.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn update(world: &mut World) {
    let rules = std::sync::Arc::clone(&world.rules);
    let frame = world.frame.0;
    let mut index = std::mem::take(&mut world.scratch.targets);
    let mut indexed = false;
    // Players already told they are under attack this frame.
    let mut told: Vec<PlayerId> = Vec::new();
    // Found once, when the first powered defence is met.
    let mut power: Option<Vec<super::power::PowerBalance>> = None;
    for slot in 0..world.objects.slot_count() {
        let Some(o) = world.objects.by_slot(slot) else { continue };
        let t = rules.template(o.template);
        let Some(&weapon) = t.weapons.first() else { continue };
        if !o.is_complete() {
            continue; // a construction site does not fight yet
        }
        if t.power < 0 {
            let owner = o.owner;
            let balances = power.get_or_insert_with(|| super::power::balances(world));
            if balances.get(owner.index()).is_some_and(|b| b.low()) {
                continue; // a powered defence without power holds its fire
            }
        }
        let Some(mut obj) = world.objects.by_slot_mut(slot) else { continue };
        obj.set_cooldown(obj.cooldown.saturating_sub(1));
        let (pos, owner, order) = (obj.pos, obj.owner, obj.order);
        if let Order::Move { .. } = order {
            obj.set_target(None);
            continue;
        }
        let engaged = obj.target;
        drop(obj);
        let team = world.players.get(owner.index()).map_or(u8::MAX, |p| p.team);
        let w = rules.weapon(weapon);
        let vision = t.vision;
        // Where this unit's interest is centred: its guard point or itself.
        let centre = match order {
            Order::Guard { anchor } => anchor,
            _ => pos,
        };
        // Keep, drop or acquire a target.
        let mut target = engaged.and_then(|tid| seen(world, team, tid));
        if let Order::Attack { target: forced } = order {
            target = seen(world, team, forced);
            if target.is_none() {
                if let Some(mut obj) = world.objects.by_slot_mut(slot) {
                    obj.set_order(Order::Idle);
                    obj.set_target(None);
                    obj.clear_nav();
                }
                continue;
            }
        } else if let Some(s) = &target {
            let leash = if order == Order::Idle { w.range + s.radius } else { vision + s.radius };
            if (s.pos - centre).length_squared() > leash * leash {
                target = None;
            }
        }
        if target.is_none()
            && !matches!(order, Order::Attack { .. })
            && (frame + slot as u32).is_multiple_of(SCAN_INTERVAL)
        {
            let reach = if order == Order::Idle { w.range.max(vision) } else { vision };
            if !indexed {
                rebuild_index(world, &mut index);
                indexed = true;
            }
            target = nearest_enemy(world, &index, owner.index(), team, centre, reach);
        }
        let Some(mut obj) = world.objects.by_slot_mut(slot) else { continue };
        obj.set_target(target.as_ref().map(|s| s.id));
        let Some(s) = target else {
            // Nothing to fight: resume the order's own movement.
            match order {
                Order::AttackMove { goal } => set_goal(&mut obj, goal, &mut world.pathfinder),
                Order::Guard { anchor } => {
                    let home = Fixed::from_int(20);
                    if (anchor - obj.pos).length_squared() > home * home && t.is_mobile() {
                        set_goal(&mut obj, anchor, &mut world.pathfinder);
                    }
                }
                _ => {}
            }
            continue;
        };
        let reach = w.range + s.radius;
        let in_range = (s.pos - pos).length_squared() <= reach * reach;
        if in_range {
            if obj.nav.is_active() {
                obj.clear_nav();
            }
            obj.set_facing(obj.facing.turn_toward(facing_to(pos, s.pos, obj.facing), t.turn_rate));
            let aligned = facing_to(pos, s.pos, obj.facing).delta(obj.facing).abs() <= FIRE_CONE
                || obj.kind == ObjectKind::Structure;
            if aligned && obj.cooldown == 0 {
                obj.set_cooldown(w.reload_frames);
                let shooter = obj.id;
                drop(obj);
                world.events.push(GameEvent::WeaponFired { shooter, weapon, from: pos, target: s.id, at: s.pos });
                if let Some(mut victim) = world.objects.get_mut(s.id) {
                    let t_victim = rules.template(victim.template);
                    let base = rules.damage_after_armor(weapon, t_victim.armor);
                    // The weapon's spread, drawn from the game's RNG (in slot order, so every
                    // machine draws the same numbers).
                    let spread = rules.weapon(weapon).spread as i32;
                    let damage = if spread > 0 && base > 0 {
                        let r = world.rng.range(-spread, spread + 1);
                        (base as i64 * (100 + r) as i64 / 100) as i32
                    } else {
                        base
                    };
                    victim.set_health(victim.health.saturating_sub(damage));
                    let victim_owner = victim.owner;
                    drop(victim);
                    world.events.push(GameEvent::Hit { target: s.id, attacker: shooter, damage, at: s.pos });
                    if !told.contains(&victim_owner) && victim_owner != PlayerId::NEUTRAL {
                        told.push(victim_owner);
                        world.events.push(GameEvent::UnderAttack { player: victim_owner, object: s.id, at: s.pos });
                    }
                }
            }
        } else if order != Order::Idle && t.is_mobile() && (frame + slot as u32).is_multiple_of(CHASE_INTERVAL) {
            set_goal(&mut obj, s.pos, &mut world.pathfinder);
        } else if order == Order::Idle {
            obj.set_target(None);
        }
    }
    world.scratch.targets = index;
}

/// A live object's position and radius, while `team` has it in sight.
fn seen(world: &World, team: u8, id: ObjectId) -> Option<Seen> {
    let o = world.objects.get(id)?;
    let visible = world.vision.sight_at(team, o.pos) == Sight::Visible;
    (o.health > 0 && visible).then(|| Seen { id, pos: o.pos, radius: world.rules.template(o.template).radius })
}

fn rebuild_index(world: &mut World, index: &mut SpatialIndex) {
    let mut entries = std::mem::take(&mut world.scratch.entries);
    entries.clear();
    for o in world.objects.iter() {
        let radius = world.rules.template(o.template).radius;
        entries.push(Entry { slot: o.id.index, pos: o.pos, radius, owner: o.owner.0 });
    }
    index.rebuild(world.terrain.world_size(), BUCKET_LOG2, &entries);
    world.scratch.entries = entries;
}

/// The nearest living enemy that `team` sees within `reach` of `centre` (ties: lowest id).
fn nearest_enemy(
    world: &World,
    index: &SpatialIndex,
    owner: usize,
    team: u8,
    centre: Vec2,
    reach: Fixed,
) -> Option<Seen> {
    let me = world.players.get(owner)?;
    let mut best: Option<(Fixed, u32)> = None;
    index.for_each_near(centre, reach, |e| {
        let Some(them) = world.players.get(e.owner as usize) else { return };
        if !me.is_enemy(them) {
            return;
        }
        let r = reach + e.radius;
        let d2 = (e.pos - centre).length_squared();
        if d2 > r * r {
            return;
        }
        let closer = best.is_none_or(|(bd, bs)| d2 < bd || (d2 == bd && e.slot < bs));
        if closer && world.vision.sight_at(team, e.pos) == Sight::Visible {
            best = Some((d2, e.slot));
        }
    });
    let (_, slot) = best?;
    let o = world.objects.by_slot(slot as usize)?;
    if o.health <= 0 {
        return None;
    }
    seen(world, team, o.id)
}

#[cfg(test)]
mod tests {
    use crate::sim::command::{Command, RejectReason, StampedCommand};
    use crate::sim::ids::{CommandId, PlayerId, TemplateId};
    use crate::sim::object::Order;
    use crate::sim::test_support;
    use crate::sim::vector::Vec2;

    fn cmd(player: u8, id: u32, command: Command) -> StampedCommand {
        StampedCommand { frame: crate::sim::ids::Frame(0), player: PlayerId(player), id: CommandId(id), command }
    }

    #[test]
    fn idle_enemies_in_range_fight_until_one_side_is_gone_and_the_other_wins() {
        // Player 0 has two units, player 1 one; each side also has its corner post.
        let mut w = test_support::world(
            40,
            vec![
                (TemplateId(0), 0, Vec2::from_int(190, 200)),
                (TemplateId(0), 0, Vec2::from_int(190, 190)),
                (TemplateId(0), 1, Vec2::from_int(215, 200)),
            ],
        );
        let enemy = w.objects().find(|o| o.owner == PlayerId(1) && o.template == TemplateId(0)).unwrap().id;
        let mut frames = 0;
        while w.object(enemy).is_some() && frames < 600 {
            w.tick(&[]);
            frames += 1;
        }
        assert!(w.object(enemy).is_none(), "the outnumbered unit must die");
        // Player 1 still has its post, in its corner out of sight: an attack on it is refused
        // until someone sees it, so the units attack-move there and then attack it.
        let post = w.objects().find(|o| o.owner == PlayerId(1)).unwrap();
        let (post, at) = (post.id, post.pos);
        let mine: Vec<_> =
            w.objects().filter(|o| o.owner == PlayerId(0) && o.template == TemplateId(0)).map(|o| o.id).collect();
        let report = w.tick(&[
            cmd(0, 0, Command::Select { objects: mine.clone(), add: false }),
            cmd(0, 1, Command::Attack { target: post }),
        ]);
        assert_eq!(
            report.rejections.iter().map(|r| r.reason.clone()).collect::<Vec<_>>(),
            vec![RejectReason::NotVisible(post)]
        );
        let to = crate::sim::command::Point { x: at.x.round_int() as i32, y: at.y.round_int() as i32 };
        w.tick(&[cmd(0, 2, Command::AttackMove { to })]);
        for _ in 0..900 {
            if w.visible_to(PlayerId(0), at) {
                break;
            }
            w.tick(&[]);
        }
        let report = w.tick(&[cmd(0, 3, Command::Attack { target: post })]);
        assert!(report.rejections.is_empty(), "seen now: {:?}", report.rejections);
        assert!(mine.iter().all(|id| w.object(*id).is_none_or(|o| o.order == Order::Attack { target: post })));
        for _ in 0..3000 {
            if w.is_over() {
                break;
            }
            w.tick(&[]);
        }
        assert!(w.is_over());
        assert_eq!(w.winner(), Some(PlayerId(0)));
        assert!(w.players()[1].defeated);
    }

    #[test]
    fn orders_for_other_players_objects_are_rejected_alike() {
        let mut w = test_support::world(20, vec![(TemplateId(0), 1, Vec2::from_int(100, 100))]);
        let theirs = w.objects().find(|o| o.owner == PlayerId(1) && o.template == TemplateId(0)).unwrap().id;
        let report = w.tick(&[cmd(0, 7, Command::Select { objects: vec![theirs], add: false })]);
        assert_eq!(report.rejections.len(), 1);
        assert_eq!(report.rejections[0].reason, RejectReason::NotOwner(theirs));
        assert_eq!(report.rejections[0].id, CommandId(7));
        assert!(w.players()[0].selection.is_empty());
        assert_eq!(w.players()[0].rejected, 1);
        // An order with nothing selected is refused too, and nothing moves.
        let before = w.state_hash().objects;
        let report = w.tick(&[cmd(0, 8, Command::Move { to: crate::sim::command::Point { x: 10, y: 10 } })]);
        assert_eq!(report.rejections[0].reason, RejectReason::NothingSelected);
        assert_eq!(w.state_hash().objects, before);
    }
}
