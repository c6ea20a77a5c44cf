//! Locomotion: units steer along their path, turn at their turn rate, accelerate and brake,
//! slide along blocked cells, notice when they are stuck and ask for a new path.
//!
//! A unit heading straight at a waypoint at its cruising speed, far from it, cruises: it keeps
//! that frame's step for up to [`CRUISE_FRAMES`] frames without steering (the step is part of
//! its hashed state), then steers again. Cruising ends early where the step would meet a
//! blocked cell, and never runs into the waypoint's reach or the final braking distance, so
//! the unit moves much as if it had steered, at a fraction of the cost: most moving units, most
//! frames, are cruising.
//!
//! Must not: move structures, or move any unit onto a blocked cell.

use super::angle::Angle;
use super::fixed::Fixed;
use super::ids::{Frame, ObjectId};
use super::object::{Nav, Order};
use super::object_mut::ObjectMut;
use super::pathfind::Pathfinder;
use super::rules::{ObjectKind, Stat};
use super::terrain::Terrain;
use super::vector::Vec2;
use super::world::World;

/// Movement's cache: the cruises found clear, by slot.
#[derive(Clone, Debug, Default)]
pub(crate) struct MovementCache {
    /// The cruises found clear, by slot.
    pub cleared: Vec<ClearedCruise>,
}

/// Frames without progress before a unit asks for a new path.
const STUCK_FRAMES: u32 = 45;
/// New paths a unit may ask for per goal before giving up.
const MAX_REPATHS: u32 = 3;
/// A vehicle facing further than this from its heading brakes to turn.
const BRAKE_ANGLE: i32 = 65536 / 8;
/// The most frames a unit cruises before it steers again (half a second): short enough that
/// a unit pushed aside by the crowd is soon set straight.
const CRUISE_FRAMES: i64 = 15;

impl World {
    /// `o`'s top speed after its owner's upgrades, world units a frame.
    pub fn top_speed(&self, o: &super::object::Object) -> Fixed {
        self.upgraded_value(o.owner, o.kind, Stat::Speed, self.rules.template(o.template).speed)
    }
}

/// Sets a unit's destination and queues a path request, unless it is already headed there.
/// The group's pace stays while the unit's order is a group's (a move, attack-move or guard:
/// an attack-move that stopped to fight, or chased, goes on at the group's pace); any other
/// order goes at the unit's own speed.
pub(crate) fn set_goal(obj: &mut ObjectMut, goal: Vec2, pathfinder: &mut Pathfinder) {
    if obj.nav.goal == Some(goal) {
        return;
    }
    let pace = group_pace(obj);
    if obj.kind.is_air() {
        // Aircraft fly straight: the goal is the one waypoint, no search needed.
        obj.change(|o| {
            o.nav = Nav { goal: Some(goal), waypoints: vec![goal], best_distance: Fixed::MAX, pace, ..Nav::default() };
        });
        return;
    }
    let request = pathfinder.request(obj.id, obj.pos, goal);
    obj.change(|o| {
        o.nav = Nav { goal: Some(goal), request: Some(request), best_distance: Fixed::MAX, pace, ..Nav::default() };
    });
}

/// The pace a unit keeps through a change of goal: its group's while its order is a group's.
fn group_pace(obj: &ObjectMut) -> Fixed {
    match obj.order {
        Order::Move { .. } | Order::AttackMove { .. } | Order::Guard { .. } => obj.nav.pace,
        _ => Fixed::ZERO,
    }
}

/// Stops a unit where it is (to fight), keeping its group's pace for when it goes on.
pub(crate) fn halt(obj: &mut ObjectMut) {
    let pace = group_pace(obj);
    obj.change(|o| o.nav = Nav { pace, ..Nav::default() });
}

/// Ends movement: the destination is reached, or given up.
fn arrive(obj: &mut ObjectMut) {
    // A queued leg of the group's way (Shift) goes on at the group's pace.
    if obj.queue.is_empty() {
        obj.clear_nav();
    } else {
        halt(obj);
    }
    if matches!(obj.order, Order::Move { .. } | Order::AttackMove { .. }) {
        obj.set_order(Order::Idle);
    }
}

/// Moves every unit with a destination by one frame.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn update(world: &mut World) {
    let rules = std::sync::Arc::clone(&world.rules);
    // Each player's speed upgrades, looked up once a frame.
    let speeds = world.upgrade_table(Stat::Speed);
    // Structures and props never move: their slots are passed over unread, as are units at
    // rest (no goal, no speed, no cruise), whose frame of movement would change nothing.
    let scans = std::sync::Arc::clone(&world.scans);
    let mut cleared = std::mem::take(&mut world.caches.movement.cleared);
    cleared.resize(world.objects.slot_count(), ClearedCruise::default());
    let mut movers = std::mem::take(&mut world.caches.movers);
    let World { objects, terrain, pathfinder, frame, .. } = world;
    objects.keep_members(&scans.movers, &mut movers);
    let ground = Ground { rules: &rules, speeds: &speeds, terrain, now: *frame, revision: terrain.revision() };
    objects.for_each_stirring_of_mut(&movers, |slot, mut obj| {
        let Some(known) = cleared.get_mut(slot) else { return };
        if obj.nav.cruise_until > ground.now {
            let to = obj.pos + obj.nav.cruise;
            if known.next == Some(to) && known.revision == ground.revision {
                // On the line its cruise was cleared along, with the ground as it was then.
                known.next = Some(to + obj.nav.cruise);
                obj.set_pos(to);
                return;
            }
            if can_stand(terrain, obj.kind.is_air(), to) {
                obj.set_pos(to);
                return;
            }
        }
        steer(obj, known, &ground, pathfinder);
    });
    world.caches.movement.cleared = cleared;
    world.caches.movers = movers;
}

/// What a unit's steering reads besides the unit: the rules, the frame's speed upgrades, the
/// ground, the frame and the terrain's revision.
struct Ground<'a> {
    rules: &'a super::rules::Rules,
    speeds: &'a super::research::UpgradeTable,
    terrain: &'a Terrain,
    now: Frame,
    revision: u64,
}

/// One frame of a unit that is not cruising: it turns toward its waypoint, picks a speed,
/// steps (sliding along blocked cells), may set out on a cruise, and notes its progress,
/// asking `pathfinder` for a new path when stuck.
#[inline(never)] // out of the cruise loop, which most units take
fn steer(mut obj: ObjectMut, known: &mut ClearedCruise, ground: &Ground, pathfinder: &mut Pathfinder) {
    let obj = &mut obj;
    // A cruise that ran out or met a blocked cell is over: the unit steers.
    obj.set_cruise(Vec2::ZERO, Frame::default());
    let t = ground.rules.template(obj.template);
    if obj.nav.goal.is_none() {
        if obj.speed > Fixed::ZERO {
            obj.set_speed((obj.speed - t.acceleration.mul_int(2)).max(Fixed::ZERO));
        }
        return;
    }
    // From the store's record: the path itself, on the heap, is not read.
    let Some(wp) = obj.current_waypoint() else {
        if obj.nav.request.is_none() {
            arrive(obj); // the path came back empty: nowhere to go
        }
        obj.set_speed(Fixed::ZERO);
        return;
    };
    let last = obj.nav.next as usize + 1 == obj.nav.waypoints.len();
    let to = wp - obj.pos;
    let dist = to.length();
    // Reached this waypoint?
    let reach = if last { Fixed::from_ratio(1, 4) } else { t.radius.max(obj.speed) };
    if dist <= reach.max(obj.speed) {
        if last {
            if obj.kind.is_air() || ground.terrain.passable_at(wp) {
                obj.set_pos(wp);
            }
            obj.set_speed(Fixed::ZERO);
            arrive(obj);
        } else {
            obj.advance_waypoint();
        }
        return;
    }
    // Turn toward it.
    let heading = to.angle();
    obj.set_facing(obj.facing.turn_toward(heading, t.turn_rate));
    let off = heading.delta(obj.facing).abs();
    let want = wanted_speed(obj, ground, off, last, dist);
    obj.set_speed(if obj.speed < want {
        (obj.speed + t.acceleration).min(want)
    } else {
        (obj.speed - t.acceleration.mul_int(2)).max(want)
    });
    // Step, along the facing; when nearly aligned go straight at the point so the last
    // fraction of a unit is not missed.
    let step = if off <= t.turn_rate.0 as i32 {
        // `to.clamp_length(speed)` with the length already known (`dist`): no second root.
        if dist <= obj.speed { to } else { to.with_length(dist, obj.speed) }
    } else {
        Vec2::from_angle(obj.facing).scale(obj.speed)
    };
    let from = obj.pos;
    // Straight at the point at the speed it wants: it may cruise from here.
    let steady = off == 0 && obj.speed == want && obj.speed > Fixed::ZERO;
    if !try_step(ground.terrain, obj, step) {
        obj.set_speed(Fixed::ZERO);
    }
    if steady && obj.pos == from + step {
        set_out(obj, known, ground, Leg { step, dist, reach, want, last });
    }
    note_progress(obj, dist, last, ground, pathfinder);
}

/// The speed a unit steering toward its waypoint wants: its top speed (with upgrades, at most
/// its group's pace), nothing while a vehicle turns sharply, and on the last leg no more than
/// lets it stop on the point. `off` is how far it faces off the waypoint, `dist` its distance.
fn wanted_speed(obj: &ObjectMut, ground: &Ground, off: i32, last: bool, dist: Fixed) -> Fixed {
    let t = ground.rules.template(obj.template);
    let top = ground.speeds.value(obj.owner, obj.kind, t.speed);
    let mut want = if obj.nav.pace > Fixed::ZERO { top.min(obj.nav.pace) } else { top };
    if off > BRAKE_ANGLE && obj.kind == ObjectKind::Vehicle {
        want = Fixed::ZERO;
    }
    if last && t.acceleration > Fixed::ZERO {
        // v² ≤ 2·a·d keeps the stop on the point; the root is taken only when it brakes.
        let squared = t.acceleration.mul_int(2) * dist;
        if !squared.sqrt_at_least(want) {
            want = want.min(squared.sqrt().max(t.acceleration));
        }
    }
    want
}

/// The leg a unit steadily stepped along this frame: its step, its distance to the waypoint
/// before the step, the waypoint's reach, the speed it wants, and whether it is the last.
struct Leg {
    step: Vec2,
    dist: Fixed,
    reach: Fixed,
    want: Fixed,
    last: bool,
}

/// A unit going straight at its waypoint at the speed it wants sets out on a cruise while,
/// after this step and the cruise's, the waypoint's reach (on the last leg, the braking
/// distance) stays at least a step ahead.
fn set_out(obj: &mut ObjectMut, known: &mut ClearedCruise, ground: &Ground, leg: Leg) {
    let t = ground.rules.template(obj.template);
    let Leg { step, dist, reach, want, last } = leg;
    let speed = obj.speed;
    let mut keep = reach.max(speed) + speed;
    if last && t.acceleration > Fixed::ZERO {
        keep = keep.max(want * want / t.acceleration.mul_int(2) + speed.mul_int(2));
    }
    let frames = ((dist - speed - keep).raw() / speed.raw()).min(CRUISE_FRAMES);
    if frames >= 2 {
        obj.set_cruise(step, ground.now.plus(frames as u32 + 1));
        // Where the cruise's steps land lies in the box between its first and last;
        // when the unit may stand anywhere in it, the steps need no test of their own.
        let (first, end) = (obj.pos + step, obj.pos + step.scale(Fixed::from_int(frames)));
        let clear = can_stand_between(ground.terrain, obj.kind.is_air(), first, end);
        *known = ClearedCruise { next: clear.then_some(first), revision: ground.revision };
    }
}

/// Progress bookkeeping: a unit that has not come nearer its waypoint for [`STUCK_FRAMES`]
/// asks `pathfinder` for a new path, or arrives where it is when the crowd at its goal (or
/// its repaths) say it will get no nearer.
fn note_progress(obj: &mut ObjectMut, dist: Fixed, last: bool, ground: &Ground, pathfinder: &mut Pathfinder) {
    let t = ground.rules.template(obj.template);
    if dist + Fixed::from_ratio(1, 8) < obj.nav.best_distance {
        obj.set_progress(dist, 0);
    } else {
        obj.set_progress(obj.nav.best_distance, obj.nav.stuck_frames + 1);
    }
    if obj.nav.stuck_frames > STUCK_FRAMES {
        let crowded_goal = last && dist < t.radius.mul_int(6);
        if crowded_goal || obj.nav.repaths >= MAX_REPATHS {
            arrive(obj);
        } else if let Some(goal) = obj.nav.goal {
            let id: ObjectId = obj.id;
            let request = pathfinder.request(id, obj.pos, goal);
            obj.change(|o| {
                o.nav.waypoints.clear();
                o.nav.next = 0;
                o.nav.stuck_frames = 0;
                o.nav.best_distance = Fixed::MAX;
                o.nav.repaths += 1;
                o.nav.request = Some(request);
                (o.nav.cruise, o.nav.cruise_until) = (Vec2::ZERO, Frame::default());
            });
        }
    }
}

/// What movement knows of a unit's cruise: while the unit is where `next` says, with the
/// terrain at `revision`, every step left of its cruise lands where it may stand (found once,
/// when the cruise began). A cache, never state: without it each step is tested.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClearedCruise {
    /// Where the next step of the cruise lands, if the cruise was found clear.
    next: Option<Vec2>,
    /// The terrain's revision when it was found clear.
    revision: u64,
}

/// Moves `obj` by `step`, sliding along an axis if the full step is blocked. Returns false
/// if it could not move at all.
fn try_step(terrain: &Terrain, obj: &mut ObjectMut, step: Vec2) -> bool {
    let pos = obj.pos;
    if obj.kind.is_air() {
        let to = pos + step;
        let ok = can_stand(terrain, true, to);
        if ok {
            obj.set_pos(to);
        }
        return ok;
    }
    let candidates = [pos + step, Vec2::new(pos.x + step.x, pos.y), Vec2::new(pos.x, pos.y + step.y)];
    for c in candidates {
        if c != pos && can_stand(terrain, false, c) {
            obj.set_pos(c);
            return true;
        }
    }
    false
}

/// Whether a unit may be at `p`: an aircraft anywhere over the map, a ground unit on a
/// passable cell.
fn can_stand(terrain: &Terrain, air: bool, p: Vec2) -> bool {
    if air { terrain.contains(p) } else { terrain.passable_at(p) }
}

/// Whether a unit may be anywhere in the box `a`–`b` (as [`can_stand`] at every point of it).
fn can_stand_between(terrain: &Terrain, air: bool, a: Vec2, b: Vec2) -> bool {
    if air { terrain.contains(a) && terrain.contains(b) } else { terrain.open_between(a, b) }
}

/// The facing that points from `from` to `to` (unchanged when they coincide).
pub(crate) fn facing_to(from: Vec2, to: Vec2, current: Angle) -> Angle {
    let d = to - from;
    if d == Vec2::ZERO { current } else { d.angle() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::command::{Command, Point, StampedCommand};
    use crate::sim::ids::{CommandId, PlayerId, TemplateId};
    use crate::sim::test_support;

    fn cmd(world: &World, id: u32, command: Command) -> StampedCommand {
        StampedCommand { frame: world.frame(), player: PlayerId(0), id: CommandId(id), command }
    }

    fn unit_ids(world: &World) -> Vec<ObjectId> {
        world.objects().filter(|o| o.template == TemplateId(0)).map(|o| o.id).collect()
    }

    /// A 40-cell field with one unit at `at`, ordered (and ticked once) to move to `to`.
    fn one_unit_moving(at: (i64, i64), to: (i32, i32)) -> (World, ObjectId) {
        let mut w = test_support::world(40, vec![(TemplateId(0), 0, Vec2::from_int(at.0, at.1))]);
        let id = unit_ids(&w)[0];
        let c1 = cmd(&w, 0, Command::Select { objects: vec![id], add: false });
        let c2 = cmd(&w, 1, Command::Move { to: Point { x: to.0, y: to.1 } });
        w.tick(&[c1, c2]);
        (w, id)
    }

    #[test]
    fn turning_never_exceeds_the_turn_rate_and_the_unit_arrives() {
        let (mut w, id) = one_unit_moving((100, 100), (60, 300));
        let rate = w.rules.template(TemplateId(0)).turn_rate.0 as i32;
        let mut prev = w.object(id).unwrap().facing;
        for _ in 0..600 {
            w.tick(&[]);
            let f = w.object(id).unwrap().facing;
            assert!(f.delta(prev).abs() <= rate, "turned {} > {rate}", f.delta(prev));
            prev = f;
        }
        let o = w.object(id).unwrap();
        assert_eq!(o.pos, Vec2::from_int(60, 300));
        assert_eq!(o.order, Order::Idle);
    }

    #[test]
    fn a_unit_on_a_long_straight_leg_cruises_and_still_stops_on_the_point() {
        let (mut w, id) = one_unit_moving((20, 200), (380, 200));
        let (mut cruised, mut steered) = (0, 0);
        for _ in 0..600 {
            let before = w.object(id).unwrap().pos;
            w.tick(&[]);
            let o = w.object(id).unwrap();
            if o.order == Order::Idle {
                break;
            }
            // Along the line y = 200 the whole way, never past the point.
            assert_eq!(o.pos.y, Fixed::from_int(200), "left the line at {:?}", o.pos);
            assert!(o.pos.x >= before.x && o.pos.x <= Fixed::from_int(380), "stepped from {before:?} to {:?}", o.pos);
            if o.nav.cruise_until > w.frame() { cruised += 1 } else { steered += 1 }
        }
        let o = w.object(id).unwrap();
        assert_eq!((o.pos, o.order), (Vec2::from_int(380, 200), Order::Idle));
        assert_eq!((o.nav.cruise, o.nav.cruise_until), (Vec2::ZERO, Frame::default()), "arrived without a cruise left");
        assert!(cruised > 2 * steered, "cruised {cruised} frames, steered {steered}");
    }

    #[test]
    fn a_cruise_ends_where_its_step_would_meet_a_blocked_cell() {
        let (mut w, id) = one_unit_moving((25, 205), (385, 205));
        while w.object(id).unwrap().nav.cruise_until <= w.frame() {
            w.tick(&[]);
        }
        // A wall goes up just ahead of the cruising unit, across its line.
        let x = (w.object(id).unwrap().pos.x.floor_int() / 10 + 2) * 10 + 5;
        for y in 10..30 {
            w.terrain.mark_structure(Vec2::from_int(x, y * 10 + 5), (1, 1), true);
        }
        for _ in 0..60 {
            w.tick(&[]);
            let o = w.object(id).unwrap();
            assert!(w.terrain.passable_at(o.pos), "walked into the wall at {:?}", o.pos);
        }
        let o = w.object(id).unwrap();
        assert!(o.pos.x < Fixed::from_int(x - 5), "passed the wall at x {x}: {:?}", o.pos);
        assert_eq!((o.nav.cruise, o.nav.cruise_until), (Vec2::ZERO, Frame::default()), "still cruising at the wall");
    }

    /// A crowd crosses the field while a wall goes up across part of its way: with the cache of
    /// cruises found clear, and with it emptied before every frame (each step tested), the
    /// games stay the same frame by frame, and the cache is used.
    #[test]
    fn cruises_found_clear_move_units_as_testing_each_step_would() {
        let objects: Vec<_> =
            (0..60).map(|i| (TemplateId(0), 0, Vec2::from_int(40 + (i % 10) * 9, 60 + (i / 10) * 9))).collect();
        let mut cached = test_support::world(64, objects);
        let ids = unit_ids(&cached);
        let c1 = cmd(&cached, 0, Command::Select { objects: ids, add: false });
        let c2 = cmd(&cached, 1, Command::Move { to: Point { x: 560, y: 300 } });
        let mut tested = cached.clone();
        let mut used = 0;
        for frame in 0..700 {
            if frame == 90 {
                for w in [&mut cached, &mut tested] {
                    for y in 0..40 {
                        w.terrain.mark_structure(Vec2::from_int(305, y * 10 + 5), (1, 1), true);
                    }
                }
            }
            let commands = if frame == 0 { vec![c1.clone(), c2.clone()] } else { Vec::new() };
            tested.caches.movement.cleared.clear();
            used += cached.caches.movement.cleared.iter().filter(|c| c.next.is_some()).count();
            cached.tick(&commands);
            tested.tick(&commands);
            assert_eq!(cached.state_hash().total, tested.state_hash().total, "frame {frame}");
        }
        assert!(used > 1000, "the cache was hardly used: {used}");
    }

    #[test]
    fn a_blocked_route_is_repathed() {
        let (mut w, id) = one_unit_moving((55, 200), (345, 200));
        w.tick(&[]);
        assert_eq!(w.object(id).unwrap().nav.waypoints.len(), 1, "open field: straight line");
        // Now a wall goes up across the straight route (as a structure would).
        for y in 5..35 {
            w.terrain.mark_structure(Vec2::from_int(205, y * 10 + 5), (1, 1), true);
        }
        for _ in 0..1200 {
            w.tick(&[]);
            if w.object(id).unwrap().order == Order::Idle {
                break;
            }
        }
        let o = w.object(id).unwrap();
        assert_eq!(o.order, Order::Idle);
        assert!((o.pos - Vec2::from_int(345, 200)).length() < Fixed::from_int(1), "ended at {:?}", o.pos);
        assert!(w.terrain.passable_at(o.pos));
    }

    /// Four groups sent one after another to the same point: each group's goals keep clear of
    /// the goals of the groups before it, and the crowd comes to rest without units on top of
    /// each other.
    #[test]
    fn groups_sent_to_one_point_one_after_another_come_to_rest_side_by_side() {
        let objects: Vec<_> =
            (0..200).map(|i| (TemplateId(0), 0, Vec2::from_int(60 + (i % 20) * 20, 60 + (i / 20) * 20))).collect();
        let mut w = test_support::world(96, objects);
        let ids = unit_ids(&w);
        let radius = Fixed::from_int(4);
        let mut goals: Vec<Vec2> = Vec::new();
        for (g, group) in ids.chunks(50).enumerate() {
            let select = cmd(&w, 2 * g as u32, Command::Select { objects: group.to_vec(), add: false });
            let go = cmd(&w, 2 * g as u32 + 1, Command::Move { to: Point { x: 600, y: 600 } });
            w.tick(&[select, go]);
            let mine: Vec<Vec2> = group.iter().filter_map(|id| w.object(*id)?.nav.goal).collect();
            assert_eq!(mine.len(), 50, "group {g}: every unit has a goal");
            for (i, a) in mine.iter().enumerate() {
                for b in goals.iter().chain(&mine[i + 1..]) {
                    assert!((*a - *b).length() >= radius.mul_int(2), "group {g}: goal {a:?} on {b:?}");
                }
            }
            goals.extend(mine);
        }
        for _ in 0..1800 {
            w.tick(&[]);
        }
        let moving = ids.iter().filter(|id| w.object(**id).is_some_and(|o| o.nav.goal.is_some())).count();
        assert_eq!(moving, 0, "every unit came to rest");
        let pos: Vec<Vec2> = ids.iter().map(|id| w.object(*id).unwrap().pos).collect();
        for (i, a) in pos.iter().enumerate() {
            for b in &pos[i + 1..] {
                assert!((*a - *b).length() >= Fixed::from_int(6), "units at {a:?} and {b:?} overlap");
            }
        }
    }

    #[test]
    fn a_large_group_does_not_stack_and_paths_respect_the_budget() {
        let objects: Vec<_> =
            (0..200).map(|i| (TemplateId(0), 0, Vec2::from_int(40 + (i % 20) * 12, 40 + (i / 20) * 12))).collect();
        let mut w = test_support::world(96, objects);
        // A wall with a gap so every unit needs a real search.
        for y in 0..90 {
            w.terrain.mark_structure(Vec2::from_int(505, y * 10 + 5), (1, 1), true);
        }
        let ids = unit_ids(&w);
        let c1 = cmd(&w, 0, Command::Select { objects: ids.clone(), add: false });
        let c2 = cmd(&w, 1, Command::Move { to: Point { x: 760, y: 400 } });
        w.tick(&[c1, c2]);
        // The budget spreads the 200 requests over several frames.
        assert!(w.pathfinder.pending() > 0, "all 200 searches ran in one frame");
        let mut frames = 1;
        while w.pathfinder.pending() > 0 {
            w.tick(&[]);
            frames += 1;
        }
        eprintln!("200 paths served over {frames} frames");
        assert!(frames > 1 && frames < 15, "paths took {frames} frames");
        for _ in 0..2400 {
            w.tick(&[]);
        }
        let pos: Vec<Vec2> = ids.iter().map(|id| w.object(*id).unwrap().pos).collect();
        let mut crossed = 0;
        for (i, a) in pos.iter().enumerate() {
            if a.x > Fixed::from_int(510) {
                crossed += 1;
            }
            for b in &pos[i + 1..] {
                assert!((*a - *b).length() >= Fixed::from_int(4), "units stacked at {a:?} and {b:?}");
            }
        }
        assert!(crossed >= 190, "only {crossed} of 200 got past the wall");
    }
}
