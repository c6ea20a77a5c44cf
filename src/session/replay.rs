//! Replays: a finished game kept as its setup and every command that executed, by frame, with a
//! hash every few hundred frames. Played back frame by frame (`Session::play_back`), it is the
//! same game, bit for bit, whatever the run-ahead did; the checkpoints and the final hash prove it.
//!
//! Must not: record anything but the setup, commands and checkpoint hashes (the world follows
//! from them).

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::content::{FileError, parse_ron};
use crate::lockstep::PaceMark;

use super::match_setup::MatchSetup;
use super::script::ScriptEntry;

/// The replay file format version this build writes. Version 1 kept the players as a
/// `--players` string and lost teams and money; version 2 keeps the whole [`MatchSetup`];
/// version 3 adds the players' pauses and speed changes.
pub const REPLAY_VERSION: u32 = 3;
/// The oldest version this build still reads (its files lack only the pace).
pub const OLDEST_READABLE: u32 = 2;

/// A recorded game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// File format version.
    pub version: u32,
    /// The match as it was played (kinds as they were; [`MatchSetup::for_playback`] scripts
    /// them), with its map and content hashes.
    pub setup: MatchSetup,
    /// The player whose view the recording was made from.
    pub local: u8,
    /// Frames played.
    pub frames: u32,
    /// The state hash after the last frame, 16 hex digits.
    pub final_hash: String,
    /// Every command executed (every machine's), at the frame it executed on, in order.
    pub commands: Vec<ScriptEntry>,
    /// The state hash every [`CHECKPOINT_EVERY`] frames (after frames 0, 300, …), so playback
    /// finds where a replay stops matching.
    #[serde(default)]
    pub checkpoints: Vec<(u32, String)>,
    /// The players' pauses and speed changes as they took effect (they change when frames
    /// ran, never what they computed; the viewer tells them as it passes).
    #[serde(default)]
    pub pace: Vec<PaceMark>,
    /// For a game taken over from a moment of another replay: where it came from. Its
    /// commands begin with that replay's, up to the moment, so it plays back on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<ReplayOrigin>,
    /// The player whose side won, if the game ended with a winner (replays made before this
    /// was kept have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<u8>,
}

/// Where a taken-over game came from: the replay, the moment, and the seat the person took
/// (the new slot kinds are in the replay's setup).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayOrigin {
    /// The source replay's file name.
    pub replay: String,
    /// The source replay's final hash, to tell it from another file of the same name.
    pub final_hash: String,
    /// The frame the game was taken over at.
    pub frame: u32,
    /// The player the person took over.
    pub seat: u8,
}

/// Frames between a replay's checkpoint hashes.
pub const CHECKPOINT_EVERY: u32 = 300;

impl Replay {
    /// Reads a replay file. One of another format version is refused with that version named,
    /// before its contents are read as this version's.
    pub fn load(path: &Path) -> Result<Replay, FileError> {
        let text = crate::content::read_text_limited(path, crate::content::limits::MAX_REPLAY_BYTES)?;
        let probe: VersionProbe = parse_ron(path, &text)?;
        if !(OLDEST_READABLE..=REPLAY_VERSION).contains(&probe.version) {
            return Err(FileError::Version {
                path: path.to_path_buf(),
                message: format!(
                    "replay format version {} (this build plays versions {OLDEST_READABLE} to {REPLAY_VERSION}); it was recorded by another version of the game",
                    probe.version
                ),
            });
        }
        let replay: Replay = parse_ron(path, &text)?;
        let bad = |field: &str, message: String| {
            let line = text.lines().position(|l| l.trim_start().starts_with(field)).map_or(1, |i| i + 1);
            FileError::Syntax { path: path.to_path_buf(), line, col: 1, message: format!("{field}: {message}") }
        };
        // Players are the slots that are not closed.
        let players = replay.setup.slots.iter().filter(|s| s.kind != super::SlotKind::Closed).count();
        if replay.local as usize >= players {
            return Err(bad(
                "local",
                format!("player {} does not exist (the game has {players} players)", replay.local),
            ));
        }
        let max = crate::content::limits::MAX_NAME;
        if replay.setup.map.chars().count() > max {
            return Err(bad("setup", format!("the map name is over {max} characters")));
        }
        if replay.frames > crate::content::limits::MAX_FRAMES {
            return Err(bad("frames", format!("{} frames is over the limit", replay.frames)));
        }
        for s in &replay.setup.slots {
            for (what, text) in [("name", &s.name), ("faction", &s.faction), ("colour", &s.colour)] {
                if text.as_ref().is_some_and(|t| t.chars().count() > max) {
                    return Err(bad("setup", format!("a slot's {what} is over {max} characters")));
                }
            }
        }
        let is_hash = |h: &str| h.len() == 16 && h.chars().all(|c| c.is_ascii_hexdigit());
        if !is_hash(&replay.final_hash) {
            let shown: String = replay.final_hash.chars().take(24).collect();
            return Err(bad("final_hash", format!("\"{shown}\" is not a state hash (16 hex digits)")));
        }
        if let Some((frame, hash)) = replay.checkpoints.iter().find(|(f, h)| *f > replay.frames || !is_hash(h)) {
            let shown: String = hash.chars().take(24).collect();
            return Err(bad("checkpoints", format!("frame {frame}, \"{shown}\": past the end or not a state hash")));
        }
        if let Some(w) = replay.winner.filter(|&w| w as usize >= players) {
            return Err(bad("winner", format!("player {w} does not exist (the game has {players} players)")));
        }
        if let Some(c) = replay.commands.iter().find(|c| c.player as usize >= players || c.frame > replay.frames) {
            return Err(bad(
                "commands",
                format!(
                    "a command of player {} on frame {}: the game has {players} players and {} frames",
                    c.player, c.frame, replay.frames
                ),
            ));
        }
        Ok(replay)
    }

    /// The players' names, in player order, and for a computer that names none its difficulty
    /// ("Computer 2" and hard).
    pub fn player_names(&self) -> Vec<(String, Option<super::Difficulty>)> {
        let open = self.setup.slots.iter().enumerate().filter(|(_, s)| s.kind != super::SlotKind::Closed);
        open.map(|(i, s)| {
            let name = s.name.clone().unwrap_or_else(|| super::match_setup::default_name(s.kind, i));
            let difficulty = match s.kind {
                super::SlotKind::Ai { difficulty } if s.name.is_none() => Some(difficulty),
                _ => None,
            };
            (name, difficulty)
        })
        .collect()
    }

    /// Writes the replay as RON.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let cfg = ron::ser::PrettyConfig::new()
            .depth_limit(3)
            .indentor("  ".to_string())
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        let text = ron::ser::to_string_pretty(self, cfg)
            .map_err(|e| FileError::Io { path: path.to_path_buf(), message: e.to_string() })?;
        // Written beside and renamed over: a full disk leaves an earlier replay as it was.
        Ok(crate::content::write_file(path, text.as_bytes())?)
    }
}

/// Just the version of a replay file: read first, so another version's file is named as such.
#[derive(Deserialize)]
struct VersionProbe {
    version: u32,
}

/// A Unix time as `YYYY-MM-DD HHMMSS` (UTC), for replay file names people can read.
pub fn utc_stamp(unix_seconds: u64) -> String {
    let t = i64::try_from(unix_seconds)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02} {:02}{:02}{:02}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// The shared log a session writes its executed commands to.
pub type CommandLog = Rc<RefCell<Vec<ScriptEntry>>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_format_version_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("ridgeline-replay-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.ron");
        let v1 = "(version: 1, map: \"crossroads\", players: \"scripted,scripted\", colors: [0, 1], seed: 3, local: 0, frames: 10, final_hash: \"00\", commands: [])";
        std::fs::write(&path, v1).unwrap();
        let e = Replay::load(&path).unwrap_err();
        assert!(matches!(e, FileError::Version { .. }), "{e}");
        assert!(e.to_string().contains("replay format version 1 (this build plays versions 2 to 3)"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unix_times_become_readable_dates() {
        assert_eq!(utc_stamp(0), "1970-01-01 000000");
        assert_eq!(utc_stamp(951_782_400), "2000-02-29 000000");
        assert_eq!(utc_stamp(1_795_991_872), "2026-11-29 223752");
        assert_eq!(utc_stamp(4_102_444_799), "2099-12-31 235959");
    }
}
