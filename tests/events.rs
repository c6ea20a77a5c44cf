//! The tick's events: a whole AI game reports every kind the client needs (shots, hits,
//! deaths, new units, started and finished structures, money, attacks, refusals), and each is
//! true to the state it describes.

mod common;

use std::collections::BTreeSet;

use ridgeline::session::{CommandScript, PlayersSpec, Step, start_local};
use ridgeline::sim::event::GameEvent;

fn kind(e: &GameEvent) -> &'static str {
    match e {
        GameEvent::WeaponFired { .. } => "fired",
        GameEvent::Hit { .. } => "hit",
        GameEvent::Killed { .. } => "killed",
        GameEvent::UnitProduced { .. } => "produced",
        GameEvent::ConstructionStarted { .. } => "started",
        GameEvent::StructureCompleted { .. } => "completed",
        GameEvent::OrderRefused(_) => "refused",
        GameEvent::MoneyReceived { .. } => "money",
        GameEvent::UnderAttack { .. } => "under attack",
        GameEvent::StructureSold { .. } => "sold",
    }
}

#[test]
fn an_ai_game_reports_every_kind_of_event_truthfully() {
    let spec: PlayersSpec = "ai:brutal,ai:easy".parse().unwrap();
    let setup = spec.to_match_setup("proving_grounds", 3, &common::playable());
    let mut game = start_local(&common::roots(), &setup, &CommandScript::default()).unwrap();
    let mut seen = BTreeSet::new();
    let mut frames = 0;
    while frames < 12_000 && !game.session.world().is_over() {
        let before = game.session.world().clone();
        let Step::Ticked { report, .. } = game.session.step().unwrap() else { panic!("a local game never waits") };
        frames += 1;
        let after = game.session.world();
        let mut attacked = BTreeSet::new();
        for e in &report.events {
            seen.insert(kind(e));
            match e {
                GameEvent::WeaponFired { shooter, target, .. } => {
                    assert!(before.object(*shooter).is_some() && before.object(*target).is_some());
                }
                GameEvent::Hit { target, attacker, damage, .. } => {
                    assert!(*damage >= 0, "armour may stop a shot, never heal");
                    let fired = report.events.iter().any(|f| {
                        matches!(f, GameEvent::WeaponFired { shooter, target: t, .. } if shooter == attacker && t == target)
                    });
                    assert!(fired, "a hit follows a shot");
                }
                GameEvent::Killed { object, owner, .. } => {
                    assert!(after.object(*object).is_none(), "the killed are gone");
                    assert_eq!(before.object(*object).map(|o| o.owner), Some(*owner));
                    assert!(report.destroyed.contains(object));
                }
                GameEvent::UnitProduced { object, owner, .. } => {
                    assert_eq!(after.object(*object).map(|o| o.owner), Some(*owner), "the new unit stands");
                }
                GameEvent::ConstructionStarted { site, .. } => {
                    assert!(after.object(*site).is_some_and(|o| !o.is_complete()));
                }
                GameEvent::StructureCompleted { object, .. } => {
                    assert!(before.object(*object).is_some_and(|o| !o.is_complete()));
                    assert!(after.object(*object).is_none_or(|o| o.is_complete()));
                }
                GameEvent::MoneyReceived { amount, .. } => assert!(*amount > 0),
                GameEvent::UnderAttack { player, .. } => {
                    assert!(attacked.insert(*player), "one attack notice per player per frame");
                }
                GameEvent::OrderRefused(r) => assert!(report.rejections.contains(r)),
                GameEvent::StructureSold { object, refund, .. } => {
                    assert!(*refund >= 0 && after.object(*object).is_none() && report.destroyed.contains(object));
                }
            }
        }
        let gone =
            report.events.iter().filter(|e| matches!(e, GameEvent::Killed { .. } | GameEvent::StructureSold { .. }));
        assert_eq!(gone.count(), report.destroyed.len(), "every destruction is a Killed or a sold event");
    }
    let all = ["fired", "hit", "killed", "produced", "started", "completed", "money", "under attack"];
    for k in all {
        assert!(seen.contains(k), "no {k} event in {frames} frames: {seen:?}");
    }
}

#[test]
fn refused_orders_are_events_too() {
    let (mut world, _) = common::opening_game("idle,idle", 1);
    let enemy = world.objects().find(|o| o.owner == ridgeline::sim::PlayerId(1)).unwrap().id;
    let cmd = ridgeline::sim::StampedCommand {
        frame: world.frame(),
        player: ridgeline::sim::PlayerId(0),
        id: ridgeline::sim::CommandId(1),
        command: ridgeline::sim::Command::Select { objects: vec![enemy], add: false },
    };
    let report = world.tick(&[cmd]);
    assert!(matches!(
        report.events.as_slice(),
        [GameEvent::OrderRefused(r)] if r.reason == ridgeline::sim::RejectReason::NotOwner(enemy)
    ));
}
