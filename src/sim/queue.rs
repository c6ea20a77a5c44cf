//! Queued orders (Shift): a unit at rest whose queue holds orders starts the first — a move,
//! an attack-move, or a build, which is placed and paid only now (refused, as a command would
//! be, when it no longer fits or cannot be paid: the unit goes on to the next, and the event
//! `QueuedBuildDropped` tells the player what was not built, where and why).
//!
//! Must not: start an order for a unit still busy with one, or skip the queue's order.

use super::command::{Queued, Rejection};
use super::event::GameEvent;
use super::ids::{CommandId, ObjectId};
use super::movement;
use super::object::Order;
use super::world::World;

/// Units at rest start their next queued order, in id order.
pub(super) fn step(world: &mut World) {
    // The store counts the objects with orders queued: most frames there are none to look for.
    if world.objects.queued() == 0 {
        return;
    }
    let ready: Vec<ObjectId> = world
        .objects
        .iter()
        .filter(|o| !o.queue.is_empty() && o.order == Order::Idle && o.is_complete())
        .map(|o| o.id)
        .collect();
    for id in ready {
        let Some(mut o) = world.objects.get_mut(id) else { continue };
        let mut queue = o.queue.clone();
        let next = queue.remove(0);
        o.set_queue(queue);
        let owner = o.owner;
        drop(o);
        let started = match next {
            Queued::Move { to } | Queued::AttackMove { to } => world.point_on_map(to).map(|goal| {
                let order =
                    if matches!(next, Queued::Move { .. }) { Order::Move { goal } } else { Order::AttackMove { goal } };
                if let Some(mut o) = world.objects.get_mut(id) {
                    o.set_order(order);
                    o.set_target(None);
                    movement::set_goal(&mut o, goal, &mut world.pathfinder);
                }
            }),
            Queued::Build { template, at } => world.build_by(owner, id, template, at).inspect_err(|reason| {
                let (builder, at, reason) = (id, at.to_vec2(), reason.clone());
                world.events.push(GameEvent::QueuedBuildDropped { builder, owner, template, at, reason });
            }),
        };
        if let Err(reason) = started {
            let frame = world.frame;
            world.events.push(GameEvent::OrderRefused(Rejection { frame, player: owner, id: CommandId(0), reason }));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::command::{Command, Point, Queued, RejectReason, StampedCommand};
    use super::super::event::GameEvent;
    use super::super::fixed::Fixed;
    use super::super::ids::{CommandId, Frame, PlayerId, TemplateId};
    use super::super::object::Order;
    use super::super::test_support;
    use super::super::vector::Vec2;
    use super::super::world::World;

    fn cmd(id: u32, command: Command) -> StampedCommand {
        StampedCommand { frame: Frame(0), player: PlayerId(0), id: CommandId(id), command }
    }

    fn near(a: Vec2, b: Vec2, within: i64) -> bool {
        (a - b).length() <= Fixed::from_int(within)
    }

    #[test]
    fn a_queued_move_waits_for_the_first_to_arrive_and_stop_forgets_the_queue() {
        let mut w = test_support::world(64, vec![(TemplateId(0), 0, Vec2::from_int(100, 100))]);
        let unit = w.objects().find(|o| o.template == TemplateId(0)).unwrap().id;
        let (a, b) = (Point { x: 300, y: 100 }, Point { x: 300, y: 300 });
        w.tick(&[cmd(0, Command::Select { objects: vec![unit], add: false })]);
        // At rest, the first queued move starts at once; the second waits its turn.
        let report = w.tick(&[cmd(1, Command::Queue { order: Queued::Move { to: a } })]);
        assert!(report.rejections.is_empty(), "{:?}", report.rejections);
        w.tick(&[cmd(2, Command::Queue { order: Queued::Move { to: b } })]);
        let o = w.object(unit).unwrap();
        assert!(matches!(o.order, Order::Move { .. }));
        assert_eq!(o.queue, vec![Queued::Move { to: b }]);
        let mut passed_a = false;
        for _ in 0..900 {
            w.tick(&[]);
            let o = w.object(unit).unwrap();
            passed_a |= near(o.pos, Vec2::from_int(300, 100), 10);
            if o.order == Order::Idle {
                break;
            }
        }
        let o = w.object(unit).unwrap();
        assert!(passed_a, "it went to the first point");
        assert!(near(o.pos, Vec2::from_int(300, 300), 10) && o.queue.is_empty(), "then the second: {:?}", o.pos);
        // Queued twice more, then Stop: nothing is left to follow.
        w.tick(&[cmd(3, Command::Queue { order: Queued::Move { to: a } })]);
        w.tick(&[cmd(4, Command::Queue { order: Queued::Move { to: b } })]);
        assert_eq!(w.object(unit).unwrap().queue.len(), 1);
        w.tick(&[cmd(5, Command::Stop)]);
        assert!(w.object(unit).unwrap().queue.is_empty(), "Stop forgets the queue");
    }

    #[test]
    fn a_builder_builds_queued_sites_in_turn_each_paid_when_it_starts() {
        // The test unit builds the test post (cost 100, 30 frames of work).
        let mut rules = (*test_support::rules()).clone();
        rules.templates[0].builds = vec![TemplateId(1)];
        rules.factions[0].starting_money = 1000;
        let mut w: World =
            test_support::world_with(Arc::new(rules), 64, vec![(TemplateId(0), 0, Vec2::from_int(200, 200))]);
        let dozer = w.objects().find(|o| o.template == TemplateId(0) && o.owner == PlayerId(0)).unwrap().id;
        let money = |w: &World| w.players()[0].money;
        let posts = |w: &World| w.objects().filter(|o| o.template == TemplateId(1) && o.owner == PlayerId(0)).count();
        let before = (money(&w), posts(&w));
        w.tick(&[cmd(0, Command::Select { objects: vec![dozer], add: false })]);
        w.tick(&[cmd(1, Command::Build { template: TemplateId(1), at: Point { x: 250, y: 200 } })]);
        w.tick(&[cmd(
            2,
            Command::Queue { order: Queued::Build { template: TemplateId(1), at: Point { x: 320, y: 200 } } },
        )]);
        // One site placed and paid; the second waits in the queue, unpaid.
        assert_eq!((money(&w), posts(&w)), (before.0 - 100, before.1 + 1));
        assert_eq!(w.object(dozer).unwrap().queue.len(), 1);
        for _ in 0..600 {
            w.tick(&[]);
        }
        assert_eq!((money(&w), posts(&w)), (before.0 - 200, before.1 + 2), "the second was placed and paid in turn");
        assert!(w.objects().filter(|o| o.template == TemplateId(1) && o.owner == PlayerId(0)).all(|o| o.is_complete()));
        assert!(w.object(dozer).unwrap().queue.is_empty());
    }

    #[test]
    fn a_queued_site_blocked_when_its_turn_comes_is_dropped_unpaid_and_told_with_its_place() {
        let mut rules = (*test_support::rules()).clone();
        rules.templates[0].builds = vec![TemplateId(1)];
        rules.factions[0].starting_money = 1000;
        // The builder, and a unit of the player's standing on the second site.
        let units = vec![(TemplateId(0), 0, Vec2::from_int(200, 200)), (TemplateId(0), 0, Vec2::from_int(320, 200))];
        let mut w: World = test_support::world_with(Arc::new(rules), 64, units);
        let dozer = w.objects().find(|o| o.template == TemplateId(0) && o.owner == PlayerId(0)).unwrap().id;
        let money = w.players()[0].money;
        w.tick(&[cmd(0, Command::Select { objects: vec![dozer], add: false })]);
        w.tick(&[cmd(1, Command::Build { template: TemplateId(1), at: Point { x: 250, y: 200 } })]);
        let second = Point { x: 320, y: 200 };
        w.tick(&[cmd(2, Command::Queue { order: Queued::Build { template: TemplateId(1), at: second } })]);
        let mut dropped = Vec::new();
        for _ in 0..600 {
            let report = w.tick(&[]);
            dropped.extend(report.events.into_iter().filter_map(|e| match e {
                GameEvent::QueuedBuildDropped { builder, owner, template, at, reason } => {
                    Some((builder, owner, template, at, reason))
                }
                _ => None,
            }));
        }
        assert_eq!(
            dropped,
            vec![(
                dozer,
                PlayerId(0),
                TemplateId(1),
                second.to_vec2(),
                RejectReason::BadPlacement(second, super::super::command::Blocker::Unit)
            )],
            "told once, with what, where and why"
        );
        assert_eq!(w.players()[0].money, money - 100, "only the first was paid");
        assert!(w.object(dozer).unwrap().queue.is_empty() && w.object(dozer).unwrap().order == Order::Idle);
    }
}
