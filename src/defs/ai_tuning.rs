//! The skirmish AI's tuning: the numbers every difficulty shares (how far it gathers, guards
//! and marches, how patient it is, how it weighs units and worth), read from the `tuning`
//! block of `data/ai.ron`, checked and converted to frames and world units for [`AiTuning`].
//!
//! Must not: hold behaviour, or accept a value the AI cannot use (a zero it divides by, a
//! range it clamps into); every problem is reported with file, line and field.

use serde::Deserialize;

use super::DefsError;
use super::source::Source;
use crate::sim::ids::FRAMES_PER_SECOND;

/// The numbers every skirmish AI shares, in simulation units (frames, whole world units,
/// percents). One table for all difficulties: what makes them differ is their [`super::AiPlan`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiTuning {
    /// Distance around the attackers' centre in which a focusing AI looks for a victim; twice
    /// this is where an attack weighs the enemy army facing it.
    pub focus_radius: i64,
    /// Power it keeps to spare: it raises a plant before a structure would leave less.
    pub power_margin: i32,
    /// Attackers count as gathered when their centre is within twice this of the rally point
    /// and each stands within this of its place (their formation's reach, plus this).
    pub gathered_radius: i64,
    /// Distance from the base, toward the enemy, of the point where attackers gather.
    pub rally_distance: i64,
    /// Distance from the base centre, toward the enemy, around which defences are placed.
    pub defence_distance: i64,
    /// Distance from the base centre, toward the enemy, of the point the army guards.
    pub guard_distance: i64,
    /// An idle builder farther than this from home walks back.
    pub builder_leash: i64,
    /// An order to a point this close to the last one's is not given again.
    pub reissue_distance: i64,
    /// Its army must be worth this percent of the enemy's before it spends on economy.
    pub safe_percent: i64,
    /// A factory trains only if its best unit scores at least this percent of the best any of
    /// its factories could make.
    pub worth_making_percent: i64,
    /// Units scoring at least this percent of the best against the enemy it knows are trained.
    pub good_enough_percent: i64,
    /// Frames it waits for stragglers before attacking anyway.
    pub gather_patience: u32,
    /// Frames it waits for its advantage before attacking anyway (two equal turtles would
    /// otherwise wait for ever).
    pub advantage_patience: u32,
    /// Its army must be worth this percent of the enemy units it knows before it trains
    /// against the enemy's structures too.
    pub siege_percent: i64,
    /// Once its top unit can be had, at least one in this many of its army units is one.
    pub top_share: usize,
    /// It raises its tech structure from this frame on: the opening is about armies.
    pub tech_after: u32,
    /// A marching attack closer than this to its target goes straight for it.
    pub assault_distance: i64,
    /// A marching attack's main body: its units this close to the one halfway along.
    pub march_body_radius: i64,
    /// How far ahead of a strung-out attack's centre its next goal lies.
    pub march_step: i64,
    /// An attack whose group has shrunk below this percent of its size falls back to regroup.
    pub fall_back_percent: usize,
    /// Units in each search party of a hunting army.
    pub hunt_party_units: usize,
    /// The most search parties a hunting army splits into.
    pub hunt_parties: usize,
    /// A search party not at its point after this many frames gives the point up.
    pub hunt_give_up_frames: u32,
}

/// The `tuning` block as written: distances in world units, times in seconds, shares in
/// percent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AiTuningDef {
    focus_radius: u32,
    power_margin: u32,
    gathered_radius: u32,
    rally_distance: u32,
    defence_distance: u32,
    guard_distance: u32,
    builder_leash: u32,
    reissue_distance: u32,
    safe: u32,
    worth_making: u32,
    good_enough: u32,
    gather_patience: f64,
    advantage_patience: f64,
    siege: u32,
    top_share: u32,
    tech_after: f64,
    assault_distance: u32,
    march_body_radius: u32,
    march_step: u32,
    fall_back_below: u32,
    hunt_party_units: u32,
    hunt_parties: u32,
    hunt_give_up_after: f64,
}

/// The most a tuning distance may be (world units; a map cell is 10).
const MAX_DISTANCE: u32 = 10_000;
/// The most a tuning share may be (percent).
const MAX_PERCENT: u32 = 1_000;
/// The most a tuning time may be (seconds).
const MAX_SECONDS: f64 = 3_600.0;

impl AiTuningDef {
    /// Checks the block read from `src` and converts it; each value out of its range is an
    /// error naming its line and field.
    pub(super) fn check(&self, src: &Source) -> Result<AiTuning, Vec<DefsError>> {
        let mut errors = Vec::new();
        let mut bad = |field: &'static str, message: String| {
            errors.push(DefsError::Invalid {
                path: src.path.clone(),
                line: src.line_of_key(field),
                item: "AI tuning",
                name: "tuning".into(),
                field,
                message,
            });
        };
        let mut within = |field: &'static str, value: u32, lo: u32, hi: u32| {
            if !(lo..=hi).contains(&value) {
                bad(field, format!("{value} must be between {lo} and {hi}"));
            }
            value
        };
        let distance = |v| i64::from(v);
        let tuning = AiTuning {
            focus_radius: distance(within("focus_radius", self.focus_radius, 1, MAX_DISTANCE)),
            power_margin: within("power_margin", self.power_margin, 0, 1_000) as i32,
            gathered_radius: distance(within("gathered_radius", self.gathered_radius, 1, MAX_DISTANCE)),
            rally_distance: distance(within("rally_distance", self.rally_distance, 0, MAX_DISTANCE)),
            defence_distance: distance(within("defence_distance", self.defence_distance, 0, MAX_DISTANCE)),
            guard_distance: distance(within("guard_distance", self.guard_distance, 0, MAX_DISTANCE)),
            builder_leash: distance(within("builder_leash", self.builder_leash, 0, MAX_DISTANCE)),
            reissue_distance: distance(within("reissue_distance", self.reissue_distance, 0, MAX_DISTANCE)),
            safe_percent: i64::from(within("safe", self.safe, 0, MAX_PERCENT)),
            worth_making_percent: i64::from(within("worth_making", self.worth_making, 0, 100)),
            good_enough_percent: i64::from(within("good_enough", self.good_enough, 0, 100)),
            gather_patience: 0,
            advantage_patience: 0,
            siege_percent: i64::from(within("siege", self.siege, 0, MAX_PERCENT)),
            top_share: within("top_share", self.top_share, 1, 100) as usize,
            tech_after: 0,
            assault_distance: distance(within("assault_distance", self.assault_distance, 0, MAX_DISTANCE)),
            march_body_radius: distance(within("march_body_radius", self.march_body_radius, 0, MAX_DISTANCE)),
            march_step: distance(within("march_step", self.march_step, 0, MAX_DISTANCE)),
            fall_back_percent: within("fall_back_below", self.fall_back_below, 0, 100) as usize,
            // A hunting army is split by these: neither may be zero.
            hunt_party_units: within("hunt_party_units", self.hunt_party_units, 1, 1_000) as usize,
            hunt_parties: within("hunt_parties", self.hunt_parties, 1, 64) as usize,
            hunt_give_up_frames: 0,
        };
        let mut time = |field: &'static str, v: f64| seconds(v, MAX_SECONDS).map_err(|m| bad(field, m)).unwrap_or(0);
        let tuning = AiTuning {
            gather_patience: time("gather_patience", self.gather_patience),
            advantage_patience: time("advantage_patience", self.advantage_patience),
            tech_after: time("tech_after", self.tech_after),
            hunt_give_up_frames: time("hunt_give_up_after", self.hunt_give_up_after),
            ..tuning
        };
        if errors.is_empty() { Ok(tuning) } else { Err(errors) }
    }
}

/// `v` seconds as frames, refused unless between 0 and `max` seconds.
pub(super) fn seconds(v: f64, max: f64) -> Result<u32, String> {
    if v.is_finite() && (0.0..=max).contains(&v) {
        Ok((v * FRAMES_PER_SECOND as f64).round() as u32)
    } else {
        Err(format!("{v} must be between 0 and {max} seconds"))
    }
}
