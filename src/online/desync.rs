//! The desync report: the recent frames' sub-hashes and objects kept while the game runs,
//! and after a desync the exchange with the machine that differs (sub-hashes, object digests,
//! then the first differing object's fields), so both reports name the same object and field.
//!
//! Must not: touch the world; it reads snapshots taken after each frame.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::lockstep::transport::PeerId;
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

/// How long a machine waits for the other's answers before writing its report anyway.
pub const EXCHANGE_FOR: Duration = Duration::from_secs(3);

/// One machine's side of the exchange after a desync, as an I/O-free state machine: it sends
/// its sub-hashes and object digests at the desync's frame, answers the other's digests with
/// the fields of the first object that differs, and takes the other's fields; then (or at
/// its deadline) [`DesyncExchange::report`] names the same object and field on both sides.
pub struct DesyncExchange {
    desync: crate::lockstep::Desync,
    me: PeerId,
    /// Where its messages go (the host answers the machine that differs; a joiner the host).
    to: Option<PeerId>,
    my_subs: Vec<u64>,
    /// (object id bits, digest) at the frame, in id order.
    mine: Vec<(u64, u64)>,
    /// The objects at the frame (for their fields).
    objects: Vec<crate::sim::object::Object>,
    their_subs: Option<Vec<u64>>,
    first: Option<u64>,
    theirs_fields: Option<(u64, Vec<(String, String)>)>,
    outgoing: VecDeque<(Option<PeerId>, WireMessage)>,
    deadline: Instant,
}

impl DesyncExchange {
    /// Starts the exchange for `d` at `now`, from the frames kept in `snapshots`.
    pub fn start(
        slots: &[ResolvedSlot],
        me: PeerId,
        d: crate::lockstep::Desync,
        snapshots: &Snapshots,
        now: Instant,
    ) -> DesyncExchange {
        let snap = snapshots.0.iter().find(|s| s.frame == d.frame.0);
        let their_machine = slots.get(d.peer.index()).map_or(0, |s| s.machine);
        let to = if me == PeerId(0) { Some(PeerId(their_machine)) } else { None };
        let objects: Vec<crate::sim::object::Object> = snap.map(|s| s.objects.clone()).unwrap_or_default();
        let mine: Vec<(u64, u64)> = objects.iter().map(|o| (o.id.to_bits(), object_digest(o))).collect();
        let my_subs = snap.map(|s| subs(&s.hash)).unwrap_or_default();
        let digests = WireMessage::DesyncDigests { frame: d.frame, subs: my_subs.clone(), objects: mine.clone() };
        DesyncExchange {
            desync: d,
            me,
            to,
            my_subs,
            mine,
            objects,
            their_subs: None,
            first: None,
            theirs_fields: None,
            outgoing: VecDeque::from([(to, digests)]),
            deadline: now + EXCHANGE_FOR,
        }
    }

    /// Takes a message from the other machine; false if it is not part of this exchange.
    pub fn handle(&mut self, message: &WireMessage) -> bool {
        match message {
            WireMessage::DesyncDigests { frame, subs, objects } if *frame == self.desync.frame => {
                self.their_subs = Some(subs.clone());
                let a: BTreeMap<u64, u64> = self.mine.iter().copied().collect();
                let b: BTreeMap<u64, u64> = objects.iter().copied().collect();
                let id = a.keys().chain(b.keys()).copied().filter(|k| a.get(k) != b.get(k)).min();
                if let Some(id) = id {
                    let fields = self.fields_of(id);
                    let answer = WireMessage::DesyncObject { frame: self.desync.frame, object: id, fields };
                    self.outgoing.push_back((self.to, answer));
                }
                self.first = id;
                true
            }
            WireMessage::DesyncObject { frame, object, fields } if *frame == self.desync.frame => {
                self.theirs_fields = Some((*object, fields.clone()));
                true
            }
            _ => false,
        }
    }

    /// The next message to send, and to whom.
    pub fn poll_outgoing(&mut self) -> Option<(Option<PeerId>, WireMessage)> {
        self.outgoing.pop_front()
    }

    /// When the exchange gives up waiting.
    pub fn poll_timeout(&self) -> Instant {
        self.deadline
    }

    /// True when the report can be written: the other's fields are in, every object agrees,
    /// or the deadline has passed.
    pub fn done(&self, now: Instant) -> bool {
        let agreed = self.their_subs.is_some() && self.first.is_none();
        self.outgoing.is_empty() && (self.theirs_fields.is_some() || agreed || now >= self.deadline)
    }

    fn fields_of(&self, id: u64) -> Vec<(String, String)> {
        self.objects.iter().find(|o| o.id.to_bits() == id).map(|o| o.fields()).unwrap_or_default()
    }

    /// The report's text.
    pub fn report(&self) -> String {
        let d = &self.desync;
        let mut text = format!("Ridgeline {BUILD}: out of sync at frame {}\n", d.frame.0);
        text.push_str(&format!(
            "this machine ({}): {:016x}\nthe other (player {}): {:016x}\n",
            self.me, d.local, d.peer, d.remote
        ));
        match &self.their_subs {
            Some(t) => {
                let differ: Vec<&str> = SUB_NAMES
                    .iter()
                    .zip(self.my_subs.iter().zip(t))
                    .filter(|(_, (a, b))| a != b)
                    .map(|(n, _)| *n)
                    .collect();
                text.push_str(&format!("sub-hashes that differ: {}\n", differ.join(", ")));
            }
            None => text.push_str("the other machine sent no sub-hashes\n"),
        }
        match (self.first, &self.theirs_fields) {
            (Some(id), Some((object, fields))) if *object == id => {
                let oid = crate::sim::ids::ObjectId::from_bits(id);
                let my_fields = self.fields_of(id);
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
            (None, _) if self.their_subs.is_some() => {
                text.push_str("every object agrees; the difference is elsewhere\n")
            }
            _ => text.push_str("the other machine did not answer in time; no object named\n"),
        }
        text
    }

    /// Writes the report into `dir`; its path.
    pub fn write(&self, dir: &Path) -> Result<String, OnlineError> {
        let path = dir.join(format!("desync-frame{}-peer{}.txt", self.desync.frame.0, self.me.0));
        crate::content::write_file(&path, self.report().as_bytes())?;
        Ok(path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lockstep::Desync;
    use crate::sim::corruption::Corruption;
    use crate::sim::ids::{Frame, ObjectId, PlayerId, TemplateId};
    use crate::sim::test_support;
    use crate::sim::vector::Vec2;

    /// The frames kept on one machine: two units, the second nudged by one raw unit where
    /// `corrupted`.
    fn kept(corrupted: bool) -> (Snapshots, ObjectId) {
        let mut w = test_support::world(
            16,
            vec![(TemplateId(0), 0, Vec2::from_int(40, 40)), (TemplateId(0), 1, Vec2::from_int(90, 90))],
        );
        let id = w.objects().map(|o| o.id).last().unwrap();
        if corrupted {
            assert!(w.corrupt(Corruption { object: id, raw_dx: 1 }));
        }
        let mut s = Snapshots::default();
        let hash = w.state_hash();
        s.keep(&w, 5, hash);
        (s, id)
    }

    fn field_line(report: &str) -> (String, String, String) {
        let get = |key: &str| report.lines().find_map(|l| l.strip_prefix(key)).unwrap_or_default().to_string();
        (get("field: "), get("here: "), get("there: "))
    }

    #[test]
    fn both_machines_name_the_same_object_and_field_without_waiting_for_the_clock() {
        let ((sa, id), (sb, _)) = (kept(false), kept(true));
        let t0 = Instant::now();
        let mut a = DesyncExchange::start(
            &[],
            PeerId(0),
            Desync { frame: Frame(5), peer: PlayerId(1), local: 1, remote: 2 },
            &sa,
            t0,
        );
        let mut b = DesyncExchange::start(
            &[],
            PeerId(1),
            Desync { frame: Frame(5), peer: PlayerId(0), local: 2, remote: 1 },
            &sb,
            t0,
        );
        assert!(!a.done(t0), "nothing heard yet");
        for _ in 0..3 {
            while let Some((_, m)) = a.poll_outgoing() {
                assert!(b.handle(&m));
            }
            while let Some((_, m)) = b.poll_outgoing() {
                assert!(a.handle(&m));
            }
        }
        assert!(a.done(t0) && b.done(t0), "done as soon as the answers are in");
        let (ra, rb) = (a.report(), b.report());
        assert!(ra.contains(&format!("first object that differs: {id}\n")), "{ra}");
        assert!(rb.contains(&format!("first object that differs: {id}\n")), "{rb}");
        assert!(ra.contains("sub-hashes that differ: objects"), "{ra}");
        let (fa, here_a, there_a) = field_line(&ra);
        let (fb, here_b, there_b) = field_line(&rb);
        assert_eq!(fa, "PosX");
        assert_eq!((fa, here_a, there_a), (fb, there_b, here_b), "the same field, each side's value swapped");
        // Not its business: another frame's digests are left for someone else.
        assert!(!a.handle(&WireMessage::DesyncDigests { frame: Frame(6), subs: Vec::new(), objects: Vec::new() }));
    }

    #[test]
    fn with_no_answer_the_report_is_written_at_the_deadline() {
        let (s, _) = kept(false);
        let t0 = Instant::now();
        let mut a = DesyncExchange::start(
            &[],
            PeerId(1),
            Desync { frame: Frame(5), peer: PlayerId(0), local: 1, remote: 2 },
            &s,
            t0,
        );
        assert!(
            matches!(a.poll_outgoing(), Some((None, WireMessage::DesyncDigests { .. }))),
            "a joiner tells the host"
        );
        assert!(!a.done(t0 + EXCHANGE_FOR / 2));
        assert_eq!(a.poll_timeout(), t0 + EXCHANGE_FOR);
        assert!(a.done(t0 + EXCHANGE_FOR));
        assert!(a.report().contains("the other machine did not answer in time"), "{}", a.report());
    }
}
