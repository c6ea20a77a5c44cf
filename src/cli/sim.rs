//! `ridgeline sim`: a headless game from `--map/--players/--seed` or a whole `--setup`, run to a
//! frame count or a winner, reporting its hash (and with `--json`, the summary DESIGN.md fixes).
//!
//! Must not: pace to real time (headless games run as fast as they can).

use std::num::NonZeroU32;
use std::path::PathBuf;

use anyhow::{Result, bail};
use ridgeline::content::ContentRoots;
use ridgeline::session::{MatchSetup, PlayersSpec, SlotKind, run_session_sampled, start_local};
use ridgeline::sim::ids::FRAMES_PER_SECOND;

use super::args::{GameOutput, frames_arg, playable_factions};

/// `sim`'s arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("game").required(true).args(["setup", "map"])))]
pub struct SimArgs {
    /// A whole match setup (RON; see tests/data/match.ron) instead of --map/--players/--seed.
    #[arg(long, value_name = "MATCH.RON", conflicts_with_all = ["map", "players", "seed"])]
    setup: Option<PathBuf>,
    /// Map name (under maps/) or folder.
    #[arg(long, requires = "players")]
    map: Option<String>,
    /// One entry per start slot: idle, scripted or ai:<difficulty>, each optionally @<faction>.
    #[arg(long, requires = "map")]
    players: Option<String>,
    /// Frames to run (fewer if someone wins).
    #[arg(long, value_parser = frames_arg)]
    frames: u32,
    /// Game seed.
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    out: GameOutput,
    /// Also report each player's money, army (count and worth) and gatherers at the start and
    /// every this many seconds of game time (a line each; with --json, the `timeline` field).
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(1..=3600))]
    timeline: Option<u32>,
}

/// Runs `sim`.
pub fn run(roots: &ContentRoots, args: SimArgs) -> Result<()> {
    let setup = match (&args.setup, &args.map, &args.players) {
        (Some(path), _, _) => ridgeline::content::read_ron::<MatchSetup>(path)?,
        (None, Some(map), Some(players)) => {
            let spec: PlayersSpec = players.parse()?;
            spec.to_match_setup(map, args.seed.unwrap_or(1), &playable_factions(roots)?)
        }
        _ => bail!("give --setup <match.ron>, or --map and --players"),
    };
    let open = setup.slots.iter().filter(|s| s.kind != SlotKind::Closed).count();
    let script = args.out.script(open)?;
    let mut game = start_local(roots, &setup, &script)?;
    let every = args.timeline.and_then(|secs| NonZeroU32::new(secs * FRAMES_PER_SECOND));
    let (summary, log) = run_session_sampled(&mut game.session, args.frames, &game.slots, every)?;
    args.out.write_hash_log(&log)?;
    if args.out.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        for sample in &summary.timeline {
            println!("{sample}");
        }
        println!(
            "{} frames, final hash {}, winner {}, {:.0} ticks/s, peak {} objects, {} commands rejected",
            summary.frames,
            summary.hash,
            summary.winner.map_or("none".to_string(), |w| w.to_string()),
            summary.ticks_per_sec,
            summary.objects_peak,
            summary.rejected
        );
    }
    Ok(())
}
