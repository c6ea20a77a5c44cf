//! `data/ai.ron`: the skirmish AI's plans, one per difficulty, and the tuning they share
//! (`ai_tuning.rs`), checked and converted to frames and fixed-point for [`AiPlan`].
//!
//! Must not: accept a file that lacks a difficulty, names one twice, or holds a value the AI
//! cannot use; every problem is reported with file, line and field.

use serde::Deserialize;

use super::ai_plan::AiPlan;
use super::ai_tuning::{AiTuning, AiTuningDef, seconds};
use super::source::Source;
use super::{DefsError, DefsErrors, decimal};
use crate::content::ContentRoots;

/// The difficulties a plan file must define, weakest first.
pub const DIFFICULTIES: [&str; 4] = ["easy", "normal", "hard", "brutal"];
/// Plans a file may define beside the difficulties: the `learner`, a scripted new player that
/// measures whether Easy is beatable.
pub const YARDSTICKS: [&str; 1] = ["learner"];

/// `data/ai.ron` as written: the tuning every difficulty shares, and the plans.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AiFileDef {
    tuning: AiTuningDef,
    plans: Vec<AiPlanDef>,
}

/// One plan as written: times in seconds, distances in world units, shares in percent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AiPlanDef {
    name: String,
    think_every: f64,
    first_attack_after: f64,
    #[serde(default)]
    first_attack_spread: f64,
    attack_share: u32,
    #[serde(default)]
    wave_size: u32,
    #[serde(default)]
    army_cap: u32,
    #[serde(default)]
    army_cap_per_minute: u32,
    #[serde(default)]
    army_cap_unit: u32,
    #[serde(default)]
    bank_limit: u32,
    #[serde(default)]
    spare_workers: bool,
    #[serde(default)]
    march_together: bool,
    #[serde(default)]
    siege: bool,
    #[serde(default)]
    attack_advantage: u32,
    defend_radius: f64,
    focus_fire: bool,
    reissue_after: f64,
    #[serde(default)]
    first_wave: u32,
    #[serde(default = "default_queue")]
    queue: u32,
    #[serde(default = "default_gatherers")]
    gatherers: u32,
    #[serde(default = "default_factories")]
    factories: u32,
    #[serde(default)]
    defences: u32,
    #[serde(default)]
    retreat_below: u32,
    #[serde(default)]
    expand: bool,
    #[serde(default)]
    tech: bool,
    #[serde(default)]
    upgrades: u32,
    #[serde(default)]
    repair: bool,
    #[serde(default = "default_follow_style")]
    follow_style: u32,
}

fn default_follow_style() -> u32 {
    100
}

fn default_gatherers() -> u32 {
    2
}

fn default_queue() -> u32 {
    2
}

fn default_factories() -> u32 {
    1
}

/// Every difficulty's plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiPlans(pub Vec<AiPlan>);

impl AiPlans {
    /// Loads `data/ai.ron` through the content roots, each plan with the styles of
    /// `data/ai_styles.ron`.
    pub fn load(roots: &ContentRoots) -> Result<AiPlans, DefsErrors> {
        let path = roots.find("data/ai.ron").unwrap_or_else(|| "data/ai.ron".into());
        let src = Source::read(&path).map_err(|e| DefsErrors(vec![e]))?;
        let mut plans = AiPlans::from_source(&src)?;
        let styles = super::ai_styles::load(roots)?;
        for plan in &mut plans.0 {
            plan.styles = styles.clone();
        }
        Ok(plans)
    }

    /// Parses and checks a plan file: its `tuning` block and its plans (which have no styles).
    pub fn from_source(src: &Source) -> Result<AiPlans, DefsErrors> {
        let file: AiFileDef = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let defs = &file.plans;
        let (tuning, mut errors) = match file.tuning.check(src) {
            Ok(t) => (Some(t), Vec::new()),
            Err(e) => (None, e),
        };
        let mut plans = Vec::new();
        for d in defs {
            plans.extend(check_plan(src, d, defs, tuning.as_ref(), &mut errors));
        }
        for name in DIFFICULTIES {
            if !defs.iter().any(|d| d.name == name) {
                errors.push(DefsError::Invalid {
                    path: src.path.clone(),
                    line: 1,
                    item: "AI plan",
                    name: name.to_string(),
                    field: "name",
                    message: "missing: every difficulty needs a plan".into(),
                });
            }
        }
        if errors.is_empty() { Ok(AiPlans(plans)) } else { Err(DefsErrors(errors)) }
    }

    /// The plan of a difficulty.
    pub fn get(&self, name: &str) -> Option<&AiPlan> {
        self.0.iter().find(|p| p.name == name)
    }
}

/// Checks one plan of `defs` read from `src` and converts it, with the file's `tuning`; None,
/// with its errors pushed, when it holds a value the AI cannot use (or the tuning did).
fn check_plan(
    src: &Source,
    d: &AiPlanDef,
    defs: &[AiPlanDef],
    tuning: Option<&AiTuning>,
    errors: &mut Vec<DefsError>,
) -> Option<AiPlan> {
    let mut bad = |field: &'static str, m: String| errors.push(src.invalid("AI plan", &d.name, field, m));
    if !DIFFICULTIES.contains(&d.name.as_str()) && !YARDSTICKS.contains(&d.name.as_str()) {
        let known: Vec<&str> = DIFFICULTIES.iter().chain(&YARDSTICKS).copied().collect();
        bad("name", format!("unknown difficulty; expected one of {}", known.join(", ")));
    }
    if defs.iter().filter(|o| o.name == d.name).count() > 1 {
        bad("name", "defined twice".into());
    }
    let think = seconds(d.think_every, 60.0).map_err(|m| bad("think_every", m)).ok();
    if think == Some(0) {
        bad("think_every", "must be at least one frame (1/30 s)".into());
    }
    let first = seconds(d.first_attack_after, 3600.0).map_err(|m| bad("first_attack_after", m)).ok();
    let spread = seconds(d.first_attack_spread, 3600.0).map_err(|m| bad("first_attack_spread", m)).ok();
    let reissue = seconds(d.reissue_after, 600.0).map_err(|m| bad("reissue_after", m)).ok();
    if d.attack_advantage > 1000 {
        bad("attack_advantage", format!("{}% must be at most 1000", d.attack_advantage));
    }
    if !(1..=100).contains(&d.attack_share) {
        bad("attack_share", format!("{}% must be between 1 and 100", d.attack_share));
    }
    let radius = decimal(d.defend_radius, 1.0).map_err(|m| bad("defend_radius", m)).ok();
    for (field, value, range) in [
        ("gatherers", d.gatherers, 1..=20),
        ("factories", d.factories, 1..=6),
        ("defences", d.defences, 0..=10),
        ("retreat_below", d.retreat_below, 0..=1000),
        ("upgrades", d.upgrades, 0..=64),
        ("first_wave", d.first_wave, 0..=1_000_000),
        ("queue", d.queue, 1..=9),
        ("follow_style", d.follow_style, 0..=100),
        ("wave_size", d.wave_size, 0..=1000),
        ("army_cap", d.army_cap, 0..=1_000_000),
        ("army_cap_per_minute", d.army_cap_per_minute, 0..=1_000_000),
        ("army_cap_unit", d.army_cap_unit, 0..=1_000_000),
        ("bank_limit", d.bank_limit, 0..=1_000_000),
    ] {
        if !range.contains(&value) {
            bad(field, format!("{value} must be between {} and {}", range.start(), range.end()));
        }
    }
    Some(AiPlan {
        name: d.name.clone(),
        think_frames: think?,
        first_attack_frame: first?,
        first_attack_spread: spread?,
        attack_share_percent: d.attack_share,
        wave_size: d.wave_size,
        army_cap: i64::from(d.army_cap),
        army_cap_per_minute: i64::from(d.army_cap_per_minute),
        army_cap_unit: i64::from(d.army_cap_unit),
        bank_limit: i64::from(d.bank_limit),
        spare_workers: d.spare_workers,
        march_together: d.march_together,
        siege: d.siege,
        attack_advantage_percent: d.attack_advantage,
        defend_radius: radius?,
        focus_fire: d.focus_fire,
        reissue_frames: reissue?,
        first_wave: d.first_wave as i64,
        queue: d.queue,
        gatherers: d.gatherers,
        factories: d.factories,
        defences: d.defences,
        retreat_below_percent: d.retreat_below,
        expand: d.expand,
        tech: d.tech,
        upgrades: d.upgrades,
        repair: d.repair,
        styles: Vec::new(),
        follow_style: d.follow_style,
        tuning: tuning?.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<AiPlans, DefsErrors> {
        AiPlans::from_source(&Source::from_text("ai.ron", text))
    }

    const ROW: &str = "think_every: 1.0, first_attack_after: 60.0, attack_share: 50, defend_radius: 300.0, focus_fire: false, reissue_after: 10.0";

    /// The shipped tuning, written on one line.
    const TUNING: &str = "focus_radius: 160, power_margin: 2, gathered_radius: 90, rally_distance: 160, \
        defence_distance: 110, guard_distance: 90, builder_leash: 150, reissue_distance: 120, safe: 90, \
        worth_making: 40, good_enough: 70, gather_patience: 30.0, advantage_patience: 180.0, siege: 200, \
        top_share: 6, tech_after: 360.0, assault_distance: 500, march_body_radius: 300, march_step: 200, \
        fall_back_below: 30, hunt_party_units: 5, hunt_parties: 6, hunt_give_up_after: 60.0";

    /// A plan file with the shipped tuning on its first line and a plan a line from the second.
    fn file(rows: &[String]) -> String {
        format!("(tuning: ({TUNING}), plans: [\n{}\n])", rows.join(",\n"))
    }

    #[test]
    fn the_shipped_plans_load_and_grow_stronger() {
        let src = Source::read(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/ai.ron"))).unwrap();
        let plans = AiPlans::from_source(&src).unwrap();
        let p: Vec<&AiPlan> = DIFFICULTIES.iter().map(|d| plans.get(d).unwrap()).collect();
        // Each harder plan thinks no slower, keeps no fewer gatherers and sets out no later
        // (on average over its spread): normal's first wave comes between easy's and hard's,
        // hard's between normal's and brutal's (`data/ai.ron` says why; `tournament` measures
        // the ladder and each tier's first wave).
        let sets_out = |p: &AiPlan| p.first_attack_frame + p.first_attack_spread / 2;
        for w in p.windows(2) {
            assert!(w[1].think_frames <= w[0].think_frames, "{} thinks slower than {}", w[1].name, w[0].name);
            assert!(w[1].gatherers >= w[0].gatherers, "{} keeps fewer gatherers than {}", w[1].name, w[0].name);
            assert!(sets_out(w[1]) <= sets_out(w[0]), "{} sets out later than {}", w[1].name, w[0].name);
        }
        assert!(sets_out(p[2]) < sets_out(p[1]), "normal waits longer than hard");
        assert!(sets_out(p[3]) < sets_out(p[2]), "hard waits longer than brutal");
        assert_eq!(p[1].think_frames, 45);
    }

    #[test]
    fn bad_plans_are_reported_by_line_and_field() {
        let rows: Vec<String> = DIFFICULTIES.iter().map(|d| format!("(name: \"{d}\", {ROW})")).collect();
        assert!(load(&file(&rows)).is_ok());
        let mut broken = rows.clone();
        broken[2] = broken[2].replace("attack_share: 50", "attack_share: 0");
        let e = load(&file(&broken)).unwrap_err().to_string();
        assert!(e.contains("ai.ron:4") && e.contains("attack_share"), "{e}");
        let e = load(&file(&rows[..3])).unwrap_err().to_string();
        assert!(e.contains("brutal") && e.contains("missing"), "{e}");
        let mut twice = rows.clone();
        twice.push(rows[0].clone());
        assert!(load(&file(&twice)).unwrap_err().to_string().contains("defined twice"));
        let mut slow = rows.clone();
        slow[0] = slow[0].replace("think_every: 1.0", "think_every: -2.0");
        assert!(load(&file(&slow)).unwrap_err().to_string().contains("think_every"));
        let mut greedy = rows.clone();
        greedy[1] = greedy[1].replace("reissue_after: 10.0", "reissue_after: 10.0, gatherers: 0");
        let e = load(&file(&greedy)).unwrap_err().to_string();
        assert!(e.contains("ai.ron:3") && e.contains("gatherers"), "{e}");
        assert!(load("[(name: \"easy\", speed: 2)]").is_err(), "unknown fields are refused");
    }

    #[test]
    fn the_shipped_tuning_is_what_the_ai_was_tuned_with() {
        let src = Source::read(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/ai.ron"))).unwrap();
        let plans = AiPlans::from_source(&src).unwrap();
        let t = &plans.get("hard").unwrap().tuning;
        assert!(plans.0.iter().all(|p| p.tuning == *t), "every plan shares one tuning");
        // Seconds become frames; the rest is taken as written.
        assert_eq!(
            (t.gather_patience, t.advantage_patience, t.tech_after, t.hunt_give_up_frames),
            (900, 5400, 10800, 1800)
        );
        assert_eq!((t.focus_radius, t.reissue_distance, t.top_share, t.hunt_parties), (160, 120, 6, 6));
    }

    #[test]
    fn bad_tuning_is_reported_by_line_and_field() {
        let rows: Vec<String> = DIFFICULTIES.iter().map(|d| format!("(name: \"{d}\", {ROW})")).collect();
        // On a line of its own, a search party count of zero (the AI divides by it) is refused there.
        let text = file(&rows).replace("hunt_parties: 6,", "\nhunt_parties: 0,");
        let e = load(&text).unwrap_err().to_string();
        assert!(e.contains("ai.ron:2") && e.contains("hunt_parties") && e.contains("between 1 and 64"), "{e}");
        let e = load(&file(&rows).replace("tech_after: 360.0", "tech_after: -1.0")).unwrap_err().to_string();
        assert!(e.contains("tech_after") && e.contains("seconds"), "{e}");
        let e = load(&file(&rows).replace("siege: 200, ", "")).unwrap_err().to_string();
        assert!(e.contains("siege"), "a missing value is named: {e}");
        let e = load(&file(&rows).replace("siege: 200", "siege: 200, sieges: 1")).unwrap_err().to_string();
        assert!(e.contains("sieges"), "an unknown one too: {e}");
    }
}
