//! The handshake over QUIC, headless (`ridgeline host` and `join`): the host seats a joiner
//! for each remote slot after checking its hello (protocol, build, the digests of the
//! simulation's data files, `digests.rs`) and starts the match on every machine (`start.rs`);
//! a joiner greets the host, waits for its welcome and the start, or takes its seat in a
//! running match back (`rejoin.rs`). An observer (its hello asks to watch) is welcomed without
//! a slot, before the start or into the running match.
//!
//! Must not: run frames; a refusal names what differs and is sent to the other side too.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use crate::content::ContentRoots;
use crate::lockstep::transport::{PeerId, TransportEvent};
use crate::net::control::ControlTransport;
use crate::net::nat::Reach;
use crate::net::quic::{JoinCode, QuicTransport};
use crate::net::wire::{ALREADY_SEATED, Hello, PROTOCOL, TAKEN_OVER, WireMessage};
use crate::session::match_setup::{MatchSetup, SlotKind};
use crate::session::script::CommandScript;
use crate::session::start::Match;

use super::digests::{refusal, sim_data_files};
use super::identity::Identity;
use super::seats::Seats;
use super::start::{start_hosted, start_joined};
use super::{BUILD, OnlineError};

/// How a match is hosted.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// Where to listen (port 0 picks a free port).
    pub bind: SocketAddr,
    /// The host player's name.
    pub name: String,
    /// Run as fast as the slowest peer allows (for everyone) instead of 30 frames a second.
    pub unpaced: bool,
    /// Frames the match runs at most, on every machine.
    pub frames: u32,
    /// The relay to register the game at (the code then names it) instead of giving out this
    /// machine's address, and whether to punch.
    pub reach: Reach,
}

/// Hosts a match: listens on `bind`, hands the join code to `announce`, accepts a joiner for
/// each remote slot of `setup` (checking its protocol, build and data files), then starts the
/// match on every machine, to run at most `frames` frames everywhere. Returns the match and
/// the seats (so a machine that drops can come back).
pub fn host(
    roots: &ContentRoots,
    setup: &MatchSetup,
    script: &CommandScript,
    options: &HostOptions,
    announce: impl FnOnce(&JoinCode),
) -> Result<(Match<QuicTransport>, Seats), OnlineError> {
    let HostOptions { bind, ref name, unpaced, frames, reach } = *options;
    let advertise = (bind.ip().is_unspecified()).then(advertised_ip).flatten();
    let (mut net, code) = QuicTransport::host(bind, advertise, reach)?;
    announce(&code);
    let mine = sim_data_files(roots)?;
    let mut setup = setup.clone();
    let remote: Vec<usize> = (0..setup.slots.len()).filter(|&i| setup.slots[i].kind == SlotKind::Remote).collect();
    // Slot index → the joiner playing it.
    let mut seated: BTreeMap<usize, PeerId> = BTreeMap::new();
    let mut tokens: BTreeMap<u8, [u8; 32]> = BTreeMap::new();
    while seated.len() < remote.len() {
        net.wait(Duration::from_millis(50));
        while let Some(e) = net.take_peer_event() {
            if let TransportEvent::Left(p) = e {
                seated.retain(|_, q| *q != p);
                tokens.remove(&p.0);
                net.release(p);
            }
        }
        while let Some((from, m)) = net.take_control() {
            let WireMessage::Hello(hello) = m else { continue };
            if seated.values().any(|&p| p == from) {
                // One connection, one seat.
                log::info!("{from} sent a second hello; refused");
                net.send_control(Some(from), &[WireMessage::Refused { reason: ALREADY_SEATED.into() }]).ok();
                continue;
            }
            if let Some(reason) = refusal(&hello, &mine) {
                log::warn!("{from} refused: {reason}");
                net.send_control(Some(from), &[WireMessage::Refused { reason }]).ok();
                continue;
            }
            if hello.watch {
                // An observer takes no slot: the start reaches it with everyone, and its
                // machine, named by no slot, watches.
                log::info!("{from} watches");
                net.send_control(Some(from), &[WireMessage::Welcome { peer: from, host: name.to_string() }]).ok();
                continue;
            }
            let same = |(&s, p): (&usize, &PeerId)| (tokens.get(&p.0) == Some(&hello.seat)).then_some((s, *p));
            let mine = seated.iter().find_map(same).filter(|_| hello.seat != [0; 32]);
            if let Some((_, old)) = mine {
                // The same player from another copy of the game: the newer copy takes the seat.
                log::info!("{old}'s seat taken over by {from}, the same identity");
                net.send_control(Some(old), &[WireMessage::Refused { reason: TAKEN_OVER.into() }]).ok();
                net.kick(old);
                tokens.remove(&old.0);
            }
            let free = || remote.iter().copied().find(|s| !seated.contains_key(s));
            let Some(slot) = mine.map(|(slot, _)| slot).or_else(free) else {
                let reason = "the game is full".to_string();
                net.send_control(Some(from), &[WireMessage::Refused { reason }]).ok();
                continue;
            };
            log::info!("{from} takes slot {slot}");
            seated.insert(slot, from);
            tokens.insert(from.0, hello.seat);
            setup.slots[slot].machine = Some(from.0);
            setup.slots[slot].name = Some(hello.name.chars().take(32).collect());
            net.send_control(Some(from), &[WireMessage::Welcome { peer: from, host: name.to_string() }]).ok();
        }
    }
    let (prepared, start) = start_hosted(roots, &setup, script, &mut net, unpaced, frames)?;
    let game = prepared.into_match(net);
    let seats = Seats::new(start, tokens, game.log.clone(), name);
    Ok((game, seats))
}

/// The first non-loopback IPv4 address of this machine's interfaces, else 127.0.0.1: what the
/// join code of an unspecified bind carries.
pub fn advertised_ip() -> Option<std::net::IpAddr> {
    let first = if_addrs::get_if_addrs()
        .ok()
        .and_then(|all| all.into_iter().map(|i| i.ip()).find(|ip| ip.is_ipv4() && !ip.is_loopback()));
    Some(first.unwrap_or(std::net::IpAddr::from([127, 0, 0, 1])))
}

/// This machine's hello to the host in `code`: protocol, build, `name`, the digests of the
/// simulation's data, and `identity`'s seat token for that host.
pub fn hello(
    roots: &ContentRoots,
    name: &str,
    identity: &Identity,
    code: &JoinCode,
) -> Result<WireMessage, OnlineError> {
    Ok(WireMessage::Hello(Hello {
        protocol: PROTOCOL,
        build: BUILD.to_string(),
        name: name.to_string(),
        files: sim_data_files(roots)?,
        seat: identity.seat(&code.fingerprint),
        watch: false,
    }))
}

/// A match joined: the game, whether it runs unpaced, how many frames the host will run, and
/// — for a machine that came back into a running match — the hash of every frame it ran
/// from the host's history.
pub struct Joined {
    /// The match.
    pub game: Match<QuicTransport>,
    /// Run as fast as the slowest peer allows.
    pub unpaced: bool,
    /// Frames the host will run at most.
    pub frames: u32,
    /// Came back into a running match (and took back its seat).
    pub rejoined: bool,
    /// (frame, hash) of the frames run from the history when it came back.
    pub prelude: Vec<(u32, u64)>,
}

/// Joins the match in `code` as `identity`: greets the host, waits for its welcome and the
/// start, checks the map's files, and prepares the match with `controller` playing this
/// machine's slot. If the match is running and `identity` held a seat in it, takes the seat
/// back (see `rejoin.rs`).
pub fn join(
    roots: &ContentRoots,
    code: &JoinCode,
    reach: Reach,
    name: &str,
    identity: &Identity,
    controller: SlotKind,
    script: &CommandScript,
) -> Result<Joined, OnlineError> {
    let net = QuicTransport::join(code, reach, &hello(roots, name, identity, code)?)?;
    greeted(roots, net, controller, script)
}

/// Watches the match in `code` as an observer: no slot, no orders, never waited for. Before
/// the start it is welcomed and started with everyone; into a running match it runs the
/// host's history and then watches live (`prelude` holds the frames it ran from the history).
pub fn watch(
    roots: &ContentRoots,
    code: &JoinCode,
    reach: Reach,
    name: &str,
    identity: &Identity,
) -> Result<Joined, OnlineError> {
    let WireMessage::Hello(mut greeting) = hello(roots, name, identity, code)? else {
        return Err(OnlineError::Refused("no hello".into()));
    };
    greeting.watch = true;
    let net = QuicTransport::join(code, reach, &WireMessage::Hello(greeting))?;
    greeted(roots, net, SlotKind::Idle, &CommandScript::default())
}

/// After the hello: waits for the welcome and the start (or a return, or a watch).
fn greeted(
    roots: &ContentRoots,
    mut net: QuicTransport,
    controller: SlotKind,
    script: &CommandScript,
) -> Result<Joined, OnlineError> {
    let mut me = None;
    loop {
        net.wait(Duration::from_millis(50));
        if let Some(TransportEvent::Left(_)) = net.take_peer_event() {
            // What the host said before it closed (a refusal) comes first.
            while let Some((_, m)) = net.take_control() {
                if let WireMessage::Refused { reason } = m {
                    return Err(OnlineError::Refused(reason));
                }
            }
            // Closed before a welcome: the host turned the connection away (or it died); either
            // way the host did not leave a game this machine was in.
            let why = net.left_reason().unwrap_or("no answer").to_string();
            return Err(OnlineError::Net(crate::net::quic::QuicError::ClosedBeforeSeat { why }));
        }
        while let Some((_, m)) = net.take_control() {
            match m {
                WireMessage::Refused { reason } => return Err(OnlineError::Refused(reason)),
                WireMessage::Welcome { peer, .. } => {
                    net.set_me(peer);
                    me = Some(peer);
                }
                WireMessage::Start(start) => {
                    let Some(me) = me else { continue };
                    let prepared = start_joined(roots, &mut net, me, &start, controller, script)?;
                    let game = prepared.into_match(net);
                    let (unpaced, frames) = (start.unpaced, start.frames);
                    return Ok(Joined { game, unpaced, frames, rejoined: false, prelude: Vec::new() });
                }
                WireMessage::Rejoin { start, machine, owners } => {
                    let (unpaced, frames) = (start.unpaced, start.frames);
                    let back = super::rejoin::catch_up(roots, net, &start, machine, &owners, controller, script)?;
                    return Ok(Joined { game: back.game, unpaced, frames, rejoined: true, prelude: back.prelude });
                }
                WireMessage::Watch { start, owners, live } => {
                    let (unpaced, frames) = (start.unpaced, start.frames);
                    let back = super::rejoin::watch(roots, net, &start, &owners, live)?;
                    return Ok(Joined { game: back.game, unpaced, frames, rejoined: false, prelude: back.prelude });
                }
                _ => {}
            }
        }
    }
}
