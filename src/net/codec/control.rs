//! Match control on the wire, host and peers once the match runs: a player dropped, a new
//! run-ahead, and the desync exchange (sub-hashes and object digests, then the fields of the
//! first object that differs).
//!
//! Must not: act on what it reads (the session does).

use crate::net::wire::WireMessage;
use crate::sim::ids::{Frame, PlayerId};

use super::bytes::{Reader, text, varint};
use super::{DecodeError, MAX_FIELDS, MAX_OBJECTS, MAX_TEXT};

const T_DROPPED: u8 = 20;
const T_DESYNC_DIGESTS: u8 = 22;
const T_DESYNC_OBJECT: u8 = 23;
const T_RUN_AHEAD: u8 = 27;

/// Appends a dropped player.
pub(super) fn dropped(w: &mut Vec<u8>, player: PlayerId, from: Frame) {
    w.push(T_DROPPED);
    w.push(player.0);
    varint(w, from.0 as u64);
}

/// Appends a change of run-ahead.
pub(super) fn run_ahead(w: &mut Vec<u8>, at: Frame, value: u8) {
    w.push(T_RUN_AHEAD);
    varint(w, at.0 as u64);
    w.push(value);
}

/// Appends a machine's sub-hashes and object digests at a frame.
pub(super) fn desync_digests(w: &mut Vec<u8>, frame: Frame, subs: &[u64], objects: &[(u64, u64)]) {
    w.push(T_DESYNC_DIGESTS);
    varint(w, frame.0 as u64);
    varint(w, subs.len() as u64);
    for s in subs {
        w.extend_from_slice(&s.to_le_bytes());
    }
    varint(w, objects.len() as u64);
    for (id, d) in objects {
        varint(w, *id);
        w.extend_from_slice(&d.to_le_bytes());
    }
}

/// Appends one object's fields at a frame.
pub(super) fn desync_object(w: &mut Vec<u8>, frame: Frame, object: u64, fields: &[(String, String)]) {
    w.push(T_DESYNC_OBJECT);
    varint(w, frame.0 as u64);
    varint(w, object);
    varint(w, fields.len() as u64);
    for (k, v) in fields {
        text(w, k);
        text(w, v);
    }
}

/// Reads the message under `tag` into `out`; false when the tag is not this protocol's.
pub(super) fn read(r: &mut Reader, tag: u8, out: &mut Vec<WireMessage>) -> Result<bool, DecodeError> {
    out.push(match tag {
        T_DROPPED => {
            let player = PlayerId(r.u8()?);
            WireMessage::Dropped { player, from: Frame(r.u32v("frame")?) }
        }
        T_RUN_AHEAD => {
            let at = Frame(r.u32v("frame")?);
            WireMessage::RunAhead { at, value: r.u8()? }
        }
        T_DESYNC_DIGESTS => {
            let frame = Frame(r.u32v("frame")?);
            let n = r.count(MAX_FIELDS, 8, "sub-hashes")?;
            let mut subs = Vec::with_capacity(n);
            for _ in 0..n {
                subs.push(r.u64_le()?);
            }
            // An object digest takes at least one byte of id and eight of digest.
            let n = r.count(MAX_OBJECTS, 9, "object digests")?;
            let mut objects = Vec::with_capacity(n);
            for _ in 0..n {
                let id = r.varint()?;
                objects.push((id, r.u64_le()?));
            }
            WireMessage::DesyncDigests { frame, subs, objects }
        }
        T_DESYNC_OBJECT => {
            let frame = Frame(r.u32v("frame")?);
            let object = r.varint()?;
            let n = r.count(MAX_FIELDS, 2, "fields")?;
            let mut fields = Vec::with_capacity(n);
            for _ in 0..n {
                let k = r.text(MAX_TEXT, "field name")?;
                fields.push((k, r.text(MAX_TEXT, "field value")?));
            }
            WireMessage::DesyncObject { frame, object, fields }
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
    fn sixty_thousand_digests_in_a_few_bytes_allocate_nothing() {
        let mut bytes = vec![T_DESYNC_DIGESTS, 5, 0];
        varint(&mut bytes, 60_000);
        let e = decode(&bytes).unwrap_err();
        assert_eq!(e.what, "60000 object digests announced, 0 bytes left");
    }
}
