//! Argument groups and value parsers that several commands share: the game-output trio
//! (`--commands`, `--hash-log`, `--json`), frame counts, sizes, cameras and mod folders; and the
//! small steps every game-running command takes with them (load the script, write the log).
//!
//! Must not: run anything (each command's file does).

use std::path::{Path, PathBuf};

use anyhow::Result;
use ridgeline::content::ContentRoots;
use ridgeline::defs::Definitions;
use ridgeline::game::screenshot::ShotCamera;
use ridgeline::session::CommandScript;

/// What every command that plays a game takes: a script for its scripted players, a hash log
/// and JSON output.
#[derive(clap::Args)]
pub struct GameOutput {
    /// RON script of frame-stamped commands for scripted players.
    #[arg(long)]
    pub commands: Option<PathBuf>,
    /// Write `<frame> <hash>` per frame to this file.
    #[arg(long)]
    pub hash_log: Option<PathBuf>,
    /// Print a JSON object as the last line.
    #[arg(long)]
    pub json: bool,
}

impl GameOutput {
    /// The `--commands` script, checked for a game of `players` players (empty without one).
    pub fn script(&self, players: usize) -> Result<CommandScript> {
        load_script(self.commands.as_deref(), players)
    }

    /// Writes the `--hash-log`, when one was asked for.
    pub fn write_hash_log(&self, log: &[(u32, u64)]) -> Result<()> {
        let Some(path) = &self.hash_log else { return Ok(()) };
        let mut text = String::with_capacity(log.len() * 24);
        for (frame, hash) in log {
            text.push_str(&format!("{frame} {hash:016x}\n"));
        }
        Ok(ridgeline::content::write_file(path, text.as_bytes())?)
    }
}

/// Loads and checks a `--commands` script for a game of `players` players.
pub fn load_script(path: Option<&Path>, players: usize) -> Result<CommandScript> {
    match path {
        Some(path) => {
            let s = CommandScript::load(path)?;
            s.validate(path, players)?;
            Ok(s)
        }
        None => Ok(CommandScript::default()),
    }
}

/// The names of the factions players may choose, in `data/factions.ron` order.
pub fn playable_factions(roots: &ContentRoots) -> Result<Vec<String>> {
    let defs = Definitions::load(roots)?;
    Ok(defs.playable_factions())
}

/// `--mod DIR`: a folder that exists.
pub fn mod_folder(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_dir() { Ok(p) } else { Err(format!("{s} is not a folder (a mod is a folder holding data/, ui/ or maps/)")) }
}

/// `--frames N`: at most [`ridgeline::content::limits::MAX_FRAMES`] (ten hours of play).
pub fn frames_arg(s: &str) -> Result<u32, String> {
    let max = ridgeline::content::limits::MAX_FRAMES;
    match s.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{s} is not a frame count from 0 to {max} (ten hours at 30 frames a second)")),
    }
}

/// `screenshot --frames`: 0 to [`ridgeline::content::limits::MAX_SCREENSHOT_FRAMES`].
pub fn screenshot_frames_arg(s: &str) -> Result<u32, String> {
    let max = ridgeline::content::limits::MAX_SCREENSHOT_FRAMES;
    match s.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{s} is not a frame count from 0 to {max} (twenty minutes at 30 frames a second)")),
    }
}

/// `--size WxH`, each side 16 to 8192 pixels.
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("\"{s}\" is not WxH"))?;
    let w: u32 = w.parse().map_err(|_| format!("\"{w}\" is not a width"))?;
    let h: u32 = h.parse().map_err(|_| format!("\"{h}\" is not a height"))?;
    if !(16..=8192).contains(&w) || !(16..=8192).contains(&h) {
        return Err(format!("{w}x{h} is outside 16..8192"));
    }
    Ok((w, h))
}

/// `--camera x,y,zoom` or `fight[,zoom]`.
pub fn parse_camera(s: &str) -> Result<ShotCamera, String> {
    let (fight, numbers) = match s.trim().strip_prefix("fight") {
        Some(rest) => (true, rest.strip_prefix(',').unwrap_or(rest)),
        None => (false, s),
    };
    let expected = || format!("{s}: expected x,y,zoom or fight[,zoom], with a positive zoom");
    let parts: Vec<f32> = if numbers.trim().is_empty() {
        Vec::new()
    } else {
        numbers.split(',').map(|p| p.trim().parse::<f32>()).collect::<Result<_, _>>().map_err(|_| expected())?
    };
    let fine = parts.iter().all(|v| v.is_finite()) && parts.last().is_none_or(|z| *z > 0.0);
    match (fight, &parts[..]) {
        (true, []) => Ok(ShotCamera::Fight(1.0)),
        (true, &[zoom]) if fine => Ok(ShotCamera::Fight(zoom)),
        (false, &[x, y, zoom]) if fine => Ok(ShotCamera::At(x, y, zoom)),
        _ => Err(expected()),
    }
}

/// A layout named by path, or by file name under `ui/` in the content roots.
pub fn resolve_layout(roots: &ContentRoots, ui: &Path) -> PathBuf {
    if ui.exists() {
        ui.to_path_buf()
    } else {
        roots.find(Path::new("ui").join(ui)).unwrap_or_else(|| ui.to_path_buf())
    }
}
