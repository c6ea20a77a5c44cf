//! A command on the wire: [`CommandTag`], the byte that names its kind forever, and its fields.
//! A selection's object ids are delta-coded (a box of units costs about a byte an id).
//!
//! The tag is the wire's own: it is not `Command::kind()`, the execution class the simulation
//! sorts a frame's commands by, so reordering execution never changes the protocol, and a
//! new command takes the next free tag.
//!
//! Must not: renumber a tag (peers of other builds and saved traffic read these numbers).

use crate::sim::command::{Command, MAX_SELECTION, Point, Queued};
use crate::sim::ids::{ObjectId, TemplateId, UpgradeId};

use super::DecodeError;
use super::bytes::{Reader, unzigzag, varint, zigzag};

/// The kind of a command on the wire. The numbers are fixed: append, never renumber.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum CommandTag {
    Select = 0,
    Move = 1,
    AttackMove = 2,
    Attack = 3,
    Stop = 4,
    Guard = 5,
    Produce = 6,
    CancelProduction = 7,
    SetRally = 8,
    Build = 9,
    Gather = 10,
    Sell = 11,
    Surrender = 12,
    Resume = 13,
    Repair = 14,
    PowerDown = 15,
    Research = 16,
    Queue = 17,
    Scatter = 18,
    Formation = 19,
}

impl CommandTag {
    /// Every tag, in number order (each at the index of its number).
    pub const ALL: [CommandTag; 20] = [
        CommandTag::Select,
        CommandTag::Move,
        CommandTag::AttackMove,
        CommandTag::Attack,
        CommandTag::Stop,
        CommandTag::Guard,
        CommandTag::Produce,
        CommandTag::CancelProduction,
        CommandTag::SetRally,
        CommandTag::Build,
        CommandTag::Gather,
        CommandTag::Sell,
        CommandTag::Surrender,
        CommandTag::Resume,
        CommandTag::Repair,
        CommandTag::PowerDown,
        CommandTag::Research,
        CommandTag::Queue,
        CommandTag::Scatter,
        CommandTag::Formation,
    ];

    /// The tag of a command.
    pub fn of(c: &Command) -> CommandTag {
        match c {
            Command::Select { .. } => CommandTag::Select,
            Command::Move { .. } => CommandTag::Move,
            Command::AttackMove { .. } => CommandTag::AttackMove,
            Command::Attack { .. } => CommandTag::Attack,
            Command::Stop => CommandTag::Stop,
            Command::Guard { .. } => CommandTag::Guard,
            Command::Produce { .. } => CommandTag::Produce,
            Command::CancelProduction { .. } => CommandTag::CancelProduction,
            Command::SetRally { .. } => CommandTag::SetRally,
            Command::Build { .. } => CommandTag::Build,
            Command::Gather { .. } => CommandTag::Gather,
            Command::Sell { .. } => CommandTag::Sell,
            Command::Surrender => CommandTag::Surrender,
            Command::Resume { .. } => CommandTag::Resume,
            Command::Repair { .. } => CommandTag::Repair,
            Command::PowerDown { .. } => CommandTag::PowerDown,
            Command::Research { .. } => CommandTag::Research,
            Command::Queue { .. } => CommandTag::Queue,
            Command::Scatter => CommandTag::Scatter,
            Command::Formation { .. } => CommandTag::Formation,
        }
    }

    /// The tag with this number, if there is one.
    pub fn from_u8(b: u8) -> Option<CommandTag> {
        CommandTag::ALL.get(b as usize).copied()
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

/// Appends a command: its tag, then its fields.
pub(crate) fn write(w: &mut Vec<u8>, c: &Command) {
    w.push(CommandTag::of(c) as u8);
    match c {
        Command::Select { objects, add } => {
            w.push(*add as u8);
            varint(w, objects.len() as u64);
            // Each id as the zigzagged step from the previous index, with a flag bit for a
            // non-zero generation (then written after it).
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
        Command::Queue { order } => match order {
            Queued::Move { to } => {
                w.push(0);
                point(w, *to);
            }
            Queued::AttackMove { to } => {
                w.push(1);
                point(w, *to);
            }
            Queued::Build { template, at } => {
                w.push(2);
                varint(w, template.0 as u64);
                point(w, *at);
            }
        },
        Command::Attack { target } => object(w, *target),
        Command::Stop | Command::Surrender | Command::Scatter => {}
        Command::Formation { on } => w.push(*on as u8),
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
        Command::Sell { structure } | Command::Repair { structure } | Command::PowerDown { structure } => {
            object(w, *structure)
        }
        Command::Resume { site } => object(w, *site),
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

impl Reader<'_> {
    fn object(&mut self) -> Result<ObjectId, DecodeError> {
        Ok(ObjectId { index: self.u32v("object index")?, generation: self.u32v("object generation")? })
    }

    fn point(&mut self) -> Result<Point, DecodeError> {
        Ok(Point { x: self.i32v("x")?, y: self.i32v("y")? })
    }

    fn template(&mut self) -> Result<TemplateId, DecodeError> {
        Ok(TemplateId(self.u16v("template")?))
    }

    fn selection(&mut self) -> Result<Vec<ObjectId>, DecodeError> {
        // Every id takes at least one byte.
        let n = self.count(MAX_SELECTION, 1, "objects")?;
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
        Ok(objects)
    }

    /// Reads a command written by [`write`].
    pub(crate) fn command(&mut self) -> Result<Command, DecodeError> {
        let b = self.u8()?;
        let Some(tag) = CommandTag::from_u8(b) else { return self.fail(format!("unknown command kind {b}")) };
        Ok(match tag {
            CommandTag::Select => {
                let add = self.flag()?;
                Command::Select { objects: self.selection()?, add }
            }
            CommandTag::Move => Command::Move { to: self.point()? },
            CommandTag::AttackMove => Command::AttackMove { to: self.point()? },
            CommandTag::Attack => Command::Attack { target: self.object()? },
            CommandTag::Stop => Command::Stop,
            CommandTag::Guard => Command::Guard { at: if self.flag()? { Some(self.point()?) } else { None } },
            CommandTag::Produce => Command::Produce { factory: self.object()?, template: self.template()? },
            CommandTag::CancelProduction => Command::CancelProduction { factory: self.object()? },
            CommandTag::SetRally => Command::SetRally { factory: self.object()?, at: self.point()? },
            CommandTag::Build => Command::Build { template: self.template()?, at: self.point()? },
            CommandTag::Gather => Command::Gather { pile: self.object()? },
            CommandTag::Sell => Command::Sell { structure: self.object()? },
            CommandTag::Surrender => Command::Surrender,
            CommandTag::Resume => Command::Resume { site: self.object()? },
            CommandTag::Repair => Command::Repair { structure: self.object()? },
            CommandTag::PowerDown => Command::PowerDown { structure: self.object()? },
            CommandTag::Research => {
                Command::Research { structure: self.object()?, upgrade: UpgradeId(self.u16v("upgrade")?) }
            }
            CommandTag::Scatter => Command::Scatter,
            CommandTag::Formation => Command::Formation { on: self.flag()? },
            CommandTag::Queue => Command::Queue {
                order: match self.u8()? {
                    0 => Queued::Move { to: self.point()? },
                    1 => Queued::AttackMove { to: self.point()? },
                    2 => Queued::Build { template: self.template()?, at: self.point()? },
                    k => return self.fail(format!("unknown queued order {k}")),
                },
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers on the wire, written out: a change here is a protocol change.
    #[test]
    fn tags_keep_their_numbers() {
        let numbers: Vec<(CommandTag, u8)> = CommandTag::ALL.iter().map(|t| (*t, *t as u8)).collect();
        use CommandTag::*;
        let fixed = [
            (Select, 0),
            (Move, 1),
            (AttackMove, 2),
            (Attack, 3),
            (Stop, 4),
            (Guard, 5),
            (Produce, 6),
            (CancelProduction, 7),
            (SetRally, 8),
            (Build, 9),
            (Gather, 10),
            (Sell, 11),
            (Surrender, 12),
            (Resume, 13),
            (Repair, 14),
            (PowerDown, 15),
            (Research, 16),
            (Queue, 17),
            (Scatter, 18),
            (Formation, 19),
        ];
        assert_eq!(numbers, fixed);
        assert_eq!(CommandTag::from_u8(20), None);
    }

    /// A command on the wire starts with its fixed tag, whatever its execution class.
    #[test]
    fn a_command_starts_with_its_fixed_tag() {
        let c = Command::Build { template: TemplateId(1), at: Point { x: 0, y: 0 } };
        let mut w = Vec::new();
        write(&mut w, &c);
        assert_eq!(w[0], 9, "Build is wire tag 9 whatever its execution class ({})", c.kind());
    }
}
