//! `ridgeline bench <what>`: measured figures, the last line one JSON object.
//!
//! Must not: measure anything itself (`ridgeline::bench` does); this file only picks.

use anyhow::Result;
use clap::Subcommand;
use ridgeline::bench;
use ridgeline::content::ContentRoots;

/// What `bench` measures.
#[derive(Subcommand)]
pub enum BenchKind {
    /// Ticks per second with many moving units (the field grows with the count), and the state
    /// hash's cost.
    Sim {
        /// Unit counts, comma-separated (default 200,1000,2000; each at most 50,000).
        #[arg(long, value_delimiter = ',', value_parser = units_arg)]
        units: Vec<usize>,
        /// Skip the 500-a-side battle (to time or profile the unit counts alone).
        #[arg(long)]
        no_battle: bool,
    },
    /// A unit's cost a tick from 1,000 to 20,000 units at constant density, a 2,000-unit crowd
    /// sent to one point and two 5,000-unit armies meeting head-on.
    Scale {
        /// Only this case, to time or profile it alone: `open` (the sweep), `crowd` or `battle`.
        #[arg(long, value_parser = ["open", "crowd", "battle"])]
        only: Option<String>,
    },
    /// Road mesh generation for the shipped maps and a generated network.
    Roads,
    /// One drawn frame of a battle, offscreen at 1280×720, at each graphics quality.
    Render {
        /// Only this graphics quality: low, medium or high.
        #[arg(long)]
        quality: Option<ridgeline::render::Quality>,
    },
    /// Layout parsing and event routing.
    Ui,
    /// The mixer's cost in a 200-unit battle, per frame.
    Audio,
    /// Relayed datagrams per second on one core (`ridgeline relay`'s loop, over loopback).
    Relay,
    /// A machine coming back into a 30-minute four-AI game: the history's size and the
    /// catch-up's time.
    Rejoin,
    /// Lockstep over loopback QUIC (pacing off), bytes on the wire, decoder throughput.
    Net {
        /// Instead: a paced game through a lossy, slow, jittery link, then an outage (takes two minutes).
        #[arg(long)]
        impaired: bool,
    },
}

/// Runs `bench`.
pub fn run(roots: &ContentRoots, what: BenchKind) -> Result<()> {
    let figures = match what {
        BenchKind::Sim { units, no_battle } => {
            let units = if units.is_empty() { bench::sim::DEFAULT_UNITS.to_vec() } else { units };
            bench::sim::run(roots, &units, !no_battle)?
        }
        BenchKind::Scale { only } => bench::scale::run(roots, only.as_deref())?,
        BenchKind::Ui => bench::ui::run(roots).map_err(anyhow::Error::msg)?,
        BenchKind::Audio => bench::audio::run(roots).map_err(anyhow::Error::msg)?,
        BenchKind::Render { quality } => {
            let levels = quality.map_or(ridgeline::render::Quality::ALL.to_vec(), |q| vec![q]);
            bench::render::run(roots, &levels)?
        }
        BenchKind::Net { impaired: true } => bench::net::impaired(roots)?,
        BenchKind::Net { impaired: false } => bench::net::run(roots)?,
        BenchKind::Roads => bench::roads::run(roots)?,
        BenchKind::Relay => bench::relay::run()?,
        BenchKind::Rejoin => bench::rejoin::run(roots)?,
    };
    println!("{figures}");
    Ok(())
}

/// A `bench sim` unit count: 1 to [`MAX_BENCH_UNITS`](ridgeline::content::limits::MAX_BENCH_UNITS).
fn units_arg(s: &str) -> Result<usize, String> {
    let max = ridgeline::content::limits::MAX_BENCH_UNITS;
    match s.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("{s} is not a unit count from 1 to {max} (the limit)")),
    }
}
