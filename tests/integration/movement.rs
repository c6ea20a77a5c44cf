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
