//! `ridgeline bench scale`: what a unit costs a tick as the count grows at constant density
//! (1,000 → 20,000 units on a field that grows with them), and in two crowds: 2,000 units of
//! one player ordered to one point, and two armies of 5,000 meeting head-on.
//!
//! The cases are measured in interleaved rounds (every case once a round), so a slow moment of
//! the machine falls on all of them alike; each figure is the median over the rounds. The
//! ratios the scale targets are stated in: the cost a unit at 20,000 over that at 2,000, the
//! crowd's over the open field's at the same count.
//!
//! Must not: be asserted on in tests (timings only).

use serde_json::{Value, json};

use crate::content::ContentRoots;
use crate::defs::Definitions;

use super::scenarios::{self, Scenario};
use super::sim::{BenchError, FRAMES, play_after};

/// Unit counts of the open-field sweep.
pub const SWEEP: [usize; 5] = [1_000, 2_000, 5_000, 10_000, 20_000];
/// Units in the crowd sent to one point.
const CROWD: usize = 2_000;
/// Frames the crowd plays before the timed ones: 50 s, long enough for the farthest unit
/// (about 950 world units out, at 20 a second) to reach the jam, so the timed frames are all jam.
const CROWD_WARMUP: u32 = 1_500;
/// Units a side in the head-on battle.
const BATTLE_PER_SIDE: usize = 5_000;
/// Rounds (every case once a round; medians reported).
const ROUNDS: usize = 3;

/// One case of the benchmark.
#[derive(Clone, Copy)]
enum Case {
    Open(usize),
    Crowd,
    Battle,
}

impl Case {
    fn scenario(self, defs: &Definitions) -> Result<Scenario, BenchError> {
        Ok(match self {
            Case::Open(n) => scenarios::open_field(defs, n, 7)?,
            Case::Crowd => scenarios::crowd(defs, CROWD, 7)?,
            Case::Battle => scenarios::battle(defs, BATTLE_PER_SIDE)?,
        })
    }
}

/// What one run of a case measured (zeros for a case not run).
#[derive(Clone, Copy, Default)]
struct Run {
    /// Mean µs a tick.
    tick_us: f64,
    /// Units at the start.
    units: usize,
    /// Objects at the end.
    left: usize,
    /// Separation's pair lists made per 100 frames (over all frames played).
    lists: f64,
    /// The field's size in cells.
    cells: (u32, u32),
}

/// One measured run of a case.
fn run_once(defs: &Definitions, case: Case) -> Result<Run, BenchError> {
    let Scenario { mut world, mut controllers, units, cells } = case.scenario(defs)?;
    let warmup = if matches!(case, Case::Crowd) { CROWD_WARMUP } else { 0 };
    let (tick_s, _hash_s) = play_after(&mut world, &mut controllers, warmup);
    let n = FRAMES as f64;
    let lists = world.caches.separation.pairs.builds() as f64 * 100.0 / n;
    Ok(Run { tick_us: tick_s / n * 1e6, units, left: world.object_count(), lists, cells })
}

/// Runs every case (or only those `only` names: `open`, `crowd` or `battle`) [`ROUNDS`]
/// times, interleaved, and returns the figures (a case left out shows zeros).
pub fn run(roots: &ContentRoots, only: Option<&str>) -> Result<Value, BenchError> {
    let defs = Definitions::load(roots)?;
    let mut cases: Vec<Case> = SWEEP.iter().map(|&n| Case::Open(n)).collect();
    cases.push(Case::Crowd);
    cases.push(Case::Battle);
    let wanted = |case: &Case| match (only, case) {
        (None, _) => true,
        (Some(name), Case::Open(_)) => name == "open",
        (Some(name), Case::Crowd) => name == "crowd",
        (Some(name), Case::Battle) => name == "battle",
    };
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); cases.len()];
    let mut last = vec![Run::default(); cases.len()];
    for _ in 0..ROUNDS {
        for (i, &case) in cases.iter().enumerate().filter(|(_, c)| wanted(c)) {
            let run = run_once(&defs, case)?;
            samples[i].push(run.tick_us);
            last[i] = run;
        }
    }
    let tick: Vec<f64> = samples.into_iter().map(super::median).collect();
    let per_unit = |i: usize| tick[i] * 1000.0 / last[i].units.max(1) as f64;
    let row = |i: usize| {
        let Run { units, left, lists, cells, .. } = last[i];
        json!({
            "units": units,
            "field_cells": [cells.0, cells.1],
            "tick_us": (tick[i] * 10.0).round() / 10.0,
            "ticks_per_sec": (1e6 / tick[i].max(1e-9)).round(),
            "ns_per_unit_tick": per_unit(i).round(),
            "objects_left": left,
            "pair_lists_per_100_frames": (lists * 100.0).round() / 100.0,
        })
    };
    let at = |n: usize| SWEEP.iter().position(|&m| m == n).unwrap_or(0);
    let (crowd, battle) = (SWEEP.len(), SWEEP.len() + 1);
    let ratio = |a: f64, b: f64| (a / b.max(1e-9) * 100.0).round() / 100.0;
    Ok(json!({
        "bench": "scale",
        "frames_per_run": FRAMES,
        "rounds": ROUNDS,
        "sweep": (0..SWEEP.len()).map(row).collect::<Vec<_>>(),
        "crowd_to_one_point": row(crowd),
        "battle_head_on": row(battle),
        "per_unit_20000_over_2000": ratio(per_unit(at(20_000)), per_unit(at(2_000))),
        "crowd_over_open_2000": ratio(per_unit(crowd), per_unit(at(2_000))),
    }))
}
