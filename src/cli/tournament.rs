//! `ridgeline tournament`: seeded headless games between AI entries, each entry in every slot
//! order, with wins, draws, game length, the army left and each computer entry's first attack
//! (when it set out, with how many units, worth how much).
//!
//! Must not: decide a game itself (the session's summary says who won).

use anyhow::Result;
use ridgeline::content::ContentRoots;
use ridgeline::session::tournament::{self, TournamentSpec};

use super::args::{frames_arg, playable_factions};

/// `tournament`'s arguments.
#[derive(clap::Args)]
pub struct TournamentArgs {
    /// Map name (under maps/) or folder.
    #[arg(long)]
    map: String,
    /// The entries, comma-separated: ai:<difficulty> or idle, each optionally @<faction>.
    #[arg(long)]
    players: String,
    /// Seeds 1..=n are played, each in every slot order (a mirror's orders are one game).
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

/// Runs `tournament`.
pub fn run(roots: &ContentRoots, args: TournamentArgs) -> Result<()> {
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
    for (name, wave) in &report.first_wave {
        println!(
            "{name}: first attack set out in {} of {} games at {} (median; {} to {}), {} units worth {}",
            wave.games,
            report.games,
            minutes(wave.median_frame),
            minutes(wave.earliest_frame),
            minutes(wave.latest_frame),
            wave.median_units,
            wave.median_worth
        );
    }
    Ok(())
}
