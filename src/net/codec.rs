//! The wire format: a batch of [`WireMessage`]s in one compact, versioned byte string. Numbers
//! are LEB128 varints (signed ones zigzagged); commands of one player for one frame with
//! consecutive ids share one header; a selection's object ids are delta-coded. Every length is
//! bounded and checked against the bytes actually left before anything is allocated, so the
//! decoder never panics and never allocates from an untrusted size.
//!
//! Must not: interpret what it decodes (the stream and the session decide).

use thiserror::Error;

use crate::lockstep::message::Message;
use crate::lockstep::pace::PaceChange;
use crate::lockstep::transport::PeerId;
use crate::sim::command::{Command, MAX_SELECTION, Point, StampedCommand};
use crate::sim::ids::{CommandId, Frame, ObjectId, PlayerId, TemplateId, UpgradeId};

use super::wire::{FileDigest, Hello, MAGIC, Roster, RosterSlot, Seat, Start, WireMessage};

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

const T_COMMANDS: u8 = 1;
const T_COUNT: u8 = 2;
const T_HASH: u8 = 3;
const T_PACE: u8 = 4;
const T_HELLO: u8 = 16;
const T_WELCOME: u8 = 17;
const T_REFUSED: u8 = 18;
const T_START: u8 = 19;
const T_DROPPED: u8 = 20;
const T_BYE: u8 = 21;
const T_DESYNC_DIGESTS: u8 = 22;
const T_DESYNC_OBJECT: u8 = 23;
const T_CHAT: u8 = 24;
const T_READY: u8 = 25;
const T_ROSTER: u8 = 26;
const T_RUN_AHEAD: u8 = 27;
const T_CHOOSE: u8 = 28;

/// Most slots in a roster.
pub const MAX_PLAYERS: usize = 16;
/// Most computer difficulties (0 easy … 3 brutal).
const MAX_DIFFICULTY: u64 = 3;

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
        match &messages[i] {
            WireMessage::Lockstep(Message::Command(first)) => {
                let mut group = vec![first];
                while let Some(WireMessage::Lockstep(Message::Command(c))) = messages.get(i + group.len()) {
                    let prev = group[group.len() - 1];
                    let follows =
                        c.player == prev.player && c.frame == prev.frame && c.id.0 == prev.id.0.wrapping_add(1);
                    if !follows || group.len() >= MAX_GROUP {
                        break;
                    }
                    group.push(c);
                }
                w.push(T_COMMANDS);
                w.push(first.player.0);
                varint(&mut w, first.frame.0 as u64);
                varint(&mut w, first.id.0 as u64);
                varint(&mut w, group.len() as u64);
                for c in &group {
                    command(&mut w, &c.command);
                }
                i += group.len();
                continue;
            }
            WireMessage::Lockstep(Message::FrameCount { player, frame, count }) => {
                w.push(T_COUNT);
                w.push(player.0);
                varint(&mut w, frame.0 as u64);
                varint(&mut w, *count as u64);
            }
            WireMessage::Lockstep(Message::Hash { player, frame, hash }) => {
                w.push(T_HASH);
                w.push(player.0);
                varint(&mut w, frame.0 as u64);
                w.extend_from_slice(&hash.to_le_bytes());
            }
            WireMessage::Lockstep(Message::Pace { player, frame, change }) => {
                w.push(T_PACE);
                w.push(player.0);
                varint(&mut w, frame.0 as u64);
                match change {
                    PaceChange::Pause => w.push(0),
                    PaceChange::Resume => w.push(1),
                    PaceChange::Speed(percent) => {
                        w.push(2);
                        varint(&mut w, *percent as u64);
                    }
                }
            }
            WireMessage::Hello(h) => {
                w.push(T_HELLO);
                w.extend_from_slice(&MAGIC);
                w.extend_from_slice(&h.protocol.to_le_bytes());
                text(&mut w, &h.build);
                text(&mut w, &h.name);
                files(&mut w, &h.files);
            }
            WireMessage::Welcome { peer, host } => {
                w.push(T_WELCOME);
                w.push(peer.0);
                text(&mut w, host);
            }
            WireMessage::Refused { reason } => {
                w.push(T_REFUSED);
                text(&mut w, reason);
            }
            WireMessage::Start(s) => {
                w.push(T_START);
                text(&mut w, &s.setup);
                files(&mut w, &s.map_files);
                w.push(s.unpaced as u8);
                varint(&mut w, s.frames as u64);
            }
            WireMessage::Dropped { player, from } => {
                w.push(T_DROPPED);
                w.push(player.0);
                varint(&mut w, from.0 as u64);
            }
            WireMessage::Bye => w.push(T_BYE),
            WireMessage::DesyncDigests { frame, subs, objects } => {
                w.push(T_DESYNC_DIGESTS);
                varint(&mut w, frame.0 as u64);
                varint(&mut w, subs.len() as u64);
                for s in subs {
                    w.extend_from_slice(&s.to_le_bytes());
                }
                varint(&mut w, objects.len() as u64);
                for (id, d) in objects {
                    varint(&mut w, *id);
                    w.extend_from_slice(&d.to_le_bytes());
                }
            }
            WireMessage::Chat { from, text: t } => {
                w.push(T_CHAT);
                text(&mut w, from);
                text(&mut w, t);
            }
            WireMessage::RunAhead { at, value } => {
                w.push(T_RUN_AHEAD);
                varint(&mut w, at.0 as u64);
                w.push(*value);
            }
            WireMessage::Ready(r) => {
                w.push(T_READY);
                w.push(*r as u8);
            }
            WireMessage::Roster(roster) => {
                w.push(T_ROSTER);
                text(&mut w, &roster.map);
                w.push(roster.money);
                varint(&mut w, roster.slots.len() as u64);
                for p in &roster.slots {
                    match p.seat {
                        Seat::Open => w.push(0),
                        Seat::Closed => w.push(1),
                        Seat::Ai(level) => w.extend_from_slice(&[2, level]),
                        Seat::Player(peer) => w.extend_from_slice(&[3, peer.0]),
                    }
                    text(&mut w, &p.name);
                    w.push(p.ready as u8);
                    varint(&mut w, p.ping_ms as u64);
                    w.extend_from_slice(&[p.faction, p.colour, p.team]);
                }
            }
            WireMessage::Choose { faction, colour } => w.extend_from_slice(&[T_CHOOSE, *faction, *colour]),
            WireMessage::DesyncObject { frame, object, fields } => {
                w.push(T_DESYNC_OBJECT);
                varint(&mut w, frame.0 as u64);
                varint(&mut w, *object);
                varint(&mut w, fields.len() as u64);
                for (k, v) in fields {
                    text(&mut w, k);
                    text(&mut w, v);
                }
            }
        }
        i += 1;
    }
    w
}

fn varint(w: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        w.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    w.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

fn text(w: &mut Vec<u8>, s: &str) {
    varint(w, s.len() as u64);
    w.extend_from_slice(s.as_bytes());
}

fn files(w: &mut Vec<u8>, files: &[FileDigest]) {
    varint(w, files.len() as u64);
    for f in files {
        text(w, &f.name);
        w.extend_from_slice(&f.digest.to_le_bytes());
    }
}

fn object(w: &mut Vec<u8>, id: ObjectId) {
    varint(w, id.index as u64);
    varint(w, id.generation as u64);
}

fn point(w: &mut Vec<u8>, p: Point) {
    varint(w, zigzag(p.x as i64));
    varint(w, zigzag(p.y as i64));
}

fn command(w: &mut Vec<u8>, c: &Command) {
    w.push(c.kind());
    match c {
        Command::Select { objects, add } => {
            w.push(*add as u8);
            varint(w, objects.len() as u64);
            // Each id as the zigzagged step from the previous index, with a flag bit for a
            // non-zero generation (then written after it): a box of units is a byte an id.
            let mut prev = 0i64;
            for id in objects {
                let step = zigzag(id.index as i64 - prev);
                prev = id.index as i64;
                varint(w, step << 1 | (id.generation != 0) as u64);
                if id.generation != 0 {
                    varint(w, id.generation as u64);
                }
            }
        }
        Command::Move { to } | Command::AttackMove { to } => point(w, *to),
        Command::Attack { target } => object(w, *target),
        Command::Stop => {}
        Command::Guard { at } => match at {
            Some(p) => {
                w.push(1);
                point(w, *p);
            }
            None => w.push(0),
        },
        Command::Produce { factory, template } => {
            object(w, *factory);
            varint(w, template.0 as u64);
        }
        Command::CancelProduction { factory } => object(w, *factory),
        Command::SetRally { factory, at } => {
            object(w, *factory);
            point(w, *at);
        }
        Command::Gather { pile } => object(w, *pile),
        Command::Sell { structure } => object(w, *structure),
        Command::Surrender => {}
        Command::Resume { site } => object(w, *site),
        Command::Repair { structure } | Command::PowerDown { structure } => object(w, *structure),
        Command::Research { structure, upgrade } => {
            object(w, *structure);
            varint(w, upgrade.0 as u64);
        }
        Command::Build { template, at } => {
            varint(w, template.0 as u64);
            point(w, *at);
        }
    }
}

/// A cursor over untrusted bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn fail<T>(&self, what: impl Into<String>) -> Result<T, DecodeError> {
        Err(DecodeError { at: self.at, what: what.into() })
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    fn u8(&mut self) -> Result<u8, DecodeError> {
        match self.bytes.get(self.at) {
            Some(&b) => {
                self.at += 1;
                Ok(b)
            }
            None => self.fail("the message ends early"),
        }
    }

    fn take(&mut self, n: usize) -> Result<&[u8], DecodeError> {
        if n > self.left() {
            return self.fail(format!("{n} bytes announced, {} left", self.left()));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u64_le(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            let part = (b & 0x7f) as u64;
            if shift == 63 && part > 1 {
                return self.fail("a number overflows 64 bits");
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        self.fail("a number overflows 64 bits")
    }

    fn bounded(&mut self, max: u64, what: &str) -> Result<u64, DecodeError> {
        let v = self.varint()?;
        if v > max {
            return self.fail(format!("{what} {v} is over {max}"));
        }
        Ok(v)
    }

    fn u32v(&mut self, what: &str) -> Result<u32, DecodeError> {
        Ok(self.bounded(u32::MAX as u64, what)? as u32)
    }

    fn i32v(&mut self, what: &str) -> Result<i32, DecodeError> {
        let v = unzigzag(self.varint()?);
        i32::try_from(v).or_else(|_| self.fail(format!("{what} {v} is out of range")))
    }

    fn text(&mut self, max: usize, what: &str) -> Result<String, DecodeError> {
        let n = self.bounded(max as u64, what)? as usize;
        let start = self.at;
        let bytes = self.take(n)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_string()),
            Err(_) => Err(DecodeError { at: start, what: format!("{what} is not UTF-8") }),
        }
    }

    fn files(&mut self) -> Result<Vec<FileDigest>, DecodeError> {
        let n = self.bounded(MAX_FILES as u64, "file count")? as usize;
        let mut out = Vec::with_capacity(n.min(self.left() / 9));
        for _ in 0..n {
            let name = self.text(MAX_TEXT, "file name")?;
            out.push(FileDigest { name, digest: self.u64_le()? });
        }
        Ok(out)
    }

    fn object(&mut self) -> Result<ObjectId, DecodeError> {
        Ok(ObjectId { index: self.u32v("object index")?, generation: self.u32v("object generation")? })
    }

    fn point(&mut self) -> Result<Point, DecodeError> {
        Ok(Point { x: self.i32v("x")?, y: self.i32v("y")? })
    }

    fn template(&mut self) -> Result<TemplateId, DecodeError> {
        Ok(TemplateId(self.bounded(u16::MAX as u64, "template")? as u16))
    }

    fn command(&mut self) -> Result<Command, DecodeError> {
        let kind = self.u8()?;
        Ok(match kind {
            0 => {
                let add = self.flag()?;
                let n = self.bounded(MAX_SELECTION as u64, "selection size")? as usize;
                // Every id takes at least one byte: more than the bytes left cannot be.
                if n > self.left() {
                    return self.fail(format!("{n} objects announced, {} bytes left", self.left()));
                }
                let mut objects = Vec::with_capacity(n);
                let mut prev = 0i64;
                for _ in 0..n {
                    let v = self.varint()?;
                    let index = prev + unzigzag(v >> 1);
                    let Ok(index32) = u32::try_from(index) else {
                        return self.fail(format!("object index {index} is out of range"));
                    };
                    prev = index;
                    let generation = if v & 1 == 1 { self.u32v("object generation")? } else { 0 };
                    objects.push(ObjectId { index: index32, generation });
                }
                Command::Select { objects, add }
            }
            1 => Command::Move { to: self.point()? },
            2 => Command::AttackMove { to: self.point()? },
            3 => Command::Attack { target: self.object()? },
            4 => Command::Stop,
            5 => Command::Guard { at: if self.flag()? { Some(self.point()?) } else { None } },
            6 => Command::Produce { factory: self.object()?, template: self.template()? },
            7 => Command::CancelProduction { factory: self.object()? },
            8 => Command::SetRally { factory: self.object()?, at: self.point()? },
            9 => Command::Build { template: self.template()?, at: self.point()? },
            10 => Command::Gather { pile: self.object()? },
            11 => Command::Sell { structure: self.object()? },
            12 => Command::Surrender,
            13 => Command::Resume { site: self.object()? },
            14 => Command::Repair { structure: self.object()? },
            15 => Command::PowerDown { structure: self.object()? },
            16 => Command::Research {
                structure: self.object()?,
                upgrade: UpgradeId(self.bounded(u16::MAX as u64, "upgrade")? as u16),
            },
            k => return self.fail(format!("unknown command kind {k}")),
        })
    }

    fn flag(&mut self) -> Result<bool, DecodeError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => self.fail(format!("flag {b} is neither 0 nor 1")),
        }
    }
}

/// Decodes a batch; any fault is an error naming its offset, never a panic.
pub fn decode(bytes: &[u8]) -> Result<Vec<WireMessage>, DecodeError> {
    let mut r = Reader { bytes, at: 0 };
    let mut out = Vec::new();
    while !r.done() {
        if out.len() >= MAX_ITEMS {
            return r.fail(format!("more than {MAX_ITEMS} messages in one batch"));
        }
        let tag = r.u8()?;
        match tag {
            T_COMMANDS => {
                let player = PlayerId(r.u8()?);
                let frame = Frame(r.u32v("frame")?);
                let first = r.u32v("command id")?;
                let n = r.bounded(MAX_GROUP as u64, "command count")? as u32;
                for k in 0..n {
                    let command = r.command()?;
                    let id = CommandId(first.wrapping_add(k));
                    out.push(WireMessage::Lockstep(Message::Command(StampedCommand { frame, player, id, command })));
                }
            }
            T_COUNT => {
                let player = PlayerId(r.u8()?);
                let frame = Frame(r.u32v("frame")?);
                let count = r.u32v("count")?;
                out.push(WireMessage::Lockstep(Message::FrameCount { player, frame, count }));
            }
            T_HASH => {
                let player = PlayerId(r.u8()?);
                let frame = Frame(r.u32v("frame")?);
                let hash = r.u64_le()?;
                out.push(WireMessage::Lockstep(Message::Hash { player, frame, hash }));
            }
            T_PACE => {
                let player = PlayerId(r.u8()?);
                let frame = Frame(r.u32v("frame")?);
                let change = match r.u8()? {
                    0 => PaceChange::Pause,
                    1 => PaceChange::Resume,
                    2 => {
                        let percent = r.bounded(u16::MAX as u64, "speed")?;
                        PaceChange::Speed(percent as u16)
                    }
                    _ => return r.fail("unknown change of pace"),
                };
                out.push(WireMessage::Lockstep(Message::Pace { player, frame, change }));
            }
            T_HELLO => {
                if r.take(4)? != MAGIC {
                    return r.fail("not a Ridgeline hello");
                }
                let p = r.take(2)?;
                let protocol = u16::from_le_bytes([p[0], p[1]]);
                let build = r.text(MAX_TEXT, "build")?;
                let name = r.text(MAX_TEXT, "name")?;
                let files = r.files()?;
                out.push(WireMessage::Hello(Hello { protocol, build, name, files }));
            }
            T_WELCOME => {
                let peer = PeerId(r.u8()?);
                out.push(WireMessage::Welcome { peer, host: r.text(MAX_TEXT, "host name")? });
            }
            T_REFUSED => out.push(WireMessage::Refused { reason: r.text(MAX_TEXT, "reason")? }),
            T_START => {
                let setup = r.text(MAX_SETUP, "setup")?;
                let map_files = r.files()?;
                let unpaced = r.flag()?;
                let frames = r.u32v("frames")?;
                out.push(WireMessage::Start(Start { setup, map_files, unpaced, frames }));
            }
            T_DROPPED => {
                let player = PlayerId(r.u8()?);
                out.push(WireMessage::Dropped { player, from: Frame(r.u32v("frame")?) });
            }
            T_BYE => out.push(WireMessage::Bye),
            T_DESYNC_DIGESTS => {
                let frame = Frame(r.u32v("frame")?);
                let n = r.bounded(MAX_FIELDS as u64, "sub-hash count")? as usize;
                let mut subs = Vec::with_capacity(n.min(r.left() / 8));
                for _ in 0..n {
                    subs.push(r.u64_le()?);
                }
                let n = r.bounded(MAX_OBJECTS as u64, "object count")? as usize;
                let mut objects = Vec::with_capacity(n.min(r.left() / 9));
                for _ in 0..n {
                    let id = r.varint()?;
                    objects.push((id, r.u64_le()?));
                }
                out.push(WireMessage::DesyncDigests { frame, subs, objects });
            }
            T_CHAT => {
                let from = r.text(MAX_TEXT, "chat sender")?;
                out.push(WireMessage::Chat { from, text: r.text(MAX_TEXT, "chat text")? });
            }
            T_READY => out.push(WireMessage::Ready(r.flag()?)),
            T_RUN_AHEAD => {
                let at = Frame(r.u32v("frame")?);
                out.push(WireMessage::RunAhead { at, value: r.u8()? });
            }
            T_ROSTER => {
                let map = r.text(MAX_TEXT, "map")?;
                let money = r.u8()?;
                let n = r.bounded(MAX_PLAYERS as u64, "slot count")? as usize;
                let mut slots = Vec::with_capacity(n.min(r.left() / 8));
                for _ in 0..n {
                    let seat = match r.u8()? {
                        0 => Seat::Open,
                        1 => Seat::Closed,
                        2 => Seat::Ai(r.bounded(MAX_DIFFICULTY, "difficulty")? as u8),
                        3 => Seat::Player(PeerId(r.u8()?)),
                        k => return r.fail(format!("unknown seat kind {k}")),
                    };
                    let name = r.text(MAX_TEXT, "player name")?;
                    let ready = r.flag()?;
                    let ping_ms = r.bounded(u16::MAX as u64, "ping")? as u16;
                    let (faction, colour, team) = (r.u8()?, r.u8()?, r.u8()?);
                    slots.push(RosterSlot { seat, name, ready, ping_ms, faction, colour, team });
                }
                out.push(WireMessage::Roster(Roster { map, money, slots }));
            }
            T_CHOOSE => {
                let faction = r.u8()?;
                out.push(WireMessage::Choose { faction, colour: r.u8()? });
            }
            T_DESYNC_OBJECT => {
                let frame = Frame(r.u32v("frame")?);
                let object = r.varint()?;
                let n = r.bounded(MAX_FIELDS as u64, "field count")? as usize;
                let mut fields = Vec::with_capacity(n.min(r.left() / 2));
                for _ in 0..n {
                    let k = r.text(MAX_TEXT, "field name")?;
                    fields.push((k, r.text(MAX_TEXT, "field value")?));
                }
                out.push(WireMessage::DesyncObject { frame, object, fields });
            }
            t => return Err(DecodeError { at: r.at - 1, what: format!("unknown message tag {t}") }),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
                        faction: 1,
                        colour: i as u8,
                        team: 2,
                    })
                    .collect(),
            }),
            WireMessage::Choose { faction: 1, colour: 4 },
        ];
        assert_eq!(decode(&encode(&all)).unwrap(), all);
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
    fn faults_are_named_by_offset() {
        let e = decode(&[T_COMMANDS, 0, 5, 0, 2, 4]).unwrap_err();
        assert_eq!(e.at, 6, "the second command is missing: {e}");
        let e = decode(&[99]).unwrap_err();
        assert_eq!((e.at, e.what.as_str()), (0, "unknown message tag 99"));
        // A selection of 400 ids announced in a handful of bytes allocates nothing.
        let e = decode(&[T_COMMANDS, 0, 1, 0, 1, 0, 0, 0x90, 0x03]).unwrap_err();
        assert!(e.what.contains("400 objects announced"), "{e}");
        let mut hello = encode(&[WireMessage::Bye]);
        hello[0] = T_HELLO;
        hello.extend_from_slice(b"HTTP");
        assert!(decode(&hello).unwrap_err().what.contains("not a Ridgeline hello"));
    }
}
