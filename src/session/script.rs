//! Command scripts: RON files of frame-stamped commands per player, for scripted players,
//! tests and benchmarks, and the controller that plays them back.
//!
//! A script entry's `frame` is the frame on which the player issues the command; it executes
//! `run_ahead` frames later, exactly as a click would.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::content::{FileError, parse_ron, read_ron};
use crate::sim::command::{Command, StampedCommand};
use crate::sim::ids::{CommandId, Frame, PlayerId};
use crate::sim::world::World;

use super::controller::Controller;

/// One scripted command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptEntry {
    /// Frame on which it is issued.
    pub frame: u32,
    /// Issuing player slot.
    pub player: u8,
    /// The command.
    pub command: Command,
}

/// A whole script file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandScript {
    /// Entries in any order (stable per frame and player).
    pub commands: Vec<ScriptEntry>,
}

/// Why a script could not be used.
#[derive(Debug, Error)]
pub enum ScriptError {
    /// The file could not be read or parsed.
    #[error(transparent)]
    File(#[from] FileError),
    /// An entry names a player slot the game does not have.
    #[error("{}: entry {index} (frame {frame}): player {player} is not in this {players}-player game", path.display())]
    NoSuchPlayer {
        /// The file.
        path: PathBuf,
        /// 0-based entry index.
        index: usize,
        /// Its frame.
        frame: u32,
        /// The slot named.
        player: u8,
        /// Players in the game.
        players: usize,
    },
}

impl CommandScript {
    /// Reads and parses a script file.
    pub fn load(path: &Path) -> Result<CommandScript, ScriptError> {
        Ok(read_ron(path)?)
    }

    /// Parses script text (`path` names it in errors).
    pub fn parse(path: &Path, text: &str) -> Result<CommandScript, ScriptError> {
        Ok(parse_ron(path, text)?)
    }

    /// Checks every entry names a player of a game with `players` slots.
    pub fn validate(&self, path: &Path, players: usize) -> Result<(), ScriptError> {
        for (index, e) in self.commands.iter().enumerate() {
            if e.player as usize >= players {
                return Err(ScriptError::NoSuchPlayer {
                    path: path.to_path_buf(),
                    index,
                    frame: e.frame,
                    player: e.player,
                    players,
                });
            }
        }
        Ok(())
    }

    /// Serializes the script as pretty RON.
    pub fn to_ron(&self) -> String {
        let cfg = ron::ser::PrettyConfig::new().depth_limit(3).indentor("    ".to_string());
        ron::ser::to_string_pretty(self, cfg).unwrap_or_default()
    }

    /// A controller playing back this script's entries for one player.
    pub fn controller(&self, player: PlayerId) -> Scripted {
        let mut by_frame: BTreeMap<u32, Vec<Command>> = BTreeMap::new();
        for e in self.commands.iter().filter(|e| e.player == player.0) {
            by_frame.entry(e.frame).or_default().push(e.command.clone());
        }
        Scripted { player, by_frame }
    }
}

/// Plays back a script for one player.
#[derive(Clone, Debug)]
pub struct Scripted {
    player: PlayerId,
    by_frame: BTreeMap<u32, Vec<Command>>,
}

impl Controller for Scripted {
    fn player(&self) -> PlayerId {
        self.player
    }

    fn think(&mut self, world: &World) -> Vec<Command> {
        self.by_frame.remove(&world.frame().0).unwrap_or_default()
    }

    fn state(&self) -> Option<super::controller::ControllerState> {
        Some(super::controller::ControllerState::Scripted { player: self.player, commands: self.by_frame.clone() })
    }
}

impl Scripted {
    /// A script for `player` with `commands` still to give, by frame (a saved game's).
    pub fn restored(player: PlayerId, commands: BTreeMap<u32, Vec<Command>>) -> Scripted {
        Scripted { player, by_frame: commands }
    }
}

/// Recorded commands grouped by the frame they executed on, stamped in their recorded order.
pub fn stamped_by_frame(entries: &[ScriptEntry]) -> BTreeMap<u32, Vec<StampedCommand>> {
    let mut frames: BTreeMap<u32, Vec<StampedCommand>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        frames.entry(e.frame).or_default().push(StampedCommand {
            frame: Frame(e.frame),
            player: PlayerId(e.player),
            id: CommandId(i as u32),
            command: e.command.clone(),
        });
    }
    frames
}
