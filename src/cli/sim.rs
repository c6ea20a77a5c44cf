//! `ridgeline sim`: a headless game from `--map/--players/--seed` or a whole `--setup`, run to a
//! frame count or a winner, reporting its hash (and with `--json`, the summary DESIGN.md fixes).
//!
//! Must not: pace to real time (headless games run as fast as they can).

use std::num::NonZeroU32;
use std::path::PathBuf;

use anyhow::{Result, bail};
use ridgeline::content::ContentRoots;
use ridgeline::session::{MatchSetup, PlayersSpec, SlotKind, StartError, run_session_sampled, start_local};
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
    /// First list the objects the game starts with (the ids command scripts name: `Select`,
    /// `Attack`, `Gather`…) and the template numbers (`Produce`, `Build`), then run.
    #[arg(long)]
    list_objects: bool,
    /// List the objects left when the run ends (who is still standing, and with what), on
    /// standard error so `--json` stays the last line of standard output.
    #[arg(long)]
    list_left: bool,
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
    let mut game = start_local(roots, &setup, &script).map_err(|e| match (&args.setup, e) {
        // A setup that does not fit names its file, as a setup that does not parse does.
        (Some(path), e @ (StartError::Setup(_) | StartError::MapMismatch { .. })) => {
            anyhow::anyhow!("{}: {e}", path.display())
        }
        (Some(path), StartError::Map(e @ ridgeline::map::MapError::NotFound(_))) => {
            anyhow::anyhow!("{}: the map it names: {e}", path.display())
        }
        (_, e) => e.into(),
    })?;
    if args.list_objects {
        print!("{}", object_list(game.session.world()));
    }
    let every = args.timeline.and_then(|secs| NonZeroU32::new(secs * FRAMES_PER_SECOND));
    let (summary, log) = run_session_sampled(&mut game.session, args.frames, &game.slots, every)?;
    args.out.write_hash_log(&log)?;
    if args.list_left {
        eprint!("{}", object_list(game.session.world()));
    }
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

/// The objects a game starts with, one line each (id, owner, template, place in world units
/// and cells), then the template numbers: what command scripts name.
fn object_list(world: &ridgeline::sim::World) -> String {
    use std::fmt::Write;
    let rules = world.rules();
    let mut out = String::from("id  owner     template          x     y   (cell)\n");
    for o in world.objects() {
        let owner = if o.owner.index() < world.players().len() {
            format!("player {}", o.owner.index())
        } else {
            "neutral".to_string()
        };
        let (x, y) = (o.pos.x.round_int(), o.pos.y.round_int());
        let _ = writeln!(
            out,
            "{:<3} {owner:<9} {:<16} {x:>5} {y:>5}   ({}, {})",
            o.id.index,
            rules.template(o.template).name,
            x / 10,
            y / 10
        );
    }
    out.push_str("templates (Produce and Build take the number):");
    for (i, t) in rules.templates.iter().enumerate() {
        let _ = write!(out, " {i} {}", t.name);
        out.push(if i + 1 < rules.templates.len() { ',' } else { '\n' });
    }
    out
}
