//! The start of an online match on each side: the host prepares its one `MatchSetup` and sends
//! it with the map's digests; a joiner checks both, gives its controller its own slots and
//! prepares the same match. A refusal is said to the other side too.
//!
//! Must not: run frames.

use std::path::Path;

use crate::content::{ContentRoots, parse_ron};
use crate::lockstep::transport::PeerId;
use crate::map::Map;
use crate::net::control::ControlTransport;
use crate::net::wire::{Start, WireMessage};
use crate::session::match_setup::{MatchSetup, SlotKind};
use crate::session::script::CommandScript;
use crate::session::start::{Prepared, prepare};

use super::OnlineError;
use super::digests::{differing, map_files};

/// The host's start: prepares `setup` (whose slots name their machines) for this machine and
/// sends it to every joiner, to run at most `frames` frames everywhere. Returns the prepared
/// match and the start as sent.
pub fn start_hosted(
    roots: &ContentRoots,
    setup: &MatchSetup,
    script: &CommandScript,
    net: &mut impl ControlTransport,
    unpaced: bool,
    frames: u32,
) -> Result<(Prepared, Start), OnlineError> {
    let prepared = prepare(roots, setup, script, 0)?;
    let text = ron::ser::to_string(&prepared.setup).map_err(OnlineError::SetupText)?;
    let start = Start { setup: text, map_files: map_files(&prepared.content.map)?, unpaced, frames };
    net.send_control(None, &[WireMessage::Start(start.clone())])?;
    Ok((prepared, start))
}

/// A joiner's start: checks the host's setup and map files, gives `controller` this machine's
/// slots, and prepares the match; a refusal is sent to the host too.
pub fn start_joined<N: ControlTransport>(
    roots: &ContentRoots,
    net: &mut N,
    me: PeerId,
    start: &Start,
    controller: SlotKind,
    script: &CommandScript,
) -> Result<Prepared, OnlineError> {
    let refuse = |net: &mut N, reason: String| {
        net.send_control(Some(PeerId(0)), &[WireMessage::Refused { reason: reason.clone() }]).ok();
        OnlineError::Refused(reason)
    };
    let mut setup: MatchSetup = match parse_ron(Path::new("the host's match setup"), &start.setup) {
        Ok(s) => s,
        Err(e) => return Err(refuse(net, e.to_string())),
    };
    let map = match Map::find_and_load(roots, &setup.map) {
        Ok(m) => m,
        Err(e) => return Err(refuse(net, format!("this machine cannot load map \"{}\": {e}", setup.map))),
    };
    let files = differing(&map_files(&map)?, &start.map_files);
    if !files.is_empty() {
        return Err(refuse(net, format!("these map files differ from the host's: {}", files.join(", "))));
    }
    for slot in setup.slots.iter_mut().filter(|s| s.machine == Some(me.0)) {
        slot.kind = controller;
    }
    match prepare(roots, &setup, script, me.0) {
        Ok(p) => Ok(p),
        Err(e) => Err(refuse(net, e.to_string())),
    }
}

/// An observer's part of `start`, for a match it joins while it runs: prepared for a machine
/// number no slot names (peer numbers are reused, so its own may be a dropped player's), so it
/// runs no slot and only watches.
pub fn start_watching<N: ControlTransport>(
    roots: &ContentRoots,
    net: &mut N,
    start: &Start,
) -> Result<Prepared, OnlineError> {
    let named: Vec<u8> = parse_ron::<MatchSetup>(Path::new("the host's match setup"), &start.setup)
        .map(|s| s.slots.iter().filter_map(|s| s.machine).collect())
        .unwrap_or_default();
    // Machines count from 0 (the host); a setup names at most one per slot.
    let free = (1..=u8::MAX).find(|m| !named.contains(m)).unwrap_or(u8::MAX);
    start_joined(roots, net, PeerId(free), start, SlotKind::Idle, &CommandScript::default())
}
