//! Shells with travel time, blasts and minimum range, with the shipped weapons: artillery hits
//! a target that stands still and misses one that moved on; a blast hurts the crowd around
//! the aim point less toward the edge; nothing is fired at inside the minimum range.

use crate::common;

use ridgeline::sim::event::GameEvent;
use ridgeline::sim::fixed::Fixed;
use ridgeline::sim::terrain::Terrain;
use ridgeline::sim::vector::Vec2;
use ridgeline::sim::world::{GameSetup, InitialObject, PlayerSetup};
use ridgeline::sim::{Command, CommandId, ObjectId, PlayerId, Point, StampedCommand, World};

/// An open field with the shipped rules and these (template, owner, x, y) objects.
fn field(objects: &[(&str, u8, i64, i64)]) -> World {
    let rules = common::defs().rules;
    let objects = objects
        .iter()
        .map(|&(name, owner, x, y)| InitialObject {
            template: rules.template_id(name).expect("shipped template"),
            owner: PlayerId(owner),
            pos: Vec2::from_int(x, y),
            supply: 0,
        })
        .collect();
    let terrain =
        Terrain::open(128, 128, Fixed::from_int(10), vec![Vec2::from_int(50, 50), Vec2::from_int(1230, 1230)]);
    let players =
        vec![PlayerSetup::with_faction_money(&rules, 0, 0, 0), PlayerSetup::with_faction_money(&rules, 1, 1, 1)];
    World::new(GameSetup { rules, terrain, players, seed: 5, objects }).expect("world")
}

fn find(w: &World, name: &str, owner: u8) -> Vec<ObjectId> {
    let t = w.rules().template_id(name).unwrap();
    w.objects().filter(|o| o.template == t && o.owner == PlayerId(owner)).map(|o| o.id).collect()
}

/// Runs until `shooter` fires; returns the frame's events.
fn until_fired(w: &mut World, shooter: ObjectId) -> Vec<GameEvent> {
    for _ in 0..300 {
        let events = w.tick(&[]).events;
        if events.iter().any(|e| matches!(e, GameEvent::WeaponFired { shooter: s, .. } if *s == shooter)) {
            return events;
        }
    }
    panic!("{shooter} never fired");
}

/// Damage `shooter` does to each object over `frames` frames.
fn hits(w: &mut World, shooter: ObjectId, frames: u32) -> Vec<(ObjectId, i32)> {
    let mut out = Vec::new();
    for _ in 0..frames {
        for e in w.tick(&[]).events {
            if let GameEvent::Hit { target, attacker, damage, .. } = e
                && attacker == shooter
            {
                out.push((target, damage));
            }
        }
    }
    out
}

// A longbow (howitzer: range 320, minimum 90, shells at 150 a second) 200 from a rifleman; a
// hauler of its side watches from 130 away (out of the rifle's reach) so the longbow may fire.
const SCENE: [(&str, u8, i64, i64); 3] = [("Longbow", 0, 300, 600), ("Hauler", 0, 500, 470), ("Rifleman", 1, 500, 600)];

#[test]
fn a_shell_hits_a_target_that_stands_still() {
    let mut w = field(&SCENE);
    let (longbow, rifleman) = (find(&w, "Longbow", 0)[0], find(&w, "Rifleman", 1)[0]);
    until_fired(&mut w, longbow);
    // 200 at 150 a second: it lands about 40 frames later, not at once.
    let landed = hits(&mut w, longbow, 60);
    assert_eq!(landed.iter().filter(|(t, _)| *t == rifleman).count(), 1, "{landed:?}");
}

#[test]
fn a_shell_misses_a_target_that_moved_on() {
    // A raider (65 a second) in the rifleman's place drives off as soon as the shell is fired:
    // by the time it lands the raider is out of the blast as well.
    let mut w = field(&[("Longbow", 0, 300, 600), ("Hauler", 0, 500, 470), ("Raider", 1, 500, 600)]);
    let (longbow, raider) = (find(&w, "Longbow", 0)[0], find(&w, "Raider", 1)[0]);
    until_fired(&mut w, longbow);
    let frame = w.frame();
    let order = |id: u32, command: Command| StampedCommand { frame, player: PlayerId(1), id: CommandId(id), command };
    w.tick(&[
        order(1, Command::Select { objects: vec![raider], add: false }),
        order(2, Command::Move { to: Point { x: 500, y: 1000 } }),
    ]);
    let landed = hits(&mut w, longbow, 150);
    assert!(landed.iter().all(|(t, _)| *t != raider), "the shells fell where it had been: {landed:?}");
    let r = w.object(raider).unwrap();
    assert_eq!(r.health, w.rules().template(r.template).max_health);
}

#[test]
fn a_blast_hurts_the_crowd_less_toward_its_edge() {
    // Riflemen at the aim point, 20 from it, and 60 from it (outside the 28 blast).
    let mut w = field(&[
        ("Longbow", 0, 300, 600),
        ("Hauler", 0, 500, 470),
        ("Rifleman", 1, 500, 600),
        ("Rifleman", 1, 520, 600),
        ("Rifleman", 1, 560, 600),
    ]);
    let longbow = find(&w, "Longbow", 0)[0];
    let riflemen = find(&w, "Rifleman", 1);
    let at = |id: ObjectId, w: &World| w.object(id).unwrap().pos.x.round_int();
    let (centre, near, far) = {
        let mut r = riflemen.clone();
        r.sort_by_key(|id| at(*id, &w));
        (r[0], r[1], r[2])
    };
    let fired = until_fired(&mut w, longbow);
    let aimed = fired.iter().find_map(|e| match e {
        GameEvent::WeaponFired { shooter, target, .. } if *shooter == longbow => Some(*target),
        _ => None,
    });
    assert_eq!(aimed, Some(centre), "the nearest rifleman is the target");
    let landed = hits(&mut w, longbow, 60);
    let damage = |id: ObjectId| landed.iter().find(|(t, _)| *t == id).map(|(_, d)| *d);
    let (c, n) = (damage(centre).expect("the centre is hit"), damage(near).expect("the neighbour is hit"));
    assert!(n > 0 && n < c, "less toward the edge: centre {c}, 20 away {n}");
    assert_eq!(damage(far), None, "60 away is outside the blast");
}

#[test]
fn nothing_inside_the_minimum_range_is_fired_at() {
    // A rifleman 60 from the longbow (minimum 90), in plain sight.
    let mut w = field(&[("Longbow", 0, 300, 600), ("Rifleman", 1, 360, 600)]);
    let longbow = find(&w, "Longbow", 0)[0];
    let mut fired = 0;
    for _ in 0..300 {
        fired += w
            .tick(&[])
            .events
            .iter()
            .filter(|e| matches!(e, GameEvent::WeaponFired { shooter, .. } if *shooter == longbow))
            .count();
    }
    assert_eq!(fired, 0);
}
