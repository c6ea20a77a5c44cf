//! A world's state as data, for saved games: every field `World::tick` reads between frames,
//! taken apart with no `..`, so a field added to the world does not compile until it is saved
//! here or named as rebuilt, and a restored world plays on exactly as the saved one would have.
//!
//! The rules and the scan sets come from the content the world is rebuilt from (their digest,
//! `content`, is saved and compared); the caches and the frame's events start empty, as a
//! world's caches may (see `Caches`).
//! Must not: read or write files (the caller encodes the state), or restore a state over a
//! world built from other content.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::ids::{Frame, PlayerId};
use super::pathfind::Pathfinder;
use super::player::Player;
use super::production::Factories;
use super::projectile::Projectile;
use super::research::Research;
use super::rng::GameRng;
use super::store::ObjectStore;
use super::terrain::Terrain;
use super::vision::Vision;
use super::world::World;

/// Everything of a world but what its content gives it: what a save holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WorldState {
    frame: Frame,
    rng: GameRng,
    terrain: Terrain,
    objects: ObjectStore,
    players: Vec<Player>,
    pathfinder: Pathfinder,
    factories: Factories,
    research: Research,
    vision: Vision,
    projectiles: Vec<Projectile>,
    winner: Option<PlayerId>,
    game_over: bool,
    content: u64,
}

/// Why a saved state cannot be restored over a world.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RestoreError {
    /// The world was built from other rules or terrain than the saved one.
    #[error("the state was saved from other game data or another map (content digest {saved:016x}, here {here:016x})")]
    Content {
        /// The saved digest.
        saved: u64,
        /// The digest of the world it was to be restored over.
        here: u64,
    },
    /// The state does not fit the world's map or players, or contradicts itself.
    #[error("the saved state is damaged: {0}")]
    Damaged(String),
}

impl World {
    /// This world's state, to save.
    pub fn state(&self) -> WorldState {
        let World {
            frame,
            rng,
            // From the content, rebuilt on restore (their digest is `content`).
            rules: _,
            scans: _,
            terrain,
            objects,
            players,
            pathfinder,
            factories,
            research,
            vision,
            projectiles,
            winner,
            game_over,
            content,
            // Derived, never state: a world plays on alike without them.
            caches: _,
            events: _,
        } = self;
        WorldState {
            frame: *frame,
            rng: rng.clone(),
            terrain: terrain.clone(),
            objects: objects.clone(),
            players: players.clone(),
            pathfinder: pathfinder.clone(),
            factories: factories.clone(),
            research: research.clone(),
            vision: vision.clone(),
            projectiles: projectiles.clone(),
            winner: *winner,
            game_over: *game_over,
            content: *content,
        }
    }

    /// The world `state` was saved from, over `base`: a world built from the same content and
    /// setup (its rules and scan sets are kept). Refused when the content differs or the state
    /// contradicts itself (objects of unknown templates or owners, an objects' hash that does
    /// not add up); the hash of the result equals the saved world's.
    pub fn restored(base: World, state: WorldState) -> Result<World, RestoreError> {
        let WorldState {
            frame,
            rng,
            terrain,
            objects,
            players,
            pathfinder,
            factories,
            research,
            vision,
            projectiles,
            winner,
            game_over,
            content,
        } = state;
        if content != base.content {
            return Err(RestoreError::Content { saved: content, here: base.content });
        }
        let damaged = |what: String| Err(RestoreError::Damaged(what));
        if (terrain.width(), terrain.height()) != (base.terrain.width(), base.terrain.height()) {
            return damaged(format!(
                "a {}×{} map where this one is {}×{}",
                terrain.width(),
                terrain.height(),
                base.terrain.width(),
                base.terrain.height()
            ));
        }
        if players.len() != base.players.len() || players.iter().enumerate().any(|(i, p)| p.id.index() != i) {
            return damaged(format!("{} players where the setup has {}", players.len(), base.players.len()));
        }
        let templates = base.rules.templates.len();
        let known_owner = |p: PlayerId| p == PlayerId::NEUTRAL || p.index() < players.len();
        if let Some(o) = objects.iter().find(|o| o.template.0 as usize >= templates || !known_owner(o.owner)) {
            return damaged(format!("object {} has template {} and owner {}", o.id, o.template.0, o.owner));
        }
        if objects.digest_sum() != objects.recompute_digest_sum() {
            return damaged("the objects do not add up to their saved hash".to_string());
        }
        if winner.is_some_and(|w| w.index() >= players.len()) {
            return damaged("the winner is not a player".to_string());
        }
        Ok(World {
            frame,
            rng,
            rules: base.rules,
            scans: base.scans,
            terrain,
            objects,
            players,
            pathfinder,
            factories,
            research,
            vision,
            projectiles,
            winner,
            game_over,
            content,
            caches: Default::default(),
            events: Vec::new(),
        })
    }
}
