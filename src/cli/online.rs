//! What `host` and `join` share: the online arguments beside the game-output trio, the
//! session's options built from them, and the closing report.
//!
//! Must not: connect (host.rs and join.rs do, through the session).

use std::path::PathBuf;

use anyhow::{Result, bail};
use ridgeline::game::settings::Settings;
use ridgeline::online::{OnlineOptions, OnlineSummary};

use super::args::GameOutput;

/// What `host` and `join` share.
#[derive(clap::Args)]
pub struct NetArgs {
    #[command(flatten)]
    pub out: GameOutput,
    /// Where desync reports go (default: next to the settings file).
    #[arg(long)]
    pub desync_dir: Option<PathBuf>,
    /// Test switch: corrupt one field of one object on this machine at this frame.
    #[arg(long)]
    pub debug_corrupt_at: Option<u32>,
    /// Test switch: after every frame also send what a lying peer would (far-future, foreign,
    /// hash or flood), to see the other machines cut this one off.
    #[arg(long)]
    pub debug_lie: Option<ridgeline::online::Lie>,
    /// The player's name (1 to 32 characters, one line).
    #[arg(long, default_value = "Commander", value_parser = player_name)]
    pub name: String,
    /// With a relay: never punch for a direct path; every packet goes through the relay (for
    /// networks where punching misbehaves, and to test the relayed path).
    #[arg(long)]
    pub no_punch: bool,
}

impl NetArgs {
    /// The running game's options: `frames` at most, the run-ahead adapted or not.
    pub fn options(&self, frames: u32, adaptive: bool) -> OnlineOptions {
        // Beside the settings; where they have no folder (an empty RIDGELINE_CONFIG_DIR), the
        // system's temporary folder, never the current one.
        let default_dir = Settings::default_path()
            .ok()
            .and_then(|p| p.parent().map(std::path::Path::to_path_buf))
            .unwrap_or_else(std::env::temp_dir);
        OnlineOptions {
            frames,
            corrupt_at: self.debug_corrupt_at,
            lie: self.debug_lie,
            desync_dir: self.desync_dir.clone().unwrap_or(default_dir),
            adaptive,
            rejoined: false,
            prelude: Vec::new(),
            launched: None,
        }
    }

    /// Prints the summary and writes the hash log (the summary first: a file that cannot be
    /// written never hides how the game ended); a desync is an error naming its report.
    pub fn finish(&self, summary: &OnlineSummary, log: &[(u32, u64)]) -> Result<()> {
        if self.out.json {
            println!("{}", serde_json::to_string(summary)?);
        } else {
            println!(
                "{} frames, final hash {}, rtt {:.1} ms, {} stalls, desync {}",
                summary.run.frames,
                summary.run.hash,
                summary.rtt_ms,
                summary.stalls,
                summary.desync.as_deref().unwrap_or("none")
            );
        }
        self.out.write_hash_log(log)?;
        if let Some(path) = &summary.desync {
            bail!("the game went out of sync (report: {path})");
        }
        if let Some(frame) = summary.host_lost {
            bail!("the host left at frame {frame}: the game could not go on");
        }
        Ok(())
    }
}

/// A `--name` a player may have: 1 to [`MAX_PLAYER_NAME`] characters, one line, not blank.
fn player_name(s: &str) -> Result<String, String> {
    use ridgeline::content::limits::MAX_PLAYER_NAME;
    let n = s.chars().count();
    if n > MAX_PLAYER_NAME {
        return Err(format!("a player's name has 1 to {MAX_PLAYER_NAME} characters on one line ({n} given)"));
    }
    if s.trim().is_empty() {
        return Err("a player's name cannot be blank".to_string());
    }
    if s.chars().any(char::is_control) {
        return Err("a player's name is one line, without control characters (tabs, escapes)".to_string());
    }
    Ok(s.to_string())
}
