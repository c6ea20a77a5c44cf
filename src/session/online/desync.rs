//! The desync report: the recent frames' sub-hashes and objects kept while the game runs,
//! and after a desync the exchange with the machine that differs (sub-hashes, object digests,
//! then the first differing object's fields), so both reports name the same object and field.
//!
//! Must not: touch the world; it reads snapshots taken after each frame.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::lockstep::transport::PeerId;
use crate::net::quic::{QuicTransport, SharedQuic};
use crate::net::wire::WireMessage;
use crate::session::match_setup::ResolvedSlot;
use crate::sim::hash::StateHash;

use super::{BUILD, OnlineError};

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

const SUB_NAMES: [&str; 6] = ["objects", "players", "rng", "pathfinding", "production", "content"];

fn subs(h: &StateHash) -> Vec<u64> {
    vec![h.objects, h.players, h.rng, h.pathfinding, h.production, h.content]
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
    slots: &[ResolvedSlot],
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
