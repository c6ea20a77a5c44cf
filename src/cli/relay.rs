//! `ridgeline relay`: the rendezvous-and-relay service. Prints `relay: <ip:port>` once it
//! listens, then serves until killed, logging rooms as they open and time out (clients as
//! short hashes unless `--show-addresses`) and its counters every minute (as JSON lines with
//! `--json`). `ridgeline relay --status` asks a running relay on this machine, over loopback,
//! for its health and prints it as JSON.
//!
//! Must not: hold relay logic (`ridgeline::relay` does).

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use ridgeline::net::codec::relay::{RelayMessage, RelayStatus, decode, encode};
use ridgeline::relay::{self, Limits, Relay};

/// `relay`'s arguments.
#[derive(clap::Args)]
pub struct RelayArgs {
    /// Address to listen on (`[::]` takes IPv4 and IPv6; with `--status`, the relay to ask).
    #[arg(long, default_value = "[::]:47700")]
    bind: SocketAddr,
    /// Print the counters as one JSON object a line (every minute) instead of prose.
    #[arg(long)]
    json: bool,
    /// Log clients' addresses as they are (by default, as short hashes).
    #[arg(long)]
    show_addresses: bool,
    /// Ask the relay running at `--bind` on this machine for its health; print it as JSON.
    #[arg(long)]
    status: bool,
}

/// Runs `relay`.
pub fn run(args: RelayArgs) -> Result<()> {
    if args.status {
        return status(args.bind);
    }
    let socket = match relay::bind(args.bind) {
        // A machine without IPv6: the IPv4 half of the default.
        Err(_) if args.bind.ip() == IpAddr::V6(Ipv6Addr::UNSPECIFIED) => {
            relay::bind((Ipv4Addr::UNSPECIFIED, args.bind.port()).into())
        }
        other => other,
    }
    .with_context(|| format!("cannot listen on {}", args.bind))?;
    let addr = socket.local_addr()?;
    println!("relay: {addr}");
    std::io::stdout().flush()?;
    let limits = Limits::default();
    log::info!("relay on {addr}: {limits:?}");
    let mut state = Relay::new(limits, relay::secure_secret()?, Instant::now());
    state.show_addresses(args.show_addresses);
    let stop = AtomicBool::new(false);
    let json = args.json;
    relay::serve(&socket, state, &stop, |stats, rooms| {
        if json {
            let mut line = serde_json::to_value(stats).unwrap_or_default();
            line["rooms"] = rooms.into();
            println!("{line}");
        } else {
            println!(
                "relay: {rooms} rooms open; {} made, {} timed out; {} datagrams ({} bytes) forwarded, {} dropped, {} limited, {} challenges",
                stats.rooms_made,
                stats.rooms_gone,
                stats.forwarded,
                stats.forwarded_bytes,
                stats.dropped,
                stats.limited,
                stats.challenges
            );
        }
        let _ = std::io::stdout().flush();
    })
    .with_context(|| format!("the relay on {addr} stopped"))?;
    Ok(())
}

/// Asks the relay at `at` for its status: on an unspecified address, at `::1` and then at
/// `127.0.0.1` (a relay on `[::]` or `0.0.0.0`).
fn status(at: SocketAddr) -> Result<()> {
    let (v6, v4) = (
        SocketAddr::new(Ipv6Addr::LOCALHOST.into(), at.port()),
        SocketAddr::new(Ipv4Addr::LOCALHOST.into(), at.port()),
    );
    let tries = match at.ip() {
        ip if ip.is_unspecified() && ip.is_ipv6() => vec![v6, v4],
        ip if ip.is_unspecified() => vec![v4],
        _ => vec![at],
    };
    for to in &tries {
        if let Ok(s) = ask_status(*to) {
            println!("{}", serde_json::to_string(&s)?);
            return Ok(());
        }
    }
    bail!(
        "no status from a relay at {} (it answers on loopback only)",
        tries.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" or ")
    )
}

/// One relay's status, asked a few times over half a second each.
fn ask_status(to: SocketAddr) -> Result<RelayStatus> {
    let local: SocketAddr =
        if to.is_ipv6() { (Ipv6Addr::LOCALHOST, 0).into() } else { (Ipv4Addr::LOCALHOST, 0).into() };
    let socket = UdpSocket::bind(local).with_context(|| format!("cannot open a socket on {local}"))?;
    socket.set_read_timeout(Some(Duration::from_millis(500)))?;
    let mut buf = [0u8; 512];
    for _ in 0..4 {
        socket.send_to(&encode(&RelayMessage::StatusAsk), to).with_context(|| format!("cannot ask {to}"))?;
        if let Ok((n, from)) = socket.recv_from(&mut buf)
            && from == to
            && let Ok(RelayMessage::Status(s)) = decode(&buf[..n])
        {
            return Ok(s);
        }
    }
    bail!("no status from {to}")
}
