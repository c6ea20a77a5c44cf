//! One object in the world and its synchronized state: position, facing, health, the order it
//! follows, its navigation and its weapon timer.
//!
//! Fields are public to read; the world hands out changes only through
//! [`super::object_mut::ObjectMut`], which keeps the incremental state hash true.
//! Must not: hold display state (interpolated positions, animation, selection highlight).

use super::angle::Angle;
use super::fixed::Fixed;
use super::hash::{Field, ObjectKey, digest8};
use super::ids::{Frame, ObjectId, PlayerId, TemplateId};
use super::rules::{ObjectKind, ObjectTemplate};
use super::vector::Vec2;

/// What an object has been told to do.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// Stand; shoot at enemies in weapon range.
    Idle,
    /// Go to a point, ignoring enemies.
    Move {
        /// Destination.
        goal: Vec2,
    },
    /// Go to a point, fighting enemies met on the way.
    AttackMove {
        /// Destination.
        goal: Vec2,
    },
    /// Chase and shoot one object until it dies.
    Attack {
        /// The object to destroy.
        target: ObjectId,
    },
    /// Hold an area: engage enemies that come near it, then return.
    Guard {
        /// The point guarded.
        anchor: Vec2,
    },
    /// Go to a construction site and build it until it is finished.
    Construct {
        /// The structure being built.
        site: ObjectId,
    },
    /// Carry money from a supply pile to the nearest supply depot, again and again.
    Gather {
        /// The supply pile.
        pile: ObjectId,
    },
}

impl Order {
    /// A small number per variant, for the hash.
    fn tag(&self) -> u64 {
        match self {
            Order::Idle => 0,
            Order::Move { .. } => 1,
            Order::AttackMove { .. } => 2,
            Order::Attack { .. } => 3,
            Order::Guard { .. } => 4,
            Order::Construct { .. } => 5,
            Order::Gather { .. } => 6,
        }
    }

    /// Two words of payload, for the hash.
    fn payload(&self) -> (u64, u64) {
        match *self {
            Order::Idle => (0, 0),
            Order::Move { goal } | Order::AttackMove { goal } | Order::Guard { anchor: goal } => {
                (goal.x.raw() as u64, goal.y.raw() as u64)
            }
            Order::Attack { target } | Order::Construct { site: target } | Order::Gather { pile: target } => {
                (target.to_bits(), 0)
            }
        }
    }
}

/// Where an object is going and how: the path being followed, or the request awaiting one.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Nav {
    /// Final destination, if moving.
    pub goal: Option<Vec2>,
    /// Path points still to reach, first one next.
    pub waypoints: Vec<Vec2>,
    /// Index of the next waypoint.
    pub next: u32,
    /// The path request awaiting an answer.
    pub request: Option<u32>,
    /// Frames without getting closer to the next waypoint.
    pub stuck_frames: u32,
    /// Closest distance to the next waypoint seen since it became the next one.
    pub best_distance: Fixed,
    /// Paths requested for the current goal.
    pub repaths: u32,
    /// Top speed while moving with a group (the slowest member's); zero: the unit's own.
    pub pace: Fixed,
    /// While cruising, the step taken each frame without steering (see the movement system).
    pub cruise: Vec2,
    /// The frame cruising stops and the unit steers again; the default frame: not cruising.
    pub cruise_until: Frame,
}

impl Nav {
    /// The waypoint being steered toward.
    pub fn current_waypoint(&self) -> Option<Vec2> {
        self.waypoints.get(self.next as usize).copied()
    }

    /// True while moving or waiting for a path.
    pub fn is_active(&self) -> bool {
        self.goal.is_some()
    }
}

/// An object in the world.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Object {
    /// Its identity.
    pub id: ObjectId,
    /// What it is.
    pub template: TemplateId,
    /// Whose it is.
    pub owner: PlayerId,
    /// Copied from the template for quick tests.
    pub kind: ObjectKind,
    /// Position on the ground plane.
    pub pos: Vec2,
    /// Facing.
    pub facing: Angle,
    /// Current speed, world units per frame.
    pub speed: Fixed,
    /// Health; at or below zero the object is destroyed at the end of the frame.
    pub health: i32,
    /// Standing order.
    pub order: Order,
    /// Movement state.
    pub nav: Nav,
    /// The enemy being engaged, if any.
    pub target: Option<ObjectId>,
    /// Frames until the weapon may fire again.
    pub cooldown: u32,
    /// Frames of construction work left (structures being built); none when finished.
    pub construction: Option<u32>,
    /// Money a gatherer carries.
    pub cargo: u32,
    /// Frames a gatherer has spent loading at its pile.
    pub work: u32,
    /// Money left in a supply pile.
    pub supply: u32,
    /// Worth (prices) of the enemies it has destroyed: its veterancy.
    pub xp: u32,
    /// A structure switched off by its owner: it uses no power and neither works nor shoots.
    pub powered_down: bool,
    /// A structure its owner pays to mend (see [`super::upkeep`]).
    pub repairing: bool,
    /// Formation off (the player's Formation switch, [`super::command::Command::Formation`]): in
    /// a group's move it goes at its own speed rather than the slowest member's. False, the
    /// default, keeps the group together.
    pub loose: bool,
    /// Orders to follow once the standing one is done (Shift), first first; at most
    /// [`MAX_QUEUED`].
    pub queue: Vec<super::command::Queued>,
}

/// Orders a unit keeps queued at most (more are refused).
pub const MAX_QUEUED: usize = 16;

impl Object {
    /// Every field the state hash sees, by name, with its value as text (fixed-point values
    /// exactly, with their raw bits): what two machines compare to say which field of which
    /// object went out of sync.
    pub fn fields(&self) -> Vec<(String, String)> {
        self.hashed_fields()
            .iter()
            .map(|&(field, v)| {
                let value = match field {
                    Field::PosX | Field::PosY | Field::Speed | Field::NavBest | Field::NavPace => {
                        format!("{:?} (raw {})", Fixed::from_raw(v as i64), v as i64)
                    }
                    _ => format!("{v:#x}"),
                };
                (format!("{field:?}"), value)
            })
            .collect()
    }

    /// A new object of `template` at full health, standing idle (its id is given when the
    /// store spawns it).
    pub fn new(template: TemplateId, owner: PlayerId, t: &ObjectTemplate, pos: Vec2, facing: Angle) -> Object {
        Object {
            id: ObjectId { index: 0, generation: 0 },
            template,
            owner,
            kind: t.kind,
            pos,
            facing,
            speed: Fixed::ZERO,
            health: t.max_health,
            order: Order::Idle,
            nav: Nav::default(),
            target: None,
            cooldown: 0,
            construction: None,
            cargo: 0,
            work: 0,
            supply: 0,
            xp: 0,
            powered_down: false,
            repairing: false,
            loose: false,
            queue: Vec::new(),
        }
    }

    /// True once built (units are always built).
    pub fn is_complete(&self) -> bool {
        self.construction.is_none()
    }
}

impl Object {
    /// Every synchronized field as the value the state hash sees. The path's points are covered
    /// by their count, the index of the next one and the goal (they are a pure function of the
    /// hashed state and the terrain).
    ///
    /// The object and its navigation are taken apart field by field with no `..`: a field added
    /// to [`Object`] or [`Nav`] does not compile until it is hashed here (with its [`Field`] and
    /// the setter in [`super::object_mut::ObjectMut`] that changes it) or named as derived.
    pub fn hashed_fields(&self) -> [(Field, u64); 24] {
        let Object {
            // The id is the object's key in the set digest (see `ObjectKey`), not a field.
            id: _,
            template,
            owner,
            kind,
            pos,
            facing,
            speed,
            health,
            order,
            nav,
            target,
            cooldown,
            construction,
            cargo,
            work,
            supply,
            xp,
            powered_down,
            repairing,
            loose,
            queue,
        } = self;
        let Nav { goal, waypoints, next, request, stuck_frames, best_distance, repaths, pace, cruise, cruise_until } =
            nav;
        [
            (Field::Identity, (template.0 as u64) | (owner.0 as u64) << 16 | (*kind as u64) << 24),
            (Field::PosX, encode::fixed(pos.x)),
            (Field::PosY, encode::fixed(pos.y)),
            (Field::Facing, facing.0 as u64),
            (Field::Speed, encode::fixed(*speed)),
            (Field::Health, encode::health(*health)),
            (Field::Cooldown, *cooldown as u64),
            (Field::Order, encode::order(order)),
            (Field::Target, encode::target(*target)),
            (Field::NavGoal, encode::goal(*goal)),
            (Field::NavPath, encode::path(waypoints.len(), *next)),
            (Field::NavRequest, encode::request(*request)),
            (Field::NavStuck, *stuck_frames as u64),
            (Field::NavBest, encode::fixed(*best_distance)),
            (Field::NavRepaths, *repaths as u64),
            (Field::Construction, encode::construction(*construction)),
            (Field::Cargo, *cargo as u64),
            (Field::Work, *work as u64),
            (Field::Supply, *supply as u64),
            (Field::NavPace, encode::fixed(*pace)),
            (Field::Xp, *xp as u64),
            // A clear flag adds nothing, so an object that never had one hashes as before.
            (Field::Flags, *powered_down as u64 | (*repairing as u64) << 1 | (*loose as u64) << 2),
            (Field::NavCruise, encode::cruise(*cruise, *cruise_until)),
            (Field::Queue, encode::queue(queue)),
        ]
    }

    /// Where the object is bound: its destination while it has one, else where it stands (the
    /// spot it holds in a formation order's eyes; the store keeps a copy of it per slot).
    #[inline(always)]
    pub fn bound(&self) -> Vec2 {
        self.nav.goal.unwrap_or(self.pos)
    }

    /// The object's digest under `key`, computed from scratch (see [`ObjectKey`]).
    pub fn digest(&self, key: ObjectKey) -> u64 {
        self.hashed_fields().iter().fold(key.base(), |sum, &(field, value)| sum.wrapping_add(key.term(field, value)))
    }
}

/// How field values become hash words.
pub(crate) mod encode {
    use super::{Fixed, Frame, ObjectId, Order, Vec2, digest8};

    /// A fixed-point number: its raw bits.
    #[inline(always)]
    pub fn fixed(f: Fixed) -> u64 {
        f.raw() as u64
    }

    /// Health, sign-extended.
    #[inline(always)]
    pub fn health(h: i32) -> u64 {
        h as i64 as u64
    }

    /// An order: tag and payload folded.
    pub fn order(order: &Order) -> u64 {
        let (p0, p1) = order.payload();
        digest8([order.tag(), p0, p1, 0, 0, 0, 0, 0])
    }

    /// The queued orders, folded in order (zero for none).
    pub fn queue(queue: &[crate::sim::command::Queued]) -> u64 {
        use crate::sim::command::Queued;
        queue.iter().fold(0u64, |sum, q| {
            let (tag, a, b) = match *q {
                Queued::Move { to } => (1, to.x as u64, to.y as u64),
                Queued::AttackMove { to } => (2, to.x as u64, to.y as u64),
                Queued::Build { template, at } => (3 | (template.0 as u64) << 8, at.x as u64, at.y as u64),
            };
            digest8([sum, tag, a, b, 0, 0, 0, 0])
        })
    }

    /// A target: zero for none.
    #[inline(always)]
    pub fn target(target: Option<ObjectId>) -> u64 {
        target.map_or(0, |t| t.to_bits() ^ 0xC000_0000_0000_0000)
    }

    /// A destination: zero for none.
    pub fn goal(goal: Option<Vec2>) -> u64 {
        goal.map_or(0, |g| digest8([1, g.x.raw() as u64, g.y.raw() as u64, 0, 0, 0, 0, 0]))
    }

    /// A cruise: its step and end frame, folded (zero for the default, no cruise).
    #[inline(always)]
    pub fn cruise(step: Vec2, until: Frame) -> u64 {
        if step == Vec2::ZERO && until == Frame::default() {
            return 0;
        }
        digest8([2, step.x.raw() as u64, step.y.raw() as u64, until.0 as u64, 0, 0, 0, 0])
    }

    /// The path's length and the index of the next waypoint.
    #[inline(always)]
    pub fn path(len: usize, next: u32) -> u64 {
        len as u64 | (next as u64) << 32
    }

    /// Construction work left: zero when finished.
    #[inline(always)]
    pub fn construction(left: Option<u32>) -> u64 {
        left.map_or(0, |f| f as u64 + 1)
    }

    /// A pending path request: zero for none.
    #[inline(always)]
    pub fn request(request: Option<u32>) -> u64 {
        request.map_or(0, |r| r as u64 + 1)
    }
}
