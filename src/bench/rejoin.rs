//! `ridgeline bench rejoin`: what coming back into a 30-minute game costs the returning
//! machine. A four-AI game (brutal, four_corners) runs 54,000 frames here (past its winner:
//! the field keeps ticking), then the host's history of it — every executed command, with a
//! checkpoint hash every 300 frames — is encoded as on the wire, and a fresh machine decodes
//! it, prepares the match and runs it to the end, checking every checkpoint (the path
//! `join --identity` takes, less the loopback transfer). Median of three.
//!
//! Must not: be used as a test (timings are never asserted).

use std::time::Instant;

use serde_json::{Value, json};
use thiserror::Error;

use crate::content::ContentRoots;
use crate::net::codec::{decode, encode};
use crate::net::wire::WireMessage;
use crate::online::{Catcher, OnlineError, history};
use crate::session::players::PlayersSpec;
use crate::session::replay::CHECKPOINT_EVERY;
use crate::session::start::{StartError, prepare, start_local};
use crate::session::{CommandScript, SessionError};
use crate::sim::ids::Frame;

/// Frames of the game: 30 minutes.
const FRAMES: u32 = 54_000;
/// Catch-ups timed (the median is reported).
const RUNS: usize = 3;

/// Why the benchmark could not run.
#[derive(Debug, Error)]
pub enum BenchRejoinError {
    /// The match.
    #[error(transparent)]
    Start(#[from] StartError),
    /// A frame.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The catch-up.
    #[error(transparent)]
    Online(#[from] OnlineError),
    /// The wire.
    #[error("the history does not decode: {0}")]
    Wire(String),
    /// The game's definitions or players.
    #[error("the benchmark game: {0}")]
    Setup(String),
}

/// Runs the benchmark.
pub fn run(roots: &ContentRoots) -> Result<Value, BenchRejoinError> {
    let spec: PlayersSpec =
        "ai:brutal,ai:brutal,ai:brutal,ai:brutal".parse().map_err(|e| BenchRejoinError::Setup(format!("{e}")))?;
    let defs = crate::defs::Definitions::load(roots).map_err(|e| BenchRejoinError::Setup(e.to_string()))?;
    let playable = defs.playable_factions();
    let setup = spec.to_match_setup("four_corners", 1, &playable);
    let script = CommandScript::default();
    let mut host = start_local(roots, &setup, &script)?;
    let played = Instant::now();
    while host.session.world().frame().0 < FRAMES {
        host.session.step()?;
    }
    let play_secs = played.elapsed().as_secs_f64();
    let entries = host.log.borrow().clone();
    let checkpoints: Vec<(Frame, u64)> = host
        .session
        .stream()
        .hash_log()
        .iter()
        .filter(|(f, _)| f.0.is_multiple_of(CHECKPOINT_EVERY))
        .copied()
        .collect();
    let last = host.session.stream().hash_log().last().copied();
    let wire: Vec<Vec<u8>> =
        history(&entries, Frame(FRAMES), checkpoints).iter().map(|m| encode(std::slice::from_ref(m))).collect();
    let bytes: usize = wire.iter().map(Vec::len).sum();
    let mut times = Vec::new();
    let mut in_sync = true;
    for _ in 0..RUNS {
        let t = Instant::now();
        let mut catcher = Catcher::new(prepare(roots, &setup, &script, 0)?);
        for w in &wire {
            for m in decode(w).map_err(|e| BenchRejoinError::Wire(e.to_string()))? {
                if let WireMessage::History { through, commands, checkpoints } = m {
                    catcher.take(through, commands, checkpoints)?;
                }
            }
            catcher.run()?;
        }
        times.push(t.elapsed().as_secs_f64());
        let (_, prelude) = catcher.finish();
        in_sync &= prelude.last().map(|&(f, h)| (Frame(f), h)) == last;
    }
    let secs = super::median(times);
    Ok(json!({
        "game": {"map": "four_corners", "players": "ai:brutal x4", "frames": FRAMES, "play_secs": play_secs},
        "commands": entries.len(),
        "history_bytes": bytes,
        "history_messages": wire.len(),
        "catch_up_secs": secs,
        "frames_per_sec": f64::from(FRAMES) / secs.max(1e-9),
        "in_sync": in_sync,
    }))
}
