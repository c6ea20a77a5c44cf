//! The `ridgeline` command line: the game itself and the tools that checks and modders use.
//!
//! Exit codes: 0 success, 1 the input is wrong (the message says where), 2 usage.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use ridgeline::bench;
use ridgeline::content::ContentRoots;
use ridgeline::defs::Definitions;
use ridgeline::map::Map;
use ridgeline::map::generate::{self, TerrainSpec};
use ridgeline::session::setup::{controllers, game_setup};
use ridgeline::session::{CommandScript, PlayersSpec, run_headless};
use ridgeline::sim::World;

#[derive(Parser)]
#[command(name = "ridgeline", version, about = "A lockstep real-time strategy game")]
struct Cli {
    /// A mod folder whose data/, ui/ and maps/ override the game's (may repeat; first wins).
    #[arg(long = "mod", global = true, value_name = "DIR")]
    mods: Vec<PathBuf>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Open the game at the main menu (the default).
    Play,
    /// Run a game headless and report its hash.
    Sim(SimArgs),
    /// Validate a map and print its statistics.
    MapCheck {
        /// Map name (under maps/) or folder.
        map: String,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Regenerate a map's heightmap from its terrain.ron.
    MapGen {
        /// Map folder.
        dir: PathBuf,
    },
    /// Print measured figures as JSON.
    Bench {
        /// What to measure.
        what: BenchKind,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum BenchKind {
    Sim,
}

#[derive(clap::Args)]
struct SimArgs {
    /// Map name (under maps/) or folder.
    #[arg(long)]
    map: String,
    /// One entry per start slot: idle, scripted or ai:<difficulty>, each optionally @<faction>.
    #[arg(long)]
    players: String,
    /// Frames to run (fewer if someone wins).
    #[arg(long)]
    frames: u32,
    /// Game seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// RON script of frame-stamped commands for scripted players.
    #[arg(long)]
    commands: Option<PathBuf>,
    /// Write `<frame> <hash>` per frame to this file.
    #[arg(long)]
    hash_log: Option<PathBuf>,
    /// Print a JSON object as the last line.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let mut roots = ContentRoots::discover();
    for m in cli.mods.iter().rev() {
        roots = roots.with_mod(m.clone());
    }
    let result = match cli.command.unwrap_or(Cmd::Play) {
        Cmd::Play => play(),
        Cmd::Sim(args) => sim(&roots, args),
        Cmd::MapCheck { map, json } => map_check(&roots, &map, json),
        Cmd::MapGen { dir } => map_gen(&dir),
        Cmd::Bench { what: BenchKind::Sim } => {
            bench::sim::run(&roots).map(|v| println!("{v}")).map_err(anyhow::Error::from)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn play() -> Result<()> {
    bail!(
        "the game window arrives with the UI work; meanwhile run a headless game, e.g.\n  \
         ridgeline sim --map proving_grounds --players scripted,scripted --frames 3000 --commands tests/data/opening.commands.ron --json"
    )
}

fn sim(roots: &ContentRoots, args: SimArgs) -> Result<()> {
    let spec: PlayersSpec = args.players.parse()?;
    let defs = Definitions::load(roots)?;
    let map = Map::find_and_load(roots, &args.map)?;
    let script = match &args.commands {
        Some(path) => {
            let s = CommandScript::load(path)?;
            s.validate(path, spec.0.len())?;
            s
        }
        None => CommandScript::default(),
    };
    let setup = game_setup(&defs, &map, &spec, args.seed)?;
    let world = World::new(setup)?;
    let (summary, log) = run_headless(world, controllers(&spec, &script)?, args.frames)?;
    if let Some(path) = &args.hash_log {
        let mut text = String::with_capacity(log.len() * 24);
        for (frame, hash) in &log {
            text.push_str(&format!("{frame} {hash:016x}\n"));
        }
        std::fs::write(path, text).with_context(|| format!("{}: cannot write the hash log", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
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

fn map_check(roots: &ContentRoots, name: &str, json: bool) -> Result<()> {
    let map = Map::find_and_load(roots, name)?;
    let blocked = map.blocked_cells();
    let n_blocked = blocked.iter().filter(|b| **b).count();
    let (w, h) = map.file.size;
    let stats = serde_json::json!({
        "name": map.file.name,
        "size": [w, h],
        "players": map.file.players,
        "start_positions": map.file.start_positions.len(),
        "blocked_cells": n_blocked,
        "blocked_share": n_blocked as f64 / (w as f64 * h as f64),
    });
    if json {
        println!("{stats}");
    } else {
        println!(
            "{}: ok — {w}×{h} cells, {} players, {:.1}% impassable",
            map.file.name,
            map.file.players,
            100.0 * n_blocked as f64 / (w * h) as f64
        );
    }
    Ok(())
}

fn map_gen(dir: &std::path::Path) -> Result<()> {
    let spec_path = dir.join("terrain.ron");
    let text = std::fs::read_to_string(&spec_path).with_context(|| format!("{}: cannot read", spec_path.display()))?;
    let spec: TerrainSpec = ron::Options::default().from_str(&text).map_err(|e| {
        anyhow::anyhow!("{}:{}:{}: {}", spec_path.display(), e.span.start.line, e.span.start.col, e.code)
    })?;
    let hm = generate::heightmap(&spec);
    let out = dir.join("heightmap.png");
    hm.save(&out).with_context(|| format!("{}: cannot write", out.display()))?;
    println!("wrote {} ({}×{} samples)", out.display(), hm.width, hm.height);
    Ok(())
}
