//! A player's return on the wire: the host's `Rejoin` (the match's start, the machine, who
//! speaks for whom), the `History` of executed commands with checkpoint hashes, the
//! returning machine's `CaughtUp`, and the host's `Readmitted` to everyone.
//!
//! Must not: act on what it reads (the session's rejoin does).

use crate::lockstep::message::Message;
use crate::lockstep::transport::PeerId;
use crate::net::wire::{Start, WireMessage};
use crate::sim::command::StampedCommand;
use crate::sim::ids::{Frame, PlayerId};

use super::bytes::{Reader, varint};
use super::{DecodeError, MAX_ITEMS, MAX_PLAYERS, handshake, lockstep};

const T_REJOIN: u8 = 40;
const T_HISTORY: u8 = 41;
const T_CAUGHT_UP: u8 = 42;
const T_READMITTED: u8 = 43;
const T_WATCH: u8 = 44;

/// Most commands one `History` message carries (the host sends more in several).
pub const MAX_HISTORY: usize = MAX_ITEMS / 2;

/// Most bytes of commands one `History` message carries (the transport's frames are no larger).
const MAX_HISTORY_BYTES: usize = 1 << 20;

/// Most checkpoints one `History` message carries.
const MAX_CHECKPOINTS: usize = 1 << 14;

pub(super) fn rejoin(w: &mut Vec<u8>, start: &Start, machine: u8, owners: &[(PlayerId, PeerId)]) {
    w.push(T_REJOIN);
    w.push(machine);
    varint(w, owners.len() as u64);
    for (player, peer) in owners {
        w.push(player.0);
        w.push(peer.0);
    }
    handshake::start(w, start);
}

pub(super) fn watch(w: &mut Vec<u8>, start: &Start, owners: &[(PlayerId, PeerId)], live: Frame) {
    w.push(T_WATCH);
    varint(w, live.0 as u64);
    varint(w, owners.len() as u64);
    for (player, peer) in owners {
        w.push(player.0);
        w.push(peer.0);
    }
    handshake::start(w, start);
}

pub(super) fn history(w: &mut Vec<u8>, through: Frame, commands: &[StampedCommand], checkpoints: &[(Frame, u64)]) {
    w.push(T_HISTORY);
    varint(w, through.0 as u64);
    varint(w, checkpoints.len() as u64);
    for (frame, hash) in checkpoints {
        varint(w, frame.0 as u64);
        w.extend_from_slice(&hash.to_le_bytes());
    }
    // The commands in the lockstep encoding, behind their length.
    let batch: Vec<WireMessage> = commands.iter().map(|c| WireMessage::Lockstep(Message::Command(c.clone()))).collect();
    let mut body = Vec::new();
    let mut i = 0;
    while i < batch.len() {
        i += lockstep::write(&mut body, &batch[i..]).max(1);
    }
    varint(w, commands.len() as u64);
    varint(w, body.len() as u64);
    w.extend_from_slice(&body);
}

pub(super) fn caught_up(w: &mut Vec<u8>, frame: Frame) {
    w.push(T_CAUGHT_UP);
    varint(w, frame.0 as u64);
}

pub(super) fn readmitted(w: &mut Vec<u8>, player: PlayerId, peer: PeerId, live: Frame, back: Frame) {
    w.push(T_READMITTED);
    w.push(player.0);
    w.push(peer.0);
    varint(w, live.0 as u64);
    varint(w, back.0 as u64);
}

/// Reads who speaks for whom: (player, peer) pairs behind their count.
fn read_owners(r: &mut Reader) -> Result<Vec<(PlayerId, PeerId)>, DecodeError> {
    let n = r.count(MAX_PLAYERS, 2, "owners")?;
    let mut owners = Vec::with_capacity(n);
    for _ in 0..n {
        let player = PlayerId(r.u8()?);
        owners.push((player, PeerId(r.u8()?)));
    }
    Ok(owners)
}

/// Reads the match's start that ends `what` (a rejoin or a watch).
fn read_start(r: &mut Reader, what: &str) -> Result<Start, DecodeError> {
    let at = r.at();
    let mut inner = Vec::new();
    let start_tag = r.u8()?;
    match handshake::read(r, start_tag, &mut inner)? {
        true => match inner.pop() {
            Some(WireMessage::Start(s)) => Ok(s),
            _ => Err(DecodeError { at, what: format!("{what} without the match's start") }),
        },
        false => Err(DecodeError { at, what: format!("{what} without the match's start") }),
    }
}

/// Reads `count` commands written by the lockstep encoder from `body` (commands only).
fn read_commands(body: &[u8], count: usize, at: usize) -> Result<Vec<StampedCommand>, DecodeError> {
    let mut r = Reader::new(body);
    let mut out = Vec::new();
    while !r.done() {
        if out.len() > count {
            break;
        }
        let tag = r.u8()?;
        if !lockstep::read(&mut r, tag, &mut out)? {
            return Err(DecodeError { at: at + r.at() - 1, what: format!("a history holds message tag {tag}") });
        }
    }
    let commands: Vec<StampedCommand> = out
        .into_iter()
        .filter_map(|m| match m {
            WireMessage::Lockstep(Message::Command(c)) => Some(c),
            _ => None,
        })
        .collect();
    if commands.len() != count {
        return Err(DecodeError { at, what: format!("a history says {count} commands but holds other messages") });
    }
    Ok(commands)
}

pub(super) fn read(r: &mut Reader, tag: u8, out: &mut Vec<WireMessage>) -> Result<bool, DecodeError> {
    out.push(match tag {
        T_REJOIN => {
            let machine = r.u8()?;
            let owners = read_owners(r)?;
            WireMessage::Rejoin { start: read_start(r, "a rejoin")?, machine, owners }
        }
        T_WATCH => {
            let live = Frame(r.u32v("frame")?);
            let owners = read_owners(r)?;
            WireMessage::Watch { start: read_start(r, "a watch")?, owners, live }
        }
        T_HISTORY => {
            let through = Frame(r.u32v("frame")?);
            let n = r.count(MAX_CHECKPOINTS, 9, "checkpoints")?;
            let mut checkpoints = Vec::with_capacity(n);
            for _ in 0..n {
                let frame = Frame(r.u32v("frame")?);
                checkpoints.push((frame, r.u64_le()?));
            }
            let count = r.count(MAX_HISTORY, 0, "commands")?;
            let len = r.count(MAX_HISTORY_BYTES, 1, "history bytes")?;
            let at = r.at();
            let body = r.take(len)?;
            WireMessage::History { through, commands: read_commands(body, count, at)?, checkpoints }
        }
        T_CAUGHT_UP => WireMessage::CaughtUp { frame: Frame(r.u32v("frame")?) },
        T_READMITTED => {
            let player = PlayerId(r.u8()?);
            let peer = PeerId(r.u8()?);
            let live = Frame(r.u32v("frame")?);
            WireMessage::Readmitted { player, peer, live, back: Frame(r.u32v("frame")?) }
        }
        _ => return Ok(false),
    });
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::{decode, encode};
    use super::*;
    use crate::sim::command::{Command, Point};
    use crate::sim::ids::CommandId;

    fn start() -> Start {
        Start { setup: "(map: \"crossroads\")".into(), map_files: Vec::new(), unpaced: true, frames: 900 }
    }

    #[test]
    fn a_return_round_trips() {
        let mv = |frame, player, id| StampedCommand {
            player: PlayerId(player),
            id: CommandId(id),
            frame: Frame(frame),
            command: Command::Move { to: Point { x: 100, y: -20 } },
        };
        let messages = vec![
            WireMessage::Rejoin {
                start: start(),
                machine: 1,
                owners: vec![(PlayerId(0), PeerId(0)), (PlayerId(1), PeerId(3))],
            },
            WireMessage::History {
                through: Frame(1200),
                commands: vec![mv(4, 0, 0), mv(4, 0, 1), mv(900, 1, 0)],
                checkpoints: vec![(Frame(0), 11), (Frame(300), u64::MAX)],
            },
            WireMessage::History { through: Frame(1215), commands: Vec::new(), checkpoints: Vec::new() },
            WireMessage::CaughtUp { frame: Frame(1215) },
            WireMessage::Watch { start: start(), owners: vec![(PlayerId(0), PeerId(0))], live: Frame(5021) },
            WireMessage::Readmitted { player: PlayerId(1), peer: PeerId(3), live: Frame(1260), back: Frame(1266) },
        ];
        assert_eq!(decode(&encode(&messages)).unwrap(), messages);
    }

    #[test]
    fn a_history_that_lies_about_its_commands_is_refused() {
        let bytes =
            encode(&[WireMessage::History { through: Frame(9), commands: Vec::new(), checkpoints: Vec::new() }]);
        let mut lying = bytes.clone();
        // The command count (after tag, through and the empty checkpoint list) says one.
        lying[3] = 1;
        assert!(decode(&lying).unwrap_err().what.contains("says 1 commands"));
        // A rejoin whose start is something else.
        let mut w = Vec::new();
        w.extend_from_slice(&[T_REJOIN, 1, 0]);
        w.extend_from_slice(&encode(&[WireMessage::Bye]));
        assert!(decode(&w).unwrap_err().what.contains("without the match's start"));
    }
}
