//! `ridgeline bench sim`: ticks per second with 200, 1,000 and 2,000 moving units (or the
//! counts given) on an open field that grows with the count, what the state hash costs, and a
//! battle: two armies of 500 attack-moving into each other, with targeting, vision and
//! veterancy running.
//!
//! Each player's units shuttle north and south of where they started, ordered in groups
//! through the message stream every few seconds, so movement, path requests and separation all
//! run as in a game ([`scenarios::open_field`]: the density stays the same at any count).
//!
//! The hash costs in two places. Reading it each frame (`hash_read_us`) is timed here: the
//! objects' part is kept up to date, so this is a few words whatever the number of objects.
//! Keeping it up to date happens inside the tick, woven into movement and combat, so it can
//! only be measured against a build without it: `benches/hash-upkeep-ab` builds both (feature
//! `hash-upkeep-off`) and compares their `tick_us` run by run. `upkeep_isolated_us` is an upper
//! bound measured here: one frame of a moving unit's updates (position, facing, speed,
//! progress) for every unit in a tight loop, minus the same loop without them; in the tick
//! those instructions overlap with the rest of the work and cost far less.

use std::time::Instant;

use serde_json::{Value, json};

use crate::content::ContentRoots;
use crate::defs::{Definitions, DefsErrors};
use crate::lockstep::stream::{Stream, StreamConfig};
use crate::session::controller::Controller;
use crate::sim::angle::Angle;
use crate::sim::fixed::Fixed;
use crate::sim::ids::PlayerId;
use crate::sim::vector::Vec2;
use crate::sim::world::{SetupError, World};

use super::scenarios::{self, Scenario};

use thiserror::Error;

/// Why a benchmark could not run.
#[derive(Debug, Error)]
pub enum BenchError {
    /// The shipped definitions do not load.
    #[error(transparent)]
    Defs(#[from] DefsErrors),
    /// The benchmark scenario does not fit the definitions.
    #[error("benchmark scenario: {0}")]
    Setup(#[from] SetupError),
}

/// Frames measured per run.
pub(crate) const FRAMES: u32 = 600;
/// Runs per unit count (the median is reported).
const RUNS: usize = 5;

/// Plays [`FRAMES`] frames through a local stream; returns the seconds spent ticking and
/// reading the hash.
pub(crate) fn play(world: &mut World, controllers: &mut [impl Controller]) -> (f64, f64) {
    play_after(world, controllers, 0)
}

/// Plays `warmup` frames untimed, then [`FRAMES`] timed, through one local stream; returns
/// the seconds the timed frames spent ticking and reading the hash.
pub(crate) fn play_after(world: &mut World, controllers: &mut [impl Controller], warmup: u32) -> (f64, f64) {
    let players = vec![PlayerId(0), PlayerId(1)];
    let mut stream =
        Stream::new(StreamConfig { players: players.clone(), local: players, run_ahead: 3, pace: Default::default() });
    let (mut tick_s, mut hash_s) = (0.0f64, 0.0f64);
    for n in 0..warmup + FRAMES {
        for c in controllers.iter_mut() {
            for cmd in c.think(world) {
                let _ = stream.submit(c.player(), cmd);
            }
        }
        let Some((frame, commands)) = stream.take_ready() else { break };
        let t0 = Instant::now();
        world.tick(&commands);
        let t1 = Instant::now();
        let hash = world.state_hash();
        let t2 = Instant::now();
        stream.record_hash(frame, hash.total);
        if n >= warmup {
            tick_s += (t1 - t0).as_secs_f64();
            hash_s += (t2 - t1).as_secs_f64();
        }
    }
    (tick_s, hash_s)
}

/// One measured battle: (ticks per second, mean tick µs, units left at the end, separation's
/// pair lists made per 100 frames).
fn battle_once(defs: &Definitions, per_side: usize) -> Result<(f64, f64, usize, f64), SetupError> {
    let Scenario { mut world, mut controllers, .. } = scenarios::battle(defs, per_side)?;
    let (tick_s, hash_s) = play(&mut world, &mut controllers);
    let (secs, n) = (tick_s + hash_s, FRAMES as f64);
    let lists = world.caches.separation.pairs.builds() as f64 * 100.0 / n;
    Ok((n / secs, secs / n * 1e6, world.object_count(), lists))
}

/// Passes of the upkeep measurement (the median is taken).
const UPKEEP_PASSES: usize = 201;

/// One frame of a moving unit's hash upkeep for every unit of a copy of `world`, minus the
/// same loop without the setters: the median over passes, in µs (see the module docs).
fn upkeep_isolated_us(world: &World) -> f64 {
    let mut copy = world.clone();
    let mut with = Vec::with_capacity(UPKEEP_PASSES);
    let mut without = Vec::with_capacity(UPKEEP_PASSES);
    for pass in 0..UPKEEP_PASSES {
        let nudge = Fixed::from_raw(if pass % 2 == 0 { 1 } else { -1 });
        let t0 = Instant::now();
        for slot in 0..copy.objects.slot_count() {
            let Some(mut o) = copy.objects.by_slot_mut(slot) else { continue };
            let (pos, facing, speed) = (o.pos, o.facing, o.speed);
            let (best, stuck) = (o.nav.best_distance, o.nav.stuck_frames);
            o.set_pos(Vec2::new(pos.x + nudge, pos.y - nudge));
            o.set_facing(Angle(facing.0.wrapping_add(nudge.raw() as u16)));
            o.set_speed(speed + nudge);
            o.set_progress(best - nudge, stuck ^ 1);
        }
        let t1 = Instant::now();
        for slot in 0..copy.objects.slot_count() {
            let Some(o) = copy.objects.by_slot_mut(slot) else { continue };
            let (pos, facing, speed) = (o.pos, o.facing, o.speed);
            let (best, stuck) = (o.nav.best_distance, o.nav.stuck_frames);
            std::hint::black_box((
                Vec2::new(pos.x + nudge, pos.y - nudge),
                Angle(facing.0.wrapping_add(nudge.raw() as u16)),
                speed + nudge,
                best - nudge,
                stuck ^ 1,
            ));
        }
        let t2 = Instant::now();
        with.push((t1 - t0).as_secs_f64() * 1e6);
        without.push((t2 - t1).as_secs_f64() * 1e6);
    }
    std::hint::black_box(copy.state_hash());
    (super::median(with) - super::median(without)).max(0.0)
}

/// One measured run: (ticks per second, mean tick µs, mean hash µs, upkeep µs, separation's
/// pair lists made per 100 frames).
fn run_once(defs: &Definitions, units: usize) -> Result<(f64, f64, f64, f64, f64), SetupError> {
    let Scenario { mut world, mut controllers, .. } = scenarios::open_field(defs, units, 7)?;
    let (tick_s, hash_s) = play(&mut world, &mut controllers);
    let n = FRAMES as f64;
    let lists = world.caches.separation.pairs.builds() as f64 * 100.0 / n;
    Ok((n / (tick_s + hash_s), tick_s / n * 1e6, hash_s / n * 1e6, upkeep_isolated_us(&world), lists))
}

/// The battle's figures: medians over [`RUNS`] runs.
fn battle_figures(defs: &Definitions) -> Result<Value, BenchError> {
    let (mut tps, mut tick, mut left, mut lists) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let (a, b, c, d) = battle_once(defs, BATTLE_PER_SIDE)?;
        tps.push(a);
        tick.push(b);
        left.push(c);
        lists.push(d);
    }
    Ok(json!({
        "units": BATTLE_PER_SIDE * 2,
        "ticks_per_sec": super::median(tps).round(),
        "tick_us": (super::median(tick) * 10.0).round() / 10.0,
        "objects_left": left.first().copied().unwrap_or(0),
        "pair_lists_per_100_frames": (super::median(lists) * 100.0).round() / 100.0,
    }))
}

/// Units a side in the battle case.
const BATTLE_PER_SIDE: usize = 500;

/// The unit counts measured when none are given.
pub const DEFAULT_UNITS: [usize; 3] = [200, 1000, 2000];

/// Runs the benchmark for each unit count, and the battle if `battle`, and returns its figures
/// (`battle` is null when skipped).
pub fn run(roots: &ContentRoots, unit_counts: &[usize], battle: bool) -> Result<Value, BenchError> {
    let defs = Definitions::load(roots)?;
    let mut rows = Vec::new();
    for &units in unit_counts {
        let mut tps = Vec::new();
        let mut tick = Vec::new();
        let mut hash = Vec::new();
        let mut upkeep = Vec::new();
        let mut lists = Vec::new();
        for _ in 0..RUNS {
            let (a, b, c, d, e) = run_once(&defs, units)?;
            tps.push(a);
            tick.push(b);
            hash.push(c);
            upkeep.push(d);
            lists.push(e);
        }
        let (tick_us, hash_us) = (super::median(tick), super::median(hash));
        let round2 = |x: f64| (x * 100.0).round() / 100.0;
        rows.push(json!({
            "units": units,
            "ticks_per_sec": super::median(tps).round(),
            "tick_us": (tick_us * 10.0).round() / 10.0,
            "ns_per_unit_tick": (tick_us * 1000.0 / units as f64).round(),
            "hash_read_us": round2(hash_us),
            "hash_read_share_percent": round2(hash_us / (tick_us + hash_us) * 100.0),
            "upkeep_isolated_us": round2(super::median(upkeep)),
            "pair_lists_per_100_frames": round2(super::median(lists)),
        }));
    }
    let battle = if battle { battle_figures(&defs)? } else { Value::Null };
    Ok(json!({
        "bench": "sim",
        "battle": battle,
        "frames_per_run": FRAMES,
        "runs": RUNS,
        "hash_upkeep": if cfg!(feature = "hash-upkeep-off") { "off (measurement build)" } else { "kept" },
        "results": rows,
    }))
}
