//! How a game begins: the setup every machine starts from (players, map, seed, pre-placed
//! objects), its checks, and the world it builds, with each faction's starting objects laid
//! out around its start so that mirrored starts play alike.
//! Must not: read anything but the setup (no clock, no files: the caller loads them).

use std::sync::Arc;

use thiserror::Error;

use super::angle::Angle;
use super::fixed::Fixed;
use super::ids::{Frame, ObjectId, PlayerId, TemplateId};
use super::pathfind::Pathfinder;
use super::player::Player;
use super::production::Factories;
use super::rng::GameRng;
use super::rules::Rules;
use super::store::ObjectStore;
use super::terrain::{Cell, Terrain};
use super::vector::Vec2;
use super::world::{Caches, PATH_BUDGET_PER_FRAME, World};

/// One player's place in a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSetup {
    /// Faction index into the rules.
    pub faction: u16,
    /// Team; players sharing a team are allies.
    pub team: u8,
    /// Money at the start (a match setup chooses it; by default the faction's).
    pub money: i64,
    /// Index of the map's start position this player begins on.
    pub start: u8,
}

impl PlayerSetup {
    /// A player of `faction` on `team`, starting on start position `start` with the
    /// faction's starting money from `rules`.
    pub fn with_faction_money(rules: &Rules, faction: u16, team: u8, start: u8) -> PlayerSetup {
        let money = rules.factions.get(faction as usize).map_or(0, |f| f.starting_money);
        PlayerSetup { faction, team, money, start }
    }
}

/// Everything needed to start a game; identical on every machine.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// Definitions.
    pub rules: Arc<Rules>,
    /// The map's passability and start positions.
    pub terrain: Terrain,
    /// Players in slot order.
    pub players: Vec<PlayerSetup>,
    /// The game seed.
    pub seed: u64,
    /// Objects placed before the first frame besides the factions' starting objects
    /// (a map's pre-placed objects, scenarios, benchmarks).
    pub objects: Vec<InitialObject>,
}

/// An object present from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitialObject {
    /// What it is.
    pub template: TemplateId,
    /// Whose it is.
    pub owner: PlayerId,
    /// Where it stands.
    pub pos: Vec2,
    /// Money it holds, for supply piles (0 for anything else).
    pub supply: u32,
}

/// Why a game could not be set up.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    /// More players than the map has start positions.
    #[error("{players} players but the map has {starts} start positions")]
    TooManyPlayers {
        /// Players asked for.
        players: usize,
        /// Start positions available.
        starts: usize,
    },
    /// An initial object names an unknown template or player.
    #[error("initial object {0} names an unknown template or player")]
    BadObject(usize),
    /// A faction index out of range.
    #[error("player {0} has an unknown faction")]
    UnknownFaction(usize),
    /// A start position out of range, or shared by two players.
    #[error("player {player} starts on start position {start}, which the map lacks or another player has")]
    BadStart {
        /// The player.
        player: usize,
        /// The start position asked for.
        start: u8,
    },
    /// Negative starting money.
    #[error("player {0} starts with negative money")]
    NegativeMoney(usize),
    /// No players.
    #[error("a game needs at least one player")]
    NoPlayers,
}

impl World {
    /// Starts a game: players get their faction's money and starting objects at their start.
    pub fn new(setup: GameSetup) -> Result<World, SetupError> {
        if setup.players.is_empty() {
            return Err(SetupError::NoPlayers);
        }
        let starts = setup.terrain.start_positions().len();
        if setup.players.len() > starts {
            return Err(SetupError::TooManyPlayers { players: setup.players.len(), starts });
        }
        for (i, o) in setup.objects.iter().enumerate() {
            let owner_ok = o.owner == PlayerId::NEUTRAL || o.owner.index() < setup.players.len();
            if !owner_ok || o.template.0 as usize >= setup.rules.templates.len() {
                return Err(SetupError::BadObject(i));
            }
        }
        let mut players = Vec::new();
        for (i, p) in setup.players.iter().enumerate() {
            setup.rules.factions.get(p.faction as usize).ok_or(SetupError::UnknownFaction(i))?;
            let shared = setup.players[..i].iter().any(|q| q.start == p.start);
            if p.start as usize >= starts || shared {
                return Err(SetupError::BadStart { player: i, start: p.start });
            }
            if p.money < 0 {
                return Err(SetupError::NegativeMoney(i));
            }
            players.push(Player {
                id: PlayerId(i as u8),
                faction: p.faction,
                team: p.team,
                start: p.start,
                money: p.money,
                selection: Vec::new(),
                defeated: false,
                rejected: 0,
                upgrades: 0,
            });
        }
        let content = super::content_digest::content_digest(&setup.rules, &setup.terrain);
        let teams = players.iter().map(|p| p.team as usize + 1).max().unwrap_or(1);
        let vision = super::vision::Vision::new(&setup.terrain, teams);
        let mut world = World {
            frame: Frame(0),
            rng: GameRng::new(setup.seed),
            scans: std::sync::Arc::new(super::scans::ScanSets::new(&setup.rules)),
            rules: setup.rules,
            terrain: setup.terrain,
            objects: ObjectStore::new(),
            players,
            pathfinder: Pathfinder::new(PATH_BUDGET_PER_FRAME),
            factories: Factories::default(),
            research: super::research::Research::default(),
            vision,
            projectiles: Vec::new(),
            winner: None,
            game_over: false,
            content,
            caches: Caches::default(),
            events: Vec::new(),
        };
        for i in 0..world.players.len() {
            world.place_starting_objects(PlayerId(i as u8));
        }
        let placed: Vec<(ObjectId, u32)> = setup
            .objects
            .iter()
            .map(|o| (world.create_object(o.template, o.owner, o.pos, Angle::ZERO), o.supply))
            .collect();
        world.objects.flush();
        for (id, supply) in placed {
            if let Some(mut o) = world.objects.get_mut(id) {
                o.set_supply(supply);
            }
        }
        super::vision::update(&mut world);
        world.pathfinder.refresh_regions(&world.terrain);
        // Starting gatherers go to work (on ground they can reach: after the regions), in id order.
        let gatherers: Vec<ObjectId> = world.objects.of_set(&world.scans.gatherers).map(|o| o.id).collect();
        for id in gatherers {
            super::economy::send_to_work(&mut world, id);
        }
        Ok(world)
    }

    /// Places a faction's starting objects: the first on the start position, the rest on a
    /// spiral of free cells around it, turned by the quarter of the map the start lies in so
    /// that every start position lays its objects out alike (the first toward the middle).
    fn place_starting_objects(&mut self, player: PlayerId) {
        let rules = Arc::clone(&self.rules);
        let faction = &rules.factions[self.players[player.index()].faction as usize];
        let Some(start) = self.start_of(player) else { return };
        let centre = self.terrain.world_size().scale(Fixed::HALF);
        let facing = (centre - start).angle();
        let sign = self.terrain.toward_middle(start);
        // A start on a cell border spirals from the cell on its side toward the middle, so
        // mirrored starts spiral from mirrored cells.
        let quarter = self.terrain.cell_size().div_int(4);
        let from = start + Vec2::new(quarter.mul_int(sign.0 as i64), quarter.mul_int(sign.1 as i64));
        let mut spiral = Spiral::new(self.terrain.cell_of(from), sign);
        let mut first = true;
        for &(template, count) in &faction.starting_objects {
            for _ in 0..count {
                let pos = if first {
                    start
                } else {
                    match spiral.next_free(&self.terrain) {
                        Some(c) => self.terrain.center(c),
                        None => start,
                    }
                };
                first = false;
                self.create_object(template, player, pos, facing);
            }
        }
    }
}

/// Visits cells on square rings around a centre, every other cell, skipping blocked ones.
struct Spiral {
    centre: Cell,
    /// The signs the offsets are multiplied by: the spiral's turn toward the map's middle.
    sign: (i32, i32),
    ring: i32,
    i: i32,
}

impl Spiral {
    fn new(centre: Cell, sign: (i32, i32)) -> Spiral {
        Spiral { centre, sign, ring: 2, i: 0 }
    }

    fn next_free(&mut self, terrain: &Terrain) -> Option<Cell> {
        while self.ring < 64 {
            let side = self.ring * 2;
            let perimeter = side * 4;
            while self.i < perimeter {
                let k = self.i;
                self.i += 2;
                let (s, t) = (k / side, k % side);
                let r = self.ring;
                let (dx, dy) = match s {
                    0 => (-r + t, -r),
                    1 => (r, -r + t),
                    2 => (r - t, r),
                    _ => (-r, r - t),
                };
                let c = Cell { x: self.centre.x + dx * self.sign.0, y: self.centre.y + dy * self.sign.1 };
                if terrain.passable(c) {
                    return Some(c);
                }
            }
            self.ring += 2;
            self.i = 0;
        }
        None
    }
}
