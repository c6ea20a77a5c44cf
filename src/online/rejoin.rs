//! Coming back into a running match, the returning machine's side: it runs the host's
//! history as fast as it can ([`Catcher`], checking every checkpoint), says when it has caught
//! up, and goes live on the frame the host names ([`Return`]), so the game never stops for the
//! catch-up. An observer joining a running match comes the same way ([`Return::watching`],
//! [`watch`]), its live frame named by the host at once. The host's side is `seats.rs`.
//!
//! Must not: change the world except through the stream (the history is the commands every
//! machine ran).

use std::collections::BTreeMap;
use std::time::Duration;

use crate::content::ContentRoots;
use crate::lockstep::transport::{PeerId, TransportEvent};
use crate::net::control::ControlTransport;
use crate::net::quic::QuicTransport;
use crate::net::wire::{Start, WireMessage};
use crate::session::match_setup::SlotKind;
use crate::session::script::{CommandScript, ScriptEntry};
use crate::session::start::{Match, Prepared};
use crate::sim::command::StampedCommand;
use crate::sim::ids::{Frame, PlayerId};

use super::OnlineError;
use super::start::start_joined;

/// What [`catch_up`] gives: the match live on this machine, and the hash of every frame
/// it ran from the history.
pub struct Returned {
    /// The match, live from the frame the host named.
    pub game: Match<QuicTransport>,
    /// (frame, hash) of every frame run from the history.
    pub prelude: Vec<(u32, u64)>,
}

/// The returning machine's side of the history, without I/O: takes each stretch the host
/// sends and runs it, checking every checkpoint.
pub struct Catcher {
    prepared: Prepared,
    pending: Vec<ScriptEntry>,
    checkpoints: BTreeMap<u32, u64>,
    through: Frame,
    prelude: Vec<(u32, u64)>,
}

impl Catcher {
    /// Catches `prepared` (a match at frame 0) up with the host's history.
    pub fn new(prepared: Prepared) -> Catcher {
        Catcher { prepared, pending: Vec::new(), checkpoints: BTreeMap::new(), through: Frame(0), prelude: Vec::new() }
    }

    /// Takes a stretch of history: the commands of the frames before `through` not had yet.
    pub fn take(
        &mut self,
        through: Frame,
        commands: Vec<StampedCommand>,
        checkpoints: Vec<(Frame, u64)>,
    ) -> Result<(), OnlineError> {
        if through < self.through || commands.iter().any(|c| c.frame < self.through || c.frame >= through) {
            return Err(OnlineError::HistoryOutOfOrder { from: self.through.0, through: through.0 });
        }
        // The first stretch begins at frame 0 and carries its checkpoint: a way back that
        // missed it would run the rest from a wrong state without knowing.
        if self.through == Frame(0) && through > Frame(0) && !checkpoints.iter().any(|(f, _)| *f == Frame(0)) {
            return Err(OnlineError::HistoryOutOfOrder { from: 0, through: through.0 });
        }
        let entries =
            commands.into_iter().map(|c| ScriptEntry { frame: c.frame.0, player: c.player.0, command: c.command });
        self.pending.extend(entries);
        self.checkpoints.extend(checkpoints.into_iter().map(|(f, h)| (f.0, h)));
        self.through = through;
        Ok(())
    }

    /// Runs every frame taken so far, as fast as it goes; an error names the first checkpoint
    /// this machine's state differs from the host's at.
    pub fn run(&mut self) -> Result<(), OnlineError> {
        if self.prepared.world.frame() >= self.through {
            return Ok(());
        }
        let ran = self.prepared.fast_forward(&self.pending, self.through.0, 1);
        self.pending.clear();
        for (frame, hash) in ran {
            if let Some(&theirs) = self.checkpoints.get(&frame)
                && theirs != hash
            {
                return Err(OnlineError::CatchUpDesync { frame, host: theirs, here: hash });
            }
            self.prelude.push((frame, hash));
        }
        Ok(())
    }

    /// The next frame this machine would run.
    pub fn frame(&self) -> Frame {
        self.prepared.world.frame()
    }

    /// True when every frame taken has run (and some have).
    pub fn caught_up(&self) -> bool {
        self.through > Frame(0) && self.frame() == self.through
    }

    /// The match, and the hash of every frame run.
    pub fn finish(self) -> (Prepared, Vec<(u32, u64)>) {
        (self.prepared, self.prelude)
    }
}

/// A machine on its way back, without I/O: what the host sends goes to [`Return::handle`],
/// [`Return::poll`] runs the history and gives what to send, and once [`Return::ready`] the
/// match goes live through [`Return::into_match`]. The headless join and the window's lobby
/// both drive it.
pub struct Return {
    catcher: Catcher,
    /// This machine's players.
    mine: Vec<PlayerId>,
    owners: BTreeMap<PlayerId, PeerId>,
    dropped: BTreeMap<PlayerId, Frame>,
    readmitted: BTreeMap<PlayerId, Frame>,
    /// The frame to go live on and the first that needs this machine's data, once named.
    live: Option<(Frame, Frame)>,
    said_caught_up: bool,
}

impl Return {
    /// The way back for `prepared` (prepared for `machine`), with the host's word on who
    /// speaks for whom.
    pub fn new(prepared: Prepared, machine: u8, owners: &[(PlayerId, PeerId)]) -> Return {
        let mine = prepared.slots.iter().filter(|s| s.machine == machine).map(|s| s.player).collect();
        Return {
            catcher: Catcher::new(prepared),
            mine,
            owners: owners.iter().copied().collect(),
            dropped: BTreeMap::new(),
            readmitted: BTreeMap::new(),
            live: None,
            said_caught_up: false,
        }
    }

    /// The way in for an observer joining the running match: `prepared` for a machine with
    /// no slot, going live at `live` (the host named it in its `Watch`); nobody waits for it.
    pub fn watching(prepared: Prepared, owners: &[(PlayerId, PeerId)], live: Frame) -> Return {
        Return {
            catcher: Catcher::new(prepared),
            mine: Vec::new(),
            owners: owners.iter().copied().collect(),
            dropped: BTreeMap::new(),
            readmitted: BTreeMap::new(),
            live: Some((live, live)),
            // Nobody waits for it to say so.
            said_caught_up: true,
        }
    }

    /// Takes a message from `from` (only the host's count).
    pub fn handle(&mut self, from: PeerId, message: WireMessage) -> Result<(), OnlineError> {
        if from != PeerId(0) {
            return Ok(());
        }
        match message {
            WireMessage::History { through, commands, checkpoints } => {
                self.catcher.take(through, commands, checkpoints)?
            }
            WireMessage::Readmitted { player, peer, live, back } => {
                self.owners.insert(player, peer);
                if self.mine.contains(&player) {
                    self.live = Some((live, back));
                } else {
                    self.readmitted.insert(player, back);
                }
            }
            WireMessage::Dropped { player, from } => {
                self.dropped.insert(player, from);
            }
            WireMessage::Refused { reason } => return Err(OnlineError::Refused(reason)),
            _ => {}
        }
        Ok(())
    }

    /// Runs what came; the message to send the host, when one is due.
    pub fn poll(&mut self) -> Result<Option<WireMessage>, OnlineError> {
        self.catcher.run()?;
        if !self.said_caught_up && self.catcher.caught_up() {
            self.said_caught_up = true;
            return Ok(Some(WireMessage::CaughtUp { frame: self.catcher.frame() }));
        }
        Ok(None)
    }

    /// The next frame this machine would run.
    pub fn frame(&self) -> Frame {
        self.catcher.frame()
    }

    /// True when this machine has reached the frame it goes live on.
    pub fn ready(&self) -> bool {
        self.live.is_some_and(|(at, _)| self.catcher.frame() == at)
    }

    /// The match, live from here over `transport`, and the hash of every frame run from the
    /// history. Call once [`Return::ready`].
    pub fn into_match<T: ControlTransport>(self, transport: T) -> (Match<T>, Vec<(u32, u64)>) {
        let (at, back) = self.live.unwrap_or((self.catcher.frame(), self.catcher.frame()));
        let run_ahead = back.0.saturating_sub(at.0).max(1);
        let (prepared, prelude) = self.catcher.finish();
        let mut game = prepared.into_rejoined_match(transport, run_ahead);
        for (&player, &peer) in &self.owners {
            game.session.set_owner(player, peer);
        }
        for (&player, &from) in &self.dropped {
            if !self.mine.contains(&player) {
                game.session.drop_player(player, from.max(at));
                if let Some(&back) = self.readmitted.get(&player) {
                    let owner = game.session.owner(player).unwrap_or(PeerId(0));
                    game.session.readmit(player, owner, back);
                }
            }
        }
        (game, prelude)
    }
}

/// An observer joining a running match, headless: runs the host's history as it arrives
/// (checking each checkpoint) and goes live at `live`, the frame the host named.
pub fn watch(
    roots: &ContentRoots,
    mut net: QuicTransport,
    start: &Start,
    owners: &[(PlayerId, PeerId)],
    live: Frame,
) -> Result<Returned, OnlineError> {
    let prepared = super::start::start_watching(roots, &mut net, start)?;
    let way = Return::watching(prepared, owners, live);
    run_way_back(net, way)
}

/// Drives `way` over `net` until it is live.
fn run_way_back(mut net: QuicTransport, mut way: Return) -> Result<Returned, OnlineError> {
    loop {
        net.wait(Duration::from_millis(5));
        if let Some(TransportEvent::Left(_)) = net.take_peer_event() {
            return Err(OnlineError::HostLeft(format!("while this machine caught up, at frame {}", way.frame().0)));
        }
        while let Some((from, m)) = net.take_control() {
            way.handle(from, m)?;
        }
        if let Some(m) = way.poll()? {
            net.send_control(Some(PeerId(0)), &[m])?;
        }
        if way.ready() {
            let (game, prelude) = way.into_match(net);
            return Ok(Returned { game, prelude });
        }
    }
}

/// A machine coming back, headless: runs the host's history as it arrives (checking each
/// checkpoint), says when it has caught up, and goes live on the frame the host names.
/// `machine` is the machine whose slots are this player's; `controller` plays them.
#[allow(clippy::too_many_arguments)]
pub fn catch_up(
    roots: &ContentRoots,
    mut net: QuicTransport,
    start: &Start,
    machine: u8,
    owners: &[(PlayerId, PeerId)],
    controller: SlotKind,
    script: &CommandScript,
) -> Result<Returned, OnlineError> {
    let prepared = start_joined(roots, &mut net, PeerId(machine), start, controller, script)?;
    run_way_back(net, Return::new(prepared, machine, owners))
}
