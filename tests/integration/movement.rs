//! How units move when ordered, with the shipped rules: a group keeps to its slowest member's
//! pace and arrives in formation, while a unit alone goes at its own speed.

use crate::common;

use ridgeline::sim::fixed::Fixed;
use ridgeline::sim::{Command, CommandId, ObjectId, PlayerId, Point, StampedCommand, World};

const P0: PlayerId = PlayerId(0);

fn order(w: &mut World, n: &mut u32, command: Command) {
    *n += 1;
    let stamped = StampedCommand { frame: w.frame(), player: P0, id: CommandId(*n), command };
    let report = w.tick(&[stamped]);
    assert!(report.rejections.is_empty(), "{:?}", report.rejections);
}

fn of_kind(w: &World, name: &str) -> Vec<ObjectId> {
    let t = w.rules().template_id(name).expect("shipped template");
    w.objects().filter(|o| o.owner == P0 && o.template == t).map(|o| o.id).collect()
}

fn travelled(w: &World, id: ObjectId, from: ridgeline::sim::vector::Vec2) -> Fixed {
    (w.object(id).unwrap().pos - from).length()
}

#[test]
fn a_group_moves_at_its_slowest_pace_and_a_lone_unit_at_its_own() {
    // Coalition starts with riflemen (20 a second) and two scouts (60 a second).
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Coalition", 4);
    let (riflemen, scouts) = (of_kind(&w, "Rifleman"), of_kind(&w, "Scout"));
    assert!(!riflemen.is_empty() && scouts.len() >= 2);
    let group: Vec<ObjectId> = riflemen.iter().chain(&scouts[..1]).copied().collect();
    let start = |w: &World, id: ObjectId| w.object(id).unwrap().pos;
    let (r0, s0, lone0) = (start(&w, riflemen[0]), start(&w, scouts[0]), start(&w, scouts[1]));
    let size = w.terrain().world_size();
    let goal = Point { x: size.x.round_int() as i32 / 2, y: size.y.round_int() as i32 / 2 };
    let mut n = 0;
    order(&mut w, &mut n, Command::Select { objects: group, add: false });
    order(&mut w, &mut n, Command::Move { to: goal });
    // The other scout is sent the same way on its own.
    order(&mut w, &mut n, Command::Select { objects: vec![scouts[1]], add: false });
    order(&mut w, &mut n, Command::Move { to: goal });
    for _ in 0..150 {
        w.tick(&[]);
    }
    let (rifle, scout, lone) =
        (travelled(&w, riflemen[0], r0), travelled(&w, scouts[0], s0), travelled(&w, scouts[1], lone0));
    // Five seconds at 20 a second is at most 100: the scout in the group keeps with them.
    assert!(rifle > Fixed::from_int(60), "the riflemen moved ({rifle:?})");
    assert!(scout <= Fixed::from_int(105), "the scout kept the group's pace ({scout:?} vs {rifle:?})");
    // Alone, a scout outruns any rifleman by far.
    assert!(lone > Fixed::from_int(200), "alone it runs ({lone:?})");
}

#[test]
fn a_group_told_to_guard_a_point_stands_in_formation_around_it_and_keeps_its_front() {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Coalition", 4);
    let riflemen = of_kind(&w, "Rifleman");
    assert!(riflemen.len() >= 4);
    let size = w.terrain().world_size();
    let (gx, gy) = (size.x.round_int() / 2, size.y.round_int() / 2);
    let mut n = 0;
    order(&mut w, &mut n, Command::Select { objects: riflemen.clone(), add: false });
    order(&mut w, &mut n, Command::Guard { at: Some(Point { x: gx as i32, y: gy as i32 }) });
    // Each guards a slot of its own around the point, not the point itself.
    let anchors: Vec<(i64, i64)> = riflemen
        .iter()
        .map(|&id| match w.object(id).unwrap().order {
            ridgeline::sim::object::Order::Guard { anchor } => (anchor.x.round_int(), anchor.y.round_int()),
            other => panic!("{id:?} is on {other:?}"),
        })
        .collect();
    let mut distinct = anchors.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), riflemen.len(), "one slot each: {anchors:?}");
    let (ax, ay) = anchors.iter().fold((0, 0), |s, a| (s.0 + a.0, s.1 + a.1));
    let k = anchors.len() as i64;
    assert!((ax / k - gx).abs() <= 10 && (ay / k - gy).abs() <= 10, "centred on the point: {anchors:?}");
    // The rifleman that started nearest the point stands farther along the way than the one
    // that started farthest: the group keeps its front.
    let start = |id: ObjectId| w.object(id).unwrap().pos;
    let goal = ridgeline::sim::vector::Vec2::from_int(gx, gy);
    let nearest = *riflemen.iter().min_by_key(|&&id| (start(id) - goal).length_squared()).unwrap();
    let farthest = *riflemen.iter().max_by_key(|&&id| (start(id) - goal).length_squared()).unwrap();
    let (sx, sy) =
        riflemen.iter().fold((0, 0), |s, &id| (s.0 + start(id).x.round_int(), s.1 + start(id).y.round_int()));
    let way = (gx - sx / k, gy - sy / k);
    let along = |id: ObjectId| {
        let a = anchors[riflemen.iter().position(|&r| r == id).unwrap()];
        (a.0 - gx) * way.0 + (a.1 - gy) * way.1
    };
    assert!(along(nearest) > along(farthest), "the front unit takes a front slot");
    for _ in 0..30 * 60 {
        w.tick(&[]);
    }
    for (&id, &(x, y)) in riflemen.iter().zip(&anchors) {
        let p = w.object(id).unwrap().pos;
        let off = ((p.x.round_int() - x).pow(2) + (p.y.round_int() - y).pow(2)) as f64;
        assert!(off.sqrt() <= 25.0, "{id:?} stands by its slot ({x}, {y}): {p:?}");
    }
}

/// The group's spread: how far its farthest living member stands from the members' mean.
fn spread(w: &World, group: &[ObjectId]) -> i64 {
    let at: Vec<_> = group.iter().filter_map(|&id| w.object(id)).map(|o| o.pos).collect();
    let n = at.len().max(1) as i64;
    let (sx, sy) = at.iter().fold((0, 0), |s, p| (s.0 + p.x.round_int(), s.1 + p.y.round_int()));
    let (cx, cy) = (sx / n, sy / n);
    at.iter().map(|p| (p.x.round_int() - cx).pow(2) + (p.y.round_int() - cy).pow(2)).max().map_or(0, |d| d.isqrt())
}

#[test]
fn a_mixed_group_on_a_long_attack_move_keeps_together_through_a_fight_on_the_way() {
    // Coalition's opening army: riflemen and rocketeers (18–20 a second), scouts (60) and a
    // Bulwark tank (30). A Dominion raider waits on the way; the group fights it, then goes on.
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 4);
    let group: Vec<ObjectId> =
        ["Rifleman", "Rocketeer", "Scout", "Bulwark"].iter().flat_map(|k| of_kind(&w, k)).collect();
    let p1 = PlayerId(1);
    let raider = w.objects().find(|o| o.owner == p1 && w.rules().template(o.template).name == "Raider").unwrap().id;
    let home = w.start_of(P0).unwrap();
    let enemy = w.start_of(p1).unwrap();
    let way = |f: i64| {
        let p = home + (enemy - home).scale(Fixed::from_ratio(f, 100));
        Point { x: p.x.round_int() as i32, y: p.y.round_int() as i32 }
    };
    let mut n = 0;
    let by_p1 = |w: &mut World, n: &mut u32, command: Command| {
        *n += 1;
        w.tick(&[StampedCommand { frame: w.frame(), player: p1, id: CommandId(*n), command }]);
    };
    let mut m = 0;
    by_p1(&mut w, &mut m, Command::Select { objects: vec![raider], add: false });
    by_p1(&mut w, &mut m, Command::Move { to: way(30) });
    for _ in 0..30 * 20 {
        w.tick(&[]);
    }
    // The army stands about 55 from its middle at home.
    assert!(spread(&w, &group) <= 60, "{}", spread(&w, &group));
    order(&mut w, &mut n, Command::Select { objects: group.clone(), add: false });
    order(&mut w, &mut n, Command::AttackMove { to: way(60) });
    let mut widest = 0;
    for _ in 0..30 * 60 {
        w.tick(&[]);
        widest = widest.max(spread(&w, &group));
    }
    assert!(w.object(raider).is_none(), "the raider on the way was fought and destroyed");
    // Without the group's pace after the fight the scouts ran some 260 ahead; with it the
    // group never spreads much past how it stood at home.
    assert!(widest <= 120, "the group strung out to {widest}");
    let goal = way(60);
    let at: Vec<_> = group.iter().filter_map(|&id| w.object(id)).map(|o| o.pos).collect();
    let k = at.len() as i64;
    let (cx, cy) = at.iter().fold((0, 0), |s, p| (s.0 + p.x.round_int(), s.1 + p.y.round_int()));
    let off = ((cx / k - goal.x as i64).pow(2) + (cy / k - goal.y as i64).pow(2)).isqrt();
    assert!(off <= 30 && spread(&w, &group) <= 60, "it arrived together: {off} off, {}", spread(&w, &group));
}

#[test]
fn with_formation_off_a_group_member_goes_at_its_own_speed_and_on_again_keeps_the_pace() {
    // The group (riflemen at 20 a second and a scout at 60) goes some 590 to the middle; after
    // 20 seconds the riflemen are still on the way. Switched off, the scout is there; switched
    // off and on again, it is not.
    for on_again in [false, true] {
        let (mut w, _) = common::opening_game("idle@Coalition,idle@Coalition", 4);
        let (riflemen, scouts) = (of_kind(&w, "Rifleman"), of_kind(&w, "Scout"));
        let group: Vec<ObjectId> = riflemen.iter().chain(&scouts[..1]).copied().collect();
        let size = w.terrain().world_size();
        let goal = Point { x: size.x.round_int() as i32 / 2, y: size.y.round_int() as i32 / 2 };
        let mut n = 0;
        order(&mut w, &mut n, Command::Select { objects: group.clone(), add: false });
        order(&mut w, &mut n, Command::Formation { on: false });
        assert!(group.iter().all(|&id| w.object(id).unwrap().loose), "the switch is kept by each unit");
        if on_again {
            order(&mut w, &mut n, Command::Formation { on: true });
        }
        order(&mut w, &mut n, Command::Move { to: goal });
        for _ in 0..30 * 20 {
            w.tick(&[]);
        }
        // How far a unit is from where it is going (nothing: it is there).
        let left = |id: ObjectId| {
            let o = w.object(id).unwrap();
            o.nav.goal.map_or(0, |g| (g - o.pos).length().round_int())
        };
        assert!(riflemen.iter().all(|&id| left(id) > 150), "the riflemen are on the way");
        let scout = left(scouts[0]);
        if on_again {
            assert!(scout > 150, "formation on: the scout keeps with them ({scout} to go)");
        } else {
            assert!(scout <= 10, "formation off: the scout is there first ({scout} to go)");
        }
    }
}

#[test]
fn scatter_spreads_the_selected_units_out_from_their_centre() {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Coalition", 4);
    let riflemen = of_kind(&w, "Rifleman");
    let size = w.terrain().world_size();
    let mid = Point { x: size.x.round_int() as i32 / 2, y: size.y.round_int() as i32 / 2 };
    let mut n = 0;
    order(&mut w, &mut n, Command::Select { objects: riflemen.clone(), add: false });
    order(&mut w, &mut n, Command::Move { to: mid });
    for _ in 0..30 * 60 {
        w.tick(&[]);
    }
    let before = spread(&w, &riflemen);
    let from: Vec<_> = riflemen.iter().map(|&id| w.object(id).unwrap().pos).collect();
    order(&mut w, &mut n, Command::Scatter);
    for _ in 0..30 * 5 {
        w.tick(&[]);
    }
    let after = spread(&w, &riflemen);
    // Each went about 40 (ridgeline::sim::scatter::DISTANCE) straight out: the farthest from
    // the middle is that much farther out.
    assert!(after >= before + 30 && after <= before + 45, "spread {before} → {after}");
    for (&id, p) in riflemen.iter().zip(&from) {
        let moved = travelled(&w, id, *p).round_int();
        assert!((25..=45).contains(&moved), "{id:?} moved {moved}");
    }
}
