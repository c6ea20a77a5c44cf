//! The wire format: a batch of [`WireMessage`]s in one compact, versioned byte string, one file
//! per protocol — `lockstep.rs` (commands, counts, hashes, pace), `handshake.rs` (hello,
//! welcome, refusal, start, bye), `lobby.rs` (chat, ready, roster, choices) and `control.rs`
//! (drops, run-ahead, desync reports) — over the primitives of `bytes.rs`. A command's kind
//! travels as its fixed [`CommandTag`] (`command.rs`), never as the simulation's execution class.
//! Every length is bounded and checked against the bytes actually left before anything is
//! allocated, so the decoder never panics and never allocates from an untrusted size.
//!
//! Must not: interpret what it decodes (the stream and the session decide).

pub(crate) mod bytes;
mod command;
mod control;
mod handshake;
mod lobby;
mod lockstep;
mod rejoin;
pub mod relay;
pub mod relay_status;

use thiserror::Error;

use super::wire::WireMessage;

pub use command::CommandTag;
pub use handshake::unreadable_hello;
pub use rejoin::MAX_HISTORY;

/// Longest name, build or reason string, in bytes.
pub const MAX_TEXT: usize = 512;
/// Longest match setup text, in bytes.
pub const MAX_SETUP: usize = 64 * 1024;
/// Most file digests in a hello or a start.
pub const MAX_FILES: usize = 64;
/// Most commands under one header.
pub const MAX_GROUP: usize = 1024;
/// Most items in one batch.
pub const MAX_ITEMS: usize = 8192;
/// Most slots in a roster.
pub const MAX_PLAYERS: usize = 16;
/// Most objects in a desync digest list.
pub const MAX_OBJECTS: usize = 1 << 16;
/// Most sub-hashes or fields in a desync message.
pub const MAX_FIELDS: usize = 64;

/// Bytes that are not a valid batch, and where.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("byte {at}: {what}")]
pub struct DecodeError {
    /// Offset of the problem.
    pub at: usize,
    /// What is wrong.
    pub what: String,
}

/// Encodes a batch. Consecutive commands of one player for one frame with consecutive ids
/// share a header.
pub fn encode(messages: &[WireMessage]) -> Vec<u8> {
    let mut w = Vec::with_capacity(16 + messages.len() * 8);
    let mut i = 0;
    while i < messages.len() {
        let rest = &messages[i..];
        i += match &rest[0] {
            WireMessage::Lockstep(_) => lockstep::write(&mut w, rest),
            WireMessage::Hello(h) => {
                handshake::hello(&mut w, h);
                1
            }
            WireMessage::Welcome { peer, host } => {
                handshake::welcome(&mut w, *peer, host);
                1
            }
            WireMessage::Refused { reason } => {
                handshake::refused(&mut w, reason);
                1
            }
            WireMessage::Start(s) => {
                handshake::start(&mut w, s);
                1
            }
            WireMessage::Bye => {
                handshake::bye(&mut w);
                1
            }
            WireMessage::Chat { from, text } => {
                lobby::chat(&mut w, from, text);
                1
            }
            WireMessage::Ready(r) => {
                lobby::ready(&mut w, *r);
                1
            }
            WireMessage::Roster(roster) => {
                lobby::roster(&mut w, roster);
                1
            }
            WireMessage::Choose { faction, colour } => {
                lobby::choose(&mut w, *faction, *colour);
                1
            }
            WireMessage::Observe(watch) => {
                lobby::observe(&mut w, *watch);
                1
            }
            WireMessage::Watch { start, owners, live } => {
                rejoin::watch(&mut w, start, owners, *live);
                1
            }
            WireMessage::Dropped { player, from } => {
                control::dropped(&mut w, *player, *from);
                1
            }
            WireMessage::RunAhead { at, value } => {
                control::run_ahead(&mut w, *at, *value);
                1
            }
            WireMessage::DesyncDigests { frame, subs, objects } => {
                control::desync_digests(&mut w, *frame, subs, objects);
                1
            }
            WireMessage::DesyncObject { frame, object, fields } => {
                control::desync_object(&mut w, *frame, *object, fields);
                1
            }
            WireMessage::Rejoin { start, machine, owners } => {
                rejoin::rejoin(&mut w, start, *machine, owners);
                1
            }
            WireMessage::History { through, commands, checkpoints } => {
                rejoin::history(&mut w, *through, commands, checkpoints);
                1
            }
            WireMessage::CaughtUp { frame } => {
                rejoin::caught_up(&mut w, *frame);
                1
            }
            WireMessage::Readmitted { player, peer, live, back } => {
                rejoin::readmitted(&mut w, *player, *peer, *live, *back);
                1
            }
        };
    }
    w
}

/// Decodes a batch; any fault is an error naming its offset, never a panic.
pub fn decode(bytes: &[u8]) -> Result<Vec<WireMessage>, DecodeError> {
    let mut r = bytes::Reader::new(bytes);
    let mut out = Vec::new();
    while !r.done() {
        if out.len() >= MAX_ITEMS {
            return r.fail(format!("more than {MAX_ITEMS} messages in one batch"));
        }
        let tag = r.u8()?;
        let known = lockstep::read(&mut r, tag, &mut out)?
            || handshake::read(&mut r, tag, &mut out)?
            || lobby::read(&mut r, tag, &mut out)?
            || control::read(&mut r, tag, &mut out)?
            || rejoin::read(&mut r, tag, &mut out)?;
        if !known {
            return Err(DecodeError { at: r.at() - 1, what: format!("unknown message tag {tag}") });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lockstep::message::Message;
    use crate::lockstep::pace::PaceChange;
    use crate::lockstep::transport::PeerId;
    use crate::net::wire::{FileDigest, Hello, Roster, RosterSlot, Seat, Start};
    use crate::sim::command::{Command, Point, StampedCommand};
    use crate::sim::ids::{CommandId, Frame, ObjectId, PlayerId, TemplateId, UpgradeId};

    fn stamped(player: u8, frame: u32, id: u32, command: Command) -> WireMessage {
        WireMessage::Lockstep(Message::Command(StampedCommand {
            frame: Frame(frame),
            player: PlayerId(player),
            id: CommandId(id),
            command,
        }))
    }

    #[test]
    fn every_message_round_trips() {
        let o = |index, generation| ObjectId { index, generation };
        let p = Point { x: -1200, y: 77 };
        let all = vec![
            stamped(1, 40, 7, Command::Select { objects: vec![o(5, 0), o(3, 2), o(900, 1)], add: true }),
            stamped(1, 40, 8, Command::Move { to: p }),
            stamped(1, 40, 9, Command::AttackMove { to: p }),
            stamped(1, 41, 10, Command::Attack { target: o(4, 9) }),
            stamped(2, 41, 0, Command::Stop),
            stamped(2, 41, 1, Command::Guard { at: None }),
            stamped(2, 41, 2, Command::Guard { at: Some(p) }),
            stamped(2, 41, 3, Command::Produce { factory: o(1, 0), template: TemplateId(12) }),
            stamped(2, 41, 4, Command::CancelProduction { factory: o(1, 0) }),
            stamped(2, 41, 5, Command::SetRally { factory: o(1, 0), at: p }),
            stamped(2, 41, 6, Command::Build { template: TemplateId(3), at: p }),
            stamped(2, 41, 7, Command::Gather { pile: o(66, 0) }),
            stamped(2, 42, 7, Command::Sell { structure: o(3, 1) }),
            stamped(2, 42, 8, Command::Repair { structure: o(3, 1) }),
            stamped(2, 42, 9, Command::PowerDown { structure: o(4, 0) }),
            stamped(2, 42, 10, Command::Research { structure: o(5, 2), upgrade: UpgradeId(7) }),
            stamped(2, 42, 11, Command::Resume { site: o(8, 1) }),
            stamped(2, 42, 12, Command::Surrender),
            stamped(2, 42, 16, Command::Scatter),
            stamped(2, 42, 17, Command::Formation { on: false }),
            stamped(2, 42, 13, Command::Queue { order: crate::sim::command::Queued::Move { to: p } }),
            stamped(2, 42, 14, Command::Queue { order: crate::sim::command::Queued::AttackMove { to: p } }),
            stamped(
                2,
                42,
                15,
                Command::Queue { order: crate::sim::command::Queued::Build { template: TemplateId(4), at: p } },
            ),
            WireMessage::Lockstep(Message::FrameCount { player: PlayerId(2), frame: Frame(44), count: 8 }),
            WireMessage::Lockstep(Message::Hash { player: PlayerId(0), frame: Frame(39), hash: u64::MAX - 3 }),
            WireMessage::Lockstep(Message::Pace { player: PlayerId(1), frame: Frame(45), change: PaceChange::Pause }),
            WireMessage::Lockstep(Message::Pace { player: PlayerId(0), frame: Frame(45), change: PaceChange::Resume }),
            WireMessage::Lockstep(Message::Pace {
                player: PlayerId(2),
                frame: Frame(46),
                change: PaceChange::Speed(150),
            }),
            WireMessage::Hello(Hello {
                protocol: 1,
                build: "0.1.0".into(),
                name: "Ava".into(),
                files: vec![FileDigest { name: "data/objects.ron".into(), digest: 42 }],
                seat: [7; 32],
                watch: true,
            }),
            WireMessage::Welcome { peer: PeerId(3), host: "Host".into() },
            WireMessage::Refused { reason: "data/objects.ron differs".into() },
            WireMessage::Start(Start {
                setup: "(map: \"x\", slots: [])".into(),
                map_files: vec![],
                unpaced: true,
                frames: 18_000,
            }),
            WireMessage::Dropped { player: PlayerId(1), from: Frame(900) },
            WireMessage::Bye,
            WireMessage::DesyncDigests { frame: Frame(501), subs: vec![1, 2, 3], objects: vec![(7, 99), (1 << 40, 5)] },
            WireMessage::DesyncObject { frame: Frame(501), object: 7, fields: vec![("pos.x".into(), "65536".into())] },
            WireMessage::Chat { from: "Ava".into(), text: "gl hf".into() },
            WireMessage::Ready(true),
            WireMessage::RunAhead { at: Frame(1200), value: 7 },
            WireMessage::Roster(Roster {
                map: "Crossroads".into(),
                money: 2,
                slots: [Seat::Player(PeerId(0)), Seat::Open, Seat::Closed, Seat::Ai(3)]
                    .into_iter()
                    .enumerate()
                    .map(|(i, seat)| RosterSlot {
                        seat,
                        name: "Host".into(),
                        ready: i == 1,
                        ping_ms: 300,
                        path: crate::net::wire::PathKind::Relayed,
                        faction: 1,
                        colour: i as u8,
                        team: 2,
                    })
                    .collect(),
            }),
            WireMessage::Choose { faction: 1, colour: 4 },
        ];
        assert_eq!(decode(&encode(&all)).unwrap(), all);
        let tags: std::collections::BTreeSet<CommandTag> = all
            .iter()
            .filter_map(|m| match m {
                WireMessage::Lockstep(Message::Command(c)) => Some(CommandTag::of(&c.command)),
                _ => None,
            })
            .collect();
        assert_eq!(tags.len(), CommandTag::ALL.len(), "every command kind is in the batch");
    }

    #[test]
    fn a_box_of_twelve_and_a_move_fit_in_forty_bytes() {
        let objects = (20..32).map(|index| ObjectId { index, generation: 0 }).collect();
        let batch = [
            stamped(0, 1000, 55, Command::Select { objects, add: false }),
            stamped(0, 1000, 56, Command::Move { to: Point { x: 1200, y: 900 } }),
        ];
        let bytes = encode(&batch);
        assert!(bytes.len() <= 40, "{} bytes", bytes.len());
        assert_eq!(decode(&bytes).unwrap(), batch);
    }

    #[test]
    fn an_unknown_tag_is_named_at_its_offset() {
        let e = decode(&[99]).unwrap_err();
        assert_eq!((e.at, e.what.as_str()), (0, "unknown message tag 99"));
        let e = decode(&[1, 0, 0, 0, 1, 20]).unwrap_err();
        assert_eq!((e.at, e.what.as_str()), (6, "unknown command kind 20"));
    }
}
