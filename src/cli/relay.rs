//! `ridgeline relay`: the rendezvous-and-relay service. Prints `relay: <ip:port>` once it
//! listens, then serves until killed, logging rooms as they open and time out and its counters
//! every minute (as JSON lines with `--json`).
//!
//! Must not: hold relay logic (`ridgeline::relay` does).

use std::io::Write;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result};
use ridgeline::relay::{self, Limits};

/// `relay`'s arguments.
#[derive(clap::Args)]
pub struct RelayArgs {
    /// Address to listen on.
    #[arg(long, default_value = "0.0.0.0:47700")]
    bind: std::net::SocketAddr,
    /// Print the counters as one JSON object a line (every minute) instead of prose.
    #[arg(long)]
    json: bool,
}

/// Runs `relay`.
pub fn run(args: RelayArgs) -> Result<()> {
    let socket = std::net::UdpSocket::bind(args.bind).with_context(|| format!("cannot listen on {}", args.bind))?;
    let addr = socket.local_addr()?;
    println!("relay: {addr}");
    std::io::stdout().flush()?;
    let limits = Limits::default();
    log::info!("relay on {addr}: {limits:?}");
    let stop = AtomicBool::new(false);
    let json = args.json;
    relay::serve(&socket, limits, &stop, |stats, rooms| {
        if json {
            let mut line = serde_json::to_value(stats).unwrap_or_default();
            line["rooms"] = rooms.into();
            println!("{line}");
        } else {
            println!(
                "relay: {rooms} rooms open; {} made, {} timed out; {} datagrams ({} bytes) forwarded, {} dropped, {} limited",
                stats.rooms_made, stats.rooms_gone, stats.forwarded, stats.forwarded_bytes, stats.dropped, stats.limited
            );
        }
        let _ = std::io::stdout().flush();
    })
    .with_context(|| format!("the relay on {addr} stopped"))?;
    Ok(())
}
