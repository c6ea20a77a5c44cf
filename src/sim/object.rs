//! One object in the world and its synchronized state: position, facing, health, the order it
//! follows, its navigation and its weapon timer.
//!
//! Must not: hold display state (interpolated positions, animation, selection highlight).

use super::angle::Angle;
use super::fixed::Fixed;
use super::hash::digest8;
use super::ids::{ObjectId, PlayerId, TemplateId};
use super::rules::ObjectKind;
use super::vector::Vec2;

/// What an object has been told to do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
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
        }
    }

    /// Two words of payload, for the hash.
    fn payload(&self) -> (u64, u64) {
        match *self {
            Order::Idle => (0, 0),
            Order::Move { goal } | Order::AttackMove { goal } | Order::Guard { anchor: goal } => {
                (goal.x.raw() as u64, goal.y.raw() as u64)
            }
            Order::Attack { target } => (target.to_bits(), 0),
        }
    }
}

/// Where an object is going and how: the path being followed, or the request awaiting one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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

    /// Forgets the destination and the path.
    pub fn clear(&mut self) {
        *self = Nav::default();
    }
}

/// An object in the world.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

impl Object {
    /// The digest of every synchronized field, eight words folded by [`digest8`]. Several small
    /// fields share a word; values are combined with shifts and rotations so that a change in
    /// any one of them changes the word. The path's points are covered by their count, the
    /// index of the next one and the goal (reading them would cost a cache miss per object;
    /// they are a pure function of the hashed state and the terrain).
    pub fn digest(&self) -> u64 {
        let (p0, p1) = self.order.payload();
        let goal = self.nav.goal.unwrap_or(Vec2::ZERO);
        let raw = |f: Fixed| f.raw() as u64;
        let flags = (self.target.is_some() as u64)
            | (self.nav.goal.is_some() as u64) << 1
            | (self.nav.request.is_some() as u64) << 2;
        digest8([
            self.id.to_bits(),
            (self.template.0 as u64)
                | (self.owner.0 as u64) << 16
                | self.order.tag() << 24
                | (self.facing.0 as u64) << 32
                | (self.kind as u64) << 48
                | flags << 56,
            raw(self.pos.x),
            raw(self.pos.y),
            (raw(self.speed) & 0xFFFF_FFFF) ^ (self.health as u32 as u64) << 32,
            (self.cooldown as u64)
                ^ (self.nav.stuck_frames as u64) << 16
                ^ (self.nav.repaths as u64) << 32
                ^ (self.nav.next as u64) << 40
                ^ (self.nav.waypoints.len() as u64) << 52,
            p0 ^ p1.rotate_left(32) ^ self.target.map_or(0, ObjectId::to_bits).rotate_left(13),
            raw(goal.x).rotate_left(11)
                ^ raw(goal.y).rotate_left(43)
                ^ raw(self.nav.best_distance).rotate_left(23)
                ^ self.nav.request.map_or(0, u64::from).rotate_left(53),
        ])
    }
}
