//! The placement outline a player sees agrees with what the simulation does with the `Build`
//! command sent by the click: green exactly where the structure is placed, red exactly where
//! the place is refused. Both ask the simulation's one placement query; this proves the
//! client asks it about the very point its click would send.

use crate::common;

use glam::Vec2;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use ridgeline::game::battle::Battle;
use ridgeline::game::display::to_point;
use ridgeline::session::{MatchSetup, SlotKind, SlotSetup};
use ridgeline::sim::{Command, CommandId, Frame, RejectReason, StampedCommand};

const SCREEN: Vec2 = Vec2::new(1280.0, 720.0);

#[test]
fn the_outline_is_green_exactly_where_build_is_accepted() {
    let rich = |kind| SlotSetup { money: Some(1_000_000), ..SlotSetup::new(kind) };
    let setup = MatchSetup {
        map: "proving_grounds".into(),
        seed: 1,
        slots: vec![rich(SlotKind::Human), rich(SlotKind::Idle)],
        run_ahead: None,
        map_hash: None,
        content_hash: None,
    };
    let mut b = Battle::start(&common::roots(), &setup, SCREEN).expect("battle starts");
    // Select the dozer so the sim has a builder selected.
    let (me, dozer) = (b.local(), b.world().rules().template_id("Dozer").unwrap());
    let dozer = b.world().objects().find(|o| o.owner == me && o.template == dozer).unwrap().id;
    b.controls().select(vec![dozer]);
    for _ in 0..10 {
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    let me = b.local();
    assert!(!b.world().players()[me.index()].selection.is_empty(), "the selection reached the sim");
    let n_buttons = b.look().commands().len();
    assert!(n_buttons >= 2, "the dozer's structures: {:?}", b.look().commands());
    let b = std::cell::RefCell::new(b);
    let counts = std::cell::Cell::new((0u32, 0u32));
    let mut runner = TestRunner::new(Config { cases: 300, failure_persistence: None, ..Config::default() });
    let cases = (0..n_buttons, 0.0f32..SCREEN.x, 0.0f32..SCREEN.y);
    runner
        .run(&cases, |(button, x, y)| {
            let mut b = b.borrow_mut();
            b.controls().cancel_mode();
            b.controls().command_button(button);
            let cursor = Vec2::new(x, y);
            b.controls().mouse_move(cursor);
            let template = b.picture().placing().expect("placing");
            let (Some((fits, _)), Some(ground)) = (b.look().placement_preview(), b.look().ground_under(cursor)) else {
                return Ok(()); // the cursor is off the ground (sky): no outline, no click
            };
            let mut world = b.world().clone();
            let build = StampedCommand {
                frame: Frame(world.frame().0),
                player: me,
                id: CommandId(1_000_000),
                command: Command::Build { template, at: to_point(ground) },
            };
            let report = world.tick(&[build]);
            let refused_place = report
                .rejections
                .iter()
                .any(|r| matches!(r.reason, RejectReason::BadPlacement(..) | RejectReason::OutsideMap(_)));
            let (g, r) = counts.get();
            counts.set(if fits { (g + 1, r) } else { (g, r + 1) });
            prop_assert_eq!(fits, !refused_place, "at {:?}: {:?}", cursor, report.rejections);
            Ok(())
        })
        .unwrap();
    let (green, red) = counts.get();
    assert!(green > 20 && red > 20, "both outcomes were tried: {green} green, {red} red");
}

#[test]
fn structures_snap_alike_on_every_side_of_the_map() {
    let (world, _) = common::opening_game("idle,idle", 1);
    let size = world.terrain().world_size();
    let cell = world.terrain().cell_size();
    let fix = ridgeline::sim::Fixed::from_int;
    let v = |x: i64, y: i64| ridgeline::sim::Vec2::new(fix(x), fix(y));
    // Points off the cell lines and cell centres (ties), and the same points half a turn about
    // the middle.
    for (x, y) in [(203, 1083), (417, 96), (643, 637), (14, 1273)] {
        let p = v(x, y);
        let q = size - p;
        for footprint in [(2, 2), (3, 3), (4, 2), (1, 1)] {
            let a = world.snap_structure(p, footprint);
            let b = world.snap_structure(q, footprint);
            assert_eq!(a + b, size, "footprint {footprint:?} at ({x}, {y}): {a:?} and {b:?}");
            // Whole cells either side of the centre along every axis.
            for (c, n) in [(a.x, footprint.0), (a.y, footprint.1)] {
                let edge = c - cell.mul_int(n as i64).div_int(2);
                assert_eq!(edge, cell.mul_int((edge / cell).floor_int()), "cell-aligned edge");
            }
        }
    }
    // The nearest corner, not the one below: 2x2 placed 3 units short of a line snaps up to it.
    assert_eq!(world.snap_structure(v(207, 207), (2, 2)), v(210, 210));
    assert_eq!(world.snap_structure(v(203, 203), (2, 2)), v(200, 200));
}
