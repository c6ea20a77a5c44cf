//! The wire codec under hostile bytes: random and mutated batches never make a decoder panic
//! (they decode or are refused with an offset), and any batch of valid messages decodes to
//! exactly what was encoded. Commands are drawn from every [`CommandTag`], each by a generator
//! the compiler makes exist.

use proptest::prelude::*;
use ridgeline::lockstep::{Message, PaceChange, PeerId};
use ridgeline::net::codec::{CommandTag, decode, encode};
use ridgeline::net::wire::{FileDigest, Hello, Roster, RosterSlot, Seat, Start, WireMessage};
use ridgeline::sim::command::Queued;
use ridgeline::sim::ids::UpgradeId;
use ridgeline::sim::{Command, CommandId, Frame, ObjectId, PlayerId, Point, StampedCommand, TemplateId};

fn object() -> impl Strategy<Value = ObjectId> {
    (any::<u32>(), prop_oneof![3 => Just(0u32), 1 => any::<u32>()])
        .prop_map(|(index, generation)| ObjectId { index, generation })
}

fn point() -> impl Strategy<Value = Point> {
    (any::<i32>(), any::<i32>()).prop_map(|(x, y)| Point { x, y })
}

/// Commands of one kind. The match has no wildcard, so a new [`CommandTag`] does not compile
/// here until it has a generator; [`command`] draws from every tag in `CommandTag::ALL`.
fn command_of(tag: CommandTag) -> BoxedStrategy<Command> {
    match tag {
        CommandTag::Select => (prop::collection::vec(object(), 0..40), any::<bool>())
            .prop_map(|(objects, add)| Command::Select { objects, add })
            .boxed(),
        CommandTag::Move => point().prop_map(|to| Command::Move { to }).boxed(),
        CommandTag::AttackMove => point().prop_map(|to| Command::AttackMove { to }).boxed(),
        CommandTag::Attack => object().prop_map(|target| Command::Attack { target }).boxed(),
        CommandTag::Stop => Just(Command::Stop).boxed(),
        CommandTag::Guard => prop::option::of(point()).prop_map(|at| Command::Guard { at }).boxed(),
        CommandTag::Produce => (object(), any::<u16>())
            .prop_map(|(factory, t)| Command::Produce { factory, template: TemplateId(t) })
            .boxed(),
        CommandTag::CancelProduction => object().prop_map(|factory| Command::CancelProduction { factory }).boxed(),
        CommandTag::SetRally => (object(), point()).prop_map(|(factory, at)| Command::SetRally { factory, at }).boxed(),
        CommandTag::Build => {
            (any::<u16>(), point()).prop_map(|(t, at)| Command::Build { template: TemplateId(t), at }).boxed()
        }
        CommandTag::Gather => object().prop_map(|pile| Command::Gather { pile }).boxed(),
        CommandTag::Sell => object().prop_map(|structure| Command::Sell { structure }).boxed(),
        CommandTag::Surrender => Just(Command::Surrender).boxed(),
        CommandTag::Resume => object().prop_map(|site| Command::Resume { site }).boxed(),
        CommandTag::Repair => object().prop_map(|structure| Command::Repair { structure }).boxed(),
        CommandTag::PowerDown => object().prop_map(|structure| Command::PowerDown { structure }).boxed(),
        CommandTag::Research => (object(), any::<u16>())
            .prop_map(|(structure, u)| Command::Research { structure, upgrade: UpgradeId(u) })
            .boxed(),
        CommandTag::Queue => prop_oneof![
            point().prop_map(|to| Queued::Move { to }),
            point().prop_map(|to| Queued::AttackMove { to }),
            (any::<u16>(), point()).prop_map(|(t, at)| Queued::Build { template: TemplateId(t), at }),
        ]
        .prop_map(|order| Command::Queue { order })
        .boxed(),
        CommandTag::Scatter => Just(Command::Scatter).boxed(),
        CommandTag::Formation => any::<bool>().prop_map(|on| Command::Formation { on }).boxed(),
    }
}

/// Any command: a tag drawn from every tag there is, then a command of that kind.
fn command() -> impl Strategy<Value = Command> {
    prop::sample::select(CommandTag::ALL.to_vec()).prop_flat_map(command_of)
}

fn text() -> impl Strategy<Value = String> {
    ".{0,40}"
}

fn digest() -> impl Strategy<Value = FileDigest> {
    (text(), any::<u64>()).prop_map(|(name, digest)| FileDigest { name, digest })
}

/// One lobby slot, every seat kind.
fn roster_slot() -> impl Strategy<Value = RosterSlot> {
    let seat = prop_oneof![
        Just(Seat::Open),
        Just(Seat::Closed),
        (0u8..=3).prop_map(Seat::Ai),
        any::<u8>().prop_map(|p| Seat::Player(PeerId(p))),
        any::<u8>().prop_map(|p| Seat::Observer(PeerId(p))),
    ];
    let path = prop_oneof![
        Just(ridgeline::net::nat::PathKind::Lan),
        Just(ridgeline::net::nat::PathKind::Direct),
        Just(ridgeline::net::nat::PathKind::Relayed)
    ];
    (seat, text(), any::<bool>(), (any::<u16>(), path), any::<(u8, u8, u8)>()).prop_map(
        |(seat, name, ready, (ping_ms, path), (faction, colour, team))| RosterSlot {
            seat,
            name,
            ready,
            ping_ms,
            path,
            faction,
            colour,
            team,
        },
    )
}

fn message() -> impl Strategy<Value = WireMessage> {
    prop_oneof![
        6 => (any::<u8>(), any::<u32>(), any::<u32>(), command()).prop_map(|(p, f, id, command)| {
            WireMessage::Lockstep(Message::Command(StampedCommand {
                frame: Frame(f),
                player: PlayerId(p),
                id: CommandId(id),
                command,
            }))
        }),
        2 => (any::<u8>(), any::<u32>(), any::<u32>()).prop_map(|(p, f, count)| {
            WireMessage::Lockstep(Message::FrameCount { player: PlayerId(p), frame: Frame(f), count })
        }),
        2 => (any::<u8>(), any::<u32>(), any::<u64>()).prop_map(|(p, f, hash)| {
            WireMessage::Lockstep(Message::Hash { player: PlayerId(p), frame: Frame(f), hash })
        }),
        1 => (any::<u8>(), any::<u32>(), prop_oneof![
            Just(PaceChange::Pause),
            Just(PaceChange::Resume),
            any::<u16>().prop_map(PaceChange::Speed)
        ])
            .prop_map(|(p, f, change)| WireMessage::Lockstep(Message::Pace { player: PlayerId(p), frame: Frame(f), change })),
        1 => (any::<u16>(), text(), text(), prop::collection::vec(digest(), 0..5), any::<[u8; 32]>(), any::<bool>())
            .prop_map(|(protocol, build, name, files, seat, watch)| {
                WireMessage::Hello(Hello { protocol, build, name, files, seat, watch })
            }),
        1 => any::<bool>().prop_map(WireMessage::Observe),
        1 => (text(), any::<u32>(), prop::collection::vec((any::<u8>(), any::<u8>()), 0..8)).prop_map(|(setup, live, owners)| {
            let start = Start { setup, map_files: Vec::new(), unpaced: false, frames: 9000 };
            let owners = owners.into_iter().map(|(p, q)| (PlayerId(p), PeerId(q))).collect();
            WireMessage::Watch { start, owners, live: Frame(live) }
        }),
        1 => (any::<u32>(), any::<u32>(), any::<u8>(), any::<u8>()).prop_map(|(live, back, p, q)| WireMessage::Readmitted {
            player: PlayerId(p),
            peer: PeerId(q),
            live: Frame(live),
            back: Frame(back),
        }),
        1 => any::<u32>().prop_map(|f| WireMessage::CaughtUp { frame: Frame(f) }),
        1 => (any::<u8>(), text()).prop_map(|(p, host)| WireMessage::Welcome { peer: PeerId(p), host }),
        1 => text().prop_map(|reason| WireMessage::Refused { reason }),
        1 => (text(), prop::collection::vec(digest(), 0..5), any::<bool>(), any::<u32>())
            .prop_map(|(setup, map_files, unpaced, frames)| WireMessage::Start(Start { setup, map_files, unpaced, frames })),
        1 => (any::<u8>(), any::<u32>()).prop_map(|(p, f)| WireMessage::Dropped { player: PlayerId(p), from: Frame(f) }),
        1 => Just(WireMessage::Bye),
        1 => (any::<u32>(), prop::collection::vec(any::<u64>(), 0..6), prop::collection::vec((any::<u64>(), any::<u64>()), 0..20))
            .prop_map(|(f, subs, objects)| WireMessage::DesyncDigests { frame: Frame(f), subs, objects }),
        1 => (text(), text()).prop_map(|(from, text)| WireMessage::Chat { from, text }),
        1 => any::<bool>().prop_map(WireMessage::Ready),
        1 => (any::<u32>(), any::<u8>()).prop_map(|(f, value)| WireMessage::RunAhead { at: Frame(f), value }),
        1 => (text(), any::<u8>(), prop::collection::vec(roster_slot(), 0..5))
            .prop_map(|(map, money, slots)| WireMessage::Roster(Roster { map, money, slots })),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(faction, colour)| WireMessage::Choose { faction, colour }),
        1 => (any::<u32>(), any::<u64>(), prop::collection::vec((text(), text()), 0..6))
            .prop_map(|(f, object, fields)| WireMessage::DesyncObject { frame: Frame(f), object, fields }),
    ]
}

#[test]
fn every_tag_generates_commands_of_its_kind() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for tag in CommandTag::ALL {
        for _ in 0..20 {
            let c = command_of(tag).new_tree(&mut runner).unwrap().current();
            assert_eq!(CommandTag::of(&c), tag);
        }
        assert_eq!(CommandTag::from_u8(tag as u8), Some(tag));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn valid_batches_round_trip(batch in prop::collection::vec(message(), 0..30)) {
        prop_assert_eq!(decode(&encode(&batch)).unwrap(), batch);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Err(e) = decode(&bytes) {
            prop_assert!(e.at <= bytes.len());
        }
    }

    #[test]
    fn mutated_batches_never_panic(
        batch in prop::collection::vec(message(), 1..12),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = encode(&batch);
        for (at, b) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        let _ = decode(&bytes);
        let end = cut.index(bytes.len() + 1);
        let _ = decode(&bytes[..end]);
    }
}
