//! The lobby on the wire: chat lines, a joiner's ready flag and choices, and the roster the
//! host shows everyone (map, money, every slot).
//!
//! Must not: apply a choice (the session's lobby does).

use crate::lockstep::transport::PeerId;
use crate::net::wire::PathKind;
use crate::net::wire::{Roster, RosterSlot, Seat, WireMessage};

use super::bytes::{Reader, text, varint};
use super::{DecodeError, MAX_PLAYERS, MAX_TEXT};

const T_CHAT: u8 = 24;
const T_READY: u8 = 25;
const T_ROSTER: u8 = 26;
const T_CHOOSE: u8 = 28;
const T_OBSERVE: u8 = 29;

/// Most computer difficulties (0 easy … 3 brutal).
const MAX_DIFFICULTY: u64 = 3;

/// Appends a chat line.
pub(super) fn chat(w: &mut Vec<u8>, from: &str, line: &str) {
    w.push(T_CHAT);
    text(w, from);
    text(w, line);
}

/// Appends a ready flag.
pub(super) fn ready(w: &mut Vec<u8>, ready: bool) {
    w.extend_from_slice(&[T_READY, ready as u8]);
}

/// Appends a joiner's faction and colour.
pub(super) fn choose(w: &mut Vec<u8>, faction: u8, colour: u8) {
    w.extend_from_slice(&[T_CHOOSE, faction, colour]);
}

/// Appends a joiner's wish to watch or play.
pub(super) fn observe(w: &mut Vec<u8>, watch: bool) {
    w.extend_from_slice(&[T_OBSERVE, watch as u8]);
}

/// Appends the roster.
pub(super) fn roster(w: &mut Vec<u8>, roster: &Roster) {
    w.push(T_ROSTER);
    text(w, &roster.map);
    w.push(roster.money);
    varint(w, roster.slots.len() as u64);
    for p in &roster.slots {
        match p.seat {
            Seat::Open => w.push(0),
            Seat::Closed => w.push(1),
            Seat::Ai(level) => w.extend_from_slice(&[2, level]),
            Seat::Player(peer) => w.extend_from_slice(&[3, peer.0]),
            Seat::Observer(peer) => w.extend_from_slice(&[4, peer.0]),
        }
        text(w, &p.name);
        w.push(p.ready as u8);
        varint(w, p.ping_ms as u64);
        w.push(PathKind::ALL.iter().position(|k| *k == p.path).unwrap_or(0) as u8);
        w.extend_from_slice(&[p.faction, p.colour, p.team]);
    }
}

fn slot(r: &mut Reader) -> Result<RosterSlot, DecodeError> {
    let seat = match r.u8()? {
        0 => Seat::Open,
        1 => Seat::Closed,
        2 => Seat::Ai(r.bounded(MAX_DIFFICULTY, "difficulty")? as u8),
        3 => Seat::Player(PeerId(r.u8()?)),
        4 => Seat::Observer(PeerId(r.u8()?)),
        k => return r.fail(format!("unknown seat kind {k}")),
    };
    let name = r.text(MAX_TEXT, "player name")?;
    let ready = r.flag()?;
    let ping_ms = r.u16v("ping")?;
    let path = match PathKind::ALL.get(usize::from(r.u8()?)) {
        Some(k) => *k,
        None => return r.fail("unknown path kind"),
    };
    let (faction, colour, team) = (r.u8()?, r.u8()?, r.u8()?);
    Ok(RosterSlot { seat, name, ready, ping_ms, path, faction, colour, team })
}

/// Reads the message under `tag` into `out`; false when the tag is not this protocol's.
pub(super) fn read(r: &mut Reader, tag: u8, out: &mut Vec<WireMessage>) -> Result<bool, DecodeError> {
    out.push(match tag {
        T_CHAT => {
            let from = r.text(MAX_TEXT, "chat sender")?;
            WireMessage::Chat { from, text: r.text(MAX_TEXT, "chat text")? }
        }
        T_READY => WireMessage::Ready(r.flag()?),
        T_OBSERVE => WireMessage::Observe(r.flag()?),
        T_ROSTER => {
            let map = r.text(MAX_TEXT, "map")?;
            let money = r.u8()?;
            // A slot takes at least seven bytes.
            let n = r.count(MAX_PLAYERS, 7, "slots")?;
            let mut slots = Vec::with_capacity(n);
            for _ in 0..n {
                slots.push(slot(r)?);
            }
            WireMessage::Roster(Roster { map, money, slots })
        }
        T_CHOOSE => {
            let faction = r.u8()?;
            WireMessage::Choose { faction, colour: r.u8()? }
        }
        _ => return Ok(false),
    });
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::decode;
    use super::*;

    #[test]
    fn an_unknown_seat_or_difficulty_is_refused() {
        // Map "", money 0, one slot whose seat kind is 9.
        let e = decode(&[T_ROSTER, 0, 0, 1, 9, 0, 0, 0, 0, 0, 0]).unwrap_err();
        assert_eq!(e.what, "unknown seat kind 9");
        let e = decode(&[T_ROSTER, 0, 0, 1, 2, 4, 0, 0, 0, 0, 0, 0]).unwrap_err();
        assert_eq!(e.what, "difficulty 4 is over 3");
    }
}
