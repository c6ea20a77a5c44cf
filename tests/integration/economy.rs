//! The economy: a gatherer carries money from a supply pile to its owner's depot, trip after
//! trip; the pile loses exactly what the player gains; bad targets are refused.

use crate::common;

use ridgeline::sim::object::Order;
use ridgeline::sim::{Command, CommandId, PlayerId, RejectReason, StampedCommand, World};

fn order(w: &mut World, id: u32, command: Command) -> Vec<RejectReason> {
    let c = StampedCommand { frame: w.frame(), player: PlayerId(0), id: CommandId(id), command };
    w.tick(&[c]).rejections.into_iter().map(|r| r.reason).collect()
}

#[test]
fn a_gatherer_brings_money_from_the_nearest_pile() {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 1);
    let hauler_t = w.rules().template_id("Hauler").unwrap();
    let hauler = w.objects().find(|o| o.owner == PlayerId(0) && o.template == hauler_t).unwrap();
    let (hauler, at) = (hauler.id, hauler.pos);
    let pile = w.objects().filter(|o| o.supply > 0).min_by_key(|o| ((o.pos - at).length_squared(), o.id)).unwrap().id;
    let total = |w: &World| w.objects().map(|o| o.supply as i64).sum::<i64>();
    let (money0, supply0) = (w.players()[0].money, total(&w));
    assert!(supply0 > 0, "the map's piles hold money");
    assert!(order(&mut w, 1, Command::Select { objects: vec![hauler], add: false }).is_empty());
    assert!(order(&mut w, 2, Command::Gather { pile }).is_empty());
    assert!(matches!(w.object(hauler).unwrap().order, Order::Gather { .. }));
    for _ in 0..90 * 30 {
        w.tick(&[]);
    }
    let gained = w.players()[0].money - money0;
    assert!(gained >= 200, "several trips in 90 s (gained {gained})");
    assert_eq!(gained % 100, 0, "whole loads");
    // Money is moved, not made: what the players gained (the other's porter works too) plus
    // what rides on their gatherers left the piles.
    let gains: i64 = w.players().iter().map(|p| p.money).sum::<i64>() - 2 * money0;
    let riding: i64 = w.objects().map(|o| o.cargo as i64).sum();
    assert_eq!(supply0 - total(&w), gains + riding);
    assert_eq!(w.state_hash(), w.recomputed_state_hash());
}

#[test]
fn a_gatherer_new_to_the_field_goes_to_work_at_the_pile_nearest_its_depot_and_stays_where_it_is_stopped() {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 1);
    let gatherers: Vec<_> = w.objects().filter(|o| w.rules().template(o.template).gather.is_some()).collect();
    assert_eq!(gatherers.len(), 2, "each side starts with one");
    for g in &gatherers {
        // Each side's one depot is its headquarters; the pile with the shortest haul to it.
        let depot = w
            .objects()
            .find(|o| o.owner == g.owner && w.rules().template(o.template).supply_depot)
            .expect("a headquarters that takes in supplies");
        let best = w.objects().filter(|o| o.supply > 0).min_by_key(|o| ((o.pos - depot.pos).length_squared(), o.id));
        assert_eq!(g.order, Order::Gather { pile: best.unwrap().id }, "player {}", g.owner.0);
    }
    let hauler = gatherers.iter().find(|g| g.owner == PlayerId(0)).unwrap().id;
    // Stopped, it stays idle; a hauler trained without a rally point goes to work.
    assert!(order(&mut w, 1, Command::Select { objects: vec![hauler], add: false }).is_empty());
    assert!(order(&mut w, 2, Command::Stop).is_empty());
    let post_t = w.rules().template_id("CommandPost").unwrap();
    let hauler_t = w.rules().template_id("Hauler").unwrap();
    let post = w.objects().find(|o| o.owner == PlayerId(0) && o.template == post_t).unwrap().id;
    assert!(order(&mut w, 3, Command::Produce { factory: post, template: hauler_t }).is_empty());
    let before: Vec<_> = w.objects().map(|o| o.id).collect();
    for _ in 0..40 * 30 {
        w.tick(&[]);
    }
    assert_eq!(w.object(hauler).unwrap().order, Order::Idle, "the stopped hauler started again");
    let new = w.objects().find(|o| o.template == hauler_t && !before.contains(&o.id)).expect("trained in 40 s");
    assert!(matches!(new.order, Order::Gather { .. }), "the new hauler: {:?}", new.order);
    // With a rally point, the next goes there instead, as every unit does.
    let at = ridgeline::sim::Point { x: 600, y: 600 };
    assert!(order(&mut w, 4, Command::SetRally { factory: post, at }).is_empty());
    assert!(order(&mut w, 5, Command::Produce { factory: post, template: hauler_t }).is_empty());
    let before: Vec<_> = w.objects().map(|o| o.id).collect();
    for _ in 0..40 * 30 {
        w.tick(&[]);
    }
    let rallied = w.objects().find(|o| o.template == hauler_t && !before.contains(&o.id)).expect("trained in 40 s");
    assert!(!matches!(rallied.order, Order::Gather { .. }), "the rallied hauler: {:?}", rallied.order);
}

#[test]
fn gathering_needs_a_pile_and_a_gatherer() {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 1);
    let tank_t = w.rules().template_id("Bulwark").unwrap();
    let tank = w.objects().find(|o| o.owner == PlayerId(0) && o.template == tank_t).unwrap().id;
    let post = w.objects().find(|o| o.owner == PlayerId(0) && o.kind.blocks_ground()).unwrap().id;
    let pile = w.objects().find(|o| o.supply > 0).unwrap().id;
    assert!(order(&mut w, 1, Command::Select { objects: vec![tank], add: false }).is_empty());
    assert_eq!(order(&mut w, 2, Command::Gather { pile: post }), vec![RejectReason::InvalidTarget(post)]);
    assert_eq!(
        order(&mut w, 3, Command::Gather { pile }),
        vec![RejectReason::NothingSelected],
        "a tank does not gather"
    );
}

/// A new gatherer picks the pile with the shortest haul to a depot, not the one it stands by.
#[test]
fn a_new_gatherer_picks_the_pile_nearest_a_depot_over_the_one_beside_it() {
    use ridgeline::sim::fixed::Fixed;
    use ridgeline::sim::terrain::Terrain;
    use ridgeline::sim::vector::Vec2;
    use ridgeline::sim::world::{GameSetup, InitialObject, PlayerSetup};
    let defs = common::defs();
    let rules = defs.rules.clone();
    let id = |n: &str| rules.template_id(n).unwrap();
    let start = Vec2::from_int(1000, 1000);
    let at = |dx: i64| Vec2::from_int(1000 + dx, 1000);
    let object = |template, owner, pos, supply| InitialObject { template, owner, pos, supply };
    let objects = vec![
        object(id("SupplyPile"), PlayerId::NEUTRAL, at(-200), 5000),
        object(id("SupplyPile"), PlayerId::NEUTRAL, at(950), 5000),
        object(id("Hauler"), PlayerId(0), at(900), 0),
    ];
    let setup = GameSetup {
        rules: rules.clone(),
        terrain: Terrain::open(256, 256, Fixed::from_int(10), vec![start, Vec2::from_int(2400, 2400)]),
        players: vec![
            PlayerSetup::with_faction_money(&rules, 0, 0, 0),
            PlayerSetup::with_faction_money(&rules, 1, 1, 1),
        ],
        seed: 1,
        objects,
    };
    let w = World::new(setup).unwrap();
    let pile_at = |x: i64| w.objects().find(|o| o.supply > 0 && o.pos == at(x)).unwrap().id;
    let (by_depot, beside) = (pile_at(-200), pile_at(950));
    let far = w.objects().find(|o| o.template == id("Hauler") && o.pos == at(900)).unwrap();
    assert_eq!(far.order, Order::Gather { pile: by_depot }, "not the pile beside it ({beside:?})");
}
