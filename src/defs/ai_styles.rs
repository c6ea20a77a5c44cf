//! `data/ai_styles.ron`: the leanings a skirmish AI draws one of per game (see
//! [`AiStyle`]), checked and converted.
//!
//! Must not: accept a style named twice or a weight the AI cannot use; every problem is
//! reported with file, line and field. A missing file is no error: the AI then plays the
//! counters straight.

use serde::Deserialize;

use super::ai_style::AiStyle;
use super::source::Source;
use super::{DefsError, DefsErrors};
use crate::content::ContentRoots;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AiStyleDef {
    name: String,
    #[serde(default = "hundred")]
    infantry: u32,
    #[serde(default = "hundred")]
    vehicles: u32,
    #[serde(default = "hundred")]
    aircraft: u32,
    #[serde(default = "hundred")]
    wave: u32,
}

fn hundred() -> u32 {
    100
}

/// Loads `data/ai_styles.ron` through the content roots; no styles when no root has one.
pub fn load(roots: &ContentRoots) -> Result<Vec<AiStyle>, DefsErrors> {
    let Some(path) = roots.find("data/ai_styles.ron") else { return Ok(Vec::new()) };
    let src = Source::read(&path).map_err(|e| DefsErrors(vec![e]))?;
    from_source(&src)
}

/// Parses and checks a style file.
pub fn from_source(src: &Source) -> Result<Vec<AiStyle>, DefsErrors> {
    let defs: Vec<AiStyleDef> = src.parse().map_err(|e| DefsErrors(vec![e]))?;
    let mut errors: Vec<DefsError> = Vec::new();
    for d in &defs {
        let mut bad = |field: &'static str, m: String| errors.push(src.invalid("AI style", &d.name, field, m));
        if defs.iter().filter(|o| o.name == d.name).count() > 1 {
            bad("name", "defined twice".into());
        }
        for (field, value, range) in [
            ("infantry", d.infantry, 0..=1000),
            ("vehicles", d.vehicles, 0..=1000),
            ("aircraft", d.aircraft, 0..=1000),
            ("wave", d.wave, 10..=1000),
        ] {
            if !range.contains(&value) {
                bad(field, format!("{value}% must be between {} and {}", range.start(), range.end()));
            }
        }
        if d.infantry == 0 && d.vehicles == 0 && d.aircraft == 0 {
            bad("infantry", "a style must want some kind of unit".into());
        }
    }
    if !errors.is_empty() {
        return Err(DefsErrors(errors));
    }
    Ok(defs
        .into_iter()
        .map(|d| AiStyle {
            name: d.name,
            infantry: d.infantry,
            vehicles: d.vehicles,
            aircraft: d.aircraft,
            wave: d.wave,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Vec<AiStyle>, DefsErrors> {
        from_source(&Source::from_text("ai_styles.ron", text))
    }

    #[test]
    fn the_shipped_styles_load_and_differ() {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/ai_styles.ron"));
        let styles = from_source(&Source::read(path).unwrap()).unwrap();
        assert!(styles.len() >= 3, "{styles:?}");
        assert!(styles.iter().any(|s| s.infantry > s.vehicles) && styles.iter().any(|s| s.vehicles > s.infantry));
    }

    #[test]
    fn bad_styles_are_reported_by_line_and_field() {
        let ok = load("[\n(name: \"a\", infantry: 150),\n(name: \"b\", wave: 80),\n]").unwrap();
        assert_eq!((ok[0].infantry, ok[0].vehicles, ok[1].wave), (150, 100, 80));
        let e = load("[\n(name: \"a\"),\n(name: \"b\", wave: 5),\n]").unwrap_err().to_string();
        assert!(e.contains("ai_styles.ron:3") && e.contains("wave"), "{e}");
        let e = load("[(name: \"a\"), (name: \"a\")]").unwrap_err().to_string();
        assert!(e.contains("defined twice"), "{e}");
        let e = load("[(name: \"none\", infantry: 0, vehicles: 0, aircraft: 0)]").unwrap_err().to_string();
        assert!(e.contains("some kind of unit"), "{e}");
        assert!(load("[(name: \"a\", tanks: 2)]").is_err(), "unknown fields are refused");
    }
}
