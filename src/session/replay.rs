//! Replays: a finished game kept as its setup and every command each player issued, by frame.
//! Played back through scripted controllers and the same stream, it is the same game, bit for
//! bit; the recorded final hash proves it.
//!
//! Must not: record anything but commands and the setup (the world follows from them).

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::content::{FileError, read_ron};
use crate::sim::command::Command;
use crate::sim::ids::PlayerId;
use crate::sim::world::World;

use super::controller::Controller;
use super::script::{CommandScript, ScriptEntry};

/// The replay file format version this build writes and reads.
pub const REPLAY_VERSION: u32 = 1;

/// A recorded game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// File format version.
    pub version: u32,
    /// Map folder name (under maps/).
    pub map: String,
    /// The players as for `ridgeline sim --players` (each `scripted@Faction`).
    pub players: String,
    /// Colour index per player slot.
    pub colors: Vec<usize>,
    /// The game seed.
    pub seed: u64,
    /// The slot whose view the recording was made from.
    pub local: u8,
    /// Frames played.
    pub frames: u32,
    /// The state hash after the last frame, 16 hex digits.
    pub final_hash: String,
    /// Every command, stamped with the frame it was issued on.
    pub commands: Vec<ScriptEntry>,
}

impl Replay {
    /// Reads a replay file.
    pub fn load(path: &Path) -> Result<Replay, FileError> {
        let r: Replay = read_ron(path)?;
        if r.version != REPLAY_VERSION {
            return Err(FileError::Io {
                path: path.to_path_buf(),
                message: format!("replay version {} (this build plays version {REPLAY_VERSION})", r.version),
            });
        }
        Ok(r)
    }

    /// Writes the replay as RON.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let io = |e: std::io::Error| FileError::Io { path: path.to_path_buf(), message: e.to_string() };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let cfg = ron::ser::PrettyConfig::new().depth_limit(3).indentor("  ".to_string());
        let text = ron::ser::to_string_pretty(self, cfg)
            .map_err(|e| FileError::Io { path: path.to_path_buf(), message: e.to_string() })?;
        std::fs::write(path, text).map_err(io)
    }

    /// The commands as a script, for scripted controllers.
    pub fn script(&self) -> CommandScript {
        CommandScript { commands: self.commands.clone() }
    }
}

/// A Unix time as `YYYY-MM-DD HHMMSS` (UTC), for replay file names people can read.
pub fn utc_stamp(unix_seconds: u64) -> String {
    let days = (unix_seconds / 86_400) as i64;
    let rest = unix_seconds % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}{:02}{:02}", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// The shared log recording controllers write to.
pub type CommandLog = Rc<RefCell<Vec<ScriptEntry>>>;

/// A controller that records what the controller inside it decides.
pub struct Recording {
    inner: Box<dyn Controller>,
    log: CommandLog,
}

impl Recording {
    /// Wraps `inner`, appending its commands to `log`.
    pub fn new(inner: Box<dyn Controller>, log: CommandLog) -> Recording {
        Recording { inner, log }
    }
}

impl Controller for Recording {
    fn player(&self) -> PlayerId {
        self.inner.player()
    }

    fn think(&mut self, world: &World) -> Vec<Command> {
        let commands = self.inner.think(world);
        let frame = world.frame().0;
        let player = self.inner.player().0;
        self.log.borrow_mut().extend(commands.iter().map(|c| ScriptEntry { frame, player, command: c.clone() }));
        commands
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_times_become_readable_dates() {
        assert_eq!(utc_stamp(0), "1970-01-01 000000");
        assert_eq!(utc_stamp(951_782_400), "2000-02-29 000000");
        assert_eq!(utc_stamp(1_795_991_872), "2026-11-29 223752");
        assert_eq!(utc_stamp(4_102_444_799), "2099-12-31 235959");
    }
}
