//! The host's side of coming back into a running match. A machine that drops out is not
//! forgotten: its players are dropped (nobody waits for them; their units hold) but its seat
//! stays, proved by the seat token its hello carried. When a hello with that token comes during
//! the match, the host sends the match's start and the history of executed commands (with
//! checkpoint hashes every 300 frames), and keeps sending each new stretch as it runs; once the
//! machine says it has caught up, the host names a frame a little ahead where it goes live and
//! everyone waits for its data again (`Readmitted`). The returning side is `rejoin.rs`.
//!
//! An observer joining the running match (its hello asks to watch) comes in the same way,
//! but nobody ever waits for it: the host names its live frame at once (`Watch`), far
//! enough ahead that every message for it is sent after the observer connected, and sends
//! the history up to there.
//!
//! Must not: change the world except through the stream (readmission is scheduled on the
//! stream like a drop), or do I/O (what to send goes into the [`Outbox`]).

use std::collections::BTreeMap;

use crate::lockstep::transport::PeerId;
use crate::net::codec::MAX_HISTORY;
use crate::net::control::ControlTransport;
use crate::net::wire::{ALREADY_SEATED, Hello, Start, TAKEN_OVER, WireMessage};
use crate::session::Session;
use crate::session::match_setup::ResolvedSlot;
use crate::session::replay::{CHECKPOINT_EVERY, CommandLog};
use crate::session::script::ScriptEntry;
use crate::sim::command::StampedCommand;
use crate::sim::ids::{CommandId, Frame, PlayerId};

use super::outbox::Outbox;
use super::removal::drop_everywhere;

/// Frames between two stretches of history to a machine catching up.
const STRETCH: u32 = 10;

/// Observers catching up at once (each is sent the history); more are asked to try again.
pub const MAX_CATCHING_UP: usize = 4;

/// Why a machine that hosts no running match turns an observer away.
const NOT_HOSTING: &str = "this machine hosts no running game";

/// Why an observer is turned away while [`MAX_CATCHING_UP`] others catch up.
pub const WATCHERS_BUSY: &str = "other observers are catching up; try again in a moment";

/// The host's record of who sits where, so that a machine that dropped can come back.
#[derive(Default)]
pub struct Seats {
    /// Each joining machine's seat token (machines as numbered at the start).
    tokens: BTreeMap<u8, [u8; 32]>,
    /// The match's start, as it was sent.
    start: Option<Start>,
    /// Every executed command, for the history.
    log: Option<CommandLog>,
    /// The host player's name, for the welcome.
    host_name: String,
    /// A machine on its way back, if one is.
    returning: Option<Returning>,
    /// Observers catching up with the history (their live frame named at once).
    watchers: Vec<Watcher>,
}

/// A machine on its way back.
#[derive(Clone, Copy, Debug)]
struct Returning {
    peer: PeerId,
    machine: u8,
    /// The history covers every frame before this one.
    sent: Frame,
    /// The frame it goes live on, once it has caught up.
    live: Option<Frame>,
}

/// An observer joining the running match, catching up.
#[derive(Clone, Copy, Debug)]
struct Watcher {
    peer: PeerId,
    /// The history covers every frame before this one.
    sent: Frame,
    /// The frame it watches live from.
    live: Frame,
}

impl Seats {
    /// Seats for a match started with `start`, the joiners' seat tokens by machine, and the
    /// match's log of executed commands.
    pub fn new(start: Start, tokens: BTreeMap<u8, [u8; 32]>, log: CommandLog, host_name: &str) -> Seats {
        let tokens = tokens.into_iter().filter(|(_, t)| *t != [0; 32]).collect();
        Seats {
            tokens,
            start: Some(start),
            log: Some(log),
            host_name: host_name.to_string(),
            returning: None,
            watchers: Vec::new(),
        }
    }

    /// True while a machine is on its way back (the run-ahead holds still meanwhile).
    pub fn busy(&self) -> bool {
        self.returning.is_some()
    }

    /// A hello during the match. If its seat token is a machine's of this match, that machine
    /// is dropped wherever it was not yet (an old connection may linger), and its return
    /// begins: the start, who speaks for whom, who is gone, then the history. False if the
    /// hello is no returning player's (the caller refuses it).
    pub fn welcome_back<T: ControlTransport>(
        &mut self,
        session: &mut Session<T>,
        out: &mut Outbox,
        slots: &[ResolvedSlot],
        from: PeerId,
        hello: &Hello,
    ) -> bool {
        let Some(start) = self.start.clone() else { return false };
        let Some((&machine, _)) = self.tokens.iter().find(|(_, t)| **t == hello.seat) else { return false };
        if self.returning.is_some_and(|r| r.machine != machine) {
            // One at a time; the other tries again (its hello is refused, it may retry).
            return false;
        }
        let players: Vec<PlayerId> = slots.iter().filter(|s| s.machine == machine).map(|s| s.player).collect();
        if players.is_empty() {
            // Seated in the lobby once, but not in this match.
            return false;
        }
        for &p in &players {
            if session.stream().dropped_from(p).is_none() {
                if let Some(old) = session.owner(p).filter(|&o| o != from && o != PeerId(0)) {
                    // Another copy of the game with this identity (or a connection that has not
                    // timed out yet): told why, then closed.
                    out.send(Some(old), vec![WireMessage::Refused { reason: TAKEN_OVER.to_string() }]);
                    out.kick(old);
                }
                drop_everywhere(session, out, p);
            }
        }
        log::info!("{from} is machine {machine} coming back; sending the history");
        let owners: Vec<(PlayerId, PeerId)> =
            slots.iter().filter_map(|s| session.owner(s.player).map(|o| (s.player, o))).collect();
        let mut messages = vec![
            WireMessage::Welcome { peer: from, host: self.host_name.clone() },
            WireMessage::Rejoin { start, machine, owners },
        ];
        for s in slots.iter().filter(|s| s.machine != machine) {
            if let Some(at) = session.stream().dropped_from(s.player) {
                messages.push(WireMessage::Dropped { player: s.player, from: at });
            }
        }
        out.send(Some(from), messages);
        self.returning = Some(Returning { peer: from, machine, sent: Frame(0), live: None });
        true
    }

    /// A hello that asks to watch the running match: the observer is welcomed, told the
    /// match's start, who speaks for whom, who is gone and the frame it watches live from,
    /// and sent the history up to there as the game runs on (see [`Seats::upkeep`]). Nobody
    /// waits for it. Refused (with the reason) while [`MAX_CATCHING_UP`] others catch up.
    pub fn welcome_watcher<T: ControlTransport>(
        &mut self,
        session: &Session<T>,
        out: &mut Outbox,
        slots: &[ResolvedSlot],
        from: PeerId,
    ) -> Result<(), &'static str> {
        let Some(start) = self.start.clone() else { return Err(NOT_HOSTING) };
        if self.watchers.iter().any(|w| w.peer == from) {
            return Err(ALREADY_SEATED);
        }
        if self.watchers.len() >= MAX_CATCHING_UP {
            return Err(WATCHERS_BUSY);
        }
        let stream = session.stream();
        // As for a readmission: every machine's messages for frames from here on leave after
        // the observer connected (the host relays to every connection).
        let live = stream.next_frame().plus(2 * stream.run_ahead() + 15);
        let owners: Vec<(PlayerId, PeerId)> =
            slots.iter().filter_map(|s| session.owner(s.player).map(|o| (s.player, o))).collect();
        let mut messages = vec![
            WireMessage::Welcome { peer: from, host: self.host_name.clone() },
            WireMessage::Watch { start, owners, live },
        ];
        for s in slots {
            if let Some(at) = stream.dropped_from(s.player) {
                messages.push(WireMessage::Dropped { player: s.player, from: at });
            }
        }
        log::info!("{from} watches; it goes live at frame {live}");
        out.send(Some(from), messages);
        self.watchers.push(Watcher { peer: from, sent: Frame(0), live });
        Ok(())
    }

    /// The returning machine has run all it was sent: it goes live a little ahead of here,
    /// and everyone waits for its data again from then on. Returns its players.
    pub fn caught_up<T: ControlTransport>(
        &mut self,
        session: &mut Session<T>,
        out: &mut Outbox,
        slots: &[ResolvedSlot],
        from: PeerId,
    ) -> Vec<PlayerId> {
        let Some(r) = self.returning.as_mut().filter(|r| r.peer == from && r.live.is_none()) else {
            return Vec::new();
        };
        let stream = session.stream();
        let run_ahead = stream.run_ahead();
        // Late enough that everyone hears of it first, as for a change of run-ahead.
        let live = stream.next_frame().plus(2 * run_ahead + 15);
        let back = live.plus(run_ahead);
        r.live = Some(live);
        let mut told = Vec::new();
        let mut players = Vec::new();
        for s in slots.iter().filter(|s| s.machine == r.machine) {
            session.readmit(s.player, from, back);
            told.push(WireMessage::Readmitted { player: s.player, peer: from, live, back });
            players.push(s.player);
        }
        log::info!("{from} caught up; it plays live from frame {live}");
        out.send(None, told);
        players
    }

    /// True when the machine of `slot`'s player could come back (its hello carried a seat
    /// token).
    pub fn can_return(&self, slots: &[ResolvedSlot], slot: u8) -> bool {
        slots.iter().any(|s| s.slot == slot && self.tokens.contains_key(&s.machine))
    }

    /// Sends the returning machine the next stretch of history when one is due, and lets the
    /// return go once the history reaches its live frame. Call after every frame.
    pub fn upkeep<T: ControlTransport>(&mut self, session: &Session<T>, out: &mut Outbox) {
        let Some(log) = &self.log else { return };
        for w in &mut self.watchers {
            send_history((w.peer, &mut w.sent, Some(w.live)), log, session, out);
        }
        self.watchers.retain(|w| w.sent < w.live);
        let Some(r) = self.returning.as_mut() else { return };
        send_history((r.peer, &mut r.sent, r.live), log, session, out);
        if r.live.is_some_and(|l| r.sent >= l) {
            self.returning = None;
        }
    }

    /// The returning machine left again before it was back.
    pub fn left(&mut self, peer: PeerId) {
        if self.returning.is_some_and(|r| r.peer == peer) {
            self.returning = None;
        }
        self.watchers.retain(|w| w.peer != peer);
    }
}

/// Sends `r` the next stretch of history when one is due (every [`STRETCH`] frames, and at
/// its live frame).
fn send_history<T: ControlTransport>(
    (peer, sent, live): (PeerId, &mut Frame, Option<Frame>),
    log: &CommandLog,
    session: &Session<T>,
    out: &mut Outbox,
) {
    let ran = session.world().frame();
    let upto = live.map_or(ran, |live| ran.min(live));
    let due = *sent == Frame(0) || upto.0 >= sent.0 + STRETCH || live.is_some_and(|l| upto == l);
    if upto <= *sent || !due {
        return;
    }
    let entries = log.borrow();
    let first = entries.partition_point(|e| e.frame < sent.0);
    let last = entries.partition_point(|e| e.frame < upto.0);
    let checkpoints: Vec<(Frame, u64)> = session
        .stream()
        .hash_log()
        .iter()
        .filter(|(f, _)| *f >= *sent && *f < upto && f.0.is_multiple_of(CHECKPOINT_EVERY))
        .copied()
        .collect();
    let messages = history(&entries[first..last], upto, checkpoints);
    drop(entries);
    out.send(Some(peer), messages);
    *sent = upto;
}

/// The history up to (not including) `upto`: `entries` as commands, split so no
/// message holds more than [`MAX_HISTORY`] (at frame boundaries), the checkpoints in the first.
pub fn history(entries: &[ScriptEntry], upto: Frame, mut checkpoints: Vec<(Frame, u64)>) -> Vec<WireMessage> {
    let mut out = Vec::new();
    let mut commands: Vec<StampedCommand> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let frame_changes = commands.last().is_some_and(|c| c.frame.0 != e.frame);
        if commands.len() >= MAX_HISTORY && frame_changes {
            let through = Frame(e.frame);
            out.push(WireMessage::History {
                through,
                commands: std::mem::take(&mut commands),
                checkpoints: std::mem::take(&mut checkpoints),
            });
        }
        commands.push(StampedCommand {
            frame: Frame(e.frame),
            player: PlayerId(e.player),
            id: CommandId(i as u32),
            command: e.command.clone(),
        });
    }
    out.push(WireMessage::History { through: upto, commands, checkpoints });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::command::Command;

    #[test]
    fn a_long_history_is_split_at_frame_boundaries_and_covers_every_frame() {
        let entries: Vec<ScriptEntry> = (0..MAX_HISTORY as u32 * 2 + 7)
            .map(|i| ScriptEntry { frame: i / 3, player: 1, command: Command::Stop })
            .collect();
        let out = history(&entries, Frame(5000), vec![(Frame(300), 7)]);
        assert!(out.len() >= 3, "{} messages", out.len());
        let mut covered = Frame(0);
        let mut total = 0;
        for (i, m) in out.iter().enumerate() {
            let WireMessage::History { through, commands, checkpoints } = m else { panic!("{m:?}") };
            assert!(commands.len() <= MAX_HISTORY + 3);
            assert!(commands.iter().all(|c| c.frame >= covered && c.frame < *through), "message {i}");
            assert_eq!(checkpoints.is_empty(), i > 0, "the checkpoints go once");
            covered = *through;
            total += commands.len();
        }
        assert_eq!((covered, total), (Frame(5000), entries.len()));
    }
}
