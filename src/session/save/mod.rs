//! Saved games: a skirmish on this machine written down at a frame — its setup, the digests of
//! the files it reads, the whole simulation state, the stream's commands not yet run, the
//! controllers' state and every command run so far (for its replay) — and continued from
//! there exactly: the hash log after a load equals the uninterrupted game's, bit for bit.
//!
//! A save made with other data, or in another format version, is refused with the reason and
//! the file; a damaged one with the file and what is wrong, never a panic. Saves are written
//! beside and renamed over (`content::write_with`).
//!
//! Must not: save an online game (the other machines hold their own state), or continue a
//! save over content that differs from what it was made with.

pub mod controllers;
pub mod digests;
pub mod format;
pub mod thumbnail;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::content::ContentRoots;
use crate::lockstep::stream::Stream;
use crate::lockstep::transport::PeerId;
use crate::net::control::ControlTransport;
use crate::net::memory::hub;
use crate::sim::snapshot::WorldState;
use crate::sim::world::World;

use super::match_setup::{MatchSetup, ResolvedSlot, SlotKind};
use super::peer::Session;
use super::replay::CommandLog;
use super::script::{CommandScript, ScriptEntry};
use super::start::{LocalMatch, Match, MatchContent, StartError, prepare};

pub use super::controller::ControllerState;
pub use format::SAVE_VERSION;
pub use thumbnail::Thumbnail;

/// The extension of save files.
pub const EXTENSION: &str = "rlsave";

/// Why a game could not be saved or continued; each names the file.
#[derive(Debug, Error)]
pub enum SaveError {
    /// The file could not be read.
    #[error("{}: cannot read: {why}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The save could not be written (an earlier file of that name is as it was).
    #[error("{}: cannot save: {why}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The file is not a saved game at all.
    #[error("{}: not a Ridgeline saved game", path.display())]
    NotASave {
        /// The file.
        path: PathBuf,
    },
    /// The file is a save of another format version.
    #[error(
        "{}: save format version {version} (this build reads version {SAVE_VERSION}); it was saved by another version of the game",
        path.display()
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        version: u32,
    },
    /// The file is cut short, garbled, past a limit, or its state contradicts itself.
    #[error("{}: the saved game is damaged: {why}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The game's files here differ from those the save was made with.
    #[error(
        "{}: saved with other game data; these files differ from the ones it was made with: {}",
        path.display(),
        files.join(", ")
    )]
    OtherData {
        /// The file.
        path: PathBuf,
        /// The files that differ (`data/…`, `maps/…`).
        files: Vec<String>,
    },
    /// The match could not be set up again.
    #[error("{}: {source}", path.display())]
    Start {
        /// The file.
        path: PathBuf,
        /// Why.
        source: StartError,
    },
    /// This game cannot be saved.
    #[error("this game cannot be saved: {0}")]
    NotSaveable(String),
}

/// What the Load screen lists, read without the state.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveHeader {
    /// The map's name.
    pub map: String,
    /// Frames run when it was saved (the game time).
    pub frame: u32,
    /// When it was saved, in seconds since 1970 (UTC).
    pub saved_at: u64,
    /// The players' names, in player order.
    pub players: Vec<String>,
    /// The match as it was set up (map and content hashes filled in).
    pub setup: MatchSetup,
    /// Each file the match reads, with its digest (see [`digests::match_files`]).
    pub files: Vec<(String, String)>,
    /// The game as it stood, small.
    pub thumbnail: Option<Thumbnail>,
}

/// What continues the game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveState {
    /// The simulation.
    pub world: WorldState,
    /// The message stream: commands given but not yet run, command numbers, pace.
    pub stream: Stream,
    /// This machine's controllers.
    pub controllers: Vec<ControllerState>,
    /// Whether the controllers had already thought for the next frame.
    pub thought: bool,
    /// Every command run so far, at the frame it ran on (the game's replay goes on from them).
    pub commands: Vec<ScriptEntry>,
    /// The state hash every few hundred frames so far (the replay's checkpoints).
    pub checkpoints: Vec<(u32, String)>,
    /// The window's score so far (none from a headless save).
    #[serde(default)]
    pub score: Option<SavedScore>,
    /// Where the player was looking (none from a headless save): a loaded game opens there.
    #[serde(default)]
    pub view: Option<SavedView>,
}

/// Where the window's camera looked when the game was saved. Display only: it never reaches
/// the simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedView {
    /// The ground point at the centre of the screen, world units.
    pub target: [f32; 3],
    /// Rotation about the vertical, radians.
    pub yaw: f32,
    /// Zoom (1 the default distance).
    pub zoom: f32,
}

/// The window's score of the match so far: objects built, lost and destroyed, per player. It
/// is counted from the frames' events, which are not state, so a save carries it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedScore {
    /// Units and structures each player built.
    pub built: Vec<u32>,
    /// Objects each player lost.
    pub lost: Vec<u32>,
    /// Enemy objects each player's units destroyed.
    pub destroyed: Vec<u32>,
}

/// A running match but its session: what a save takes besides the session.
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    /// The setup, hashes filled in.
    pub setup: &'a MatchSetup,
    /// The open slots, resolved.
    pub slots: &'a [ResolvedSlot],
    /// What the match loaded.
    pub content: &'a MatchContent,
    /// Every command run so far.
    pub log: &'a CommandLog,
}

/// A saved game.
#[derive(Clone, Debug)]
pub struct Save {
    /// What the Load screen lists.
    pub header: SaveHeader,
    /// What continues the game.
    pub state: SaveState,
}

impl Save {
    /// The save of `game` as it stands: a skirmish whose every player is on this machine.
    /// `checkpoints` are the replay's so far, `saved_at` the time (seconds since 1970), and
    /// `thumbnail` its picture.
    pub fn capture<T: ControlTransport>(
        roots: &ContentRoots,
        game: &Match<T>,
        checkpoints: &[(u32, String)],
        saved_at: u64,
        thumbnail: Option<Thumbnail>,
    ) -> Result<Save, SaveError> {
        let parts = Parts { setup: &game.setup, slots: &game.slots, content: &game.content, log: &game.log };
        Save::capture_parts(roots, parts, &game.session, checkpoints, saved_at, thumbnail)
    }

    /// [`Save::capture`] from a match's parts, its session borrowed apart (a headless run
    /// saves from inside the loop that steps it).
    pub fn capture_parts<T: ControlTransport>(
        roots: &ContentRoots,
        game: Parts<'_>,
        session: &Session<T>,
        checkpoints: &[(u32, String)],
        saved_at: u64,
        thumbnail: Option<Thumbnail>,
    ) -> Result<Save, SaveError> {
        if game.slots.iter().any(|s| s.kind == SlotKind::Remote || s.machine != 0) {
            return Err(SaveError::NotSaveable("it is played with other machines".into()));
        }
        let controllers = session
            .controllers()
            .iter()
            .map(|c| c.state().ok_or_else(|| format!("player {}'s controller keeps no saved state", c.player())))
            .collect::<Result<Vec<_>, _>>()
            .map_err(SaveError::NotSaveable)?;
        let files = digests::match_files(roots, &game.content.map)
            .map_err(|e| SaveError::NotSaveable(format!("its files cannot be read: {e}")))?;
        let world = session.world();
        Ok(Save {
            header: SaveHeader {
                map: game.content.map.file.name.clone(),
                frame: world.frame().0,
                saved_at,
                players: game.slots.iter().map(|s| s.name.clone()).collect(),
                setup: game.setup.clone(),
                files,
                thumbnail,
            },
            state: SaveState {
                world: world.state(),
                stream: session.stream().clone(),
                controllers,
                thought: session.has_thought(),
                commands: game.log.borrow().clone(),
                checkpoints: checkpoints.to_vec(),
                score: None,
                view: None,
            },
        })
    }

    /// Writes the save to `path`: beside it first, flushed, then renamed over it, so a failure
    /// leaves an earlier file of that name as it was.
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        let bytes = format::encode(path, &self.header, &self.state)?;
        crate::content::write_file(path, &bytes).map_err(|e| SaveError::Write { path: path.to_path_buf(), why: e.why })
    }

    /// The header of the save at `path` (for the Load screen), the state not read.
    pub fn read_header(path: &Path) -> Result<SaveHeader, SaveError> {
        let bytes = format::read_file(path, true)?;
        Ok(format::read_header(path, &bytes)?.0)
    }

    /// The save at `path`, whole.
    pub fn read(path: &Path) -> Result<Save, SaveError> {
        let bytes = format::read_file(path, false)?;
        let (header, from) = format::read_header::<SaveHeader>(path, &bytes)?;
        let state = format::read_state(path, &bytes, from)?;
        Ok(Save { header, state })
    }

    /// Reads the save at `path` and continues it: refused, naming the files, when the data
    /// here differs from what it was made with (checked before its state is read).
    pub fn load(roots: &ContentRoots, path: &Path) -> Result<LocalMatch, SaveError> {
        let bytes = format::read_file(path, false)?;
        let (header, from) = format::read_header::<SaveHeader>(path, &bytes)?;
        check_files(roots, path, &header)?;
        let state = format::read_state(path, &bytes, from)?;
        Save { header, state }.resume(roots, path)
    }

    /// The game again, as it stood when saved, over the in-memory transport (`path` names the
    /// file in errors).
    pub fn resume(self, roots: &ContentRoots, path: &Path) -> Result<LocalMatch, SaveError> {
        check_files(roots, path, &self.header)?;
        let damaged = |why: String| SaveError::Damaged { path: path.to_path_buf(), why };
        let setup = &self.header.setup;
        if let Some(i) =
            setup.slots.iter().position(|s| s.kind == SlotKind::Remote || s.machine.is_some_and(|m| m != 0))
        {
            return Err(damaged(format!("slot {i} is played on another machine")));
        }
        let prepared = prepare(roots, setup, &CommandScript::default(), 0)
            .map_err(|source| SaveError::Start { path: path.to_path_buf(), source })?;
        let SaveState { world, stream, controllers, thought, commands, checkpoints: _, score: _, view: _ } = self.state;
        let world = World::restored(prepared.world, world).map_err(|e| damaged(e.to_string()))?;
        if stream.next_frame() != world.frame() {
            return Err(damaged(format!(
                "the stream is at frame {} and the world at {}",
                stream.next_frame().0,
                world.frame().0
            )));
        }
        let mut restored = Vec::new();
        for c in controllers {
            restored.push(controllers::restore(c, &prepared.slots, &prepared.content.plans).map_err(&damaged)?);
        }
        let mut wanted: Vec<_> = prepared.controllers.iter().map(|c| c.player()).collect();
        let mut given: Vec<_> = restored.iter().map(|c| c.player()).collect();
        wanted.sort();
        given.sort();
        if wanted != given {
            return Err(damaged(format!("controllers for players {given:?}, where the setup has {wanted:?}")));
        }
        let transport = hub(1).pop().ok_or_else(|| damaged("no in-memory transport".into()))?;
        let transport: Box<dyn ControlTransport> = Box::new(transport);
        let owners = prepared.slots.iter().map(|s| (s.player, PeerId(s.machine))).collect();
        let mut session = Session::new(world, stream, transport, restored).with_owners(owners);
        prepared.log.borrow_mut().extend(commands);
        session.record_into(prepared.log.clone());
        if thought {
            session.mark_thought();
        }
        Ok(Match {
            setup: prepared.setup,
            slots: prepared.slots,
            content: prepared.content,
            session,
            human: prepared.human,
            log: prepared.log,
        })
    }
}

/// Refuses a save whose files differ from this machine's, naming them.
fn check_files(roots: &ContentRoots, path: &Path, header: &SaveHeader) -> Result<(), SaveError> {
    let map = crate::map::Map::find_and_load(roots, &header.setup.map)
        .map_err(|e| SaveError::Start { path: path.to_path_buf(), source: StartError::Map(e) })?;
    let here = digests::match_files(roots, &map)
        .map_err(|e| SaveError::Io { path: path.to_path_buf(), why: e.to_string() })?;
    let files = digests::differing(&header.files, &here);
    if files.is_empty() { Ok(()) } else { Err(SaveError::OtherData { path: path.to_path_buf(), files }) }
}
