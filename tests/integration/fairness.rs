//! A fair start: on a point-symmetric map the two sides begin as mirror images, units leave a
//! factory on the side facing the battlefield wherever it stands, and the computer keeps its
//! gatherers' lanes clear, so neither start position wins by the layout the code gives it.

use crate::common;

use ridgeline::session::{CommandScript, PlayersSpec, start_local};
use ridgeline::sim::{Command, CommandId, PlayerId, StampedCommand, World};

/// A world of `spec` on proving_grounds (point-symmetric about its middle), before any frame.
fn proving_grounds(spec: &str, seed: u64) -> World {
    let (world, _) = common::opening_game(spec, seed);
    world
}

/// Positions in whole world units, player 1's turned half a circle about the map's middle.
fn mirrored(w: &World, player: u8) -> Vec<(String, i64, i64)> {
    let size = w.terrain().world_size();
    let (sx, sy) = (size.x.round_int(), size.y.round_int());
    let mut out: Vec<(String, i64, i64)> = w
        .objects()
        .filter(|o| o.owner == PlayerId(player))
        .map(|o| {
            let (x, y) = (o.pos.x.round_int(), o.pos.y.round_int());
            let (x, y) = if player == 1 { (sx - x, sy - y) } else { (x, y) };
            (w.rules().template(o.template).name.clone(), x, y)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn both_sides_of_a_symmetric_map_start_as_mirror_images() {
    for faction in ["Coalition", "Dominion"] {
        let w = proving_grounds(&format!("idle@{faction},idle@{faction}"), 1);
        let (a, b) = (mirrored(&w, 0), mirrored(&w, 1));
        assert!(a.len() > 5, "{faction}: a whole starting army: {a:?}");
        assert_eq!(a, b, "{faction}: player 1's start turned about the middle is player 0's");
    }
}

#[test]
fn units_leave_a_factory_on_the_side_facing_the_middle_of_the_map() {
    let mut w = proving_grounds("idle@Coalition,idle@Coalition", 1);
    let dozer = w.rules().template_id("Dozer").unwrap();
    let post = |w: &World, p: u8| {
        let t = w.rules().template_id("CommandPost").unwrap();
        w.objects().find(|o| o.owner == PlayerId(p) && o.template == t).map(|o| (o.id, o.pos)).unwrap()
    };
    let mut commands = Vec::new();
    for p in 0..2u8 {
        let (id, _) = post(&w, p);
        let command = Command::Produce { factory: id, template: dozer };
        commands.push(StampedCommand { frame: w.frame(), player: PlayerId(p), id: CommandId(1), command });
    }
    let report = w.tick(&commands);
    assert!(report.rejections.is_empty(), "{:?}", report.rejections);
    let before: Vec<_> = w.objects().map(|o| o.id).collect();
    for _ in 0..30 * 60 {
        w.tick(&[]);
    }
    let middle = w.terrain().world_size().scale(ridgeline::sim::fixed::Fixed::HALF);
    for p in 0..2u8 {
        let (_, at) = post(&w, p);
        let new: Vec<_> =
            w.objects().filter(|o| o.owner == PlayerId(p) && o.template == dozer && !before.contains(&o.id)).collect();
        assert_eq!(new.len(), 1, "player {p} trained one dozer");
        let (out, inward) = (new[0].pos - at, middle - at);
        let (ox, oy, ix, iy) = (out.x.round_int(), out.y.round_int(), inward.x.round_int(), inward.y.round_int());
        assert!(
            ox * ix + oy * iy > 0,
            "player {p}: the dozer came out at {out:?} from the post, the middle is {inward:?}"
        );
    }
}

/// The distance from `p` to the segment `a`–`b`, in world units.
fn to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (abx, aby) = (b.0 - a.0, b.1 - a.1);
    let t = (((p.0 - a.0) * abx + (p.1 - a.1) * aby) / (abx * abx + aby * aby)).clamp(0.0, 1.0);
    ((p.0 - a.0 - t * abx).powi(2) + (p.1 - a.1 - t * aby).powi(2)).sqrt()
}

#[test]
fn the_computer_builds_clear_of_its_gatherers_lanes() {
    let spec: PlayersSpec = "ai:hard@Coalition,ai:hard@Coalition".parse().unwrap();
    let setup = spec.to_match_setup("proving_grounds", 1, &common::playable());
    let mut game = start_local(&common::roots(), &setup, &CommandScript::default()).unwrap();
    for _ in 0..30 * 60 * 4 {
        game.session.step().unwrap();
    }
    let w = game.session.world();
    let rules = w.rules();
    let f = |v: ridgeline::sim::fixed::Fixed| v.round_int() as f64;
    let mut checked = 0;
    for p in 0..2u8 {
        let mine = || w.objects().filter(move |o| o.owner == PlayerId(p) && o.kind.blocks_ground() && o.is_complete());
        let depots: Vec<_> = mine().filter(|o| rules.template(o.template).supply_depot).map(|o| o.pos).collect();
        let worked: Vec<_> = w
            .objects()
            .filter(|o| o.owner == PlayerId(p))
            .filter_map(|o| match o.order {
                ridgeline::sim::object::Order::Gather { pile } => w.object(pile).map(|pile| pile.pos),
                _ => None,
            })
            .collect();
        assert!(!worked.is_empty(), "player {p} gathers");
        for pile in worked {
            let depot = depots.iter().min_by_key(|d| (**d - pile).length_squared()).copied().unwrap();
            for s in mine().filter(|o| !rules.template(o.template).supply_depot) {
                let fp = rules.template(s.template).footprint;
                // Half the footprint's longer side and a cell: a gatherer passes beside it.
                let clear = fp.0.max(fp.1) as f64 * 5.0 + 10.0;
                let d = to_segment((f(s.pos.x), f(s.pos.y)), (f(depot.x), f(depot.y)), (f(pile.x), f(pile.y)));
                assert!(
                    d >= clear,
                    "player {p}: {} at {:?} stands {d:.0} from the lane {depot:?}–{pile:?}",
                    rules.template(s.template).name,
                    s.pos
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "both bases have structures to check: {checked}");
}

/// On Four Corners the first two starts are mirror images across the map's upright middle
/// line: a left-right mirror, which turns a group's left into its right. Both armies sent as
/// one group each to the point between them walk as mirror images, unit for unit: which unit's
/// path the group shares, and which slot is placed first, must not depend on which side is
/// left (it did: the second player's riflemen walked by their right-hand neighbour's start,
/// and the computer in the second slot won four games in five of a hard Coalition mirror).
#[test]
fn groups_sent_from_mirrored_starts_walk_as_mirror_images() {
    let spec: PlayersSpec = "idle@Coalition,idle@Coalition".parse().unwrap();
    let setup = spec.to_match_setup("four_corners", 1, &common::playable());
    let mut w = ridgeline::session::start::prepare(&common::roots(), &setup, &CommandScript::default(), 0)
        .expect("match prepares")
        .world;
    let width = w.terrain().world_size().x.round_int();
    let army = |w: &World, p: u8| -> Vec<ridgeline::sim::ObjectId> {
        w.objects()
            .filter(|o| o.owner == PlayerId(p) && w.rules().template(o.template).is_armed())
            .map(|o| o.id)
            .collect()
    };
    let (a, b) = (army(&w, 0), army(&w, 1));
    assert!(a.len() >= 10 && a.len() == b.len(), "{a:?} {b:?}");
    let to = ridgeline::sim::Point { x: (width / 2) as i32, y: 360 };
    let mut commands = Vec::new();
    for (p, ids) in [(0u8, a.clone()), (1u8, b.clone())] {
        let player = PlayerId(p);
        let select = Command::Select { objects: ids, add: false };
        commands.push(StampedCommand { frame: w.frame(), player, id: CommandId(1), command: select });
        commands.push(StampedCommand { frame: w.frame(), player, id: CommandId(2), command: Command::Move { to } });
    }
    let report = w.tick(&commands);
    assert!(report.rejections.is_empty(), "{:?}", report.rejections);
    let place = |w: &World, id| w.object(id).map(|o| (o.pos.x.round_int(), o.pos.y.round_int())).unwrap();
    let start: Vec<_> = a.iter().map(|&id| place(&w, id)).collect();
    for frame in 1..=200 {
        w.tick(&[]);
        if frame % 10 != 0 {
            continue;
        }
        for (&left, &right) in a.iter().zip(&b) {
            let ((x0, y0), (x1, y1)) = (place(&w, left), place(&w, right));
            assert!(
                (x0 - (width - x1)).abs() <= 1 && (y0 - y1).abs() <= 1,
                "frame {frame}: {left:?} at ({x0}, {y0}), its mirror {right:?} at ({x1}, {y1})"
            );
        }
    }
    let centre = |xs: Vec<i64>| xs.iter().sum::<i64>() / xs.len() as i64;
    let (from, now) =
        (centre(start.iter().map(|s| s.0).collect()), centre(a.iter().map(|&id| place(&w, id).0).collect()));
    assert!(now >= from + 40, "the left army marched east: its centre from x {from} to {now}");
}
