//! Power, played through commands on Proving Grounds: a Coalition player whose structures use
//! more power than its command post makes trains and builds at the faction's low-power speed
//! (half), its powered turret holds its fire, and both recover once a power station stands;
//! the skirmish AI raises a power plant before the factory that would leave it short.

use crate::common;

use ridgeline::sim::event::GameEvent;
use ridgeline::sim::{Command, CommandId, ObjectId, PlayerId, Point, StampedCommand, TemplateId, World};

const P0: PlayerId = PlayerId(0);
const P1: PlayerId = PlayerId(1);

/// One frame with `commands` from `player`; the frame's events.
fn tick(w: &mut World, n: &mut u32, player: PlayerId, commands: Vec<Command>) -> Vec<GameEvent> {
    let stamped: Vec<StampedCommand> = commands
        .into_iter()
        .map(|command| {
            *n += 1;
            StampedCommand { frame: w.frame(), player, id: CommandId(*n), command }
        })
        .collect();
    let report = w.tick(&stamped);
    assert!(report.rejections.is_empty(), "{:?}", report.rejections);
    report.events
}

fn template(w: &World, name: &str) -> TemplateId {
    w.rules().template_id(name).unwrap()
}

fn first(w: &World, player: PlayerId, name: &str) -> ObjectId {
    let t = template(w, name);
    w.objects().find(|o| o.owner == player && o.template == t).map(|o| o.id).unwrap()
}

/// Player 0's dozer raises `name` `dx` units east of the command post; returns the frames from
/// the order to the finished structure and its id.
fn build(w: &mut World, n: &mut u32, name: &str, dx: i64, dy: i64) -> (u32, ObjectId) {
    let dozer = first(w, P0, "Dozer");
    let post = w.object(first(w, P0, "CommandPost")).unwrap().pos;
    let at = Point { x: (post.x.round_int() + dx) as i32, y: (post.y.round_int() + dy) as i32 };
    let t = template(w, name);
    let start = w.frame().0;
    tick(w, n, P0, vec![Command::Select { objects: vec![dozer], add: false }, Command::Build { template: t, at }]);
    for _ in 0..3_000 {
        for e in tick(w, n, P0, Vec::new()) {
            if let GameEvent::StructureCompleted { object, template, .. } = e
                && template == t
            {
                return (w.frame().0 - start, object);
            }
        }
    }
    panic!("{name} was never finished");
}

/// Frames from ordering a rifleman at `barracks` to its appearance.
fn train(w: &mut World, n: &mut u32, barracks: ObjectId) -> u32 {
    let t = template(w, "Rifleman");
    let start = w.frame().0;
    tick(w, n, P0, vec![Command::Produce { factory: barracks, template: t }]);
    for _ in 0..1_000 {
        for e in tick(w, n, P0, Vec::new()) {
            if matches!(e, GameEvent::UnitProduced { template, .. } if template == t) {
                return w.frame().0 - start;
            }
        }
    }
    panic!("no rifleman");
}

#[test]
fn low_power_halves_building_and_training_until_a_power_station_stands() {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 1);
    let mut n = 0;
    // The post makes 3; a barracks uses 2: enough.
    let (_, barracks) = build(&mut w, &mut n, "Barracks", 90, 0);
    assert_eq!((w.power(P0).produced, w.power(P0).used), (3, 2));
    assert!(!w.power(P0).low());
    let full = train(&mut w, &mut n, barracks);
    // Five seconds of work, give or take the frame the order and the unit's exit take.
    assert!((150..=153).contains(&full), "{full} frames with power");
    // A war factory uses 4 more: 6 used, 3 made.
    build(&mut w, &mut n, "WarFactory", -100, 0);
    assert!(w.power(P0).low(), "{:?}", w.power(P0));
    let slow = train(&mut w, &mut n, barracks);
    assert!((2 * 150 - 2..=2 * 150 + 3).contains(&slow), "{slow} frames on low power (faction speed 50 %)");
    // The power station itself is built at half speed: ten seconds of work take twenty.
    let (took, _) = build(&mut w, &mut n, "PowerStation", 0, 100);
    assert!(took >= 600, "built at half speed: {took} frames");
    assert_eq!((w.power(P0).produced, w.power(P0).used), (13, 6));
    let again = train(&mut w, &mut n, barracks);
    assert_eq!(again, full, "full speed again");
}

#[test]
fn a_powered_turret_holds_its_fire_without_power() {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 1);
    let mut n = 0;
    build(&mut w, &mut n, "Barracks", 90, 0);
    // A bastion uses 3: 5 used, 3 made.
    let (_, bastion) = build(&mut w, &mut n, "Bastion", 0, -90);
    assert!(w.power(P0).low());
    // Coalition's army walks off north, out of the way; a Dominion raider drives up and stops
    // south of the bastion, in its range.
    let army: Vec<ObjectId> = w
        .objects()
        .filter(|o| {
            o.owner == P0
                && w.rules().template(o.template).is_armed()
                && o.kind != ridgeline::sim::rules::ObjectKind::Structure
        })
        .map(|o| o.id)
        .collect();
    let post = w.object(first(&w, P0, "CommandPost")).unwrap().pos;
    let north = Point { x: post.x.round_int() as i32, y: (post.y.round_int() + 160) as i32 };
    tick(&mut w, &mut n, P0, vec![Command::Select { objects: army, add: false }]);
    tick(&mut w, &mut n, P0, vec![Command::Move { to: north }]);
    let raider = first(&w, P1, "Raider");
    let at = w.object(bastion).unwrap().pos;
    let stop = Point { x: at.x.round_int() as i32, y: (at.y.round_int() - 150) as i32 };
    tick(&mut w, &mut n, P1, vec![Command::Select { objects: vec![raider], add: false }]);
    tick(&mut w, &mut n, P1, vec![Command::Move { to: stop }]);
    let shots = |w: &mut World, n: &mut u32, frames: u32| {
        (0..frames)
            .flat_map(|_| tick(w, n, P0, Vec::new()))
            .filter(|e| matches!(e, GameEvent::WeaponFired { shooter, .. } if *shooter == bastion))
            .count()
    };
    let dark = shots(&mut w, &mut n, 2_400);
    let raider_at = w.object(raider).map(|r| (r.pos - at).length().round_int());
    assert!(raider_at.is_some_and(|d| d < 190), "the raider stands in the bastion's range: {raider_at:?}");
    assert_eq!(dark, 0, "no power, no shots");
    build(&mut w, &mut n, "PowerStation", 100, 100);
    assert!(!w.power(P0).low());
    assert!(shots(&mut w, &mut n, 300) > 0, "with power the bastion fires");
}

#[test]
fn the_skirmish_ai_raises_a_power_plant_before_the_factory_that_would_leave_it_short() {
    // Dominion: the headquarters makes 3 and a camp uses 4.
    let (w, controllers) = common::opening_game("idle@Coalition,ai:normal@Dominion", 4);
    let mut session = ridgeline::session::local_session(w, controllers).unwrap();
    let (reactor, camp) = (template(session.world(), "Reactor"), template(session.world(), "Camp"));
    let mut started = Vec::new();
    for _ in 0..5_400 {
        let ridgeline::session::Step::Ticked { report, .. } = session.step().unwrap() else {
            panic!("a local game never waits")
        };
        for e in &report.events {
            if let GameEvent::ConstructionStarted { template, owner, .. } = e
                && *owner == P1
            {
                started.push(*template);
            }
        }
    }
    assert_eq!(started.first(), Some(&reactor), "the reactor first: {started:?}");
    assert!(started.contains(&camp), "then the camp: {started:?}");
    let b = session.world().power(P1);
    assert!(!b.low(), "never short once both stand: {b:?}");
}
