//! The battle's effect settings (`data/effects.ron`): how many particles each effect makes,
//! how long they live, how big and what colour they are, the wind smoke drifts with, what
//! each graphics quality keeps, and the parts a wreck throws. Read by the client for the
//! battle's picture and by `data-check`; every number is checked against a range, and a bad
//! one is refused naming the file, the line and the field.
//!
//! Must not: reach the simulation or the content digest (effects are display only: players
//! with different effects play together).

use serde::Deserialize;

use crate::content::ContentRoots;
use crate::defs::{DefsError, DefsErrors, Source};

/// Where the game's effect settings are, under a content root.
pub const EFFECTS_FILE: &str = "data/effects.ron";

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// Everything of `data/effects.ron`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectSettings {
    /// The wind smoke and dust drift with (world units a second, east and north).
    pub wind: (f32, f32),
    /// What each graphics quality keeps.
    pub quality: Qualities,
    /// Dark marks left on the ground by explosions and missed shots.
    pub scorch: ScorchSettings,
    /// A gun's muzzle flash.
    pub muzzle: MuzzleSettings,
    /// A shot's tracer: a short bright streak flying from the muzzle to where it lands.
    pub tracer: TracerSettings,
    /// A shot landing.
    pub hit: HitSettings,
    /// An explosion (sizes are shares of the explosion's size).
    pub explosion: ExplosionSettings,
    /// How smoke and dust move.
    pub smoke: SmokeSettings,
    /// Puffs from continuous sources: burning and damaged structures, moving vehicles, wrecks.
    pub sources: SourceSettings,
    /// Shells' smoke trails.
    pub trail: TrailSettings,
    /// The parts of its own model a destroyed vehicle or structure throws, and its sparks.
    pub wreck_parts: WreckPartSettings,
}

/// Each graphics quality's share of the effects.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Qualities {
    /// At Low.
    pub low: QualityEffects,
    /// At Medium.
    pub medium: QualityEffects,
    /// At High.
    pub high: QualityEffects,
}

/// What one graphics quality keeps.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualityEffects {
    /// Percent of new particles kept (1–100), spread evenly over every effect.
    pub percent: u32,
    /// Most particles alive at once (the oldest go first).
    pub most_particles: usize,
    /// Whether explosions light the ground around them and missed shots mark it (the effects
    /// that matter only up close).
    pub close_up: bool,
    /// Most parts a destroyed vehicle or structure throws (0: none).
    pub wreck_parts: u32,
}

/// Scorch marks.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScorchSettings {
    /// Most kept (the oldest go first).
    pub most: usize,
    /// Seconds one stays (fading over its last third).
    pub seconds: f32,
    /// How dark one is at its heart (0–1).
    pub alpha: f32,
}

/// A shot's tracer (guns without a shell in flight).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TracerSettings {
    /// How fast it flies (world units a second).
    pub speed: f32,
    /// Its length (world units).
    pub length: f32,
    /// Its half width (world units).
    pub width: f32,
    /// Its colour.
    pub colour: Rgb,
    /// How bright it glows (1: its colour; more is hotter).
    pub glow: f32,
}

/// A muzzle flash.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MuzzleSettings {
    /// Radius of a small gun's flash and of a big (area) gun's.
    pub size: (f32, f32),
    /// Seconds it lasts.
    pub seconds: f32,
    /// Its colour.
    pub colour: Rgb,
    /// Radius of the smoke puff a big gun leaves.
    pub smoke: f32,
}

/// A shot landing.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitSettings {
    /// Radius of its flash, least and most (a twelfth of the damage in between).
    pub size: (f32, f32),
    /// Seconds its flash lasts.
    pub seconds: f32,
    /// The flash's colour.
    pub colour: Rgb,
    /// Damage from which a hit also explodes.
    pub explodes_from: i32,
}

/// An explosion's parts.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplosionSettings {
    /// Its light on the ground around it.
    pub light: LightSettings,
    /// The white flash at its heart.
    pub flash: FlashSettings,
    /// The shock ring of dust thrown out along the ground.
    pub ring: RingSettings,
    /// The fireball's glowing puffs.
    pub fire: FireSettings,
    /// The smoke it leaves rising.
    pub smoke: ExplosionSmoke,
    /// Dark chips thrown up that fall back.
    pub chips: ChipSettings,
}

/// An explosion's light.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightSettings {
    /// Seconds it lasts.
    pub seconds: f32,
    /// Radius at its start and end (shares of the explosion's size).
    pub size: (f32, f32),
    /// Its colour.
    pub colour: Rgb,
    /// How strongly it adds (0–1).
    pub alpha: f32,
}

/// An explosion's flash.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlashSettings {
    /// Seconds it lasts.
    pub seconds: f32,
    /// Radius (a share of the explosion's size).
    pub size: f32,
    /// Its colour.
    pub colour: Rgb,
}

/// An explosion's shock ring.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RingSettings {
    /// Puffs around the ring.
    pub puffs: u32,
    /// How fast they run out (shares of the explosion's size a second).
    pub speed: f32,
    /// Seconds they last.
    pub seconds: f32,
    /// Radius at their start and end (shares of the explosion's size).
    pub size: (f32, f32),
    /// Their colour.
    pub colour: Rgb,
    /// Their opacity (0–1).
    pub alpha: f32,
    /// The ring of dust it drives along the ground.
    pub wave: WaveSettings,
}

/// An explosion's shock wave: a ring of dust lying on the ground, running out and fading.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaveSettings {
    /// Seconds it runs.
    pub seconds: f32,
    /// Its radius at the end (a share of the explosion's size).
    pub reach: f32,
    /// Its opacity at the start (0–1).
    pub alpha: f32,
    /// How wide its band of dust is, a share of its radius, at the start and at the end: a
    /// thin dense crest that spreads into a broad thin haze as it slows (each 0.05–1).
    pub width: (f32, f32),
    /// How sharply it slows (1: it runs out at an even speed; more: it bursts out fast and
    /// slows, as a blast's wave does; 1–6).
    pub slowing: f32,
}

impl WaveSettings {
    /// Its radius, a share of the way from its first to its last, `k` (0..1) through its
    /// life: fast at first, slowing by [`WaveSettings::slowing`].
    pub fn run(&self, k: f32) -> f32 {
        1.0 - (1.0 - k.clamp(0.0, 1.0)).powf(self.slowing.max(1.0))
    }

    /// Its band's width (a share of its radius) `k` through its life.
    pub fn band(&self, k: f32) -> f32 {
        self.width.0 + (self.width.1 - self.width.0) * k.clamp(0.0, 1.0)
    }
}

/// An explosion's fireball.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireSettings {
    /// Most puffs (3 and a half of the size are made, up to this many; as many smoke puffs).
    pub most: u32,
    /// Seconds a puff lasts, least and most.
    pub seconds: (f32, f32),
    /// The two colours puffs take.
    pub colours: (Rgb, Rgb),
}

/// An explosion's smoke.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplosionSmoke {
    /// Seconds a puff lasts, least and most.
    pub seconds: (f32, f32),
    /// Its grey, darkest and lightest (0–255).
    pub shade: (u8, u8),
    /// Smoke puffs for each of the fireball's.
    pub puffs: f32,
    /// A puff's first radius (a share of the explosion's size; it grows to three times that).
    pub size: f32,
}

/// An explosion's chips.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChipSettings {
    /// Least and most chips (six tenths of the size in between).
    pub count: (u32, u32),
    /// Seconds a chip flies, least and most.
    pub seconds: (f32, f32),
    /// Their colour.
    pub colour: Rgb,
}

/// How smoke and dust move.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmokeSettings {
    /// How fast smoke slows (share of its speed lost a second).
    pub slow: f32,
    /// How fast a shock ring's dust slows.
    pub ring_slow: f32,
    /// Share of the wind a ring's dust drifts with.
    pub ring_drift: f32,
}

/// A kind of smoke puff.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puff {
    /// Radius at its start (it grows to three times that).
    pub size: f32,
    /// Seconds it lasts.
    pub seconds: f32,
    /// Its grey (0–255).
    pub shade: u8,
    /// How fast it rises (world units a second).
    pub rise: f32,
}

/// Puffs from continuous sources.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSettings {
    /// Smoke from a burning structure.
    pub burning: Puff,
    /// Fire licking over a burning structure: radius, seconds, colour.
    pub flames: (f32, f32, Rgb),
    /// A grey smoke column from a structure below half health.
    pub damaged: Puff,
    /// Sparks over a burning structure.
    pub sparks: SparkSource,
    /// Dust behind a moving vehicle.
    pub dust: Puff,
    /// Smoke from a wreck.
    pub wreck: Puff,
}

/// Sparks thrown up from a continuous source.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SparkSource {
    /// Chance of a spark at each of the 20 chances a second (0–1).
    pub chance: f32,
    /// How fast it is thrown up (world units a second).
    pub speed: f32,
    /// Seconds it lasts.
    pub seconds: f32,
    /// Its colour.
    pub colour: Rgb,
}

/// Shells' smoke trails.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrailSettings {
    /// Puffs a second behind each shell.
    pub rate: f32,
    /// Radius at their start and end.
    pub size: (f32, f32),
    /// Seconds they last.
    pub seconds: f32,
    /// Their colour.
    pub colour: Rgb,
    /// Their opacity (0–1).
    pub alpha: f32,
}

/// The parts of its own model a destroyed vehicle or structure throws (display only: they
/// tumble, bounce, settle and sink away), and the sparks.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WreckPartSettings {
    /// How fast they are thrown up (shares of the model's size a second), least and most.
    pub throw: (f32, f32),
    /// How fast they tumble (turns a second), most.
    pub spin: f32,
    /// Share of its speed a part keeps at each bounce.
    pub bounce: f32,
    /// Seconds a part lies still before it sinks, and seconds it takes to sink away.
    pub seconds: (f32, f32),
    /// Sparks thrown from each part.
    pub sparks: u32,
    /// Seconds a spark lasts.
    pub spark_seconds: f32,
    /// A spark's colour.
    pub spark_colour: Rgb,
}

impl EffectSettings {
    /// The settings of the first content root that has `data/effects.ron` (a mod's over the
    /// game's), checked.
    pub fn load(roots: &ContentRoots) -> Result<EffectSettings, DefsErrors> {
        let Some(path) = roots.find(EFFECTS_FILE) else {
            let message = "not found in any content root".to_string();
            let e = crate::content::FileError::Io { path: EFFECTS_FILE.into(), message };
            return Err(DefsErrors(vec![DefsError::File(e)]));
        };
        EffectSettings::parse(&Source::read(&path).map_err(|e| DefsErrors(vec![e]))?)
    }

    /// Parses and checks settings from `src`: every number out of its range is refused,
    /// naming the file, the line and the field.
    pub fn parse(src: &Source) -> Result<EffectSettings, DefsErrors> {
        let s: EffectSettings = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let errors: Vec<DefsError> = s
            .problems()
            .into_iter()
            .map(|(field, message)| DefsError::Invalid {
                path: src.path.clone(),
                line: line_of_path(&src.text, field),
                item: "effects",
                name: "effects".into(),
                field,
                message,
            })
            .collect();
        if errors.is_empty() { Ok(s) } else { Err(DefsErrors(errors)) }
    }

    /// Each field out of its range, by its dotted path, with what it must be.
    fn problems(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let mut within = |field: &'static str, v: f32, lo: f32, hi: f32| {
            if !(lo..=hi).contains(&v) {
                out.push((field, format!("{v} is out of range: between {lo} and {hi}")));
            }
        };
        let (wind, e) = (self.wind.0.hypot(self.wind.1), &self.explosion);
        within("wind", wind, 0.0, 50.0);
        let q = &self.quality;
        for ([percent, most, parts], q) in [
            (["quality.low.percent", "quality.low.most_particles", "quality.low.wreck_parts"], q.low),
            (["quality.medium.percent", "quality.medium.most_particles", "quality.medium.wreck_parts"], q.medium),
            (["quality.high.percent", "quality.high.most_particles", "quality.high.wreck_parts"], q.high),
        ] {
            within(percent, q.percent as f32, 1.0, 100.0);
            within(most, q.most_particles as f32, 1.0, 20_000.0);
            within(parts, q.wreck_parts as f32, 0.0, 12.0);
        }
        within("scorch.most", self.scorch.most as f32, 0.0, 1_000.0);
        for (field, secs) in [
            ("scorch.seconds", self.scorch.seconds),
            ("muzzle.seconds", self.muzzle.seconds),
            ("hit.seconds", self.hit.seconds),
            ("explosion.light.seconds", e.light.seconds),
            ("explosion.flash.seconds", e.flash.seconds),
            ("explosion.ring.seconds", e.ring.seconds),
            ("explosion.ring.wave.seconds", e.ring.wave.seconds),
            ("sources.sparks.seconds", self.sources.sparks.seconds),
            ("explosion.fire.seconds", e.fire.seconds.0),
            ("explosion.fire.seconds", e.fire.seconds.1),
            ("explosion.smoke.seconds", e.smoke.seconds.0),
            ("explosion.smoke.seconds", e.smoke.seconds.1),
            ("explosion.chips.seconds", e.chips.seconds.0),
            ("explosion.chips.seconds", e.chips.seconds.1),
            ("sources.burning.seconds", self.sources.burning.seconds),
            ("sources.flames", self.sources.flames.1),
            ("sources.damaged.seconds", self.sources.damaged.seconds),
            ("sources.dust.seconds", self.sources.dust.seconds),
            ("sources.wreck.seconds", self.sources.wreck.seconds),
            ("trail.seconds", self.trail.seconds),
            ("wreck_parts.seconds", self.wreck_parts.seconds.0),
            ("wreck_parts.seconds", self.wreck_parts.seconds.1),
            ("wreck_parts.spark_seconds", self.wreck_parts.spark_seconds),
        ] {
            within(field, secs, 0.01, 120.0);
        }
        for (field, size) in self.sizes() {
            within(field, size, 0.0, 100.0);
        }
        for (field, share) in [
            ("explosion.light.alpha", e.light.alpha),
            ("explosion.ring.alpha", e.ring.alpha),
            ("explosion.ring.wave.alpha", e.ring.wave.alpha),
            ("scorch.alpha", self.scorch.alpha),
            ("sources.sparks.chance", self.sources.sparks.chance),
            ("trail.alpha", self.trail.alpha),
            ("wreck_parts.bounce", self.wreck_parts.bounce),
        ] {
            within(field, share, 0.0, 1.0);
        }
        within("explosion.ring.puffs", e.ring.puffs as f32, 0.0, 64.0);
        within("explosion.fire.most", e.fire.most as f32, 0.0, 64.0);
        within("explosion.chips.count", e.chips.count.0 as f32, 0.0, e.chips.count.1 as f32);
        within("explosion.chips.count", e.chips.count.1 as f32, 0.0, 64.0);
        within("wreck_parts.sparks", self.wreck_parts.sparks as f32, 0.0, 64.0);
        within("wreck_parts.spin", self.wreck_parts.spin, 0.0, 10.0);
        within("trail.rate", self.trail.rate, 0.0, 200.0);
        within("explosion.smoke.puffs", e.smoke.puffs, 0.0, 8.0);
        within("explosion.smoke.size", e.smoke.size, 0.0, 4.0);
        within("tracer.speed", self.tracer.speed, 1.0, 5_000.0);
        within("smoke.slow", self.smoke.slow, 0.0, 10.0);
        within("smoke.ring_slow", self.smoke.ring_slow, 0.0, 20.0);
        within("smoke.ring_drift", self.smoke.ring_drift, 0.0, 1.0);
        within("explosion.ring.wave.width", e.ring.wave.width.0, 0.05, 1.0);
        within("explosion.ring.wave.width", e.ring.wave.width.1, 0.05, 1.0);
        within("explosion.ring.wave.slowing", e.ring.wave.slowing, 1.0, 6.0);
        within("hit.explodes_from", self.hit.explodes_from as f32, 1.0, 100_000.0);
        out
    }
    /// Each size and speed by its dotted path (each between 0 and 100).
    fn sizes(&self) -> Vec<(&'static str, f32)> {
        let e = &self.explosion;
        vec![
            ("muzzle.size", self.muzzle.size.0),
            ("muzzle.size", self.muzzle.size.1),
            ("muzzle.smoke", self.muzzle.smoke),
            ("hit.size", self.hit.size.0),
            ("hit.size", self.hit.size.1),
            ("explosion.light.size", e.light.size.0),
            ("explosion.light.size", e.light.size.1),
            ("explosion.flash.size", e.flash.size),
            ("explosion.ring.size", e.ring.size.0),
            ("explosion.ring.size", e.ring.size.1),
            ("explosion.ring.speed", e.ring.speed),
            ("explosion.ring.wave.reach", e.ring.wave.reach),
            ("tracer.length", self.tracer.length),
            ("tracer.width", self.tracer.width),
            ("tracer.glow", self.tracer.glow),
            ("sources.sparks.speed", self.sources.sparks.speed),
            ("sources.burning.size", self.sources.burning.size),
            ("sources.flames", self.sources.flames.0),
            ("sources.damaged.size", self.sources.damaged.size),
            ("sources.dust.size", self.sources.dust.size),
            ("sources.wreck.size", self.sources.wreck.size),
            ("trail.size", self.trail.size.0),
            ("trail.size", self.trail.size.1),
            ("wreck_parts.throw", self.wreck_parts.throw.0),
            ("wreck_parts.throw", self.wreck_parts.throw.1),
        ]
    }
}

/// The 1-based line of a dotted field (`explosion.ring.puffs`): each part looked for after the
/// line of the one before (1 when the first part is not written).
fn line_of_path(text: &str, path: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let mut at = 0;
    for part in path.split('.') {
        let key = format!("{part}:");
        let is_key = |l: &&str| {
            let code = l.split("//").next().unwrap_or("");
            code.match_indices(&key)
                .any(|(i, _)| i == 0 || !code[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        };
        match lines.iter().skip(at).position(is_key) {
            Some(i) => at += i,
            None => return at + 1,
        }
    }
    at + 1
}

#[cfg(test)]
pub(crate) fn game_settings() -> EffectSettings {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/effects.ron"));
    let src = Source::read(path).map_err(|e| DefsErrors(vec![e]));
    src.and_then(|s| EffectSettings::parse(&s)).unwrap_or_else(|e| panic!("data/effects.ron: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_settings_load_and_each_quality_keeps_more_than_the_one_below() {
        let s = game_settings();
        let q = s.quality;
        assert!(q.low.percent < q.medium.percent && q.medium.percent <= q.high.percent);
        assert!(q.low.wreck_parts < q.high.wreck_parts);
        assert!(!q.low.close_up && q.high.close_up);
    }

    #[test]
    fn the_shock_ring_bursts_out_and_slows_its_band_spreading() {
        let w = game_settings().explosion.ring.wave;
        assert_eq!((w.run(0.0), w.run(1.0)), (0.0, 1.0));
        // Over half its way in its first quarter, and slower at the end than at the start.
        assert!(w.run(0.25) > 0.45, "{}", w.run(0.25));
        assert!(w.run(1.0) - w.run(0.9) < (w.run(0.1) - w.run(0.0)) / 3.0);
        // A thin crest at first, broad at the end.
        assert!(w.band(0.0) < w.band(0.5) && w.band(0.5) < w.band(1.0));
        let even = WaveSettings { slowing: 1.0, ..w };
        assert!((even.run(0.3) - 0.3).abs() < 1e-6, "1 runs at an even speed");
    }

    #[test]
    fn a_number_out_of_range_is_refused_naming_its_line_and_field() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/effects.ron")).unwrap();
        let ring = text.find("ring:").unwrap();
        let puffs = ring + text[ring..].find("puffs: ").unwrap();
        let end = puffs + text[puffs..].find(',').unwrap();
        let bad = format!("{}puffs: 400{}", &text[..puffs], &text[end..]);
        let line = bad[..puffs].lines().count();
        let e = EffectSettings::parse(&Source::from_text("mods/x/data/effects.ron", &bad)).unwrap_err().to_string();
        let want = format!("mods/x/data/effects.ron:{line}: effects \"effects\", field `explosion.ring.puffs`");
        assert!(e.contains(&want) && e.contains("400 is out of range"), "{e}\nwanted {want}");
        // The shock ring's new numbers are checked the same way.
        for (bad, field, why) in [
            ("width: (0.0, 0.5)", "explosion.ring.wave.width", "0 is out of range"),
            ("slowing: 9.0", "explosion.ring.wave.slowing", "9 is out of range"),
        ] {
            let key = &bad[..bad.find(':').unwrap() + 1];
            let wave = text.find("wave:").unwrap();
            let from = wave + text[wave..].find(key).unwrap();
            let rest = &text[from..];
            let end =
                from + if bad.ends_with(')') { rest.find(')').unwrap() + 1 } else { rest.find([',', ')']).unwrap() };
            let edited = format!("{}{bad}{}", &text[..from], &text[end..]);
            let line = edited[..from].lines().count();
            let e = EffectSettings::parse(&Source::from_text("data/effects.ron", &edited)).unwrap_err().to_string();
            let want = format!("data/effects.ron:{line}: effects \"effects\", field `{field}`");
            assert!(e.contains(&want) && e.contains(why), "{e}\nwanted {want}");
        }
        let unknown = text.replacen("wind:", "gusts: (1.0, 1.0),\n    wind:", 1);
        let e = EffectSettings::parse(&Source::from_text("data/effects.ron", &unknown)).unwrap_err().to_string();
        assert!(e.contains("data/effects.ron:") && e.contains("gusts"), "{e}");
    }
}
