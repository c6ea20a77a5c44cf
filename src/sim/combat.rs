//! Combat: choosing targets, closing in, turning to face and firing instant-hit weapons.
//!
//! Units on `Move` ignore enemies; `Idle` units shoot what is in range; `AttackMove` and
//! `Guard` units chase what they see; `Attack` chases one target to its death, or until it
//! passes out of the team's sight. Only targets the team sees ([`super::vision`]) are chosen.
//! Hits are noted for [`super::help`], which sends idle comrades to help. Target scans run for
//! each unit every [`SCAN_INTERVAL`] frames, staggered by id, through the bucket index of
//! [`super::targeting`].
//! Must not: destroy objects here (health at or below zero is collected at the end of the tick).

use super::event::GameEvent;
use super::fixed::Fixed;
use super::help::{MAX_ALERTS, call_for_help};
use super::ids::{ObjectId, PlayerId, TemplateId, WeaponId};
use super::movement::{facing_to, halt, set_goal};
use super::object::Order;
use super::projectile::Projectile;
use super::rules::{ObjectKind, ObjectTemplate, Rules, Stat, WeaponTemplate};
use super::targeting::{Seen, nearest_enemy, refresh_index, seen};
use super::vector::Vec2;
use super::world::World;

/// Combat's cache: the coarse target grids and the armed units that may answer a call for help.
#[derive(Clone, Debug, Default)]
pub(crate) struct CombatCache {
    /// Coarse grids for target scans, one per team.
    pub targets: super::targeting::TargetIndex,
    /// The armed objects that may answer a call for help this frame (see `ready`).
    pub answerers: Vec<u32>,
    /// By slot, whether it is among `answerers` (all false between frames).
    pub may_answer: Vec<bool>,
}

/// Frames between target scans of one unit.
const SCAN_INTERVAL: u32 = 15;
/// Frames between path updates while chasing.
const CHASE_INTERVAL: u32 = 10;
/// Most a weapon may be off its target's bearing and still fire (angle units, about 11°).
const FIRE_CONE: i32 = 2048;

/// Runs one frame of combat for every armed object, in id order.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn update(world: &mut World) {
    let rules = std::sync::Arc::clone(&world.rules);
    let scans = std::sync::Arc::clone(&world.scans);
    let mut pass = Pass {
        index: std::mem::take(&mut world.caches.combat.targets),
        indexed: false,
        told: Vec::new(),
        alerts: Vec::new(),
        power: None,
    };
    let mut answerers = std::mem::take(&mut world.caches.combat.answerers);
    answerers.clear();
    // One walk over the armed objects (their slots kept while none comes or goes):
    // each is looked at and, if it has anything to do, fights at once, while its object is in
    // the cache. A turn changes no other armed object's order, cooldown or target, so each is
    // judged as it stood when the frame's combat began.
    let mut armed = std::mem::take(&mut world.caches.armed);
    world.objects.keep_members(&scans.armed, &mut armed);
    for &slot in armed.slots() {
        if let Some(me) = ready(world, &rules, &mut pass, &mut answerers, slot as usize) {
            fight(world, &rules, &mut pass, &me);
        }
    }
    world.caches.armed = armed;
    // Only an idle unit answers, and none can be unless it was idle or attacking as the
    // frame's combat began: with none such, nobody is asked.
    if !pass.alerts.is_empty() && !answerers.is_empty() {
        if !pass.indexed {
            refresh_index(world, &mut pass.index);
        }
        let mut may_answer = std::mem::take(&mut world.caches.combat.may_answer);
        may_answer.resize(world.objects.slot_count(), false);
        for &slot in &answerers {
            may_answer[slot as usize] = true;
        }
        call_for_help(world, &pass.index, &pass.alerts, &may_answer);
        for &slot in &answerers {
            may_answer[slot as usize] = false;
        }
        world.caches.combat.may_answer = may_answer;
    }
    world.caches.combat.targets = pass.index;
    world.caches.combat.answerers = answerers;
}

/// What one frame of combat keeps from unit to unit.
struct Pass {
    /// The target index, brought up to date when the frame's first scan needs it.
    index: super::targeting::TargetIndex,
    /// Whether `index` is up to date this frame.
    indexed: bool,
    /// Players already told they are under attack this frame.
    told: Vec<PlayerId>,
    /// Hits this frame that call for help: (victim, attacker), first hit on each victim only.
    alerts: Vec<(ObjectId, ObjectId)>,
    /// Asked for when the first powered defence is met.
    power: Option<Vec<super::power::PowerBalance>>,
}

/// One armed object's turn, as it stood when its weapon cooled by a frame.
struct Fighter<'r> {
    slot: usize,
    id: ObjectId,
    template: TemplateId,
    t: &'r ObjectTemplate,
    weapon: WeaponId,
    w: &'r WeaponTemplate,
    pos: Vec2,
    owner: PlayerId,
    team: u8,
    order: Order,
    xp: u32,
    /// The target it had.
    engaged: Option<ObjectId>,
}

/// One armed object's turn: it keeps, drops or finds a target, and turns to fire at it, closes
/// in, or resumes its order's movement.
fn fight(world: &mut World, rules: &Rules, pass: &mut Pass, me: &Fighter<'_>) {
    // A forced target lost leaves the unit idle with none (see `aim`): nothing more changes.
    let target = aim(world, pass, me);
    let (t, w, pos, order, slot, frame) = (me.t, me.w, me.pos, me.order, me.slot, world.frame.0);
    let Some(mut obj) = world.objects.by_slot_mut(slot) else { return };
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
        return;
    };
    let reach = w.range + s.radius;
    let d2 = (s.pos - pos).length_squared();
    let in_range = d2 <= reach * reach && d2 >= w.min_range * w.min_range;
    if in_range {
        if obj.nav.is_active() {
            halt(&mut obj);
        }
        obj.set_facing(obj.facing.turn_toward(facing_to(pos, s.pos, obj.facing), t.turn_rate));
        let aligned =
            facing_to(pos, s.pos, obj.facing).delta(obj.facing).abs() <= FIRE_CONE || obj.kind == ObjectKind::Structure;
        if aligned && obj.cooldown == 0 {
            obj.set_cooldown(w.reload_frames);
            drop(obj);
            fire(world, rules, pass, me, s);
        }
    } else if order != Order::Idle && t.is_mobile() && (frame + slot as u32).is_multiple_of(CHASE_INTERVAL) {
        set_goal(&mut obj, s.pos, &mut world.pathfinder);
    } else if order == Order::Idle {
        obj.set_target(None);
    }
}

/// The armed object in `slot` ready to fight this frame, its weapon cooled by a frame, read
/// once; None for one that changes nothing this frame (nothing to cool down or let go of, and
/// on the march, or idle on a frame it does not look for a target), unfinished, switched off, a
/// powered defence without power, or on the march (which lets go of its target). One idle or
/// attacking is noted in `answerers` first (it may answer a call for help after the fights: an
/// answer wants an idle unit with no target, and the only way into `Idle` during combat is from
/// `Attack`, a forced target lost).
#[inline(always)]
fn ready<'r>(
    world: &mut World,
    rules: &'r Rules,
    pass: &mut Pass,
    answerers: &mut Vec<u32>,
    slot: usize,
) -> Option<Fighter<'r>> {
    let frame = world.frame.0;
    let o = world.objects.by_slot(slot)?;
    let (order, cooldown, engaged) = (o.order, o.cooldown, o.target);
    if matches!(order, Order::Idle | Order::Attack { .. }) {
        answerers.push(slot as u32); // an object's slot is its id's index
    }
    let still = cooldown == 0 && engaged.is_none();
    let resting = match order {
        Order::Move { .. } => true,
        Order::Idle => !(frame + slot as u32).is_multiple_of(SCAN_INTERVAL),
        _ => false,
    };
    if still && resting {
        return None;
    }
    let t = rules.template(o.template);
    let &weapon = t.weapons.first()?;
    if !o.is_complete() || o.powered_down {
        return None; // a construction site does not fight yet, a switched-off one no longer
    }
    let (id, template, pos, owner, xp) = (o.id, o.template, o.pos, o.owner, o.xp);
    if t.power < 0 {
        let balances = pass.power.get_or_insert_with(|| world.frame_power());
        if balances.get(owner.index()).is_some_and(|b| b.low()) {
            return None; // a powered defence without power holds its fire
        }
    }
    let mut obj = world.objects.by_slot_mut(slot)?;
    obj.set_cooldown(cooldown.saturating_sub(1));
    if let Order::Move { .. } = order {
        obj.set_target(None);
        return None;
    }
    drop(obj);
    let team = world.players.get(owner.index()).map_or(u8::MAX, |p| p.team);
    let w = rules.weapon(weapon);
    Some(Fighter { slot, id, template, t, weapon, w, pos, owner, team, order, xp, engaged })
}

/// The target `me` fights this frame: its forced target while seen, its current one while in
/// its leash, else (on its scan frame) the nearest enemy in reach; None is nothing to fight. A
/// forced target lost leaves the unit idle, with no target and no way to go.
#[inline(always)]
fn aim(world: &mut World, pass: &mut Pass, me: &Fighter<'_>) -> Option<Seen> {
    let (w, order, pos, slot, frame) = (me.w, me.order, me.pos, me.slot, world.frame.0);
    // Where this unit's interest is centred: its guard point or itself.
    let centre = match order {
        Order::Guard { anchor } => anchor,
        _ => pos,
    };
    if let Order::Attack { target: forced } = order {
        let target = seen(world, me.team, forced).filter(|s| w.targets.hits(s.air));
        if target.is_none()
            && let Some(mut obj) = world.objects.by_slot_mut(slot)
        {
            obj.set_order(Order::Idle);
            obj.set_target(None);
            obj.clear_nav();
        }
        return target;
    }
    let mut target = me.engaged.and_then(|tid| seen(world, me.team, tid)).filter(|s| w.targets.hits(s.air));
    if let Some(s) = &target {
        let leash = if order == Order::Idle { w.range + s.radius } else { me.t.vision + s.radius };
        let d2 = (s.pos - centre).length_squared();
        // Closer than the weapon's minimum range it cannot be fired at: let it go.
        if d2 > leash * leash || (s.pos - pos).length_squared() < w.min_range * w.min_range {
            target = None;
        }
    }
    if target.is_none() && (frame + slot as u32).is_multiple_of(SCAN_INTERVAL) {
        let reach = if order == Order::Idle { w.range.max(me.t.vision) } else { me.t.vision };
        if !pass.indexed {
            refresh_index(world, &mut pass.index);
            pass.indexed = true;
        }
        let who = (me.owner.index(), me.team, w.targets);
        target = nearest_enemy(world, &pass.index, who, centre, reach, (pos, w.min_range));
    }
    target
}

/// `me` fires at `s`: a shell on its way, or a hit at once, which calls for help and tells
/// the victim's owner (once a frame) that it is under attack.
fn fire(world: &mut World, rules: &Rules, pass: &mut Pass, me: &Fighter<'_>, s: Seen) {
    let (pos, owner, weapon, w) = (me.pos, me.owner, me.weapon, me.w);
    let (shooter, template) = (me.id, me.template);
    world.events.push(GameEvent::WeaponFired { shooter, weapon, from: pos, target: s.id, at: s.pos });
    let (rank_percent, _) = rules.rank_bonus(template, rules.rank(template, me.xp));
    let upgrade_percent = world.upgraded(owner, me.t.kind, Stat::Damage);
    let damage_percent = rank_percent * upgrade_percent / 100;
    if w.projectile_speed > Fixed::ZERO {
        // A shell flies to where the target stands now; it may have moved on.
        let frames = ((s.pos - pos).length() / w.projectile_speed).floor_int().max(0) as u32 + 1;
        let aim = s.pos;
        let shell =
            Projectile { owner, shooter, weapon, target: s.id, from: pos, aim, frames_left: frames, damage_percent };
        world.projectiles.push(shell);
    } else if let Some(victim_owner) = super::damage::strike(world, shooter, owner, weapon, s.id, damage_percent) {
        if pass.alerts.len() < MAX_ALERTS && !pass.alerts.iter().any(|&(v, _)| v == s.id) {
            pass.alerts.push((s.id, shooter));
        }
        if !pass.told.contains(&victim_owner) && victim_owner != PlayerId::NEUTRAL {
            pass.told.push(victim_owner);
            world.events.push(GameEvent::UnderAttack { player: victim_owner, object: s.id, at: s.pos });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::command::{Command, RejectReason, StampedCommand};
    use crate::sim::event::GameEvent;
    use crate::sim::fixed::Fixed;
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
    fn an_idle_unit_that_sees_a_comrade_hit_comes_to_help_and_returns() {
        // Test units: range 40, sight 60. Player 0's victim and, 45 away, its comrade (54 from
        // the attacker: out of its own range, but it sees the victim); player 1's attacker.
        let mut w = test_support::world(
            64,
            vec![
                (TemplateId(0), 0, Vec2::from_int(300, 300)),
                (TemplateId(0), 0, Vec2::from_int(300, 345)),
                (TemplateId(0), 1, Vec2::from_int(330, 300)),
            ],
        );
        let unit = |w: &crate::sim::world::World, owner: u8, y: i64| {
            w.objects()
                .find(|o| o.owner == PlayerId(owner) && o.template == TemplateId(0) && o.pos.y == Fixed::from_int(y))
                .unwrap()
                .id
        };
        let (victim, comrade, attacker) = (unit(&w, 0, 300), unit(&w, 0, 345), unit(&w, 1, 300));
        let report = w.tick(&[
            cmd(1, 0, Command::Select { objects: vec![attacker], add: false }),
            cmd(1, 1, Command::Attack { target: victim }),
        ]);
        assert!(report.rejections.is_empty(), "{:?}", report.rejections);
        assert_eq!(w.object(comrade).unwrap().order, Order::Idle);
        let mut helped = false;
        for _ in 0..60 {
            w.tick(&[]);
            if let Some(c) = w.object(comrade)
                && c.order == (Order::Guard { anchor: Vec2::from_int(300, 345) })
            {
                helped = c.target == Some(attacker);
                break;
            }
        }
        assert!(helped, "the comrade took up a guard and engaged the attacker");
        for _ in 0..600 {
            w.tick(&[]);
        }
        assert!(w.object(attacker).is_none(), "two against one");
        let c = w.object(comrade).unwrap();
        assert!((c.pos - Vec2::from_int(300, 345)).length() <= Fixed::from_int(25), "back at its place: {:?}", c.pos);
    }

    #[test]
    fn a_kill_earns_a_rank_with_more_health_and_damage() {
        // test_support's faction: rank 1 at the unit's own price destroyed, 150 % damage and
        // 120 % health. Units cost 100, have 100 health and guns of 10.
        let mut w = test_support::world(
            64,
            vec![(TemplateId(0), 0, Vec2::from_int(300, 300)), (TemplateId(0), 1, Vec2::from_int(330, 300))],
        );
        let of = |w: &crate::sim::world::World, owner: u8| {
            w.objects().find(|o| o.owner == PlayerId(owner) && o.template == TemplateId(0)).map(|o| o.id)
        };
        let (veteran, victim) = (of(&w, 0).unwrap(), of(&w, 1).unwrap());
        w.objects.get_mut(victim).unwrap().set_health(5);
        let mut promoted = Vec::new();
        let mut credited = Vec::new();
        let mut health_before = 0;
        for _ in 0..60 {
            health_before = w.object(veteran).unwrap().health;
            let report = w.tick(&[]);
            for e in &report.events {
                if let GameEvent::KillCredited { victim, by } = e {
                    credited.push((*victim, *by));
                }
            }
            promoted.extend(report.events.into_iter().filter(|e| matches!(e, GameEvent::Promoted { .. })));
            if w.object(victim).is_none() {
                break;
            }
        }
        assert!(w.object(victim).is_none());
        assert_eq!(credited, vec![(victim, PlayerId(0))], "the kill is credited once, to the shooter's owner");
        let v = w.object(veteran).unwrap();
        assert_eq!(v.xp, 100);
        assert_eq!(w.rules().rank(v.template, v.xp), 1);
        assert_eq!(promoted.len(), 1, "{promoted:?}");
        assert_eq!(v.health, health_before + 20, "a fifth of its health more");
        // Its next victim takes 15 a shot, not 10.
        let fresh = crate::sim::object::Object::new(
            TemplateId(0),
            PlayerId(1),
            w.rules().template(TemplateId(0)),
            Vec2::from_int(330, 300),
            crate::sim::angle::Angle::ZERO,
        );
        let next = w.objects.spawn(fresh);
        w.objects.flush();
        let mut hits = Vec::new();
        for _ in 0..60 {
            let report = w.tick(&[]);
            hits.extend(report.events.into_iter().filter_map(|e| match e {
                GameEvent::Hit { target, attacker, damage, .. } if target == next && attacker == veteran => {
                    Some(damage)
                }
                _ => None,
            }));
            if !hits.is_empty() {
                break;
            }
        }
        assert_eq!(hits, vec![15]);
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

    /// test_support's rules where the gun hits the ground only, plus template 3, a helicopter
    /// with a gun that hits anything, and template 4, an anti-air post whose missile hits only
    /// aircraft. Everything has plenty of health, so the fight only shows who shoots whom.
    fn air_rules() -> std::sync::Arc<crate::sim::rules::Rules> {
        use crate::sim::rules::{ObjectKind, Targets};
        let mut r = (*test_support::rules()).clone();
        r.weapons[0].targets = Targets::Ground;
        let mut any = r.weapons[0].clone();
        any.name = "Any".into();
        any.targets = Targets::Both;
        let mut missile = r.weapons[0].clone();
        missile.name = "Missile".into();
        missile.targets = Targets::Air;
        r.weapons.extend([any, missile]);
        for t in &mut r.templates {
            t.max_health = 100_000;
        }
        let heli = crate::sim::rules::ObjectTemplate {
            name: "Heli".into(),
            kind: ObjectKind::Aircraft,
            weapons: vec![crate::sim::ids::WeaponId(1)],
            ..r.templates[0].clone()
        };
        let aa = crate::sim::rules::ObjectTemplate {
            name: "AA".into(),
            weapons: vec![crate::sim::ids::WeaponId(2)],
            ..r.templates[1].clone()
        };
        r.templates.extend([heli, aa]);
        std::sync::Arc::new(r)
    }

    #[test]
    fn ground_weapons_leave_aircraft_alone_and_anti_air_leaves_the_ground_alone() {
        let mut w = test_support::world_with(
            air_rules(),
            64,
            vec![
                (TemplateId(0), 0, Vec2::from_int(300, 300)),
                (TemplateId(4), 0, Vec2::from_int(305, 330)),
                (TemplateId(3), 1, Vec2::from_int(320, 310)),
                (TemplateId(0), 1, Vec2::from_int(330, 300)),
            ],
        );
        let id = |w: &crate::sim::world::World, t: u16, owner: u8| {
            w.objects().find(|o| o.template == TemplateId(t) && o.owner == PlayerId(owner)).unwrap().id
        };
        let (tank, aa, heli, enemy_tank) = (id(&w, 0, 0), id(&w, 4, 0), id(&w, 3, 1), id(&w, 0, 1));
        let mut shots: Vec<(crate::sim::ids::ObjectId, crate::sim::ids::ObjectId)> = Vec::new();
        for _ in 0..90 {
            for e in w.tick(&[]).events {
                if let GameEvent::WeaponFired { shooter, target, .. } = e {
                    shots.push((shooter, target));
                }
            }
        }
        let at = |shooter| shots.iter().filter(move |s| s.0 == shooter).map(|s| s.1).collect::<Vec<_>>();
        assert!(!at(tank).is_empty() && at(tank).iter().all(|&t| t == enemy_tank), "{:?}", at(tank));
        assert!(!at(aa).is_empty() && at(aa).iter().all(|&t| t == heli), "{:?}", at(aa));
        assert!(!at(heli).is_empty(), "the helicopter's gun hits the ground");
        // Told to attack the helicopter, the tank refuses: nothing selected can reach it.
        let report = w.tick(&[
            cmd(0, 1, Command::Select { objects: vec![tank], add: false }),
            cmd(0, 2, Command::Attack { target: heli }),
        ]);
        assert_eq!(
            report.rejections.iter().map(|r| &r.reason).collect::<Vec<_>>(),
            vec![&RejectReason::NothingSelected]
        );
    }

    #[test]
    fn aircraft_fly_straight_over_blocked_ground_without_a_path_search() {
        // A 3×3 block stands across the straight line from the helicopter to its goal.
        let mut w = test_support::world_with(
            air_rules(),
            64,
            vec![(TemplateId(3), 0, Vec2::from_int(100, 200)), (TemplateId(2), 0, Vec2::from_int(205, 205))],
        );
        let heli = w.objects().find(|o| o.template == TemplateId(3)).unwrap().id;
        w.tick(&[
            cmd(0, 1, Command::Select { objects: vec![heli], add: false }),
            cmd(0, 2, Command::Move { to: crate::sim::command::Point { x: 320, y: 200 } }),
        ]);
        let o = w.object(heli).unwrap();
        assert_eq!((o.nav.request, o.nav.waypoints.clone()), (None, vec![Vec2::from_int(320, 200)]));
        let mut over_block = false;
        for _ in 0..400 {
            w.tick(&[]);
            let p = w.object(heli).unwrap().pos;
            over_block |= !w.terrain.passable_at(p);
            assert_eq!(p.y, Fixed::from_int(200), "a straight line: {p:?}");
        }
        assert!(over_block, "it crossed the block");
        assert_eq!(w.object(heli).unwrap().pos, Vec2::from_int(320, 200));
        assert_eq!(w.object(heli).unwrap().order, Order::Idle);
    }
}
