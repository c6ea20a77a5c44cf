//! Starting a match: the one way a [`MatchSetup`] becomes a running game. Content is loaded and
//! checked, the setup is resolved against it (and against the map and data hashes it carries),
//! the world is built, and this machine's slots get their controllers; then a transport joins
//! it to its peers in a [`Session`]. The skirmish screen, replays, `sim`, `screenshot` and the
//! online lobby all come through here.
//!
//! Must not: change the world after it is built (the session's stream does that).

use std::path::PathBuf;

use thiserror::Error;

use crate::ai::SkirmishAi;
use crate::content::digest::{folder_digest, hex};
use crate::content::{ContentRoots, FileError};
use crate::defs::{AiPlans, Definitions};
use crate::lockstep::pace::PaceRules;
use crate::lockstep::stream::{Stream, StreamConfig};
use crate::lockstep::transport::PeerId;
use crate::map::{Map, MapContent};
use crate::net::control::ControlTransport;
use crate::sim::ids::PlayerId;
use crate::sim::world::{GameSetup, World};

use super::controller::{Controller, Idle};
use super::match_setup::{MatchSetup, ResolvedSlot, SetupError, SlotKind};
use super::peer::{Session, SessionError};
use super::replay::CommandLog;
use super::script::{CommandScript, ScriptEntry};

/// The files of `data/` the simulation reads: objects, weapons, armour, factions and the
/// terrain classes (passability). Models, layouts, road looks and AI plans are not among them
/// (AI orders travel as commands), so a mod that only reskins or reshapes the interface still
/// plays the same match, online or from a replay.
pub const SIM_DATA_FILES: [&str; 6] =
    ["objects.ron", "weapons.ron", "armor.ron", "factions.ron", "upgrades.ron", "terrain.ron"];

/// The simulation's data files as found through `roots` (mods first): each file's name
/// (`data/<file>`) and where it lies; files no root has are left out.
pub fn sim_data_paths(roots: &ContentRoots) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = SIM_DATA_FILES
        .iter()
        .filter_map(|n| {
            let rel = format!("data/{n}");
            roots.find(&rel).map(|p| (rel, p))
        })
        .collect();
    // Entries a mod adds beside a list take part too (named by their folder and file).
    for n in SIM_DATA_FILES {
        for p in roots.extras(n) {
            let stem = n.trim_end_matches(".ron");
            let file = p.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned());
            out.push((format!("data/{stem}/{file}"), p));
        }
    }
    out
}

/// The digest of the simulation's data files as found through `roots` (mods first).
pub fn content_digest(roots: &ContentRoots) -> Result<u64, FileError> {
    crate::content::digest::files_digest(sim_data_paths(roots))
}

/// Why a match could not start.
#[derive(Debug, Error)]
pub enum StartError {
    /// The definitions or AI plans are broken (every problem listed).
    #[error(transparent)]
    Definitions(#[from] crate::defs::DefsErrors),
    /// The map content (terrain classes, road types) is broken.
    #[error("map content: {0}")]
    MapContent(#[source] crate::map::MapError),
    /// The map could not be found or read.
    #[error(transparent)]
    Map(crate::map::MapError),
    /// The map names what the rules or map content lack (every problem listed).
    #[error("{} problem(s) in map {}:\n{}", problems.len(), map.display(), problems.join("\n"))]
    MapProblems {
        /// The map's folder.
        map: std::path::PathBuf,
        /// Each problem, with its file and field.
        problems: Vec<String>,
    },
    /// A file could not be read for its digest.
    #[error(transparent)]
    File(#[from] FileError),
    /// The setup does not fit the map or the rules.
    #[error("match setup: {0}")]
    Setup(#[from] SetupError),
    /// The map on this machine is not the one the setup was made with.
    #[error("map \"{map}\" differs from the one this match was set up with (map hash {found}, expected {expected})")]
    MapMismatch {
        /// The map.
        map: String,
        /// The hash the setup carries.
        expected: String,
        /// This machine's.
        found: String,
    },
    /// The data on this machine is not the data the setup was made with.
    #[error(
        "the game data the simulation reads (data/*.ron, mods included) differs from the data this match was set up with (content hash {found}, expected {expected})"
    )]
    ContentMismatch {
        /// The hash the setup carries.
        expected: String,
        /// This machine's.
        found: String,
    },
    /// A computer slot asks for a difficulty the AI plans lack.
    #[error("slot {slot}: data/ai.ron has no plan \"{difficulty}\"")]
    NoAiPlan {
        /// The slot.
        slot: u8,
        /// The difficulty.
        difficulty: &'static str,
    },
    /// The world refused the setup.
    #[error("the world cannot start: {0}")]
    World(#[from] crate::sim::world::SetupError),
    /// The session could not be joined.
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// What a match loads: definitions, the map and its content, the AI plans.
#[derive(Clone, Debug)]
pub struct MatchContent {
    /// Definitions (the rules and the client's models).
    pub defs: Definitions,
    /// The map.
    pub map: Map,
    /// Terrain classes and road types.
    pub map_content: MapContent,
    /// AI plans per difficulty.
    pub plans: AiPlans,
}

impl MatchContent {
    /// Loads everything a match on `map` (name or folder) needs and checks the map against it.
    pub fn load(roots: &ContentRoots, map: &str) -> Result<MatchContent, StartError> {
        let defs = Definitions::load(roots)?;
        let map_content = MapContent::load(roots).map_err(StartError::MapContent)?;
        let plans = AiPlans::load(roots)?;
        let map = Map::find_and_load(roots, map).map_err(StartError::Map)?;
        let problems = map.check(&map_content, &defs.rules);
        if !problems.is_empty() {
            let problems = problems.iter().map(ToString::to_string).collect();
            return Err(StartError::MapProblems { map: map.dir.clone(), problems });
        }
        Ok(MatchContent { defs, map, map_content, plans })
    }
}

/// The local human's seat: the player whose orders the client submits
/// (`Session::submit_local`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HumanSeat {
    /// The player the human plays.
    pub player: PlayerId,
}

/// A match made ready on this machine, before a transport joins it to its peers.
pub struct Prepared {
    /// The setup, with the map and content hashes filled in.
    pub setup: MatchSetup,
    /// The open slots, resolved.
    pub slots: Vec<ResolvedSlot>,
    /// What was loaded.
    pub content: MatchContent,
    /// The world at frame 0 (or where [`Prepared::fast_forward`] took it).
    pub world: World,
    /// Controllers of this machine's slots.
    pub controllers: Vec<Box<dyn Controller>>,
    /// The first human slot on this machine, if any.
    pub human: Option<HumanSeat>,
    /// Every command executed, every machine's, for the replay (filled as the match runs).
    pub log: CommandLog,
    /// The machine this was prepared for.
    pub machine: u8,
}

/// A match running on this machine.
pub struct Match<T: ControlTransport> {
    /// The setup, with the map and content hashes filled in.
    pub setup: MatchSetup,
    /// The open slots, resolved.
    pub slots: Vec<ResolvedSlot>,
    /// What was loaded.
    pub content: MatchContent,
    /// World, stream, transport and controllers.
    pub session: Session<T>,
    /// The first human slot on this machine, if any.
    pub human: Option<HumanSeat>,
    /// Every command executed, every machine's, for the replay.
    pub log: CommandLog,
}

/// Loads and checks content for `setup`, builds the world, and gives the slots that `machine`
/// runs their controllers: the first human slot becomes the [`HumanSeat`] the client submits
/// for (a second human seat on one machine stays idle), an AI gets its plan, a scripted slot
/// its part of `script`. Remote slots are left to their own machines.
pub fn prepare(
    roots: &ContentRoots,
    setup: &MatchSetup,
    script: &CommandScript,
    machine: u8,
) -> Result<Prepared, StartError> {
    let content = MatchContent::load(roots, &setup.map)?;
    let map_hash = hex(folder_digest(&content.map.dir)?);
    let content_hash = hex(content_digest(roots)?);
    if let Some(expected) = setup.map_hash.as_ref().filter(|h| **h != map_hash) {
        return Err(StartError::MapMismatch { map: setup.map.clone(), expected: expected.clone(), found: map_hash });
    }
    if let Some(expected) = setup.content_hash.as_ref().filter(|h| **h != content_hash) {
        return Err(StartError::ContentMismatch { expected: expected.clone(), found: content_hash });
    }
    let starts = content.map.file.start_positions.len();
    let slots = setup.resolve(&content.defs.rules, &content.map.file.name, starts)?;
    let world = World::new(GameSetup {
        rules: content.defs.rules.clone(),
        terrain: content.map.terrain(&content.map_content.classes),
        players: slots.iter().map(ResolvedSlot::player_setup).collect(),
        seed: setup.seed,
        objects: content.map.initial_objects(&content.defs.rules),
    })?;
    let log = CommandLog::default();
    let mut human = None;
    let mut controllers: Vec<Box<dyn Controller>> = Vec::new();
    for s in slots.iter().filter(|s| s.machine == machine) {
        let controller: Box<dyn Controller> = match s.kind {
            SlotKind::Human if human.is_none() => {
                human = Some(HumanSeat { player: s.player });
                continue;
            }
            SlotKind::Human | SlotKind::Idle => Box::new(Idle(s.player)),
            SlotKind::Scripted => Box::new(script.controller(s.player)),
            SlotKind::Ai { difficulty } => {
                let plan = content
                    .plans
                    .get(difficulty.name())
                    .ok_or(StartError::NoAiPlan { slot: s.slot, difficulty: difficulty.name() })?;
                Box::new(SkirmishAi::new(s.player, plan.clone()))
            }
            SlotKind::Remote | SlotKind::Closed => continue,
        };
        controllers.push(controller);
    }
    let mut setup = setup.clone();
    setup.map_hash = Some(map_hash);
    setup.content_hash = Some(content_hash);
    Ok(Prepared { setup, slots, content, world, controllers, human, log, machine })
}

impl Prepared {
    /// Runs the world through a recorded game's commands (`entries`, each at the frame it
    /// executed on) up to `frame`, exactly as they ran, and logs them, so the match's own
    /// replay holds the whole game from frame 0. Returns the state hash after every frame that
    /// is a multiple of `every` on the way.
    pub fn fast_forward(&mut self, entries: &[ScriptEntry], frame: u32, every: u32) -> Vec<(u32, u64)> {
        let by_frame = super::script::stamped_by_frame(entries);
        let mut hashes = Vec::new();
        while self.world.frame().0 < frame {
            let now = self.world.frame().0;
            let commands = by_frame.get(&now).map_or(&[][..], Vec::as_slice);
            self.world.tick(commands);
            if now.is_multiple_of(every.max(1)) {
                hashes.push((now, self.world.state_hash().total));
            }
        }
        self.log.borrow_mut().extend(entries.iter().filter(|e| e.frame < frame).cloned());
        hashes
    }

    /// Joins the prepared match to its peers through `transport`: the stream knows every
    /// player, and those of this machine's slots (remote ones excepted) as local.
    pub fn into_match<T: ControlTransport>(self, transport: T) -> Match<T> {
        let run_ahead = self.setup.run_ahead();
        self.joined(transport, run_ahead, false)
    }

    /// Joins a machine coming back into a running match, its world run from the host's history
    /// up to the frame it goes live on, with the run-ahead in force there (see
    /// [`Stream::rejoining`]).
    pub fn into_rejoined_match<T: ControlTransport>(self, transport: T, run_ahead: u32) -> Match<T> {
        self.joined(transport, run_ahead, true)
    }

    fn joined<T: ControlTransport>(self, transport: T, run_ahead: u32, rejoining: bool) -> Match<T> {
        let players: Vec<PlayerId> = self.slots.iter().map(|s| s.player).collect();
        let local: Vec<PlayerId> = self
            .slots
            .iter()
            .filter(|s| s.machine == self.machine && s.kind != SlotKind::Remote)
            .map(|s| s.player)
            .collect();
        // Between machines a few pauses each and a fixed speed; alone, as the player likes.
        let pace =
            if self.slots.iter().all(|s| s.machine == self.machine) { PaceRules::LOCAL } else { PaceRules::ONLINE };
        let config = StreamConfig { players, local, run_ahead, pace };
        // A world fast-forwarded to a replay's moment starts its stream there.
        let stream = if rejoining {
            Stream::rejoining(config, self.world.frame())
        } else {
            Stream::starting_at(config, self.world.frame())
        };
        let owners = self.slots.iter().map(|s| (s.player, PeerId(s.machine))).collect();
        let mut session = Session::new(self.world, stream, transport, self.controllers).with_owners(owners);
        session.record_into(self.log.clone());
        Match { setup: self.setup, slots: self.slots, content: self.content, session, human: self.human, log: self.log }
    }
}

/// Starts a match whose every slot plays on this machine (skirmish, replays, tools): the same
/// stream and path as an online game, over the in-memory transport. Remote slots are refused
/// here; online play joins them through its own transport.
pub fn start_local(roots: &ContentRoots, setup: &MatchSetup, script: &CommandScript) -> Result<LocalMatch, StartError> {
    start_local_from(roots, setup, script, &[], 0).map(|(m, _)| m)
}

/// A match whose every slot plays on this machine, or a window's online match: its transport
/// carries the control protocol too (the in-memory hub's goes nowhere).
pub type LocalMatch = Match<Box<dyn ControlTransport>>;

/// Starts a local match from a moment of a recorded game: the world first runs the recorded
/// commands `prelude` up to `frame` (see [`Prepared::fast_forward`]), then the setup's own
/// players play on from there. Returns the match and the state hash every
/// [`super::replay::CHECKPOINT_EVERY`] frames of the prelude.
pub fn start_local_from(
    roots: &ContentRoots,
    setup: &MatchSetup,
    script: &CommandScript,
    prelude: &[ScriptEntry],
    frame: u32,
) -> Result<(LocalMatch, Vec<(u32, u64)>), StartError> {
    if let Some(i) = setup.slots.iter().position(|s| s.kind == SlotKind::Remote || s.machine.is_some_and(|m| m != 0)) {
        return Err(StartError::Setup(SetupError::NotLocal(i)));
    }
    let mut prepared = prepare(roots, setup, script, 0)?;
    let hashes = prepared.fast_forward(prelude, frame, super::replay::CHECKPOINT_EVERY);
    let transport = crate::net::memory::alone();
    let transport: Box<dyn ControlTransport> = Box::new(transport);
    Ok((prepared.into_match(transport), hashes))
}
