//! The `ridgeline` command line: the game itself and the tools that checks and modders use.
//!
//! Exit codes: 0 success, 1 the input is wrong (the message says where), 2 usage.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use ridgeline::game::screenshot::{Overlay, WorldShot};

use ridgeline::bench;
use ridgeline::content::ContentRoots;
use ridgeline::defs::Definitions;
use ridgeline::map::generate::{self, TerrainSpec};
use ridgeline::map::roads::{self, HeightField};
use ridgeline::map::{Map, MapContent, MapFile};
use ridgeline::session::{CommandScript, MatchSetup, PlayersSpec, run_session_sampled, start_local};
use ridgeline::sim::ids::FRAMES_PER_SECOND;

#[derive(Parser)]
#[command(name = "ridgeline", version, about = "A lockstep real-time strategy game")]
struct Cli {
    /// A mod folder whose data/, ui/ and maps/ override the game's (may repeat; first wins).
    #[arg(long = "mod", global = true, value_name = "DIR", value_parser = mod_folder)]
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
    /// Host a headless online game: prints `join-code: <code>`, waits for a joiner per
    /// `remote` slot, then plays like `sim`.
    Host(HostArgs),
    /// Join a hosted game and play the slot the host gives this machine.
    Join(JoinArgs),
    /// Play seeded headless games between AI entries, each entry in every slot, and print who
    /// won, draws, game length and the army left.
    Tournament(TournamentArgs),
    /// Check everything in data/ and maps/ (with --mod, the mod's changes with the game's):
    /// rules, sounds, model kits, AI plans, the score, road types, terrain classes and maps.
    DataCheck,
    /// Validate a map and print its statistics.
    MapCheck {
        /// Map name (under maps/) or folder.
        map: String,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Write a top-view picture of the map and its roads to this PNG.
        #[arg(long, value_name = "PNG")]
        preview: Option<PathBuf>,
        /// Pixels per cell in the preview (1–16).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=16))]
        preview_scale: u32,
    },
    /// Regenerate a map's heightmap and terrain classes from its terrain.ron.
    MapGen {
        /// Map folder.
        dir: PathBuf,
    },
    /// Regenerate the project's generated art (data/roads.png, ui/ui.png and ui/images.ron).
    GenArt,
    /// Regenerate the project's synthesised sounds (data/sounds/*.wav).
    GenSounds,
    /// Render the sound of a saved or headless game offline through the game's mixer, heard
    /// from a camera that follows the largest fight, as a 48 kHz stereo 16-bit WAV.
    #[command(group(clap::ArgGroup::new("game").required(true).args(["replay", "map"])))]
    RenderAudio {
        /// A saved replay.
        #[arg(long, conflicts_with_all = ["map", "players", "seed"])]
        replay: Option<PathBuf>,
        /// Map name (under maps/) or folder.
        #[arg(long, requires = "players")]
        map: Option<String>,
        /// Players, as for `sim`.
        #[arg(long, requires = "map")]
        players: Option<String>,
        /// Frames to run (with --map; a replay runs to its end).
        #[arg(long, value_parser = frames_arg)]
        frames: Option<u32>,
        /// Game seed.
        #[arg(long)]
        seed: Option<u64>,
        /// First frame heard.
        #[arg(long, default_value_t = 0)]
        from: u32,
        /// Last frame heard.
        #[arg(long)]
        to: Option<u32>,
        /// With the soundtrack.
        #[arg(long)]
        music: bool,
        /// Output WAV.
        #[arg(long)]
        out: PathBuf,
    },
    /// Render offscreen to a PNG through the game's own renderer: a map's battlefield after some
    /// frames, an interface layout, or a layout over a battlefield.
    #[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["map", "ui"])))]
    Screenshot {
        /// Map to show (name under maps/ or folder).
        #[arg(long)]
        map: Option<String>,
        /// The layout to show (a shell screen's layout opens that screen); with --map also
        /// `hud` (what a player sees: tracers, health bars, the top bar) or `none`.
        #[arg(long)]
        ui: Option<PathBuf>,
        /// Frames to play before the picture (with --map).
        #[arg(long, default_value_t = 0, value_parser = frames_arg)]
        frames: u32,
        /// Players, as for `sim` (default: idle in every slot of the map).
        #[arg(long)]
        players: Option<String>,
        /// RON script of frame-stamped commands for scripted players (as for `sim`).
        #[arg(long, requires = "players")]
        commands: Option<PathBuf>,
        /// Game seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Camera as x,y,zoom: the ground point at the centre in cells, and the zoom (1 is the
        /// game's default; larger is closer); or `fight` (`fight,ZOOM`): over the biggest fight
        /// of the last frame. Default: over player 1's start.
        #[arg(long, value_parser = parse_camera)]
        camera: Option<ridgeline::game::screenshot::ShotCamera>,
        /// Output PNG.
        #[arg(long)]
        out: PathBuf,
        /// Size as WxH.
        #[arg(long, default_value = "1280x720", value_parser = parse_size)]
        size: (u32, u32),
        /// Put the cursor over this window (full name, e.g. MainMenu.wnd:ButtonSkirmish; with
        /// --map and --ui hud, a battle window such as InGame.wnd:ButtonCommand3).
        #[arg(long)]
        hover: Option<String>,
        /// With --map: show player 1's objects of these templates selected (comma-separated).
        #[arg(long, value_delimiter = ',')]
        select: Vec<String>,
    },
    /// Parse layouts and bind their callbacks, images and fonts (all of ui/*.wnd by default).
    UiCheck {
        /// Layout files; none means every layout under ui/.
        paths: Vec<PathBuf>,
        /// Only check the syntax.
        #[arg(long)]
        syntax_only: bool,
        /// Treat notes (keys and flags kept but unused, often misspellings) as problems.
        #[arg(long)]
        strict: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Write a layout through the canonical layout writer (the one the layout editor uses).
    UiFmt {
        /// The layout.
        path: PathBuf,
        /// Where to write it (standard output without).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print measured figures as JSON.
    Bench {
        /// What to measure.
        #[command(subcommand)]
        what: BenchKind,
    },
}

#[derive(Subcommand)]
enum BenchKind {
    /// Ticks per second with many moving units, and the state hash's cost.
    Sim {
        /// Unit counts, comma-separated (default 200,1000,2000).
        #[arg(long, value_delimiter = ',')]
        units: Vec<usize>,
        /// Skip the 500-a-side battle (to time or profile the unit counts alone).
        #[arg(long)]
        no_battle: bool,
    },
    /// Road mesh generation for the shipped maps and a generated network.
    Roads,
    /// One drawn frame of a battle, offscreen at 1280×720.
    Render,
    /// Layout parsing and event routing.
    Ui,
    /// The mixer's cost in a 200-unit battle, per frame.
    Audio,
    /// Lockstep over loopback QUIC (pacing off), bytes on the wire, decoder throughput.
    Net {
        /// Instead: a paced game through a lossy, slow, jittery link (takes a minute).
        #[arg(long)]
        impaired: bool,
    },
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("game").required(true).args(["setup", "map"])))]
struct SimArgs {
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
    /// RON script of frame-stamped commands for scripted players.
    #[arg(long)]
    commands: Option<PathBuf>,
    /// Write `<frame> <hash>` per frame to this file.
    #[arg(long)]
    hash_log: Option<PathBuf>,
    /// Print a JSON object as the last line.
    #[arg(long)]
    json: bool,
    /// Also report each player's money, army (count and worth) and gatherers at the start and
    /// every this many seconds of game time (a line each; with --json, the `timeline` field).
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(1..=3600))]
    timeline: Option<u32>,
}

#[derive(clap::Args)]
struct TournamentArgs {
    /// Map name (under maps/) or folder.
    #[arg(long)]
    map: String,
    /// The entries, comma-separated: ai:<difficulty> or idle, each optionally @<faction>.
    #[arg(long)]
    players: String,
    /// Seeds 1..=n are played, each in every slot order.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    seeds: u32,
    /// A game still running after this many frames is a draw (default 60 minutes).
    #[arg(long, default_value_t = 108_000, value_parser = frames_arg)]
    frames: u32,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// Print a JSON object as the last line.
    #[arg(long)]
    json: bool,
}

/// What `host` and `join` share.
#[derive(clap::Args)]
struct NetArgs {
    /// RON script of frame-stamped commands for scripted players.
    #[arg(long)]
    commands: Option<PathBuf>,
    /// Write `<frame> <hash>` per frame to this file.
    #[arg(long)]
    hash_log: Option<PathBuf>,
    /// Print a JSON object as the last line.
    #[arg(long)]
    json: bool,
    /// Where desync reports go (default: next to the settings file).
    #[arg(long)]
    desync_dir: Option<PathBuf>,
    /// Test switch: corrupt one field of one object on this machine at this frame.
    #[arg(long)]
    debug_corrupt_at: Option<u32>,
    /// The player's name.
    #[arg(long, default_value = "Commander")]
    name: String,
}

#[derive(clap::Args)]
struct HostArgs {
    /// Map name (under maps/) or folder.
    #[arg(long)]
    map: String,
    /// As for `sim`, with `remote` for each slot a joiner plays.
    #[arg(long)]
    players: String,
    /// Frames to run (fewer if someone wins); every machine stops there.
    #[arg(long, value_parser = frames_arg)]
    frames: u32,
    /// Game seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "0.0.0.0:47600")]
    bind: std::net::SocketAddr,
    /// Run as fast as the slowest peer allows instead of 30 frames a second (for everyone).
    #[arg(long)]
    unpaced: bool,
    /// A fixed run-ahead in frames; without it the host adapts it to the measured round trips.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    run_ahead: Option<u32>,
    #[command(flatten)]
    net: NetArgs,
}

#[derive(clap::Args)]
struct JoinArgs {
    /// The host's join code.
    code: String,
    /// Connect here instead of the address in the code (port forwarding, relays); the
    /// certificate fingerprint in the code is still checked.
    #[arg(long)]
    connect: Option<std::net::SocketAddr>,
    /// Who plays this machine's slot: idle, scripted or ai:<difficulty>.
    #[arg(long, default_value = "idle")]
    controller: String,
    #[command(flatten)]
    net: NetArgs,
}

/// `--mod DIR`: a folder that exists.
fn mod_folder(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_dir() { Ok(p) } else { Err(format!("{s} is not a folder (a mod is a folder holding data/, ui/ or maps/)")) }
}

/// `--frames N`: at most [`ridgeline::content::limits::MAX_FRAMES`] (ten hours of play).
fn frames_arg(s: &str) -> Result<u32, String> {
    let max = ridgeline::content::limits::MAX_FRAMES;
    match s.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{s} is not a frame count from 0 to {max} (ten hours at 30 frames a second)")),
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn,wgpu_hal=off")).init();
    let cli = Cli::parse();
    let mut roots = ContentRoots::discover();
    for m in cli.mods.iter().rev() {
        roots = roots.with_mod(m.clone());
    }
    let command = cli.command.unwrap_or(Cmd::Play);
    if cfg!(feature = "hash-upkeep-off") && !matches!(command, Cmd::Bench { .. }) {
        eprintln!("error: this build does not keep the state hash (feature hash-upkeep-off); it can only run `bench`");
        return ExitCode::from(2);
    }
    let result = match command {
        Cmd::Play => play(roots.clone()),
        Cmd::Sim(args) => sim(&roots, args),
        Cmd::Tournament(args) => tournament(&roots, args),
        Cmd::Host(args) => host(&roots, args),
        Cmd::Join(args) => join(&roots, args),
        Cmd::MapCheck { map, json, preview, preview_scale } => {
            map_check(&roots, &map, json, preview.as_deref().map(|p| (p, preview_scale)))
        }
        Cmd::MapGen { dir } => map_gen(&roots, &dir),
        Cmd::DataCheck => {
            let report = ridgeline::game::data_check::run(&roots);
            for p in &report.problems {
                println!("{p}");
            }
            if report.problems.is_empty() {
                println!("ok: {}", report.checked.join(", "));
                Ok(())
            } else {
                Err(anyhow::anyhow!("{} problem(s) in the data", report.problems.len()))
            }
        }
        Cmd::GenArt => gen_art(&roots),
        Cmd::GenSounds => gen_sounds(&roots),
        Cmd::RenderAudio { replay, map, players, frames, seed, from, to, music, out } => {
            render_audio(&roots, AudioGame { replay, map, players, frames, seed }, (from, to, music), &out)
        }
        Cmd::Screenshot { map, ui, frames, players, commands, seed, camera, out, size, hover, select } => {
            let hud = ui.as_ref().is_some_and(|u| u.as_os_str() == "hud");
            let layout = ui.filter(|u| u.as_os_str() != "none" && u.as_os_str() != "hud");
            match map {
                Some(map) => {
                    let slots = players.as_deref().map_or(0, |p| p.split(',').count());
                    load_script(commands.as_deref(), slots).and_then(|script| {
                        let shot = WorldShot { map, players, frames, seed, camera, size, script, select, hover };
                        world_screenshot(&roots, &shot, hud, layout.as_deref(), &out)
                    })
                }
                None => match layout {
                    Some(ui) => screenshot(&roots, &ui, &out, size, hover.as_deref()),
                    None => Err(anyhow::anyhow!("--ui none shows nothing without --map")),
                },
            }
        }
        Cmd::UiCheck { paths, syntax_only, strict, json } => {
            ui_check(&roots, paths, ridgeline::game::shell::layout_check::Options { syntax_only, strict }, json)
        }
        Cmd::UiFmt { path, out } => ui_fmt(&path, out.as_deref()),
        Cmd::Bench { what: BenchKind::Sim { units, no_battle } } => {
            let units = if units.is_empty() { bench::sim::DEFAULT_UNITS.to_vec() } else { units };
            bench::sim::run(&roots, &units, !no_battle).map(|v| println!("{v}")).map_err(anyhow::Error::from)
        }
        Cmd::Bench { what: BenchKind::Ui } => {
            bench::ui::run(&roots).map(|v| println!("{v}")).map_err(anyhow::Error::msg)
        }
        Cmd::Bench { what: BenchKind::Audio } => {
            bench::audio::run(&roots).map(|v| println!("{v}")).map_err(anyhow::Error::msg)
        }
        Cmd::Bench { what: BenchKind::Render } => {
            bench::render::run(&roots).map(|v| println!("{v}")).map_err(anyhow::Error::from)
        }
        Cmd::Bench { what: BenchKind::Net { impaired } } => {
            let v = if impaired { bench::net::impaired(&roots) } else { bench::net::run(&roots) };
            v.map(|v| println!("{v}")).map_err(anyhow::Error::from)
        }
        Cmd::Bench { what: BenchKind::Roads } => {
            bench::roads::run(&roots).map(|v| println!("{v}")).map_err(anyhow::Error::from)
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

fn play(roots: ContentRoots) -> Result<()> {
    ridgeline::game::app::run(roots, ridgeline::game::settings::Settings::default_path())?;
    Ok(())
}

fn sim(roots: &ContentRoots, args: SimArgs) -> Result<()> {
    let setup = match (&args.setup, &args.map, &args.players) {
        (Some(path), _, _) => ridgeline::content::read_ron::<MatchSetup>(path)?,
        (None, Some(map), Some(players)) => {
            let spec: PlayersSpec = players.parse()?;
            spec.to_match_setup(map, args.seed.unwrap_or(1), &playable_factions(roots)?)
        }
        _ => bail!("give --setup <match.ron>, or --map and --players"),
    };
    let open = setup.slots.iter().filter(|s| s.kind != ridgeline::session::SlotKind::Closed).count();
    let script = load_script(args.commands.as_deref(), open)?;
    let mut game = start_local(roots, &setup, &script)?;
    let every = args.timeline.and_then(|secs| NonZeroU32::new(secs * FRAMES_PER_SECOND));
    let (summary, log) = run_session_sampled(&mut game.session, args.frames, &game.slots, every)?;
    write_hash_log(args.hash_log.as_deref(), &log)?;
    if args.json {
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

fn tournament(roots: &ContentRoots, args: TournamentArgs) -> Result<()> {
    use ridgeline::session::tournament::{self, TournamentSpec};
    let threads = args
        .threads
        .map_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get), |t| t as usize);
    let spec = TournamentSpec {
        map: args.map,
        entries: args.players.parse()?,
        seeds: args.seeds,
        frames: args.frames,
        threads,
    };
    let report = tournament::play(roots, &spec, &playable_factions(roots)?)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    let minutes = |frames: u32| format!("{}:{:02}", frames / 1800, frames / 30 % 60);
    println!("{:<28} {:>5} {:>6} {:>12}", "entry", "wins", "share", "median army");
    for (name, wins) in &report.wins {
        let army = report.median_army_value.get(name).copied().unwrap_or(0);
        let share = 100.0 * *wins as f64 / report.games.max(1) as f64;
        println!("{name:<28} {wins:>5} {share:>5.0}% {army:>12}");
    }
    println!(
        "{} games on {}, {} draws, median length {} ({} frames), wins by slot {:?}",
        report.games,
        spec.map,
        report.draws,
        minutes(report.median_frames),
        report.median_frames,
        report.wins_by_slot
    );
    Ok(())
}

/// Loads and checks a `--commands` script for a game of `players` players.
fn load_script(path: Option<&std::path::Path>, players: usize) -> Result<CommandScript> {
    match path {
        Some(path) => {
            let s = CommandScript::load(path)?;
            s.validate(path, players)?;
            Ok(s)
        }
        None => Ok(CommandScript::default()),
    }
}

/// Writes a `<frame> <hash>` log.
fn write_hash_log(path: Option<&std::path::Path>, log: &[(u32, u64)]) -> Result<()> {
    let Some(path) = path else { return Ok(()) };
    let mut text = String::with_capacity(log.len() * 24);
    for (frame, hash) in log {
        text.push_str(&format!("{frame} {hash:016x}\n"));
    }
    std::fs::write(path, text).with_context(|| format!("{}: cannot write the hash log", path.display()))
}

fn online_options(net: &NetArgs, frames: u32, adaptive: bool) -> ridgeline::session::online::OnlineOptions {
    let settings = ridgeline::game::settings::Settings::default_path();
    let default_dir = settings.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    ridgeline::session::online::OnlineOptions {
        frames,
        corrupt_at: net.debug_corrupt_at,
        desync_dir: net.desync_dir.clone().unwrap_or(default_dir),
        adaptive,
    }
}

fn print_online(net: &NetArgs, summary: &ridgeline::session::online::OnlineSummary) -> Result<()> {
    if net.json {
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
    if let Some(path) = &summary.desync {
        bail!("the game went out of sync (report: {path})");
    }
    Ok(())
}

fn host(roots: &ContentRoots, args: HostArgs) -> Result<()> {
    use std::io::Write;
    let spec: PlayersSpec = args.players.parse()?;
    let mut setup = spec.to_match_setup(&args.map, args.seed, &playable_factions(roots)?);
    setup.run_ahead = args.run_ahead;
    let script = load_script(args.net.commands.as_deref(), setup.slots.len())?;
    let announce = |code: &ridgeline::net::quic::JoinCode| {
        println!("join-code: {code}");
        let _ = std::io::stdout().flush();
    };
    let frames = args.frames;
    let options = ridgeline::session::online::HostOptions {
        bind: args.bind,
        name: args.net.name.clone(),
        unpaced: args.unpaced,
        frames,
    };
    let mut game = ridgeline::session::online::host(roots, &setup, &script, &options, announce)?;
    let options = online_options(&args.net, frames, args.run_ahead.is_none());
    let (summary, log) = ridgeline::session::online::run(&mut game, &options, args.unpaced)?;
    write_hash_log(args.net.hash_log.as_deref(), &log)?;
    print_online(&args.net, &summary)
}

fn join(roots: &ContentRoots, args: JoinArgs) -> Result<()> {
    use ridgeline::session::{Difficulty, SlotKind};
    let code: ridgeline::net::quic::JoinCode = args.code.parse()?;
    let controller = match args.controller.as_str() {
        "idle" => SlotKind::Idle,
        "scripted" => SlotKind::Scripted,
        other => match other.strip_prefix("ai:").and_then(|d| Difficulty::ALL.into_iter().find(|x| x.name() == d)) {
            Some(difficulty) => SlotKind::Ai { difficulty },
            None => bail!("--controller {other}: expected idle, scripted or ai:easy|normal|hard|brutal"),
        },
    };
    let script = load_script(args.net.commands.as_deref(), 8)?;
    let (mut game, unpaced, frames) =
        ridgeline::session::online::join(roots, &code, args.connect, &args.net.name, controller, &script)?;
    let (summary, log) =
        ridgeline::session::online::run(&mut game, &online_options(&args.net, frames, false), unpaced)?;
    write_hash_log(args.net.hash_log.as_deref(), &log)?;
    print_online(&args.net, &summary)
}

/// The names of the factions players may choose, in `data/factions.ron` order.
fn playable_factions(roots: &ContentRoots) -> Result<Vec<String>> {
    let defs = Definitions::load(roots)?;
    Ok(defs.rules.factions.iter().filter(|f| f.playable).map(|f| f.name.clone()).collect())
}

/// Loads a map and checks its references; every problem is listed.
fn load_checked_map(roots: &ContentRoots, name: &str, defs: &Definitions, content: &MapContent) -> Result<Map> {
    let map = Map::find_and_load(roots, name)?;
    let problems = map.check(content, &defs.rules);
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
        bail!("{} problem(s) in map {}:\n{}", list.len(), map.dir.display(), list.join("\n"));
    }
    Ok(map)
}

fn map_check(roots: &ContentRoots, name: &str, json: bool, preview: Option<(&std::path::Path, u32)>) -> Result<()> {
    let defs = Definitions::load(roots)?;
    let content = MapContent::load(roots)?;
    let map = load_checked_map(roots, name, &defs, &content)?;
    let ground = HeightField::from_map(&map);
    let mesh = roads::build(&map.road_segments(), &content.roads, &ground);
    let stats = mesh.stats();
    let blocked = map.blocked_cells(&content.classes);
    let n_blocked = blocked.iter().filter(|b| **b).count();
    let (w, h) = map.file.size;
    if let Some((path, scale)) = preview {
        ridgeline::map::preview::render(&map, &content.classes, &mesh, scale)
            .save(path)
            .with_context(|| format!("{}: cannot write the preview", path.display()))?;
    }
    for warning in &mesh.warnings {
        eprintln!("warning: {}: {warning}", map.dir.join("map.ron").display());
    }
    if json {
        let out = serde_json::json!({
            "name": map.file.name,
            "size": [w, h],
            "players": map.file.players,
            "start_positions": map.file.start_positions.len(),
            "supplies": map.file.supplies.len(),
            "objects": map.file.objects.len(),
            "blocked_share": (n_blocked as f64 / (w as f64 * h as f64) * 1000.0).round() / 1000.0,
            "road_segments": map.file.roads.len(),
            "road_vertices": stats.vertices,
            "road_triangles": stats.triangles,
            "road_pieces": stats.pieces,
            "road_batches": mesh.batches.len(),
            "road_warnings": mesh.warnings,
        });
        println!("{out}");
    } else {
        let pieces: Vec<String> =
            stats.pieces.iter().filter(|(_, n)| **n > 0).map(|(k, n)| format!("{n} {k}")).collect();
        println!(
            "{}: ok — {w}×{h} cells, {} players, {:.1}% impassable, {} supply sources, {} objects, {} road segments → {} ({} vertices, {} triangles)",
            map.file.name,
            map.file.players,
            100.0 * n_blocked as f64 / (w * h) as f64,
            map.file.supplies.len(),
            map.file.objects.len(),
            map.file.roads.len(),
            pieces.join(", "),
            stats.vertices,
            stats.triangles
        );
    }
    Ok(())
}

fn map_gen(roots: &ContentRoots, dir: &std::path::Path) -> Result<()> {
    let spec_path = dir.join("terrain.ron");
    let text = ridgeline::content::read_text(&spec_path)?;
    let spec: TerrainSpec = ridgeline::content::parse_ron(&spec_path, &text)?;
    let map_path = dir.join("map.ron");
    let water = match ridgeline::content::read_text(&map_path) {
        Ok(t) => ridgeline::content::parse_ron::<MapFile>(&map_path, &t)?.water_level,
        Err(_) => 0.0,
    };
    let content = MapContent::load(roots)?;
    let hm = generate::heightmap(&spec);
    let out = dir.join("heightmap.png");
    hm.save(&out).with_context(|| format!("{}: cannot write", out.display()))?;
    let classes = generate::classes(&spec, &hm, water, &content.classes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", spec_path.display()))?;
    let t_out = dir.join("terrain.png");
    generate::save_classes(&t_out, spec.size, &classes)
        .with_context(|| format!("{}: cannot write", t_out.display()))?;
    println!("wrote {} ({}×{} samples) and {}", out.display(), hm.width, hm.height, t_out.display());
    Ok(())
}

fn gen_art(roots: &ContentRoots) -> Result<()> {
    let content = MapContent::load(roots)?;
    let root = roots.roots().first().cloned().unwrap_or_default();
    let out = root.join("data/roads.png");
    ridgeline::art::road_atlas::render(&content.roads)
        .save(&out)
        .with_context(|| format!("{}: cannot write", out.display()))?;
    println!("wrote {}", out.display());
    let (atlas, images) = ridgeline::art::ui_atlas::render();
    let png = root.join("ui/ui.png");
    atlas.save(&png).with_context(|| format!("{}: cannot write", png.display()))?;
    let ron_path = root.join("ui/images.ron");
    let text = ron::ser::to_string_pretty(&images, ron::ser::PrettyConfig::new().depth_limit(2))?;
    let header = "// Generated by `ridgeline gen-art` with ui.png: UI image names and their atlas regions.\n";
    std::fs::write(&ron_path, format!("{header}{text}\n"))
        .with_context(|| format!("{}: cannot write", ron_path.display()))?;
    println!("wrote {} and {}", png.display(), ron_path.display());
    Ok(())
}

fn gen_sounds(roots: &ContentRoots) -> Result<()> {
    let root = roots.roots().first().cloned().unwrap_or_default();
    let dir = root.join("data/sounds");
    std::fs::create_dir_all(&dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let files = ridgeline::art::sounds::generate();
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    for (name, data) in &files {
        let path = dir.join(name);
        std::fs::write(&path, data).with_context(|| format!("{}: cannot write", path.display()))?;
    }
    println!("wrote {} files ({} KB) to {}", files.len(), bytes / 1024, dir.display());
    Ok(())
}

/// The game `render-audio` listens to.
struct AudioGame {
    replay: Option<PathBuf>,
    map: Option<String>,
    players: Option<String>,
    frames: Option<u32>,
    seed: Option<u64>,
}

fn render_audio(
    roots: &ContentRoots,
    g: AudioGame,
    (from, to, music): (u32, Option<u32>, bool),
    out: &std::path::Path,
) -> Result<()> {
    use ridgeline::audio::offline::{RenderSpec, levels, render_match, write_wav};
    let (game, end) = match (&g.replay, &g.map, &g.players) {
        (Some(path), _, _) => {
            let replay = ridgeline::session::Replay::load(path)?;
            let mut game =
                start_local(roots, &replay.setup.for_playback(), &ridgeline::session::CommandScript::default())?;
            game.session.play_back(&replay.commands);
            (game, replay.frames)
        }
        (None, Some(map), Some(players)) => {
            let spec: PlayersSpec = players.parse()?;
            let setup = spec.to_match_setup(map, g.seed.unwrap_or(1), &playable_factions(roots)?);
            let Some(frames) = g.frames else { bail!("--frames is needed with --map") };
            (start_local(roots, &setup, &ridgeline::session::CommandScript::default())?, frames)
        }
        _ => bail!("give --replay <file>, or --map and --players"),
    };
    let spec = RenderSpec { from, to: to.unwrap_or(end).min(end), music };
    let samples = render_match(roots, game, spec)?;
    write_wav(out, &samples)?;
    let second = levels(&samples, ridgeline::audio::backend::SAMPLE_RATE as usize);
    let loud = second.iter().filter(|(_, rms)| *rms > 0.01).count();
    let peak = second.iter().fold(0.0f32, |m, (p, _)| m.max(*p));
    println!(
        "wrote {} ({:.1} s, {} of its seconds with sound, peak {:.2})",
        out.display(),
        samples.len() as f32 / 2.0 / ridgeline::audio::backend::SAMPLE_RATE as f32,
        loud,
        peak
    );
    Ok(())
}

fn ui_fmt(path: &std::path::Path, out: Option<&std::path::Path>) -> Result<()> {
    let text = ridgeline::content::read_text(path)?;
    let tree = ridgeline::ui::wnd::parse(&path.display().to_string(), &text)?;
    let written = ridgeline::ui::wnd::write(&tree);
    match out {
        Some(o) => std::fs::write(o, written).with_context(|| format!("{}: cannot write", o.display()))?,
        None => print!("{written}"),
    }
    Ok(())
}

fn ui_check(
    roots: &ContentRoots,
    given: Vec<PathBuf>,
    opts: ridgeline::game::shell::layout_check::Options,
    json: bool,
) -> Result<()> {
    let outcome = ridgeline::game::shell::layout_check::run(roots, given, opts)?;
    if json {
        println!("{}", outcome.json());
    } else {
        for line in outcome.lines() {
            println!("{line}");
        }
    }
    let n = outcome.problems.len();
    if n == 0 { Ok(()) } else { Err(anyhow::anyhow!("{n} problem(s) in layouts")) }
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("\"{s}\" is not WxH"))?;
    let w: u32 = w.parse().map_err(|_| format!("\"{w}\" is not a width"))?;
    let h: u32 = h.parse().map_err(|_| format!("\"{h}\" is not a height"))?;
    if !(16..=8192).contains(&w) || !(16..=8192).contains(&h) {
        return Err(format!("{w}x{h} is outside 16..8192"));
    }
    Ok((w, h))
}

fn world_screenshot(
    roots: &ContentRoots,
    shot: &WorldShot,
    hud: bool,
    layout: Option<&std::path::Path>,
    out: &std::path::Path,
) -> Result<()> {
    let layout = layout.map(|ui| resolve_layout(roots, ui));
    let overlay = match (&layout, hud) {
        (Some(path), _) => Overlay::Layout(path),
        (None, true) => Overlay::Hud,
        (None, false) => Overlay::None,
    };
    let img = ridgeline::game::screenshot::world(roots, shot, overlay)?;
    save_png(&img, out)
}

/// A layout named by path, or by file name under `ui/` in the content roots.
fn resolve_layout(roots: &ContentRoots, ui: &std::path::Path) -> std::path::PathBuf {
    if ui.exists() {
        ui.to_path_buf()
    } else {
        roots.find(std::path::Path::new("ui").join(ui)).unwrap_or_else(|| ui.to_path_buf())
    }
}

/// Writes a screenshot and says so.
fn save_png(img: &image::RgbaImage, out: &std::path::Path) -> Result<()> {
    img.save(out).with_context(|| format!("{}: cannot write", out.display()))?;
    println!("wrote {} ({}x{})", out.display(), img.width(), img.height());
    Ok(())
}

fn parse_camera(s: &str) -> Result<ridgeline::game::screenshot::ShotCamera, String> {
    use ridgeline::game::screenshot::ShotCamera;
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

fn screenshot(
    roots: &ContentRoots,
    ui: &std::path::Path,
    out: &std::path::Path,
    size: (u32, u32),
    hover: Option<&str>,
) -> Result<()> {
    let img = ridgeline::game::screenshot::ui(roots, &resolve_layout(roots, ui), size, hover)?;
    save_png(&img, out)
}
