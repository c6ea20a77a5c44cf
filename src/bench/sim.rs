//! `ridgeline bench sim`: ticks per second with 200, 1,000 and 2,000 moving units on an open
//! 256×256-cell field, and the state hash's share of a tick.
//!
//! Each player's units shuttle between two areas on their own half of the map, ordered in
//! groups through the message stream every few seconds, so movement, path requests and
//! separation all run as in a game.

use std::time::Instant;

use serde_json::{Value, json};

use crate::content::ContentRoots;
use crate::defs::{Definitions, DefsErrors};
use crate::lockstep::stream::{Stream, StreamConfig};
use crate::session::controller::Controller;
use crate::sim::command::{Command, MAX_SELECTION, Point};
use crate::sim::fixed::Fixed;
use crate::sim::ids::{ObjectId, PlayerId};
use crate::sim::terrain::Terrain;
use crate::sim::vector::Vec2;
use crate::sim::world::{GameSetup, InitialObject, PlayerSetup, SetupError, World};

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
const FRAMES: u32 = 600;
/// Runs per unit count (the median is reported).
const RUNS: usize = 5;
/// Map side in cells (10 world units each).
const SIDE: u32 = 256;

/// Orders a player's units back and forth in groups.
struct Shuttle {
    player: PlayerId,
    units: Vec<ObjectId>,
    x: i32,
}

impl Controller for Shuttle {
    fn player(&self) -> PlayerId {
        self.player
    }

    fn think(&mut self, world: &World) -> Vec<Command> {
        let f = world.frame().0;
        let period = 240;
        let mut out = Vec::new();
        if f % period != 0 {
            return out;
        }
        let north = (f / period) % 2 == 0;
        for (g, group) in self.units.chunks(MAX_SELECTION / 2).enumerate() {
            let y = if north { 1900 } else { 600 } + (g as i32 % 2) * 150;
            let x = self.x + (g as i32 / 2) * 300 - 300;
            out.push(Command::Select { objects: group.to_vec(), add: false });
            out.push(Command::Move { to: Point { x, y } });
        }
        out
    }
}

fn scenario(defs: &Definitions, units: usize, seed: u64) -> Result<(World, Vec<Shuttle>), SetupError> {
    let rules = &defs.rules;
    let tank = rules.template_id("Bulwark").unwrap_or_default();
    let soldier = rules.template_id("Rifleman").unwrap_or_default();
    let size = Fixed::from_int(10);
    let starts = vec![Vec2::from_int(100, 100), Vec2::from_int(2460, 2460)];
    let terrain = Terrain::open(SIDE, SIDE, size, starts);
    let mut objects = Vec::new();
    for i in 0..units {
        let owner = (i % 2) as u8;
        let k = (i / 2) as i64;
        let (col, row) = (k % 25, k / 25);
        let x0 = if owner == 0 { 350 } else { 1450 };
        let pos = Vec2::from_int(x0 + col * 30, 300 + row * 30);
        let template = if i % 3 == 0 { tank } else { soldier };
        objects.push(InitialObject { template, owner: PlayerId(owner), pos });
    }
    let setup = GameSetup {
        rules: rules.clone(),
        terrain,
        players: vec![PlayerSetup { faction: 0, team: 0 }, PlayerSetup { faction: 1, team: 1 }],
        seed,
        objects,
    };
    let world = World::new(setup)?;
    let mine = |p: u8| -> Vec<ObjectId> {
        world.objects().filter(|o| o.owner.0 == p && rules.template(o.template).is_mobile()).map(|o| o.id).collect()
    };
    let controllers = vec![
        Shuttle { player: PlayerId(0), units: mine(0), x: 700 },
        Shuttle { player: PlayerId(1), units: mine(1), x: 1800 },
    ];
    Ok((world, controllers))
}

/// One measured run: (ticks per second, mean tick µs, mean hash µs).
fn run_once(defs: &Definitions, units: usize) -> Result<(f64, f64, f64), SetupError> {
    let (mut world, mut controllers) = scenario(defs, units, 7)?;
    let players = vec![PlayerId(0), PlayerId(1)];
    let mut stream = Stream::new(StreamConfig { players: players.clone(), local: players, run_ahead: 3 });
    let (mut tick_s, mut hash_s) = (0.0f64, 0.0f64);
    for _ in 0..FRAMES {
        for c in &mut controllers {
            for cmd in c.think(&world) {
                let _ = stream.submit(c.player, cmd);
            }
        }
        let Some((frame, commands)) = stream.take_ready() else { break };
        let t0 = Instant::now();
        world.tick(&commands);
        let t1 = Instant::now();
        let hash = world.state_hash();
        let t2 = Instant::now();
        stream.record_hash(frame, hash.total);
        tick_s += (t1 - t0).as_secs_f64();
        hash_s += (t2 - t1).as_secs_f64();
    }
    let n = FRAMES as f64;
    Ok((n / (tick_s + hash_s), tick_s / n * 1e6, hash_s / n * 1e6))
}

/// Runs the benchmark and returns its figures.
pub fn run(roots: &ContentRoots) -> Result<Value, BenchError> {
    let defs = Definitions::load(roots)?;
    let mut rows = Vec::new();
    for units in [200usize, 1000, 2000] {
        let mut tps = Vec::new();
        let mut tick = Vec::new();
        let mut hash = Vec::new();
        for _ in 0..RUNS {
            let (a, b, c) = run_once(&defs, units)?;
            tps.push(a);
            tick.push(b);
            hash.push(c);
        }
        let (tick_us, hash_us) = (super::median(tick), super::median(hash));
        rows.push(json!({
            "units": units,
            "ticks_per_sec": super::median(tps).round(),
            "tick_us": (tick_us * 10.0).round() / 10.0,
            "hash_us": (hash_us * 100.0).round() / 100.0,
            "hash_share_percent": (hash_us / (tick_us + hash_us) * 1000.0).round() / 10.0,
        }));
    }
    Ok(json!({ "bench": "sim", "frames_per_run": FRAMES, "runs": RUNS, "results": rows }))
}
