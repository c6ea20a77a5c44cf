//! The world: every piece of synchronized state, the fixed order of one tick, and the hash.
//!
//! One tick executes one frame: the frame's commands in execution order (`frame_order.rs`), then path
//! answers, construction, production, research, upkeep (fire and repair), combat, movement,
//! separation, destruction (and the arrival of new objects) and victory, always in that order.
//! How a world is first built is `setup.rs`.
//! Must not: read anything but its own state and the commands it is given.

use std::sync::Arc;

use super::angle::Angle;
use super::command::{Rejection, StampedCommand};
use super::event::GameEvent;
use super::fixed::Fixed;
use super::hash::{StateHash, StateHasher, finish_set};
use super::ids::{Frame, ObjectId, PlayerId, TemplateId};
use super::object::{Object, Order};
use super::pathfind::Pathfinder;
use super::player::Player;
use super::production::{self, Factories};
use super::rng::GameRng;
use super::rules::Rules;
use super::store::ObjectStore;
use super::terrain::{Cell, Terrain};
use super::vector::Vec2;
use super::{combat, economy, movement, separation, victory};

pub use super::setup::{GameSetup, InitialObject, PlayerSetup, SetupError};

/// Cells the pathfinder may expand per frame, across all requests.
pub const PATH_BUDGET_PER_FRAME: u32 = 12_000;

/// What happened in one tick, for the client and tools (not state).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// Commands refused this frame (each also an [`GameEvent::OrderRefused`]).
    pub rejections: Vec<Rejection>,
    /// Objects destroyed this frame.
    pub destroyed: Vec<ObjectId>,
    /// Everything that happened, in the order the systems ran.
    pub events: Vec<GameEvent>,
}

/// The simulation.
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) frame: Frame,
    pub(crate) rng: GameRng,
    pub(crate) rules: Arc<Rules>,
    /// The template sets the systems scan by, worked out from `rules` once.
    pub(crate) scans: Arc<super::scans::ScanSets>,
    pub(crate) terrain: Terrain,
    pub(crate) objects: ObjectStore,
    pub(crate) players: Vec<Player>,
    pub(crate) pathfinder: Pathfinder,
    pub(crate) factories: Factories,
    /// Upgrades being researched.
    pub(crate) research: super::research::Research,
    /// What each team sees and has seen (derived from positions; explored counts hashed).
    pub(crate) vision: super::vision::Vision,
    /// Shells in flight, in firing order.
    pub(crate) projectiles: Vec<super::projectile::Projectile>,
    pub(crate) winner: Option<PlayerId>,
    pub(crate) game_over: bool,
    /// Digest of the rules and terrain the world was built from (constant; in every hash).
    pub(crate) content: u64,
    /// The systems' caches; derived, never state (not hashed).
    pub(crate) caches: Caches,
    /// Events of the frame being executed, handed out in its report (never read back).
    pub(crate) events: Vec<GameEvent>,
}

/// The systems' caches: each system's own, kept between frames so a tick allocates nothing once
/// warm and repeats no work that still holds. Derived, never state: the hash leaves them out,
/// and a world whose caches are dropped plays on exactly alike (tests check separation's and
/// vision's).
#[derive(Clone, Debug, Default)]
pub(crate) struct Caches {
    /// Separation's close pairs and the units it pushes.
    pub separation: super::separation::SeparationCache,
    /// Combat's target grids and the armed units it looks at.
    pub combat: super::combat::CombatCache,
    /// Movement's cruises found clear.
    pub movement: super::movement::MovementCache,
    /// Every player's power as last found, kept while it holds (see `World::frame_power`).
    pub power: Option<super::power::PowerCache>,
    /// The finished supply depots as last found, kept while they hold.
    pub depots: super::economy::DepotCache,
    /// The slots of the sets walked every frame (armed, gatherers, builders, structures,
    /// movers), kept while no object comes or goes.
    pub armed: super::store::Members,
    pub gatherers: super::store::Members,
    pub builders: super::store::Members,
    pub structures: super::store::Members,
    pub movers: super::store::Members,
}

impl World {
    /// Queues a new object (it appears at the next flush); structures block their footprint now.
    pub(crate) fn create_object(
        &mut self,
        template: TemplateId,
        owner: PlayerId,
        pos: Vec2,
        facing: Angle,
    ) -> ObjectId {
        let t = self.rules.template(template);
        if t.kind.blocks_ground() {
            self.terrain.mark_structure(pos, t.footprint, true);
        }
        let object = Object::new(template, owner, t, pos, facing);
        self.objects.spawn(object)
    }

    /// Queues a construction site: a structure with `frames` of work left and a tenth of its
    /// health, blocking its footprint now.
    pub(crate) fn create_site(&mut self, template: TemplateId, owner: PlayerId, pos: Vec2, frames: u32) -> ObjectId {
        let t = self.rules.template(template);
        self.terrain.mark_structure(pos, t.footprint, true);
        let mut site = Object::new(template, owner, t, pos, Angle(16384));
        site.health = (t.max_health / 10).max(1);
        site.construction = Some(frames.max(1));
        self.objects.spawn(site)
    }

    /// A free point next to a footprint centred at `centre`, on the side facing `toward` if
    /// given, else the side facing the map's middle (south for a footprint at the middle), so
    /// that mirrored bases send their units out alike: where produced units appear.
    pub(crate) fn exit_point(&self, centre: Vec2, footprint: (u8, u8), toward: Option<Vec2>) -> Option<Vec2> {
        let c = self.terrain.cell_of(centre);
        let (w, h) = (footprint.0 as i32, footprint.1 as i32);
        let (x0, y0) = (c.x - w / 2 - 1, c.y - h / 2 - 1);
        let (x1, y1) = (x0 + w + 1, y0 + h + 1);
        let mut ring: Vec<Cell> = Vec::new();
        for x in x0..=x1 {
            ring.push(Cell { x, y: y0 });
            ring.push(Cell { x, y: y1 });
        }
        for y in y0 + 1..y1 {
            ring.push(Cell { x: x0, y });
            ring.push(Cell { x: x1, y });
        }
        let middle = self.terrain.world_size().scale(Fixed::HALF);
        let south = centre - Vec2::new(Fixed::ZERO, self.terrain.cell_size().mul_int(100));
        let aim = toward.unwrap_or(if middle == centre { south } else { middle });
        ring.into_iter()
            .filter(|&cell| self.terrain.passable(cell))
            .map(|cell| self.terrain.center(cell))
            .min_by_key(|p| ((*p - aim).length_squared(), p.x, p.y))
    }

    /// Executes one frame with its commands (any order: they are put in execution order
    /// here, see [`super::frame_order`]); returns what happened.
    pub fn tick(&mut self, commands: &[StampedCommand]) -> TickReport {
        let mut report = TickReport::default();
        let mut sorted: Vec<&StampedCommand> = commands.iter().collect();
        super::frame_order::execution_order(&mut sorted);
        for cmd in sorted {
            if let Err(reason) = self.apply(cmd.player, &cmd.command) {
                if let Some(p) = self.players.get_mut(cmd.player.index()) {
                    p.rejected = p.rejected.saturating_add(1);
                }
                log::debug!("frame {}: player {} command {} rejected: {}", self.frame, cmd.player, cmd.id.0, reason);
                let rejection = Rejection { frame: self.frame, player: cmd.player, id: cmd.id, reason };
                self.events.push(GameEvent::OrderRefused(rejection.clone()));
                report.rejections.push(rejection);
            }
        }
        for result in self.pathfinder.run(&self.terrain) {
            if let Some(mut obj) = self.objects.get_mut(result.object)
                && obj.nav.request == Some(result.id)
            {
                obj.change(|o| {
                    o.nav.request = None;
                    o.nav.waypoints = result.waypoints;
                    o.nav.next = 0;
                    o.nav.stuck_frames = 0;
                    o.nav.best_distance = Fixed::MAX;
                });
            }
        }
        production::construct(self);
        economy::gather(self);
        let arrivals = production::produce(self);
        super::research::step(self);
        super::upkeep::step(self);
        combat::update(self);
        super::projectile::update(self);
        movement::update(self);
        super::queue::step(self);
        separation::update(self);
        // Only when some health fell to zero or below is there anyone to look for.
        let fallen = self.objects.take_fallen();
        debug_assert!(fallen || self.objects.iter().all(|o| o.health > 0), "a fall to zero health went unflagged");
        let dead: Vec<ObjectId> =
            if fallen { self.objects.iter().filter(|o| o.health <= 0).map(|o| o.id).collect() } else { Vec::new() };
        for id in dead {
            if let Some(o) = self.objects.get(id) {
                let (template, owner, at) = (o.template, o.owner, o.pos);
                self.events.push(GameEvent::Killed { object: id, template, owner, at });
            }
            self.objects.destroy(id);
        }
        let gone_objects = self.objects.flush();
        for (id, goal) in arrivals.rallies {
            if let Some(mut o) = self.objects.get_mut(id) {
                o.set_order(Order::Move { goal });
                movement::set_goal(&mut o, goal, &mut self.pathfinder);
            }
        }
        for id in arrivals.workers {
            economy::send_to_work(self, id);
        }
        for gone in gone_objects {
            self.factories.forget(gone.id);
            self.research.cancel(gone.id);
            let t = self.rules.template(gone.template);
            if t.kind.blocks_ground() {
                self.terrain.mark_structure(gone.pos, t.footprint, false);
            }
            report.destroyed.push(gone.id);
        }
        if !report.destroyed.is_empty() {
            for p in &mut self.players {
                p.selection.retain(|id| !report.destroyed.contains(id));
            }
        }
        victory::update(self);
        super::vision::update(self);
        self.pathfinder.refresh_regions(&self.terrain);
        report.events = std::mem::take(&mut self.events);
        self.frame = self.frame.next();
        #[cfg(not(feature = "hash-upkeep-off"))]
        debug_assert_eq!(
            self.objects.digest_sum(),
            self.objects.recompute_digest_sum(),
            "frame {}: an object changed outside ObjectMut",
            self.frame
        );
        debug_assert!(self.objects.places_hold(), "frame {}: an object's place went unrecorded", self.frame);
        debug_assert!(self.objects.queued_holds(), "frame {}: the count of queued objects went wrong", self.frame);
        report
    }

    /// The 64-bit hash of the whole state, with its parts. The objects' part is kept up to
    /// date as they change, so this costs the same for ten objects or ten thousand.
    pub fn state_hash(&self) -> StateHash {
        self.hash_with_objects(self.objects.digest_sum())
    }

    /// The same hash with every object's digest recomputed from its fields; equal to
    /// [`World::state_hash`] unless an object changed without going through the hash.
    pub fn recomputed_state_hash(&self) -> StateHash {
        self.hash_with_objects(self.objects.recompute_digest_sum())
    }

    /// The state hash with the objects' part from `digest_sum`.
    ///
    /// The world is taken apart field by field with no `..`: a field added to [`World`] does
    /// not compile until it is hashed here or named as derived, with the reason.
    fn hash_with_objects(&self, digest_sum: u64) -> StateHash {
        let World {
            frame,
            rng,
            // The rules and the terrain's ground are covered by `content`; the terrain's
            // structure marks follow from the structures (objects); the scan sets from the rules.
            rules: _,
            scans: _,
            terrain: _,
            // Hashed by the caller's digest sum, kept by the store as objects change.
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
            // The systems' caches and the frame's events: never read back as state.
            caches: _,
            events: _,
        } = self;
        let objects = finish_set(digest_sum, objects.len() as u64);
        let mut h = StateHasher::new();
        for p in players {
            p.hash_into(&mut h);
        }
        vision.hash_into(&mut h);
        let players = h.finish();
        let mut h = StateHasher::new();
        h.write_u64(rng.state());
        let rng = h.finish();
        let mut h = StateHasher::new();
        pathfinder.hash_into(&mut h);
        let pathfinding = h.finish();
        let mut h = StateHasher::new();
        factories.hash_into(&mut h);
        research.hash_into(&mut h);
        h.write_u64(projectiles.len() as u64);
        for p in projectiles {
            p.hash_into(&mut h);
        }
        let production = h.finish();
        let mut h = StateHasher::new();
        h.write_words(&[
            frame.0 as u64,
            objects,
            players,
            rng,
            pathfinding,
            production,
            winner.map_or(u64::MAX, |w| w.0 as u64) ^ (*game_over as u64) << 62,
            *content,
        ]);
        StateHash { total: h.finish(), objects, players, rng, pathfinding, production, content: *content }
    }

    /// The game RNG's state, read only: controllers (the skirmish AI) mix it into choices
    /// among equal options, so different seeds play differently and one seed the same.
    pub fn rng_state(&self) -> u64 {
        self.rng.state()
    }

    /// The next frame to execute (also the number of frames executed so far).
    pub fn frame(&self) -> Frame {
        self.frame
    }

    /// The definitions in use.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The passability grid.
    pub fn terrain(&self) -> &Terrain {
        &self.terrain
    }

    /// Live objects in id order.
    pub fn objects(&self) -> impl Iterator<Item = &Object> {
        self.objects.iter()
    }

    /// `player`'s live objects in id order.
    pub fn objects_of(&self, player: PlayerId) -> impl Iterator<Item = &Object> {
        self.objects.of_owners(move |owner| owner == player)
    }

    /// Live objects whose owner `keep` accepts, in id order (others are not read).
    pub fn objects_owned_by(&self, keep: impl Fn(PlayerId) -> bool) -> impl Iterator<Item = &Object> {
        self.objects.of_owners(keep)
    }

    /// One object by id.
    pub fn object(&self, id: ObjectId) -> Option<&Object> {
        self.objects.get(id)
    }

    /// Number of live objects.
    pub fn object_count(&self) -> usize {
        self.objects.len()
    }

    /// Production queues and rally points.
    pub fn factories(&self) -> &Factories {
        &self.factories
    }

    /// Players in slot order.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Where `player` started: its start position on the map (none for no such player).
    pub fn start_of(&self, player: PlayerId) -> Option<Vec2> {
        let p = self.players.get(player.index())?;
        self.terrain.start_positions().get(p.start as usize).copied()
    }

    /// The winning player (lowest slot of the winning team), once decided.
    pub fn winner(&self) -> Option<PlayerId> {
        self.winner
    }

    /// True once the game has ended (with a winner or a draw).
    pub fn is_over(&self) -> bool {
        self.game_over
    }
}
