//! Production and construction through commands: a dozer raises a barracks, the barracks
//! trains riflemen that walk to the rally point, money is spent and refunded, and every bad
//! request is refused identically (never a panic).

use crate::common;

use ridgeline::sim::object::Order;
use ridgeline::sim::{Command, CommandId, ObjectId, PlayerId, Point, RejectReason, StampedCommand, TemplateId, World};

const P0: PlayerId = PlayerId(0);

/// Runs one frame with `commands` from player 0; returns the rejections.
fn tick(w: &mut World, next_id: &mut u32, commands: Vec<Command>) -> Vec<RejectReason> {
    let stamped: Vec<StampedCommand> = commands
        .into_iter()
        .map(|command| {
            *next_id += 1;
            StampedCommand { frame: w.frame(), player: P0, id: CommandId(*next_id), command }
        })
        .collect();
    w.tick(&stamped).rejections.into_iter().map(|r| r.reason).collect()
}

fn run(w: &mut World, frames: u32) {
    for _ in 0..frames {
        w.tick(&[]);
    }
}

fn template(w: &World, name: &str) -> TemplateId {
    w.rules().template_id(name).unwrap()
}

fn first(w: &World, name: &str) -> ObjectId {
    let t = template(w, name);
    w.objects().find(|o| o.owner == P0 && o.template == t).map(|o| o.id).unwrap()
}

fn money(w: &World) -> i64 {
    w.players()[0].money
}

/// A world where player 0 (Coalition) has just finished a barracks next to its command post.
fn with_barracks() -> (World, u32, ObjectId) {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 1);
    let mut n = 0;
    let dozer = first(&w, "Dozer");
    let post = w.object(first(&w, "CommandPost")).unwrap().pos;
    let start = money(&w);
    // Proving Grounds: player 1 starts at cell (20, 108); build to the east of the post.
    let at = Point { x: (post.x.round_int() + 90) as i32, y: post.y.round_int() as i32 };
    let barracks_t = template(&w, "Barracks");
    let r = tick(
        &mut w,
        &mut n,
        vec![Command::Select { objects: vec![dozer], add: false }, Command::Build { template: barracks_t, at }],
    );
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(money(&w), start - 500, "paid when placed");
    run(&mut w, 1);
    let site = first(&w, "Barracks");
    assert!(!w.object(site).unwrap().is_complete());
    assert!(matches!(w.object(dozer).unwrap().order, Order::Construct { site: s } if s == site));
    let early = w.object(site).unwrap().health;
    // 15 s of work plus the walk.
    run(&mut w, 15 * 30 + 300);
    let b = w.object(site).unwrap();
    assert!(b.is_complete(), "the dozer finished the barracks");
    assert_eq!(b.health, w.rules().template(barracks_t).max_health);
    assert!(early < b.health);
    assert_eq!(w.object(dozer).unwrap().order, Order::Idle, "the builder is free again");
    (w, n, site)
}

#[test]
fn a_dozer_builds_a_barracks_that_trains_riflemen_for_the_rally_point() {
    let (mut w, mut n, barracks) = with_barracks();
    let rifleman = template(&w, "Rifleman");
    let before = money(&w);
    let riflemen = |w: &World| w.objects().filter(|o| o.owner == P0 && o.template == rifleman).count();
    let count = riflemen(&w);
    let bpos = w.object(barracks).unwrap().pos;
    let rally = Point { x: bpos.x.round_int() as i32, y: (bpos.y.round_int() - 120) as i32 };
    let r = tick(
        &mut w,
        &mut n,
        vec![
            Command::SetRally { factory: barracks, at: rally },
            Command::Produce { factory: barracks, template: rifleman },
            Command::Produce { factory: barracks, template: rifleman },
        ],
    );
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(money(&w), before - 450);
    assert_eq!(w.factories().queue(barracks).len(), 2);
    // Cancel the second: refunded.
    assert!(tick(&mut w, &mut n, vec![Command::CancelProduction { factory: barracks }]).is_empty());
    assert_eq!(money(&w), before - 225);
    run(&mut w, 5 * 30 + 5);
    assert_eq!(riflemen(&w), count + 1, "one rifleman after five seconds");
    assert!(w.factories().queue(barracks).is_empty());
    let new = w.objects().filter(|o| o.template == rifleman && o.owner == P0).max_by_key(|o| o.id.index).unwrap().id;
    run(&mut w, 10 * 30);
    let p = w.object(new).unwrap().pos;
    let d = p - Point::to_vec2(rally);
    assert!(d.length().round_int() < 30, "the new unit walked to the rally point");
}

#[test]
fn bad_production_and_construction_requests_are_refused() {
    let (mut w, mut n, barracks) = with_barracks();
    let post = first(&w, "CommandPost");
    let (rifleman, dozer_t, warfactory) = (template(&w, "Rifleman"), template(&w, "Dozer"), template(&w, "WarFactory"));
    let produce = |f, t| Command::Produce { factory: f, template: t };
    let mut refused = |w: &mut World, c: Command| tick(w, &mut n, vec![c]).into_iter().next();
    // The command post makes dozers, not riflemen; unknown templates are named, not a panic.
    assert_eq!(refused(&mut w, produce(post, rifleman)), Some(RejectReason::CannotBuild(post, rifleman)));
    assert_eq!(
        refused(&mut w, produce(post, TemplateId(9999))),
        Some(RejectReason::CannotBuild(post, TemplateId(9999)))
    );
    assert!(matches!(
        refused(&mut w, Command::Build { template: TemplateId(9999), at: Point { x: 100, y: 100 } }),
        Some(RejectReason::UnknownTemplate(_))
    ));
    // Someone else's structure.
    let theirs = w.objects().find(|o| o.owner == PlayerId(1) && o.kind.blocks_ground()).unwrap().id;
    assert_eq!(refused(&mut w, produce(theirs, dozer_t)), Some(RejectReason::NotOwner(theirs)));
    let dozer = first(&w, "Dozer");
    assert_eq!(refused(&mut w, Command::Select { objects: vec![dozer], add: false }), None);
    // A structure on top of the command post does not fit.
    let p = w.object(post).unwrap().pos;
    let on_post = Point { x: p.x.round_int() as i32, y: p.y.round_int() as i32 };
    assert_eq!(
        refused(&mut w, Command::Build { template: warfactory, at: on_post }),
        Some(RejectReason::BadPlacement(on_post, ridgeline::sim::command::Blocker::Structure))
    );
    // Nine in a queue, then full; then out of money.
    for _ in 0..9 {
        assert_eq!(refused(&mut w, produce(barracks, rifleman)), None);
    }
    assert_eq!(refused(&mut w, produce(barracks, rifleman)), Some(RejectReason::QueueFull(barracks)));
    let left = money(&w);
    let mut spent = 0;
    let price = w.rules().template(dozer_t).cost;
    while money(&w) >= price {
        assert_eq!(refused(&mut w, produce(post, dozer_t)), None);
        spent += 1;
        assert!(spent < 20);
    }
    // The post's queue is full now too; a war factory where one fits is more than is left.
    let spot = (1..12)
        .flat_map(|r| [(r * 30, 0), (-r * 30, 0), (0, r * 30), (0, -r * 30)])
        .map(|(dx, dy)| Point { x: on_post.x + dx, y: on_post.y + dy })
        .find(|&at| w.placement(warfactory, at, Some(dozer)).is_ok())
        .expect("a free place near the post");
    let last = refused(&mut w, Command::Build { template: warfactory, at: spot });
    assert!(matches!(last, Some(RejectReason::NotEnoughMoney { .. })), "{last:?} with {} left", money(&w));
    assert!(money(&w) < left);
    // Cancelling the whole queue refunds every rifleman; one more cancel has nothing to take.
    let before = money(&w);
    for _ in 0..9 {
        assert_eq!(refused(&mut w, Command::CancelProduction { factory: barracks }), None);
    }
    assert_eq!(money(&w), before + 9 * 225);
    assert_eq!(
        refused(&mut w, Command::CancelProduction { factory: barracks }),
        Some(RejectReason::NothingQueued(barracks))
    );
    // Everything stays consistent: the kept hash equals a full recomputation.
    assert_eq!(w.state_hash(), w.recomputed_state_hash());
}

#[test]
fn a_sold_structure_pays_back_half_its_price_and_its_queue_and_is_gone() {
    let (mut w, mut n, barracks) = with_barracks();
    let rifleman = template(&w, "Rifleman");
    assert!(tick(&mut w, &mut n, vec![Command::Produce { factory: barracks, template: rifleman }]).is_empty());
    assert!(tick(&mut w, &mut n, vec![Command::Produce { factory: barracks, template: rifleman }]).is_empty());
    let before = money(&w);
    // Half of the barracks' 500, and both riflemen (225 each) that were paid for.
    assert_eq!(w.can_sell(P0, barracks), Ok(250 + 2 * 225));
    let stamped = StampedCommand {
        frame: w.frame(),
        player: P0,
        id: CommandId(9_000),
        command: Command::Sell { structure: barracks },
    };
    let twice = StampedCommand { id: CommandId(9_001), ..stamped.clone() };
    let report = w.tick(&[stamped, twice]);
    // The second sale in the same frame is refused; the first pays once.
    assert_eq!(
        report.rejections.iter().map(|r| r.reason.clone()).collect::<Vec<_>>(),
        [RejectReason::UnknownObject(barracks)]
    );
    assert_eq!(money(&w), before + 700);
    assert!(
        report.events.iter().any(|e| matches!(e, ridgeline::sim::event::GameEvent::StructureSold { refund: 700, .. }))
    );
    assert!(
        !report.events.iter().any(|e| matches!(e, ridgeline::sim::event::GameEvent::Killed { .. })),
        "a sale is not a loss"
    );
    assert!(w.object(barracks).is_none(), "gone at the end of the frame");
    assert!(w.factories().queue(barracks).is_empty());
    // Nothing else can be sold: a unit, the enemy's headquarters.
    let dozer = first(&w, "Dozer");
    assert_eq!(w.can_sell(P0, dozer), Err(RejectReason::InvalidTarget(dozer)));
    let hq_t = template(&w, "Headquarters");
    let hq = w.objects().find(|o| o.template == hq_t).unwrap().id;
    assert_eq!(w.can_sell(P0, hq), Err(RejectReason::NotOwner(hq)));
}

#[test]
fn a_builder_called_away_resumes_the_site_and_finishes_it() {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 1);
    let mut n = 0;
    let dozer = first(&w, "Dozer");
    let post = w.object(first(&w, "CommandPost")).unwrap().pos;
    let at = Point { x: (post.x.round_int() + 90) as i32, y: post.y.round_int() as i32 };
    let barracks_t = template(&w, "Barracks");
    let build = vec![Command::Select { objects: vec![dozer], add: false }, Command::Build { template: barracks_t, at }];
    assert!(tick(&mut w, &mut n, build).is_empty());
    run(&mut w, 1);
    let site = first(&w, "Barracks");
    // Called away before it starts: the site stands unfinished however long one waits.
    assert!(tick(&mut w, &mut n, vec![Command::Stop]).is_empty());
    run(&mut w, 30 * 30);
    let left = w.object(site).unwrap().construction;
    assert!(left.is_some(), "nobody works on it");
    // A rifleman cannot build it; the dozer goes back and finishes it.
    let rifleman = first(&w, "Rifleman");
    let refused =
        tick(&mut w, &mut n, vec![Command::Select { objects: vec![rifleman], add: false }, Command::Resume { site }]);
    assert_eq!(refused, vec![RejectReason::NothingSelected]);
    let resumed =
        tick(&mut w, &mut n, vec![Command::Select { objects: vec![dozer], add: false }, Command::Resume { site }]);
    assert!(resumed.is_empty(), "{resumed:?}");
    assert!(matches!(w.object(dozer).unwrap().order, Order::Construct { site: s } if s == site));
    run(&mut w, 15 * 30 + 300);
    assert!(w.object(site).unwrap().is_complete(), "the dozer finished the barracks");
    // A finished structure is no site to resume.
    let again =
        tick(&mut w, &mut n, vec![Command::Select { objects: vec![dozer], add: false }, Command::Resume { site }]);
    assert_eq!(again, vec![RejectReason::InvalidTarget(site)]);
}
