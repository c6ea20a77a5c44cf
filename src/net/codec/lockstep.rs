//! The lockstep protocol on the wire: commands (a player's consecutive commands for one frame
//! share one header), frame counts, state hashes and changes of pace.
//!
//! Must not: interpret what it carries (the stream does).

use crate::lockstep::message::Message;
use crate::lockstep::pace::PaceChange;
use crate::net::wire::WireMessage;
use crate::sim::command::StampedCommand;
use crate::sim::ids::{CommandId, Frame, PlayerId};

use super::bytes::{Reader, varint};
use super::{DecodeError, MAX_GROUP, command};

const T_COMMANDS: u8 = 1;
const T_COUNT: u8 = 2;
const T_HASH: u8 = 3;
const T_PACE: u8 = 4;

/// Appends the lockstep message at the head of `rest`, with the commands after it that share
/// its header; returns how many messages were written.
pub(super) fn write(w: &mut Vec<u8>, rest: &[WireMessage]) -> usize {
    let Some(WireMessage::Lockstep(m)) = rest.first() else { return 0 };
    match m {
        Message::Command(first) => {
            let mut n = 1;
            let mut prev = first;
            while let Some(WireMessage::Lockstep(Message::Command(c))) = rest.get(n) {
                let follows = c.player == prev.player && c.frame == prev.frame && c.id.0 == prev.id.0.wrapping_add(1);
                if !follows || n >= MAX_GROUP {
                    break;
                }
                prev = c;
                n += 1;
            }
            w.push(T_COMMANDS);
            w.push(first.player.0);
            varint(w, first.frame.0 as u64);
            varint(w, first.id.0 as u64);
            varint(w, n as u64);
            for m in &rest[..n] {
                if let WireMessage::Lockstep(Message::Command(c)) = m {
                    command::write(w, &c.command);
                }
            }
            return n;
        }
        Message::FrameCount { player, frame, count } => {
            w.push(T_COUNT);
            w.push(player.0);
            varint(w, frame.0 as u64);
            varint(w, *count as u64);
        }
        Message::Hash { player, frame, hash } => {
            w.push(T_HASH);
            w.push(player.0);
            varint(w, frame.0 as u64);
            w.extend_from_slice(&hash.to_le_bytes());
        }
        Message::Pace { player, frame, change } => {
            w.push(T_PACE);
            w.push(player.0);
            varint(w, frame.0 as u64);
            match change {
                PaceChange::Pause => w.push(0),
                PaceChange::Resume => w.push(1),
                PaceChange::Speed(percent) => {
                    w.push(2);
                    varint(w, *percent as u64);
                }
            }
        }
    }
    1
}

/// Reads the messages under `tag` into `out`; false when the tag is not this protocol's.
pub(super) fn read(r: &mut Reader, tag: u8, out: &mut Vec<WireMessage>) -> Result<bool, DecodeError> {
    let lockstep = |m| WireMessage::Lockstep(m);
    match tag {
        T_COMMANDS => {
            let player = PlayerId(r.u8()?);
            let frame = Frame(r.u32v("frame")?);
            let first = r.u32v("command id")?;
            let n = r.bounded(MAX_GROUP as u64, "command count")? as u32;
            for k in 0..n {
                let command = r.command()?;
                let id = CommandId(first.wrapping_add(k));
                out.push(lockstep(Message::Command(StampedCommand { frame, player, id, command })));
            }
        }
        T_COUNT => {
            let player = PlayerId(r.u8()?);
            let frame = Frame(r.u32v("frame")?);
            let count = r.u32v("count")?;
            out.push(lockstep(Message::FrameCount { player, frame, count }));
        }
        T_HASH => {
            let player = PlayerId(r.u8()?);
            let frame = Frame(r.u32v("frame")?);
            let hash = r.u64_le()?;
            out.push(lockstep(Message::Hash { player, frame, hash }));
        }
        T_PACE => {
            let player = PlayerId(r.u8()?);
            let frame = Frame(r.u32v("frame")?);
            let change = match r.u8()? {
                0 => PaceChange::Pause,
                1 => PaceChange::Resume,
                2 => PaceChange::Speed(r.u16v("speed")?),
                _ => return r.fail("unknown change of pace"),
            };
            out.push(lockstep(Message::Pace { player, frame, change }));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::decode;

    #[test]
    fn a_group_missing_its_second_command_is_named_at_its_offset() {
        let e = decode(&[super::T_COMMANDS, 0, 5, 0, 2, 4]).unwrap_err();
        assert_eq!(e.at, 6, "the second command is missing: {e}");
    }

    #[test]
    fn a_selection_announced_larger_than_its_bytes_allocates_nothing() {
        let e = decode(&[super::T_COMMANDS, 0, 1, 0, 1, 0, 0, 0x90, 0x03]).unwrap_err();
        assert!(e.what.contains("400 objects announced"), "{e}");
    }
}
