//! What happened in a tick, as events for the client: shots, hits, deaths, new units, finished
//! and started structures, money received, players under attack. The systems note them as they
//! change the state; [`super::world::World::tick`] hands them out in its report.
//!
//! Must not: be read by the simulation (events never feed back into it, and are not hashed).

use super::command::{RejectReason, Rejection};
use super::ids::{ObjectId, PlayerId, TemplateId, UpgradeId, WeaponId};
use super::vector::Vec2;

/// One thing that happened in a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// A weapon fired at a target.
    WeaponFired {
        /// Who fired.
        shooter: ObjectId,
        /// With what.
        weapon: WeaponId,
        /// From where.
        from: Vec2,
        /// At whom.
        target: ObjectId,
        /// Where the target stood.
        at: Vec2,
    },
    /// A shot landed.
    Hit {
        /// Who was hit.
        target: ObjectId,
        /// Who fired.
        attacker: ObjectId,
        /// Health taken.
        damage: i32,
        /// Where.
        at: Vec2,
    },
    /// A player gave up; its objects are gone at the end of the frame.
    Surrendered {
        /// Who.
        player: PlayerId,
        /// Everything it had.
        objects: Vec<ObjectId>,
    },
    /// A structure was sold (it is gone at the end of the frame).
    StructureSold {
        /// The structure.
        object: ObjectId,
        /// Its template.
        template: TemplateId,
        /// Whose it was.
        owner: PlayerId,
        /// Where it stood.
        at: Vec2,
        /// What its owner got back.
        refund: i64,
    },
    /// An object was destroyed (at the end of the frame).
    Killed {
        /// What it was.
        object: ObjectId,
        /// Its template.
        template: TemplateId,
        /// Whose it was.
        owner: PlayerId,
        /// Where it fell.
        at: Vec2,
    },
    /// A shot or blast of `by`'s destroyed another player's object (the frame's `Killed` for it
    /// follows at the end of the frame): the kill its score counts.
    KillCredited {
        /// What was destroyed.
        victim: ObjectId,
        /// Whose object dealt the last hit.
        by: PlayerId,
    },
    /// A unit earned a veterancy rank by destroying enemies.
    Promoted {
        /// The unit.
        object: ObjectId,
        /// Whose it is.
        owner: PlayerId,
        /// Its new rank (1–3).
        rank: u8,
        /// Where it stands.
        at: Vec2,
    },
    /// A structure finished researching an upgrade; its owner has it from now on.
    UpgradeResearched {
        /// Where it was researched.
        structure: ObjectId,
        /// Who has it.
        owner: PlayerId,
        /// What.
        upgrade: UpgradeId,
    },
    /// A structure being repaired regained health (every upkeep step).
    Repaired {
        /// The structure.
        object: ObjectId,
        /// Whose.
        owner: PlayerId,
        /// Its health now.
        health: i32,
    },
    /// A factory finished a unit (it appears at the end of the frame).
    UnitProduced {
        /// The new unit.
        object: ObjectId,
        /// What it is.
        template: TemplateId,
        /// Whose.
        owner: PlayerId,
        /// Where it appears.
        at: Vec2,
    },
    /// A construction site was placed.
    ConstructionStarted {
        /// The site.
        site: ObjectId,
        /// What it will be.
        template: TemplateId,
        /// Whose.
        owner: PlayerId,
        /// Where.
        at: Vec2,
    },
    /// A structure was finished.
    StructureCompleted {
        /// The structure.
        object: ObjectId,
        /// What it is.
        template: TemplateId,
        /// Whose.
        owner: PlayerId,
        /// Where.
        at: Vec2,
    },
    /// A player's command was refused.
    OrderRefused(Rejection),
    /// A builder's queued structure could not be started when its turn came (its site blocked,
    /// the money short…): it is dropped from the queue — nothing was paid for it — and the
    /// builder goes on to its next order. Also told as an [`GameEvent::OrderRefused`].
    QueuedBuildDropped {
        /// The builder.
        builder: ObjectId,
        /// Whose.
        owner: PlayerId,
        /// The structure it was to build.
        template: TemplateId,
        /// Where.
        at: Vec2,
        /// Why it could not start.
        reason: RejectReason,
    },
    /// Money reached a player (a gatherer unloaded).
    MoneyReceived {
        /// Who.
        player: PlayerId,
        /// How much.
        amount: i64,
        /// Where it was unloaded.
        at: Vec2,
    },
    /// A player's object was hit by an enemy: at most one a player per frame, the first hit.
    UnderAttack {
        /// Whose object.
        player: PlayerId,
        /// Which.
        object: ObjectId,
        /// Where.
        at: Vec2,
    },
}
