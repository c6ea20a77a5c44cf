//! The tick's events: a whole AI game reports every kind the client needs (shots, hits,
//! deaths, new units, started and finished structures, money, attacks, refusals), and each is
//! true to the state it describes.

use crate::common;

use std::collections::BTreeSet;

use ridgeline::session::{CommandScript, PlayersSpec, Step, start_local};
use ridgeline::sim::event::GameEvent;

fn kind(e: &GameEvent) -> &'static str {
    match e {
        GameEvent::WeaponFired { .. } => "fired",
        GameEvent::Hit { .. } => "hit",
        GameEvent::Killed { .. } => "killed",
        GameEvent::KillCredited { .. } => "credited",
        GameEvent::UnitProduced { .. } => "produced",
        GameEvent::ConstructionStarted { .. } => "started",
        GameEvent::StructureCompleted { .. } => "completed",
        GameEvent::OrderRefused(_) => "refused",
        GameEvent::QueuedBuildDropped { .. } => "dropped",
        GameEvent::MoneyReceived { .. } => "money",
        GameEvent::UnderAttack { .. } => "under attack",
        GameEvent::StructureSold { .. } => "sold",
        GameEvent::Surrendered { .. } => "surrendered",
        GameEvent::Promoted { .. } => "promoted",
        GameEvent::UpgradeResearched { .. } => "researched",
        GameEvent::Repaired { .. } => "repaired",
    }
}

#[test]
fn an_ai_game_reports_every_kind_of_event_truthfully() {
    let spec: PlayersSpec = "ai:brutal,ai:easy".parse().unwrap();
    let setup = spec.to_match_setup("proving_grounds", 3, &common::playable());
    let mut game = start_local(&common::roots(), &setup, &CommandScript::default()).unwrap();
    let mut seen = BTreeSet::new();
    let mut shooters = BTreeSet::new();
    let mut frames = 0;
    while frames < 12_000 && !game.session.world().is_over() {
        let before = game.session.world().clone();
        let Step::Ticked { report, .. } = game.session.step().unwrap() else { panic!("a local game never waits") };
        frames += 1;
        let after = game.session.world();
        let mut attacked = BTreeSet::new();
        for e in &report.events {
            if let GameEvent::WeaponFired { shooter, .. } = e {
                shooters.insert(*shooter);
            }
        }
        for e in &report.events {
            seen.insert(kind(e));
            match e {
                GameEvent::WeaponFired { shooter, target, .. } => {
                    assert!(before.object(*shooter).is_some() && before.object(*target).is_some());
                }
                GameEvent::Hit { attacker, damage, .. } => {
                    assert!(*damage >= 0, "armour may stop a shot, never heal");
                    // A shell lands frames after the shot, and a blast hurts more than the
                    // target: the attacker must have fired by now.
                    let fired = report
                        .events
                        .iter()
                        .any(|f| matches!(f, GameEvent::WeaponFired { shooter, .. } if shooter == attacker));
                    assert!(fired || shooters.contains(attacker), "a hit follows a shot");
                }
                GameEvent::Killed { object, owner, .. } => {
                    assert!(after.object(*object).is_none(), "the killed are gone");
                    assert_eq!(before.object(*object).map(|o| o.owner), Some(*owner));
                    assert!(report.destroyed.contains(object));
                }
                GameEvent::KillCredited { victim, by } => {
                    // The same frame's Killed follows, for another player's object.
                    let owner = before.object(*victim).map(|o| o.owner);
                    assert!(owner.is_some_and(|o| o != *by), "a kill of another's object");
                    assert!(
                        report.events.iter().any(|k| matches!(k, GameEvent::Killed { object, .. } if object == victim))
                    );
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
                GameEvent::QueuedBuildDropped { builder, owner, reason, .. } => {
                    // Told as the builder's owner's refusal too, with the same reason.
                    assert_eq!(before.object(*builder).map(|o| o.owner), Some(*owner));
                    assert!(
                        report.events.iter().any(
                            |f| matches!(f, GameEvent::OrderRefused(r) if r.player == *owner && r.reason == *reason)
                        )
                    );
                }
                GameEvent::Surrendered { player, objects } => {
                    assert!(objects.iter().all(|o| report.destroyed.contains(o) && after.object(*o).is_none()));
                    assert!(after.players()[player.index()].defeated);
                }
                GameEvent::StructureSold { object, refund, .. } => {
                    assert!(*refund >= 0 && after.object(*object).is_none() && report.destroyed.contains(object));
                }
                GameEvent::Promoted { object, owner, rank, .. } => {
                    let o = after.object(*object);
                    assert_eq!(o.map(|o| o.owner), Some(*owner));
                    let o = o.unwrap();
                    assert_eq!(after.rules().rank(o.template, o.xp), *rank, "the rank its kills earn");
                    let before_rank = before.object(*object).map_or(0, |b| before.rules().rank(b.template, b.xp));
                    assert!(*rank > before_rank, "a promotion raises the rank");
                }
                GameEvent::UpgradeResearched { owner, upgrade, .. } => {
                    assert!(!before.has_upgrade(*owner, *upgrade) && after.has_upgrade(*owner, *upgrade));
                }
                GameEvent::Repaired { object, health, .. } => {
                    assert!(before.object(*object).is_some_and(|o| o.health < *health), "repair only mends");
                }
            }
        }
        let gone: usize = report
            .events
            .iter()
            .map(|e| match e {
                GameEvent::Killed { .. } | GameEvent::StructureSold { .. } => 1,
                GameEvent::Surrendered { objects, .. } => objects.len(),
                _ => 0,
            })
            .sum();
        assert_eq!(gone, report.destroyed.len(), "every destruction is a killed, sold or surrendered object");
    }
    let all =
        ["fired", "hit", "killed", "credited", "produced", "started", "completed", "money", "under attack", "promoted"];
    for k in all {
        assert!(seen.contains(k), "no {k} event in {frames} frames: {seen:?}");
    }
}

#[test]
fn a_player_who_surrenders_is_gone_at_the_end_of_the_frame_and_the_other_wins() {
    use ridgeline::sim::{Command, CommandId, PlayerId, RejectReason, StampedCommand};
    let (mut world, _) = common::opening_game("idle,idle", 1);
    let theirs = world.objects().filter(|o| o.owner == PlayerId(0)).count();
    let give_up = |world: &ridgeline::sim::World, id: u32| StampedCommand {
        frame: world.frame(),
        player: PlayerId(0),
        id: CommandId(id),
        command: Command::Surrender,
    };
    let report = world.tick(&[give_up(&world, 1)]);
    assert!(matches!(
        report.events.as_slice(),
        [GameEvent::Surrendered { player: PlayerId(0), objects }] if objects.len() == theirs
    ));
    assert_eq!(report.destroyed.len(), theirs);
    assert_eq!(world.objects().filter(|o| o.owner == PlayerId(0)).count(), 0);
    assert!(world.players()[0].defeated && world.is_over());
    assert_eq!(world.winner(), Some(PlayerId(1)));
    // Nothing more from the player who gave up.
    let report = world.tick(&[give_up(&world, 2)]);
    assert_eq!(report.rejections.iter().map(|r| r.reason.clone()).collect::<Vec<_>>(), [RejectReason::NoSuchPlayer]);
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
