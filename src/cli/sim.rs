//! `ridgeline sim`: a headless game from `--map/--players/--seed` or a whole `--setup`, run to a
//! frame count or a winner, reporting its hash (and with `--json`, the summary DESIGN.md fixes).
//!
//! Must not: pace to real time (headless games run as fast as they can).

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use ridgeline::content::ContentRoots;
use ridgeline::content::limits::MAX_FRAMES;
use ridgeline::net::control::ControlTransport;
use ridgeline::session::save::{Parts, Save, Thumbnail};
use ridgeline::session::start::LocalMatch;
use ridgeline::session::{
    MatchSetup, PlayersSpec, Session, SlotKind, StartError, run_session_observed, run_session_sampled, start_local,
};
use ridgeline::sim::ids::FRAMES_PER_SECOND;

use super::args::{GameOutput, frames_arg, playable_factions};

/// `sim`'s arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("game").required(true).args(["setup", "map", "load"])))]
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
    /// Frames to run (fewer if someone wins); with --load, counted from the saved frame
    /// (without it, a loaded game runs until someone wins).
    #[arg(long, value_parser = frames_arg, required_unless_present = "load")]
    frames: Option<u32>,
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
    /// Continue a saved game (written by --save or the game's Menu → Save) instead of starting
    /// one: its hash log from the saved frame on equals the uninterrupted game's.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["map", "players", "seed", "commands"])]
    load: Option<PathBuf>,
    /// Save the game when this many frames have run, then play on (with --save).
    #[arg(long, value_name = "FRAME", requires = "save", value_parser = frames_arg)]
    save_at: Option<u32>,
    /// Where --save-at writes the save.
    #[arg(long, value_name = "FILE", requires = "save_at")]
    save: Option<PathBuf>,
    /// List the objects left when the run ends (who is still standing, and with what), on
    /// standard error so `--json` stays the last line of standard output.
    #[arg(long)]
    list_left: bool,
}

/// Runs `sim`.
pub fn run(roots: &ContentRoots, args: SimArgs) -> Result<()> {
    let mut game = match &args.load {
        Some(path) => {
            let began = std::time::Instant::now();
            let game = Save::load(roots, path)?;
            let frame = game.session.world().frame().0;
            eprintln!("loaded {} at frame {frame} in {} ms", path.display(), began.elapsed().as_millis());
            game
        }
        None => start(roots, &args)?,
    };
    if args.list_objects {
        print!("{}", object_list(game.session.world()));
    }
    let every = args.timeline.and_then(|secs| NonZeroU32::new(secs * FRAMES_PER_SECOND));
    let frames = args.frames.unwrap_or(MAX_FRAMES);
    let (summary, log) = match (args.save_at, &args.save) {
        (Some(at), Some(path)) => {
            let mut saved = None;
            let LocalMatch { session, slots, setup, content, log, .. } = &mut game;
            let parts = Parts { setup, slots, content, log };
            let (summary, log) = run_session_observed(session, frames, slots, every, &mut |s| {
                if s.world().frame().0 == at {
                    saved = Some(save_now(roots, parts, s, path));
                }
            })?;
            saved.unwrap_or_else(|| bail!("the game ended before frame {at}; nothing was saved"))?;
            (summary, log)
        }
        _ => run_session_sampled(&mut game.session, frames, &game.slots, every)?,
    };
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

/// The game `args` set up, started.
fn start(roots: &ContentRoots, args: &SimArgs) -> Result<LocalMatch> {
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
    start_local(roots, &setup, &script).map_err(|e| match (&args.setup, e) {
        // A setup that does not fit names its file, as a setup that does not parse does.
        (Some(path), e @ (StartError::Setup(_) | StartError::MapMismatch { .. })) => {
            anyhow::anyhow!("{}: {e}", path.display())
        }
        (Some(path), StartError::Map(e @ ridgeline::map::MapError::NotFound(_))) => {
            anyhow::anyhow!("{}: the map it names: {e}", path.display())
        }
        (_, e) => e.into(),
    })
}

/// Writes the save of the game whose session is `session` to `path`.
fn save_now(
    roots: &ContentRoots,
    game: Parts<'_>,
    session: &Session<Box<dyn ControlTransport>>,
    path: &Path,
) -> Result<()> {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let began = std::time::Instant::now();
    // A headless save is a tool's: the picture shows everything.
    let thumbnail = Thumbnail::of_game(game, session.world(), None, &ridgeline::game::scene::PLAYER_COLORS);
    let save = Save::capture_parts(roots, game, session, &[], now, thumbnail)?;
    save.write(path)?;
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    let at = session.world().frame().0;
    eprintln!(
        "saved {} at frame {at}: {bytes} bytes in {} ms (thumbnail included)",
        path.display(),
        began.elapsed().as_millis()
    );
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
