//! Any command, however wrong, is applied or refused, never a panic: random streams of every
//! command kind with real and made-up ids, templates and points, from every player slot and
//! beyond, run against a real game. Afterwards the kept hash still equals a full
//! recomputation, no money went negative, and two runs of the same stream agree.

use crate::common;

use proptest::prelude::*;
use ridgeline::sim::{Command, CommandId, ObjectId, PlayerId, Point, StampedCommand, TemplateId, World};

/// A command built from random numbers; `ids` are the game's real object ids to mix in.
fn command(kind: u8, a: u32, b: u32, p: (i32, i32), ids: &[ObjectId]) -> Command {
    let id = |n: u32| -> ObjectId {
        if !n.is_multiple_of(3) && !ids.is_empty() {
            ids[n as usize % ids.len()]
        } else {
            ObjectId::from_bits((n as u64) << 7 ^ 0x1234)
        }
    };
    let template = TemplateId((b % 40) as u16);
    let at = Point { x: p.0, y: p.1 };
    match kind % 16 {
        0 => Command::Select {
            objects: (0..(a % 5)).map(|k| id(a.wrapping_add(k * 7919))).collect(),
            add: b.is_multiple_of(2),
        },
        1 => Command::Move { to: at },
        2 => Command::AttackMove { to: at },
        3 => Command::Attack { target: id(a) },
        4 => Command::Stop,
        5 => Command::Guard { at: b.is_multiple_of(2).then_some(at) },
        6 => Command::Produce { factory: id(a), template },
        7 => Command::CancelProduction { factory: id(a) },
        8 => Command::SetRally { factory: id(a), at },
        9 => Command::Build { template, at },
        10 => Command::Sell { structure: id(a) },
        11 => Command::Surrender,
        12 => Command::Resume { site: id(a) },
        13 => Command::Scatter,
        14 => Command::Formation { on: b.is_multiple_of(2) },
        _ => Command::Gather { pile: id(a) },
    }
}

type Raw = (u8, u8, u32, u32, (i32, i32));

/// Mostly points on or near the map, sometimes anything at all.
fn coord() -> impl Strategy<Value = i32> {
    prop_oneof![4 => -500i32..3000, 1 => any::<i32>()]
}

fn play(stream: &[Raw]) -> (World, Vec<u64>) {
    let (mut w, _) = common::opening_game("idle@Coalition,idle@Dominion", 9);
    let ids: Vec<ObjectId> = w.objects().map(|o| o.id).collect();
    let mut log = Vec::new();
    for (n, chunk) in stream.chunks(4).enumerate() {
        let cmds: Vec<StampedCommand> = chunk
            .iter()
            .enumerate()
            .map(|(k, &(player, kind, a, b, p))| StampedCommand {
                frame: w.frame(),
                player: PlayerId(player % 4),
                id: CommandId((n * 4 + k) as u32),
                command: command(kind, a, b, p, &ids),
            })
            .collect();
        w.tick(&cmds);
        for _ in 0..3 {
            w.tick(&[]);
        }
        log.push(w.state_hash().total);
    }
    (w, log)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_command_streams_never_break_the_game(
        stream in prop::collection::vec(
            (0u8..6, any::<u8>(), any::<u32>(), any::<u32>(), (coord(), coord())),
            1..120,
        )
    ) {
        let (w, log) = play(&stream);
        prop_assert_eq!(w.state_hash(), w.recomputed_state_hash());
        prop_assert!(w.players().iter().all(|p| p.money >= 0));
        let (_, again) = play(&stream);
        prop_assert_eq!(log, again);
    }
}
