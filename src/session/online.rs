//! Online matches over QUIC: the handshake (protocol, build and a digest of every file the
//! simulation reads, a mismatch refused naming the file, on both sides), the start (the host
//! sends the one `MatchSetup`; each machine prepares it for its own slots), and the headless
//! run behind `ridgeline host` and `ridgeline join`: paced at 30 frames a second (or as fast
//! as the slowest peer allows), players who leave removed at an agreed frame, and a desync
//! stopping the game with a report.
//!
//! Must not: change the world except through the stream's commands (the test switch that
//! corrupts one object is the one exception, and says so).

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use crate::content::digest::folder_files;
use crate::content::{ContentRoots, parse_ron};
use crate::lockstep::transport::{PeerId, TransportEvent};
use crate::map::Map;
use crate::net::quic::{JoinCode, QuicError, QuicTransport, SharedQuic};
use crate::net::wire::{FileDigest, Hello, PROTOCOL, Start, WireMessage};
use crate::sim::FRAMES_PER_SECOND;
use crate::sim::hash::StateHash;
use crate::sim::ids::Frame;

use super::match_setup::{MatchSetup, SlotKind};
use super::peer::{SessionError, Step};
use super::runner::RunSummary;
use super::script::CommandScript;
use super::start::{Match, StartError, prepare};

/// The build the handshake compares.
pub const BUILD: &str = env!("CARGO_PKG_VERSION");

/// Seconds without a frame that count as one stall.
const STALL: Duration = Duration::from_secs(1);

/// Why an online match could not start or go on.
#[derive(Debug, Error)]
pub enum OnlineError {
    /// The network.
    #[error(transparent)]
    Net(#[from] QuicError),
    /// The handshake or the start was refused (by either side), and why.
    #[error("refused: {0}")]
    Refused(String),
    /// The match could not be prepared.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The session failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The host left before the match began, or while it ran.
    #[error("the host left: {0}")]
    HostLeft(String),
    /// A file could not be read.
    #[error("{0}")]
    File(String),
    /// The transport failed.
    #[error(transparent)]
    Transport(#[from] crate::lockstep::TransportError),
}

/// The digests of the simulation's data files, as the handshake compares them.
pub fn sim_data_files(roots: &ContentRoots) -> Result<Vec<FileDigest>, OnlineError> {
    let mut out = Vec::new();
    for name in super::start::SIM_DATA_FILES {
        let rel = format!("data/{name}");
        let Some(path) = roots.find(&rel) else { continue };
        let digest = crate::content::digest::files_digest(vec![(rel.clone(), path)])
            .map_err(|e| OnlineError::File(e.to_string()))?;
        out.push(FileDigest { name: rel, digest });
    }
    Ok(out)
}

/// The digests of a map folder's files, named `maps/<folder>/<file>`.
pub fn map_files(map: &Map) -> Result<Vec<FileDigest>, OnlineError> {
    let folder = map.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let files = folder_files(&map.dir).map_err(|e| OnlineError::File(e.to_string()))?;
    Ok(files.into_iter().map(|(name, digest)| FileDigest { name: format!("maps/{folder}/{name}"), digest }).collect())
}

/// The files whose digests differ between `mine` and `theirs` (or that one side lacks).
pub fn differing(mine: &[FileDigest], theirs: &[FileDigest]) -> Vec<String> {
    let a: BTreeMap<&str, u64> = mine.iter().map(|f| (f.name.as_str(), f.digest)).collect();
    let b: BTreeMap<&str, u64> = theirs.iter().map(|f| (f.name.as_str(), f.digest)).collect();
    let mut names: Vec<&str> = a.keys().chain(b.keys()).copied().collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter().filter(|n| a.get(n) != b.get(n)).map(str::to_string).collect()
}

/// What a headless online run does besides playing.
#[derive(Clone, Debug, Default)]
pub struct OnlineOptions {
    /// Frames to run (fewer if someone wins).
    pub frames: u32,
    /// The test switch: corrupt one field of one object on this machine after this frame.
    pub corrupt_at: Option<u32>,
    /// Where desync reports go.
    pub desync_dir: PathBuf,
    /// The host adapts the run-ahead to the measured round trips (joiners follow the host).
    pub adaptive: bool,
}

/// The final JSON of `host` and `join`: `sim`'s fields and the network's.
#[derive(Clone, Debug, Serialize)]
pub struct OnlineSummary {
    /// The game's summary, as `sim` prints it.
    #[serde(flatten)]
    pub run: RunSummary,
    /// Median round-trip time to the other machines over the game, in milliseconds.
    pub rtt_ms: f64,
    /// Run-ahead at the end, in frames.
    pub run_ahead: u32,
    /// Largest run-ahead during the game.
    pub run_ahead_max: u32,
    /// Stalls of over a second.
    pub stalls: u32,
    /// Payload bytes sent.
    pub bytes_sent: u64,
    /// Payload bytes received.
    pub bytes_received: u64,
    /// The desync report's path, if the game went out of sync.
    pub desync: Option<String>,
    /// Slots whose players left or were dropped.
    pub left: Vec<u8>,
}

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
}

/// Hosts a match: listens on `bind`, hands the join code to `announce`, accepts a joiner for
/// each remote slot of `setup` (checking its protocol, build and data files), then starts the
/// match on every machine, to run at most `frames` frames everywhere.
pub fn host(
    roots: &ContentRoots,
    setup: &MatchSetup,
    script: &CommandScript,
    options: &HostOptions,
    announce: impl FnOnce(&JoinCode),
) -> Result<Match<SharedQuic>, OnlineError> {
    let HostOptions { bind, ref name, unpaced, frames } = *options;
    let advertise = (bind.ip().is_unspecified()).then(advertised_ip).flatten();
    let (mut net, code) = QuicTransport::host(bind, advertise)?;
    announce(&code);
    let mine = sim_data_files(roots)?;
    let mut setup = setup.clone();
    let remote: Vec<usize> = (0..setup.slots.len()).filter(|&i| setup.slots[i].kind == SlotKind::Remote).collect();
    // Slot index → the joiner playing it.
    let mut seated: BTreeMap<usize, PeerId> = BTreeMap::new();
    while seated.len() < remote.len() {
        net.wait(Duration::from_millis(50));
        while let Some(e) = net.take_peer_event() {
            if let TransportEvent::Left(p) = e {
                seated.retain(|_, q| *q != p);
            }
        }
        while let Some((from, m)) = net.take_control() {
            let WireMessage::Hello(hello) = m else { continue };
            if let Some(reason) = refusal(&hello, &mine) {
                log::warn!("{from} refused: {reason}");
                net.send_control(Some(from), &[WireMessage::Refused { reason }]).ok();
                continue;
            }
            let Some(&slot) = remote.iter().find(|s| !seated.contains_key(s)) else {
                let reason = "the game is full".to_string();
                net.send_control(Some(from), &[WireMessage::Refused { reason }]).ok();
                continue;
            };
            seated.insert(slot, from);
            setup.slots[slot].machine = Some(from.0);
            setup.slots[slot].name = Some(hello.name.chars().take(32).collect());
            net.send_control(Some(from), &[WireMessage::Welcome { peer: from, host: name.to_string() }]).ok();
        }
    }
    let prepared = start_hosted(roots, &setup, script, &mut net, unpaced, frames)?;
    Ok(prepared.into_match(SharedQuic::new(net)))
}

/// The host's start: prepares `setup` (whose slots name their machines) for this machine and
/// sends it to every joiner, to run at most `frames` frames everywhere.
pub fn start_hosted(
    roots: &ContentRoots,
    setup: &MatchSetup,
    script: &CommandScript,
    net: &mut QuicTransport,
    unpaced: bool,
    frames: u32,
) -> Result<super::start::Prepared, OnlineError> {
    let prepared = prepare(roots, setup, script, 0)?;
    let text = ron::ser::to_string(&prepared.setup).map_err(|e| OnlineError::File(e.to_string()))?;
    let start = Start { setup: text, map_files: map_files(&prepared.content.map)?, unpaced, frames };
    net.send_control(None, &[WireMessage::Start(start)])?;
    Ok(prepared)
}

/// Why a joiner's hello is refused, naming what differs; None if it may play.
pub fn refusal(hello: &Hello, mine: &[FileDigest]) -> Option<String> {
    if hello.protocol != PROTOCOL {
        return Some(format!("protocol {} (the host speaks {PROTOCOL})", hello.protocol));
    }
    if hello.build != BUILD {
        return Some(format!("game version {} (the host has {BUILD})", hello.build));
    }
    let files = differing(mine, &hello.files);
    (!files.is_empty()).then(|| format!("these files differ from the host's: {}", files.join(", ")))
}

/// The first non-loopback IPv4 address of this machine's interfaces, else 127.0.0.1: what the
/// join code of an unspecified bind carries.
pub fn advertised_ip() -> Option<std::net::IpAddr> {
    let first = if_addrs::get_if_addrs()
        .ok()
        .and_then(|all| all.into_iter().map(|i| i.ip()).find(|ip| ip.is_ipv4() && !ip.is_loopback()));
    Some(first.unwrap_or(std::net::IpAddr::from([127, 0, 0, 1])))
}

/// Joins the match in `code`: greets the host, waits for its welcome and the start, checks
/// the map's files, and prepares the match with `controller` playing this machine's slot.
/// Returns the match, whether it runs unpaced, and how many frames the host will run.
pub fn join(
    roots: &ContentRoots,
    code: &JoinCode,
    connect: Option<SocketAddr>,
    name: &str,
    controller: SlotKind,
    script: &CommandScript,
) -> Result<(Match<SharedQuic>, bool, u32), OnlineError> {
    let hello =
        Hello { protocol: PROTOCOL, build: BUILD.to_string(), name: name.to_string(), files: sim_data_files(roots)? };
    let mut net = QuicTransport::join(code, connect, &WireMessage::Hello(hello))?;
    let mut me = None;
    loop {
        net.wait(Duration::from_millis(50));
        if let Some(TransportEvent::Left(_)) = net.take_peer_event() {
            return Err(OnlineError::HostLeft("before the match began".into()));
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
                    return Ok((prepared.into_match(SharedQuic::new(net)), start.unpaced, start.frames));
                }
                _ => {}
            }
        }
    }
}

/// A joiner's start: checks the host's setup and map files, gives `controller` this machine's
/// slots, and prepares the match; a refusal is sent to the host too.
pub fn start_joined(
    roots: &ContentRoots,
    net: &mut QuicTransport,
    me: PeerId,
    start: &Start,
    controller: SlotKind,
    script: &CommandScript,
) -> Result<super::start::Prepared, OnlineError> {
    let refuse = |net: &mut QuicTransport, reason: String| {
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

/// Plays an online match headless until `opts.frames` frames ran, someone won, the game went
/// out of sync, or the host left; paced at 30 frames a second unless `unpaced`. Returns the
/// summary and the hash of every frame.
pub fn run(
    m: &mut Match<SharedQuic>,
    opts: &OnlineOptions,
    unpaced: bool,
) -> Result<(OnlineSummary, Vec<(u32, u64)>), OnlineError> {
    let frame_time = Duration::from_secs(1) / FRAMES_PER_SECOND;
    let started = Instant::now();
    let mut log: Vec<(u32, u64)> = Vec::with_capacity(opts.frames as usize);
    let mut snapshots = Snapshots::default();
    let mut tally = super::runner::Tally { objects_peak: m.session.world().object_count(), ..Default::default() };
    let (mut stalls, mut stalled) = (0u32, false);
    let mut last_tick = Instant::now();
    let mut rtts: Vec<f64> = Vec::new();
    let mut tuner = RunAheadTuner::default();
    let mut host_left = false;
    let mut left: Vec<u8> = Vec::new();
    let mut desync = None;
    let me = crate::lockstep::Transport::me(m.session.transport());
    let net = m.session.transport().clone();
    let mut pending: Vec<(PeerId, WireMessage)> = Vec::new();
    loop {
        let world = m.session.world();
        if log.len() as u32 >= opts.frames || world.is_over() {
            break;
        }
        if let Some(d) = m.session.stream().desync() {
            desync = Some(desync_report(&m.slots, &net, &mut pending, &opts.desync_dir, me, d, &snapshots)?);
            break;
        }
        let step = m.session.step()?;
        match step {
            Step::Ticked { frame, hash, report } => {
                log.push((frame.0, hash.total));
                snapshots.keep(m.session.world(), frame.0, hash);
                tally.count(m.session.world(), &report);
                if opts.corrupt_at == Some(frame.0) {
                    corrupt(m);
                }
                if frame.0 % 10 == 0 {
                    let now: Vec<f64> = net
                        .with(|n| n.rtts())
                        .unwrap_or_default()
                        .iter()
                        .map(|(_, d)| d.as_secs_f64() * 1000.0)
                        .collect();
                    if frame.0 % FRAMES_PER_SECOND == 0 {
                        rtts.extend(now.iter().copied());
                    }
                    tuner.observe(now);
                    let stream = m.session.stream();
                    let (current, next) = (stream.run_ahead(), stream.next_frame());
                    tuner.max = tuner.max.max(current);
                    if me == PeerId(0)
                        && opts.adaptive
                        && let Some((at, value)) = tuner.decide(current, next)
                    {
                        m.session.schedule_run_ahead(at, value);
                        let change = WireMessage::RunAhead { at, value: value as u8 };
                        net.with(|n| n.send_control(None, &[change]).ok());
                        log::info!("run-ahead {current} → {value} from frame {at}");
                    }
                }
                last_tick = Instant::now();
                stalled = false;
                if !unpaced {
                    let due = started + frame_time * (frame.0 + 1);
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        net.with(|n| n.wait(wait));
                        // Whatever woke the wait is handled on the next step; sleep the rest.
                        if let Some(rest) = due.checked_duration_since(Instant::now()) {
                            std::thread::sleep(rest);
                        }
                    }
                }
            }
            Step::Waiting => {
                if host_left {
                    // The host is gone and what it sent before leaving has all run.
                    break;
                }
                net.with(|n| n.wait(Duration::from_millis(2)));
                if !stalled && last_tick.elapsed() > STALL {
                    stalls += 1;
                    stalled = true;
                }
            }
        }
        let (gone, host_gone) = departures(&mut m.session, &net, &m.slots, me, &mut pending)?;
        left.extend(gone);
        // The host left: a star cannot go on without it, but what it sent before leaving
        // (the last frames of a finished game) still runs.
        host_left |= host_gone;
    }
    // Say goodbye so the others know this was an ending, not a loss.
    net.with(|n| n.send_control(None, &[WireMessage::Bye]).ok());
    let secs = started.elapsed().as_secs_f64();
    let stats = net.with(|n| n.stats()).unwrap_or_default();
    rtts.sort_by(f64::total_cmp);
    let run = RunSummary::finish(m.session.world(), &m.slots, &log, secs, tally);
    let run_ahead = m.session.stream().run_ahead();
    tuner.max = tuner.max.max(run_ahead);
    left.sort_unstable();
    left.dedup();
    let summary = OnlineSummary {
        run,
        rtt_ms: rtts.get(rtts.len() / 2).copied().unwrap_or(0.0),
        run_ahead,
        run_ahead_max: tuner.max,
        stalls,
        bytes_sent: stats.bytes_sent,
        bytes_received: stats.bytes_received,
        desync,
        left,
    };
    Ok((summary, log))
}

/// Handles peers leaving and the host's drop notices, in any online match (headless or in the
/// window): the host removes a leaver's players at the first frame nobody has their data for
/// and tells everyone; a joiner applies what the host tells. Returns the slots that left and
/// whether the host itself is gone. Control messages it does not handle are kept in `pending`.
pub fn departures<T: crate::lockstep::Transport>(
    session: &mut crate::session::Session<T>,
    net: &SharedQuic,
    slots: &[super::match_setup::ResolvedSlot],
    me: PeerId,
    pending: &mut Vec<(PeerId, WireMessage)>,
) -> Result<(Vec<u8>, bool), OnlineError> {
    let mut gone = Vec::new();
    let mut host_gone = false;
    let mut leavers: Vec<PeerId> = session
        .take_peer_events()
        .into_iter()
        .filter_map(|e| match e {
            super::peer::PeerEvent::Left(p) => Some(p),
            super::peer::PeerEvent::Connected(_) => None,
        })
        .collect();
    while let Some(Some(e)) = net.with(QuicTransport::take_peer_event) {
        if let TransportEvent::Left(p) = e {
            leavers.push(p);
        }
    }
    for peer in leavers {
        if me != PeerId(0) {
            // A joiner only ever talks to the host.
            host_gone = true;
            gone.extend(slots.iter().filter(|s| s.machine == 0).map(|s| s.slot));
            continue;
        }
        for s in slots.iter().filter(|s| s.machine == peer.0) {
            let stream = session.stream();
            let from = stream.declared_through(s.player).map_or(Frame(0), Frame::next).max(stream.next_frame());
            session.drop_player(s.player, from);
            net.with(|n| n.send_control(None, &[WireMessage::Dropped { player: s.player, from }]).ok());
            log::warn!("{peer} left; player {} is removed from frame {from}", s.player);
            gone.push(s.slot);
        }
    }
    while let Some(Some((from, msg))) = net.with(QuicTransport::take_control) {
        match msg {
            WireMessage::Dropped { player, from: at } if from == PeerId(0) => {
                session.drop_player(player, at);
                if let Some(s) = slots.get(player.index()) {
                    gone.push(s.slot);
                }
            }
            WireMessage::RunAhead { at, value } if from == PeerId(0) => {
                if !session.schedule_run_ahead(at, value as u32) {
                    log::error!("the host's run-ahead change for frame {at} came after that frame ran here");
                }
            }
            WireMessage::Refused { reason } => return Err(OnlineError::Refused(reason)),
            other => pending.push((from, other)),
        }
    }
    Ok((gone, host_gone))
}

/// The host's choice of run-ahead, from the round-trip times it measures: enough frames for a
/// command to reach everyone before it runs (half the 90th-percentile round trip, plus the
/// jitter, plus a 25 ms cushion), between 2 and 15 frames, changed at most every three seconds.
#[derive(Clone, Debug, Default)]
pub struct RunAheadTuner {
    samples: VecDeque<f64>,
    last_change: Option<u32>,
    /// The largest run-ahead used so far.
    pub max: u32,
}

/// Round-trip samples the tuner keeps (about three seconds' worth).
const RTT_SAMPLES: usize = 90;

impl RunAheadTuner {
    /// Notes round-trip times, in milliseconds.
    pub fn observe(&mut self, rtts_ms: impl IntoIterator<Item = f64>) {
        for r in rtts_ms {
            self.samples.push_back(r);
            if self.samples.len() > RTT_SAMPLES {
                self.samples.pop_front();
            }
        }
    }

    /// The run-ahead these round trips call for.
    pub fn wanted(&self) -> Option<u32> {
        if self.samples.len() < 10 {
            return None;
        }
        let mut v: Vec<f64> = self.samples.iter().copied().collect();
        v.sort_by(f64::total_cmp);
        let p90 = v[(v.len() * 9 / 10).min(v.len() - 1)];
        let median = v[v.len() / 2];
        let frame_ms = 1000.0 / FRAMES_PER_SECOND as f64;
        let needed = 1.0 + ((p90 / 2.0 + (p90 - median) + 25.0) / frame_ms).ceil();
        Some((needed as u32).clamp(2, 15))
    }

    /// A change to make now, at frame `next` with run-ahead `current`: the frame it takes
    /// effect on (late enough that every machine hears of it first) and the new value.
    pub fn decide(&mut self, current: u32, next: Frame) -> Option<(Frame, u32)> {
        self.max = self.max.max(current);
        let wanted = self.wanted()?;
        let settled = self.last_change.is_none_or(|f| next.0 >= f + 3 * FRAMES_PER_SECOND);
        if wanted == current || !settled {
            return None;
        }
        self.last_change = Some(next.0);
        self.max = self.max.max(wanted);
        Some((next.plus(2 * current + 15), wanted))
    }
}

/// The test switch: moves one object of this machine's first player by one raw unit, as a
/// corrupted machine would. It is never reachable through commands.
fn corrupt(m: &mut Match<SharedQuic>) {
    let Some(first) = m.slots.iter().find(|s| s.machine == crate::lockstep::Transport::me(m.session.transport()).0)
    else {
        return;
    };
    let player = first.player;
    let target = m.session.world().objects().filter(|o| o.owner == player).map(|o| o.id).last();
    if let Some(id) = target {
        log::warn!("test switch: corrupting object {id} on this machine");
        m.session.world_mut_for_tests().debug_nudge_object(id, 1);
    }
}

/// One frame as kept for a desync report: the sub-hashes and every object.
pub struct Snapshot {
    frame: u32,
    hash: StateHash,
    objects: Vec<crate::sim::object::Object>,
}

/// The recent frames a desync report is made from.
#[derive(Default)]
pub struct Snapshots(VecDeque<Snapshot>);

impl Snapshots {
    /// Keeps the state after `frame` (its hash and objects), forgetting the oldest.
    pub fn keep(&mut self, world: &crate::sim::World, frame: u32, hash: StateHash) {
        self.0.push_back(Snapshot { frame, hash, objects: world.objects().cloned().collect() });
        if self.0.len() > SNAPSHOTS {
            self.0.pop_front();
        }
    }
}

/// How many recent frames are kept for a desync report (a desync is found at most a
/// run-ahead and a few frames after it happened).
const SNAPSHOTS: usize = 24;

const SUB_NAMES: [&str; 5] = ["objects", "players", "rng", "pathfinding", "production"];

fn subs(h: &StateHash) -> Vec<u64> {
    vec![h.objects, h.players, h.rng, h.pathfinding, h.production]
}

fn object_digest(o: &crate::sim::object::Object) -> u64 {
    let text: String = o.fields().iter().map(|(k, v)| format!("{k}={v};")).collect();
    crate::content::digest::bytes_digest(text.as_bytes())
}

/// After a desync: exchanges sub-hashes and object digests at the desync's frame with the
/// machine that differs, then the fields of the first object that differs, so both reports
/// name the same object and field; writes this machine's report (next to the settings, or
/// in `--desync-dir`) and returns its path. Waits at most a few seconds for the other side.
pub fn desync_report(
    slots: &[super::match_setup::ResolvedSlot],
    net: &SharedQuic,
    pending: &mut Vec<(PeerId, WireMessage)>,
    dir: &Path,
    me: PeerId,
    d: crate::lockstep::Desync,
    snapshots: &Snapshots,
) -> Result<String, OnlineError> {
    let snap = snapshots.0.iter().find(|s| s.frame == d.frame.0);
    let their_machine = slots.get(d.peer.index()).map_or(0, |s| s.machine);
    let to = if me == PeerId(0) { Some(PeerId(their_machine)) } else { None };
    let mine: Vec<(u64, u64)> =
        snap.map(|s| s.objects.iter().map(|o| (o.id.to_bits(), object_digest(o))).collect()).unwrap_or_default();
    let my_subs = snap.map(|s| subs(&s.hash)).unwrap_or_default();
    let digests = WireMessage::DesyncDigests { frame: d.frame, subs: my_subs.clone(), objects: mine.clone() };
    net.with(|n| n.send_control(to, &[digests]).ok());
    let (mut their_subs, mut first, mut theirs_fields) = (None, None, None);
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline && theirs_fields.is_none() {
        net.with(|n| n.wait(Duration::from_millis(20)));
        let mut arrived = std::mem::take(pending);
        while let Some(Some(c)) = net.with(QuicTransport::take_control) {
            arrived.push(c);
        }
        for (_, msg) in arrived {
            match msg {
                WireMessage::DesyncDigests { frame, subs, objects } if frame == d.frame => {
                    their_subs = Some(subs);
                    let a: BTreeMap<u64, u64> = mine.iter().copied().collect();
                    let b: BTreeMap<u64, u64> = objects.into_iter().collect();
                    let id = a.keys().chain(b.keys()).copied().filter(|k| a.get(k) != b.get(k)).min();
                    if let Some(id) = id {
                        let fields: Vec<(String, String)> = snap
                            .and_then(|s| s.objects.iter().find(|o| o.id.to_bits() == id))
                            .map(|o| o.fields())
                            .unwrap_or_default();
                        let answer = WireMessage::DesyncObject { frame: d.frame, object: id, fields };
                        net.with(|n| n.send_control(to, &[answer]).ok());
                    }
                    first = id;
                }
                WireMessage::DesyncObject { frame, object, fields } if frame == d.frame => {
                    theirs_fields = Some((object, fields));
                }
                _ => {}
            }
        }
    }
    let mut text = format!("Ridgeline {BUILD}: out of sync at frame {}\n", d.frame.0);
    text.push_str(&format!(
        "this machine ({me}): {:016x}\nthe other (player {}): {:016x}\n",
        d.local, d.peer, d.remote
    ));
    match &their_subs {
        Some(t) => {
            let differ: Vec<&str> =
                SUB_NAMES.iter().zip(my_subs.iter().zip(t)).filter(|(_, (a, b))| a != b).map(|(n, _)| *n).collect();
            text.push_str(&format!("sub-hashes that differ: {}\n", differ.join(", ")));
        }
        None => text.push_str("the other machine sent no sub-hashes\n"),
    }
    let mine_of = |id: u64| snap.and_then(|s| s.objects.iter().find(|o| o.id.to_bits() == id));
    match (first, &theirs_fields) {
        (Some(id), Some((object, fields))) if *object == id => {
            let oid = crate::sim::ids::ObjectId::from_bits(id);
            let my_fields: Vec<(String, String)> = mine_of(id).map(|o| o.fields()).unwrap_or_default();
            let theirs: BTreeMap<&str, &str> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            let field = my_fields.iter().find(|(k, v)| theirs.get(k.as_str()) != Some(&v.as_str()));
            match field {
                Some((k, v)) => text.push_str(&format!(
                    "first object that differs: {oid}\nfield: {k}\nhere: {v}\nthere: {}\n",
                    theirs.get(k.as_str()).unwrap_or(&"(missing)")
                )),
                None if my_fields.is_empty() => {
                    text.push_str(&format!("first object that differs: {oid} (missing here)\n"))
                }
                None => text.push_str(&format!("first object that differs: {oid} (missing there)\n")),
            }
        }
        (None, _) if their_subs.is_some() => text.push_str("every object agrees; the difference is elsewhere\n"),
        _ => text.push_str("the other machine did not answer in time; no object named\n"),
    }
    let path = dir.join(format!("desync-frame{}-peer{}.txt", d.frame.0, me.0));
    let io = |e: std::io::Error| OnlineError::File(format!("{}: {e}", path.display()));
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut f = std::fs::File::create(&path).map_err(io)?;
    f.write_all(text.as_bytes()).map_err(io)?;
    Ok(path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_ahead_follows_the_round_trip_and_settles_between_changes() {
        let mut t = RunAheadTuner::default();
        assert_eq!(t.wanted(), None, "too few samples to judge");
        t.observe(std::iter::repeat_n(0.3, 30));
        assert_eq!(t.wanted(), Some(2), "loopback: the least");
        assert_eq!(t.decide(3, Frame(300)), Some((Frame(300 + 6 + 15), 2)));
        // 200 ms round trips with 50 ms of jitter: (p90/2 + jitter + 25 ms) / 33.3 ms, plus one.
        let mut slow = RunAheadTuner::default();
        slow.observe((0..90).map(|i| if i % 10 == 0 { 250.0 } else { 200.0 + (i % 3) as f64 }));
        assert_eq!(slow.wanted(), Some(1 + ((250.0f64 / 2.0 + 48.0 + 25.0) / (1000.0 / 30.0)).ceil() as u32));
        let (at, v) = slow.decide(2, Frame(900)).unwrap();
        assert_eq!((at, v), (Frame(900 + 4 + 15), 7));
        assert_eq!(slow.max, 7);
        // Settled: no second change within three seconds, then one.
        slow.observe(std::iter::repeat_n(0.3, 90));
        assert_eq!(slow.decide(7, Frame(950)), None);
        assert_eq!(slow.decide(7, Frame(990)), Some((Frame(990 + 14 + 15), 2)));
        // Never beyond fifteen frames.
        let mut awful = RunAheadTuner::default();
        awful.observe(std::iter::repeat_n(5000.0, 30));
        assert_eq!(awful.wanted(), Some(15));
    }
}
