//! One object in the world and its synchronized state: position, facing, health, the order it
//! follows, its navigation and its weapon timer.
//!
//! Must not: hold display state (interpolated positions, animation, selection highlight).

use super::angle::Angle;
use super::fixed::Fixed;
use super::hash::StateHasher;
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
    /// Feeds every synchronized field to the hasher.
    pub fn hash_into(&self, h: &mut StateHasher) {
        let (p0, p1) = self.order.payload();
        let waypoint = self.nav.current_waypoint().unwrap_or(Vec2::ZERO);
        let goal = self.nav.goal.unwrap_or(Vec2::ZERO);
        h.write_words(&[
            self.id.to_bits(),
            (self.template.0 as u64) | (self.owner.0 as u64) << 16 | self.order.tag() << 24 | (self.facing.0 as u64) << 32,
            self.pos.x.raw() as u64,
            self.pos.y.raw() as u64,
            self.speed.raw() as u64,
            (self.health as u32 as u64) | (self.cooldown as u64) << 32,
            p0,
            p1,
            self.target.map_or(u64::MAX, ObjectId::to_bits),
            goal.x.raw() as u64 ^ (goal.y.raw() as u64).rotate_left(32),
            waypoint.x.raw() as u64 ^ (waypoint.y.raw() as u64).rotate_left(32),
            (self.nav.next as u64) | (self.nav.waypoints.len() as u64) << 16 | (self.nav.stuck_frames as u64) << 32,
            self.nav.request.map_or(u64::MAX, u64::from) ^ (self.nav.repaths as u64) << 40 ^ (self.nav.goal.is_some() as u64) << 63,
            self.nav.best_distance.raw() as u64,
        ]);
    }
}
