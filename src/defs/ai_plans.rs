//! `data/ai.ron`: the skirmish AI's plans, one per difficulty, checked and converted to frames
//! and fixed-point for [`AiPlan`].
//!
//! Must not: accept a file that lacks a difficulty, names one twice, or holds a value the AI
//! cannot use; every problem is reported with file, line and field.

use serde::Deserialize;

use super::ai_plan::AiPlan;
use super::source::Source;
use super::{DefsError, DefsErrors, decimal};
use crate::content::ContentRoots;
use crate::sim::ids::FRAMES_PER_SECOND;

/// The difficulties a plan file must define, weakest first.
pub const DIFFICULTIES: [&str; 4] = ["easy", "normal", "hard", "brutal"];
/// Plans a file may define beside the difficulties: the `learner`, a scripted new player that
/// measures whether Easy is beatable.
pub const YARDSTICKS: [&str; 1] = ["learner"];

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

    /// Parses and checks a plan file (its plans have no styles).
    pub fn from_source(src: &Source) -> Result<AiPlans, DefsErrors> {
        let defs: Vec<AiPlanDef> = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors: Vec<DefsError> = Vec::new();
        let mut plans = Vec::new();
        let seconds = |v: f64, max: f64| -> Result<u32, String> {
            if v.is_finite() && (0.0..=max).contains(&v) {
                Ok((v * FRAMES_PER_SECOND as f64).round() as u32)
            } else {
                Err(format!("{v} must be between 0 and {max} seconds"))
            }
        };
        for d in &defs {
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
            ] {
                if !range.contains(&value) {
                    bad(field, format!("{value} must be between {} and {}", range.start(), range.end()));
                }
            }
            if let (
                Some(think_frames),
                Some(first_attack_frame),
                Some(first_attack_spread),
                Some(reissue_frames),
                Some(defend_radius),
            ) = (think, first, spread, reissue, radius)
            {
                plans.push(AiPlan {
                    name: d.name.clone(),
                    think_frames,
                    first_attack_frame,
                    first_attack_spread,
                    attack_share_percent: d.attack_share,
                    wave_size: d.wave_size,
                    army_cap: i64::from(d.army_cap),
                    army_cap_per_minute: i64::from(d.army_cap_per_minute),
                    army_cap_unit: i64::from(d.army_cap_unit),
                    spare_workers: d.spare_workers,
                    march_together: d.march_together,
                    siege: d.siege,
                    attack_advantage_percent: d.attack_advantage,
                    defend_radius,
                    focus_fire: d.focus_fire,
                    reissue_frames,
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
                });
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<AiPlans, DefsErrors> {
        AiPlans::from_source(&Source::from_text("ai.ron", text))
    }

    const ROW: &str = "think_every: 1.0, first_attack_after: 60.0, attack_share: 50, defend_radius: 300.0, focus_fire: false, reissue_after: 10.0";

    fn file(rows: &[String]) -> String {
        format!("[\n{}\n]", rows.join(",\n"))
    }

    #[test]
    fn the_shipped_plans_load_and_grow_stronger() {
        let src = Source::read(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/ai.ron"))).unwrap();
        let plans = AiPlans::from_source(&src).unwrap();
        let p: Vec<&AiPlan> = DIFFICULTIES.iter().map(|d| plans.get(d).unwrap()).collect();
        // Each harder plan thinks no slower and keeps no fewer gatherers. When it first sets out
        // is not ordered: hard and brutal wait longer than normal, to break normal's first wave
        // at home before they march (`data/ai.ron` says why; `tournament` measures the ladder).
        for w in p.windows(2) {
            assert!(w[1].think_frames <= w[0].think_frames, "{} thinks slower than {}", w[1].name, w[0].name);
            assert!(w[1].gatherers >= w[0].gatherers, "{} keeps fewer gatherers than {}", w[1].name, w[0].name);
        }
        assert!(p[2].first_attack_frame > p[1].first_attack_frame, "hard waits longer than normal");
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
}
