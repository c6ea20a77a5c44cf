//! `ridgeline join`: join a hosted game with its code and play the slot the host gives this
//! machine with the chosen controller; with the same code and `--identity` again, take back
//! this player's seat in the running game.
//!
//! Must not: trust the address over the code's fingerprint (`--connect` replaces the address only).

use anyhow::Result;
use ridgeline::content::ContentRoots;
use ridgeline::net::ControlTransport;
use ridgeline::net::nat::Reach;
use ridgeline::net::quic::JoinCode;
use ridgeline::online::{self, Identity, Seats};
use ridgeline::session::{Difficulty, SlotKind};

use super::online::NetArgs;

/// How long a joiner that lost the link keeps trying to come back.
const REJOIN_FOR: std::time::Duration = std::time::Duration::from_secs(30);

/// Most scripted players a joiner's script may name (any slot the host may give it).
const SCRIPT_SLOTS: usize = 8;

/// `join`'s arguments.
#[derive(clap::Args)]
pub struct JoinArgs {
    /// The host's join code.
    code: String,
    /// Connect here instead of the address in the code (port forwarding, relays); the
    /// certificate fingerprint in the code is still checked.
    #[arg(long)]
    connect: Option<std::net::SocketAddr>,
    /// The player's identity key (created when missing): joining a running game again with the
    /// same code and key takes back this player's seat. Without it, a fresh key each time.
    #[arg(long)]
    identity: Option<std::path::PathBuf>,
    /// Who plays this machine's slot: idle, scripted or ai:<difficulty>.
    #[arg(long, default_value = "idle", value_parser = controller)]
    controller: SlotKind,
    /// Watch as an observer instead of playing: no slot, no orders, never waited for. Before
    /// the start it starts with everyone; into a running game it runs the host's history
    /// first, then watches live.
    #[arg(long, conflicts_with = "controller")]
    watch: bool,
    #[command(flatten)]
    net: NetArgs,
}

/// `--controller`: idle, scripted or ai:<difficulty>.
fn controller(s: &str) -> Result<SlotKind, String> {
    match s {
        "idle" => Ok(SlotKind::Idle),
        "scripted" => Ok(SlotKind::Scripted),
        other => match other.strip_prefix("ai:").and_then(|d| Difficulty::ALL.into_iter().find(|x| x.name() == d)) {
            Some(difficulty) => Ok(SlotKind::Ai { difficulty }),
            None => Err(format!("{other}: expected idle, scripted or ai:easy|normal|hard|brutal")),
        },
    }
}

/// Runs `join`.
pub fn run(roots: &ContentRoots, args: JoinArgs) -> Result<()> {
    let launched = std::time::Instant::now();
    let code: JoinCode = args.code.parse()?;
    let script = args.net.out.script(SCRIPT_SLOTS)?;
    let identity = match &args.identity {
        Some(path) => Identity::load_or_create(path)?,
        None => Identity::fresh()?,
    };
    let reach = Reach { relay: args.connect, punch: !args.net.no_punch };
    let join = || {
        if args.watch {
            online::watch(roots, &code, reach, &args.net.name, &identity)
        } else {
            online::join(roots, &code, reach, &args.net.name, &identity, args.controller, &script)
        }
    };
    let mut joined = join()?;
    loop {
        let mut options = args.net.options(joined.frames, false);
        options.rejoined = joined.rejoined;
        options.launched = Some(launched);
        options.prelude = std::mem::take(&mut joined.prelude);
        let (summary, log) = online::run(&mut joined.game, &options, joined.unpaced, Seats::default())?;
        let link_lost = joined.game.session.transport().link_lost();
        if summary.host_lost.is_none() || !link_lost {
            return args.net.finish(&summary, &log);
        }
        // The path died, not the game: come back into it while the host keeps the seat.
        eprintln!("join: the link to the host was lost at frame {}; rejoining", summary.host_lost.unwrap_or(0));
        match rejoin(&join) {
            Some(again) => joined = again,
            // Said as it is: this machine lost its link and could not come back (whether the
            // host is still there cannot be known from here).
            None => {
                let frame = summary.host_lost.unwrap_or(0);
                return args.net.finish(&summary, &log).map_err(|_| {
                    anyhow::anyhow!(
                        "the link to the host was lost at frame {frame} and the host could not be reached again \
                         within {} s: the game could not go on",
                        REJOIN_FOR.as_secs()
                    )
                });
            }
        }
    }
}

/// Tries to join again for up to [`REJOIN_FOR`]; None when the host cannot be reached or
/// refuses (the game is then lost to this machine).
fn rejoin(join: &dyn Fn() -> Result<online::Joined, online::OnlineError>) -> Option<online::Joined> {
    let until = std::time::Instant::now() + REJOIN_FOR;
    while std::time::Instant::now() < until {
        match join() {
            Ok(j) => return Some(j),
            Err(online::OnlineError::Refused(why)) => {
                eprintln!("join: refused on rejoining: {why}");
                return None;
            }
            Err(e @ (online::OnlineError::HistoryOutOfOrder { .. } | online::OnlineError::CatchUpDesync { .. })) => {
                eprintln!("join: cannot take the seat back: {e}");
                return None;
            }
            Err(e) => {
                eprintln!("join: not back yet: {e}");
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        }
    }
    None
}
