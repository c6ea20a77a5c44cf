//! `ridgeline host`: a headless online game. Prints `join-code: <code>` as soon as it listens,
//! starts when every `remote` slot has joined, then plays like `sim`.
//!
//! Must not: start before every remote slot is filled.

use std::io::Write;

use anyhow::Result;
use ridgeline::content::ContentRoots;
use ridgeline::net::nat::Reach;
use ridgeline::net::quic::JoinCode;
use ridgeline::online::{self, HostOptions};
use ridgeline::session::PlayersSpec;

use super::args::{frames_arg, playable_factions};
use super::online::NetArgs;

/// `host`'s arguments.
#[derive(clap::Args)]
pub struct HostArgs {
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
    /// Register the game at this relay (`ridgeline relay`): the join code then names the relay
    /// and a room, and joiners need no port forwarding.
    #[arg(long)]
    relay: Option<std::net::SocketAddr>,
    /// Run as fast as the slowest peer allows instead of 30 frames a second (for everyone).
    #[arg(long)]
    unpaced: bool,
    /// A fixed run-ahead in frames; without it the host adapts it to the measured round trips.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    run_ahead: Option<u32>,
    #[command(flatten)]
    net: NetArgs,
}

/// Runs `host`.
pub fn run(roots: &ContentRoots, args: HostArgs) -> Result<()> {
    let launched = std::time::Instant::now();
    let spec: PlayersSpec = args.players.parse()?;
    let mut setup = spec.to_match_setup(&args.map, args.seed, &playable_factions(roots)?);
    setup.run_ahead = args.run_ahead;
    // Refused before anyone is waited for: a setup the map cannot hold (more slots than it has
    // start positions, an unknown faction) would otherwise wait for joiners for ever.
    let content = ridgeline::session::start::MatchContent::load(roots, &setup.map)?;
    setup.resolve(&content.defs.rules, &content.map.file.name, content.map.file.start_positions.len())?;
    let script = args.net.out.script(setup.slots.len())?;
    let announce = |code: &JoinCode| {
        println!("join-code: {code}");
        let _ = std::io::stdout().flush();
    };
    let options = HostOptions {
        bind: args.bind,
        name: args.net.name.clone(),
        unpaced: args.unpaced,
        frames: args.frames,
        reach: Reach { relay: args.relay, punch: !args.net.no_punch },
    };
    let (mut game, seats) = online::host(roots, &setup, &script, &options, announce)?;
    let mut options = args.net.options(args.frames, args.run_ahead.is_none());
    options.launched = Some(launched);
    let (summary, log) = online::run(&mut game, &options, args.unpaced, seats)?;
    args.net.finish(&summary, &log)
}
