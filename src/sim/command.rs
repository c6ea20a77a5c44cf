//! The synchronized command vocabulary: everything a player (human or AI) can ask of the game.
//!
//! Commands carry only integers, so they encode exactly and read well in scripts. A command
//! is stamped by the message stream with its player, number and execution frame; the sim
//! validates it against that player and the state and records a [`Rejection`] when it is
//! illegal. Must not: be executed anywhere but `World::tick`.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::fixed::Fixed;
use super::ids::{CommandId, Frame, ObjectId, PlayerId, TemplateId, UpgradeId};
use super::vector::Vec2;

/// Most objects one selection may hold.
pub const MAX_SELECTION: usize = 400;

/// A point on the map in whole world units.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct Point {
    /// East.
    pub x: i32,
    /// North.
    pub y: i32,
}

impl Point {
    /// The point as a fixed-point position.
    pub fn to_vec2(self) -> Vec2 {
        Vec2::new(Fixed::from_int(self.x as i64), Fixed::from_int(self.y as i64))
    }
}

/// What a player asks for. Orders apply to the player's current selection.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Command {
    /// Replace (or, with `add`, extend) the selection that orders apply to.
    Select {
        /// Objects to select; all must be the player's own.
        objects: Vec<ObjectId>,
        /// Add to the current selection instead of replacing it.
        #[serde(default)]
        add: bool,
    },
    /// Move the selection to a point, ignoring enemies.
    Move {
        /// Destination.
        to: Point,
    },
    /// Move the selection to a point, fighting on the way.
    AttackMove {
        /// Destination.
        to: Point,
    },
    /// Attack one object with the selection.
    Attack {
        /// The enemy object.
        target: ObjectId,
    },
    /// Stop: forget orders, stand and defend.
    Stop,
    /// Guard a point (or, with none, where each unit stands).
    Guard {
        /// The point to guard.
        #[serde(default)]
        at: Option<Point>,
    },
    /// Queue a unit at one of the player's structures; paid when queued.
    Produce {
        /// The structure.
        factory: ObjectId,
        /// What to make.
        template: TemplateId,
    },
    /// Take the last queued unit off a structure's queue; its price is refunded.
    CancelProduction {
        /// The structure.
        factory: ObjectId,
    },
    /// Where a structure's new units go.
    SetRally {
        /// The structure.
        factory: ObjectId,
        /// The point.
        at: Point,
    },
    /// Send the selection's gatherers to carry money from a supply pile.
    Gather {
        /// The supply pile.
        pile: ObjectId,
    },
    /// Have a selected builder raise a structure centred near a point; paid when placed.
    Build {
        /// What to build.
        template: TemplateId,
        /// Where (snapped to the cell grid).
        at: Point,
    },
    /// Sell one of the player's finished structures: it is removed at the end of the frame and
    /// the faction's share of its price (`sell_refund`) is paid back, with whatever its queue
    /// held.
    Sell {
        /// The structure.
        structure: ObjectId,
    },
    /// Send the selected builders that can raise it to work on one of the player's unfinished
    /// structures (one whose builder was called away or lost).
    Resume {
        /// The unfinished structure.
        site: ObjectId,
    },
    /// Switch paid repair of one of the player's finished structures on (it must be damaged)
    /// or off; see [`super::upkeep`].
    Repair {
        /// The structure.
        structure: ObjectId,
    },
    /// Switch one of the player's structures that use power off (it uses none, and neither
    /// works nor shoots) or back on.
    PowerDown {
        /// The structure.
        structure: ObjectId,
    },
    /// Start researching an upgrade at one of the player's structures; paid now.
    Research {
        /// The structure.
        structure: ObjectId,
        /// The upgrade.
        upgrade: UpgradeId,
    },
    /// Give up: every object of the player is removed at the end of the frame and the player
    /// is out of the game (its allies play on).
    Surrender,
    /// The selected units spread out: each moves a short way ([`super::scatter::DISTANCE`])
    /// straight away from the selection's centre (one standing on it, the way its id says).
    Scatter,
    /// Switch the selected units' formation on (the default: a group ordered together moves at
    /// its slowest member's pace) or off (each goes at its own speed). A setting, not an order:
    /// what they are doing and have queued goes on.
    Formation {
        /// On: keep together.
        on: bool,
    },
    /// Shift: an order the selection follows once what it is doing is done (a unit at rest
    /// starts it at once). A queued build is placed and paid when its builder starts it.
    Queue {
        /// The order queued.
        order: Queued,
    },
}

/// An order waiting in a unit's queue (see [`Command::Queue`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Queued {
    /// Go to a point, ignoring enemies.
    Move {
        /// Destination.
        to: Point,
    },
    /// Go to a point, fighting on the way.
    AttackMove {
        /// Destination.
        to: Point,
    },
    /// Build a structure there (checked and paid when the builder gets to it).
    Build {
        /// The structure.
        template: TemplateId,
        /// Where.
        at: Point,
    },
}

impl Command {
    /// Whether it is an order to the player's current selection (rather than to an object it
    /// names, or to the player).
    pub fn uses_selection(&self) -> bool {
        matches!(
            self,
            Command::Move { .. }
                | Command::AttackMove { .. }
                | Command::Attack { .. }
                | Command::Stop
                | Command::Guard { .. }
                | Command::Gather { .. }
                | Command::Build { .. }
                | Command::Resume { .. }
                | Command::Queue { .. }
                | Command::Scatter
                | Command::Formation { .. }
        )
    }

    /// The ordering key within a round of a frame (see [`super::frame_order`]): commands of
    /// lower kinds run first.
    pub fn kind(&self) -> u8 {
        match self {
            Command::Select { .. } => 0,
            Command::Move { .. } => 1,
            Command::AttackMove { .. } => 2,
            Command::Attack { .. } => 3,
            Command::Stop => 4,
            Command::Guard { .. } => 5,
            Command::Produce { .. } => 6,
            Command::CancelProduction { .. } => 7,
            Command::SetRally { .. } => 8,
            Command::Build { .. } => 9,
            Command::Gather { .. } => 10,
            Command::Sell { .. } => 11,
            Command::Surrender => 12,
            Command::Resume { .. } => 13,
            Command::Repair { .. } => 14,
            Command::PowerDown { .. } => 15,
            Command::Research { .. } => 16,
            Command::Queue { .. } => 17,
            Command::Scatter => 18,
            Command::Formation { .. } => 19,
        }
    }
}

/// A command with the envelope the message stream gives it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct StampedCommand {
    /// Frame on which every machine executes it.
    pub frame: Frame,
    /// Who issued it.
    pub player: PlayerId,
    /// The issuer's number for it.
    pub id: CommandId,
    /// What was asked.
    pub command: Command,
}

/// Why a command was refused.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub enum RejectReason {
    /// The player slot does not exist or has been defeated.
    NoSuchPlayer,
    /// An object named does not exist (or no longer does).
    UnknownObject(ObjectId),
    /// An object named belongs to someone else.
    NotOwner(ObjectId),
    /// The selection would exceed [`MAX_SELECTION`].
    SelectionTooLarge(usize),
    /// The order needs a selection that can carry it out, and there is none.
    NothingSelected,
    /// The point is off the map.
    OutsideMap(Point),
    /// The target cannot be attacked by this player.
    InvalidTarget(ObjectId),
    /// No such object template.
    UnknownTemplate(TemplateId),
    /// The object cannot build or produce that template.
    CannotBuild(ObjectId, TemplateId),
    /// The player lacks a structure the template needs.
    MissingPrerequisite(TemplateId),
    /// Not enough money.
    NotEnoughMoney {
        /// The price.
        cost: i64,
        /// What the player has.
        money: i64,
    },
    /// The structure's queue is full.
    QueueFull(ObjectId),
    /// The structure is still being built.
    NotReady(ObjectId),
    /// The structure would not fit there, and what is in the way.
    BadPlacement(Point, Blocker),
    /// The queue is empty.
    NothingQueued(ObjectId),
    /// The target is not in sight of the player's team.
    NotVisible(ObjectId),
    /// The structure does not research that upgrade.
    CannotResearch(ObjectId, UpgradeId),
    /// The player has that upgrade, or is researching it already.
    AlreadyResearched(UpgradeId),
    /// The structure is switched off.
    PoweredDown(ObjectId),
    /// The structure is at full health.
    NotDamaged(ObjectId),
}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RejectReason::NoSuchPlayer => write!(f, "no such player in the game"),
            RejectReason::UnknownObject(id) => write!(f, "object {id} does not exist"),
            RejectReason::NotOwner(id) => write!(f, "object {id} belongs to another player"),
            RejectReason::SelectionTooLarge(n) => write!(f, "selection of {n} objects exceeds {MAX_SELECTION}"),
            RejectReason::NothingSelected => write!(f, "no selected object can carry out the order"),
            RejectReason::OutsideMap(p) => write!(f, "point ({}, {}) is off the map", p.x, p.y),
            RejectReason::InvalidTarget(id) => write!(f, "object {id} cannot be attacked"),
            RejectReason::UnknownTemplate(t) => write!(f, "no object template {}", t.0),
            RejectReason::CannotBuild(id, t) => write!(f, "object {id} cannot build template {}", t.0),
            RejectReason::MissingPrerequisite(t) => write!(f, "a finished template-{} structure is needed first", t.0),
            RejectReason::NotEnoughMoney { cost, money } => write!(f, "costs {cost}, the player has {money}"),
            RejectReason::QueueFull(id) => write!(f, "the queue of {id} is full"),
            RejectReason::NotReady(id) => write!(f, "object {id} is still under construction"),
            RejectReason::BadPlacement(p, why) => {
                write!(f, "a structure does not fit at ({}, {}): {why}", p.x, p.y)
            }
            RejectReason::NothingQueued(id) => write!(f, "nothing is queued at {id}"),
            RejectReason::NotVisible(id) => write!(f, "object {id} is not in sight"),
            RejectReason::CannotResearch(id, u) => write!(f, "object {id} cannot research upgrade {}", u.0),
            RejectReason::AlreadyResearched(u) => write!(f, "upgrade {} is researched or under way", u.0),
            RejectReason::PoweredDown(id) => write!(f, "object {id} is powered down"),
            RejectReason::NotDamaged(id) => write!(f, "object {id} is not damaged"),
        }
    }
}

/// What keeps a structure from fitting where it was placed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum Blocker {
    /// The ground itself: a cliff, a slope too steep, water, the map's edge.
    Ground,
    /// Another structure (or scenery that blocks the ground).
    Structure,
    /// A unit stands there.
    Unit,
}

impl fmt::Display for Blocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Blocker::Ground => "the ground is too steep or under water",
            Blocker::Structure => "a structure is in the way",
            Blocker::Unit => "a unit stands there",
        })
    }
}

/// A refused command, recorded identically on every machine.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Rejection {
    /// Frame it was to execute on.
    pub frame: Frame,
    /// Its issuer.
    pub player: PlayerId,
    /// Its number.
    pub id: CommandId,
    /// Why.
    pub reason: RejectReason,
}
