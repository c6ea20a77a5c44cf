//! The headless runner behind `ridgeline sim`: a session run for a number of frames or until
//! someone wins, with timing, a hash log and a summary of each player's state at the end.

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::time::Instant;

use serde::Serialize;

use crate::lockstep::stream::{Stream, StreamConfig};
use crate::net::control::ControlTransport;
use crate::net::memory::MemoryEndpoint;
use crate::sim::ids::PlayerId;
use crate::sim::world::World;

use super::controller::Controller;
use super::match_setup::{DEFAULT_RUN_AHEAD, ResolvedSlot};
use super::peer::{Session, SessionError, Step};

/// One player at the end of a headless run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerSummary {
    /// Its slot in the setup (closed slots counted).
    pub slot: u8,
    /// Its team, counted from 1.
    pub team: u8,
    /// Its faction's name.
    pub faction: String,
    /// Money at the end.
    pub money: i64,
    /// Objects it owns at the end.
    pub objects: usize,
    /// Units trained and structures finished during the run, by template name.
    pub built: BTreeMap<String, u32>,
    /// Its objects destroyed during the run (sold and surrendered ones not counted), by
    /// template name.
    pub lost: BTreeMap<String, u32>,
    /// Upgrades it has researched, in the order of the rules.
    pub upgrades: Vec<String>,
    /// The style a computer player played (from `data/ai_styles.ron`), if it is one run here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
    /// What a computer player's first attack set out with (frame, units, worth), if it is one
    /// run here and it attacked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_wave: Option<crate::ai::FirstWave>,
}

/// The result of a headless run; printed as the JSON line of `ridgeline sim --json`.
#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    /// Frames executed.
    pub frames: u32,
    /// Final state hash, 16 hex digits.
    pub hash: String,
    /// Winning slot (the lowest of the winning team), if the game ended with one.
    pub winner: Option<u8>,
    /// Winning team, counted from 1, if the game ended with one.
    pub winner_team: Option<u8>,
    /// Frames executed per second of wall time.
    pub ticks_per_sec: f64,
    /// Most objects alive at once.
    pub objects_peak: usize,
    /// Commands refused by the simulation.
    pub rejected: usize,
    /// Objects destroyed.
    pub destroyed: usize,
    /// Every player at the end, in slot order.
    pub players: Vec<PlayerSummary>,
    /// Each player's money, army and gatherers at the start and every so many frames, when
    /// asked for (`sim --timeline`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub timeline: Vec<super::timeline::Sample>,
}

/// What a run counts as its frames go by.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Most objects alive at once.
    pub objects_peak: usize,
    /// Commands refused.
    pub rejected: usize,
    /// Objects destroyed.
    pub destroyed: usize,
    /// Per player: templates built (trained or finished).
    pub built: BTreeMap<PlayerId, BTreeMap<crate::sim::ids::TemplateId, u32>>,
    /// Per player: templates lost.
    pub lost: BTreeMap<PlayerId, BTreeMap<crate::sim::ids::TemplateId, u32>>,
}

impl Tally {
    /// Counts one executed frame of `world`.
    pub fn count(&mut self, world: &World, report: &crate::sim::world::TickReport) {
        self.objects_peak = self.objects_peak.max(world.object_count());
        self.rejected += report.rejections.len();
        self.destroyed += report.destroyed.len();
        for e in &report.events {
            use crate::sim::event::GameEvent;
            let (map, owner, template) = match e {
                GameEvent::UnitProduced { template, owner, .. }
                | GameEvent::StructureCompleted { template, owner, .. } => (&mut self.built, *owner, *template),
                GameEvent::Killed { template, owner, .. } if *owner != PlayerId::NEUTRAL => {
                    (&mut self.lost, *owner, *template)
                }
                _ => continue,
            };
            *map.entry(owner).or_default().entry(template).or_default() += 1;
        }
    }
}

impl RunSummary {
    /// The summary of a run that executed `log` (frame, hash) in `secs` seconds and ended on
    /// `world`; `slots` maps players to setup slots (empty: slot = player).
    pub fn finish(world: &World, slots: &[ResolvedSlot], log: &[(u32, u64)], secs: f64, tally: Tally) -> RunSummary {
        let slot_of = |p: crate::sim::ids::PlayerId| slots.get(p.index()).map_or(p.0, |s| s.slot);
        let winner = world.winner().and_then(|w| world.players().get(w.index()));
        RunSummary {
            frames: log.len() as u32,
            hash: format!("{:016x}", log.last().map_or(world.state_hash().total, |l| l.1)),
            winner: winner.map(|p| slot_of(p.id)),
            winner_team: winner.map(|p| p.team.saturating_add(1)),
            ticks_per_sec: if secs > 0.0 { log.len() as f64 / secs } else { 0.0 },
            objects_peak: tally.objects_peak,
            rejected: tally.rejected,
            destroyed: tally.destroyed,
            players: summarize_players(world, slots, &tally),
            timeline: Vec::new(),
        }
    }
}

/// A session for a game where every player is on this machine (skirmish, tools): the same
/// stream and the same path as a networked game, over the in-memory transport.
pub fn local_session(
    world: World,
    controllers: Vec<Box<dyn Controller>>,
) -> Result<Session<MemoryEndpoint>, SessionError> {
    let players: Vec<PlayerId> = world.players().iter().map(|p| p.id).collect();
    let stream = Stream::new(StreamConfig {
        players: players.clone(),
        local: players,
        run_ahead: DEFAULT_RUN_AHEAD,
        pace: Default::default(),
    });
    let transport = crate::net::memory::alone();
    Ok(Session::new(world, stream, transport, controllers))
}

/// Runs a game on this machine alone; returns the summary and the hash of every frame. Each
/// player is reported as the slot of its own index.
pub fn run_headless(
    world: World,
    controllers: Vec<Box<dyn Controller>>,
    frames: u32,
) -> Result<(RunSummary, Vec<(u32, u64)>), SessionError> {
    let mut session = local_session(world, controllers)?;
    run_session(&mut session, frames, &[])
}

/// Steps `session` until `frames` frames ran or the game is over; returns the summary and the
/// hash of every frame. `slots` maps players to the setup's slots (empty: slot = player).
pub fn run_session<T: ControlTransport>(
    session: &mut Session<T>,
    frames: u32,
    slots: &[ResolvedSlot],
) -> Result<(RunSummary, Vec<(u32, u64)>), SessionError> {
    run_session_sampled(session, frames, slots, None)
}

/// [`run_session`], also sampling each player's money, army and gatherers at the start and
/// after every `every` frames into the summary's `timeline`.
pub fn run_session_sampled<T: ControlTransport>(
    session: &mut Session<T>,
    frames: u32,
    slots: &[ResolvedSlot],
    every: Option<NonZeroU32>,
) -> Result<(RunSummary, Vec<(u32, u64)>), SessionError> {
    run_session_observed(session, frames, slots, every, &mut |_| {})
}

/// [`run_session_sampled`], showing `observe` the session after every frame it runs (the
/// headless `--save-at` saves the game there).
pub fn run_session_observed<T: ControlTransport>(
    session: &mut Session<T>,
    frames: u32,
    slots: &[ResolvedSlot],
    every: Option<NonZeroU32>,
    observe: &mut dyn FnMut(&Session<T>),
) -> Result<(RunSummary, Vec<(u32, u64)>), SessionError> {
    let mut timeline = Vec::new();
    if every.is_some() {
        timeline.push(super::timeline::sample(session.world(), slots, 0));
    }
    let mut log = Vec::with_capacity((frames as usize).min(1 << 16));
    let mut tally = Tally { objects_peak: session.world().object_count(), ..Tally::default() };
    let started = Instant::now();
    while (log.len() as u32) < frames && !session.world().is_over() {
        match session.step()? {
            Step::Ticked { frame, hash, report } => {
                log.push((frame.0, hash.total));
                tally.count(session.world(), &report);
                let executed = log.len() as u32;
                if every.is_some_and(|n| executed.is_multiple_of(n.get())) {
                    timeline.push(super::timeline::sample(session.world(), slots, executed));
                }
                for r in &report.rejections {
                    log::info!("frame {}: player {} command {} rejected: {}", r.frame, r.player, r.id.0, r.reason);
                }
                observe(session);
            }
            Step::Waiting | Step::Paused => unreachable_wait()?,
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let mut summary = RunSummary::finish(session.world(), slots, &log, secs, tally);
    summary.timeline = timeline;
    for (player, style) in session.styles() {
        if let Some(p) = summary.players.get_mut(player.index()) {
            p.style = Some(style);
        }
    }
    for (player, wave) in session.first_waves() {
        if let Some(p) = summary.players.get_mut(player.index()) {
            p.first_wave = Some(wave);
        }
    }
    Ok((summary, log))
}

/// Every player at the end of a game, in slot order (`slots` maps players to setup slots;
/// empty: slot = player), with what `tally` counted of it.
pub fn summarize_players(world: &World, slots: &[ResolvedSlot], tally: &Tally) -> Vec<PlayerSummary> {
    let slot_of = |p: crate::sim::ids::PlayerId| slots.get(p.index()).map_or(p.0, |s| s.slot);
    let rules = world.rules();
    let named = |counts: Option<&BTreeMap<crate::sim::ids::TemplateId, u32>>| -> BTreeMap<String, u32> {
        counts
            .into_iter()
            .flatten()
            .filter_map(|(t, n)| rules.templates.get(t.0 as usize).map(|t| (t.name.clone(), *n)))
            .collect()
    };
    world
        .players()
        .iter()
        .map(|p| PlayerSummary {
            slot: slot_of(p.id),
            team: p.team.saturating_add(1),
            faction: world.rules().factions.get(p.faction as usize).map_or_else(String::new, |f| f.name.clone()),
            money: p.money,
            objects: world.objects().filter(|o| o.owner == p.id).count(),
            built: named(tally.built.get(&p.id)),
            lost: named(tally.lost.get(&p.id)),
            upgrades: (0..rules.upgrades.len())
                .map(|u| crate::sim::ids::UpgradeId(u as u16))
                .filter(|&u| world.has_upgrade(p.id, u))
                .map(|u| rules.upgrade(u).name.clone())
                .collect(),
            style: None,
            first_wave: None,
        })
        .collect()
}

/// With every player local the stream is always ready; waiting means a broken invariant.
fn unreachable_wait() -> Result<(), SessionError> {
    Err(SessionError::LocalStall)
}
