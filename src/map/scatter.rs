//! Ground scatter (`data/scatter.ron`): the kinds of display-only decoration the renderer
//! strews over the ground — grass tufts, stones, bushes — their shape, size and colour, and how
//! many grow per cell of each terrain class, with the share each graphics quality draws.
//! Loaded beside the terrain classes it names and checked against them, every problem with its
//! file and line.
//!
//! Must not: be read by the simulation or hashed with its data (scatter is display only; it is
//! not among the simulation's data files).

use std::path::Path;

use serde::Deserialize;

use super::classes::{Detail, TerrainClasses};
use crate::defs::{DefsError, DefsErrors, Source};

/// Most kinds a file may define (each is one draw call).
pub const MAX_KINDS: usize = 8;
/// Most items of one kind per cell.
pub const MAX_PER_CELL: f32 = 16.0;

/// The shape a kind is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum ScatterShape {
    /// A clump of thin blades leaning out.
    Tuft,
    /// A flattened, faceted rock half sunk into the ground.
    Stone,
    /// A low mound of leafy lumps.
    Bush,
}

/// One kind of scatter.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScatterKind {
    /// Unique name.
    pub name: String,
    /// How it is drawn.
    pub shape: ScatterShape,
    /// The smallest and largest height (world units).
    pub size: (f32, f32),
    /// Linear RGB, varied a little per item.
    pub color: (f32, f32, f32),
    /// The classes it grows on, each with its items per cell at High quality.
    pub on: Vec<(String, f32)>,
}

/// The share of the full count each graphics quality draws.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScatterShares {
    /// At Low.
    pub low: f32,
    /// At Medium.
    pub medium: f32,
    /// At High.
    pub high: f32,
}

/// The whole file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScatterDefs {
    /// The share drawn at each quality.
    pub quality: ScatterShares,
    /// Every kind, in drawing order.
    pub kinds: Vec<ScatterKind>,
}

impl Default for ScatterDefs {
    /// No scatter at all (a mod or a test without the file).
    fn default() -> ScatterDefs {
        ScatterDefs { quality: ScatterShares { low: 0.0, medium: 0.0, high: 0.0 }, kinds: Vec::new() }
    }
}

impl ScatterDefs {
    /// Reads `path` and checks it against the terrain `classes`.
    pub fn load(path: &Path, classes: &TerrainClasses) -> Result<ScatterDefs, DefsErrors> {
        let src = Source::read(path).map_err(|e| DefsErrors(vec![e]))?;
        ScatterDefs::parse(&src, classes)
    }

    /// Parses and checks `src` against the terrain `classes`: every problem at once.
    pub fn parse(src: &Source, classes: &TerrainClasses) -> Result<ScatterDefs, DefsErrors> {
        let defs: ScatterDefs = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors = Vec::new();
        let q = defs.quality;
        let shares = [q.low, q.medium, q.high];
        if !shares.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)) || q.low > q.medium || q.medium > q.high {
            errors.push(DefsError::Invalid {
                path: src.path.clone(),
                line: src.line_of_key("quality"),
                item: "scatter",
                name: "quality".into(),
                field: "quality",
                message: format!("({}, {}, {}): each from 0 to 1, low ≤ medium ≤ high", q.low, q.medium, q.high),
            });
        }
        if defs.kinds.len() > MAX_KINDS {
            errors.push(src.invalid("scatter", "", "kinds", format!("at most {MAX_KINDS} kinds")));
        }
        for (i, k) in defs.kinds.iter().enumerate() {
            let bad = |field, message: String| src.invalid("scatter kind", &k.name, field, message);
            if defs.kinds[..i].iter().any(|o| o.name == k.name) {
                errors.push(bad("name", "defined twice".into()));
            }
            let (lo, hi) = k.size;
            if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && lo <= hi && hi <= 20.0) {
                errors.push(bad("size", format!("({lo}, {hi}): heights above 0, at most 20, smallest first")));
            }
            let (r, g, b) = k.color;
            if ![r, g, b].iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)) {
                errors.push(bad("color", format!("({r}, {g}, {b}): each channel is a number from 0 to 1")));
            }
            for (j, (class, per_cell)) in k.on.iter().enumerate() {
                if k.on[..j].iter().any(|(c, _)| c == class) {
                    errors.push(bad("on", format!("class \"{class}\" is named twice")));
                }
                if !(per_cell.is_finite() && (0.0..=MAX_PER_CELL).contains(per_cell)) {
                    errors.push(bad("on", format!("\"{class}\": {per_cell} per cell: from 0 to {MAX_PER_CELL}")));
                }
                match classes.index(class).and_then(|c| classes.classes.get(c as usize)) {
                    None => {
                        let names: Vec<&str> = classes.classes.iter().map(|c| c.name.as_str()).collect();
                        let m = format!("no terrain class \"{class}\" in data/terrain.ron ({})", names.join(", "));
                        errors.push(bad("on", m));
                    }
                    Some(c) if !c.passable => {
                        errors.push(bad("on", format!("\"{class}\" is impassable: nothing is scattered on it")));
                    }
                    Some(c) if c.detail == Detail::Paved => {
                        errors.push(bad("on", format!("\"{class}\" is paved: nothing is scattered on it")));
                    }
                    Some(_) => {}
                }
            }
        }
        if errors.is_empty() { Ok(defs) } else { Err(DefsErrors(errors)) }
    }

    /// Items per cell of `kind` on class index `class` at High quality (0 where it does not
    /// grow).
    pub fn per_cell(&self, kind: usize, class: &str) -> f32 {
        self.kinds.get(kind).and_then(|k| k.on.iter().find(|(c, _)| c == class)).map_or(0.0, |(_, n)| *n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes() -> TerrainClasses {
        let src = Source::from_text("data/terrain.ron", include_str!("../../data/terrain.ron"));
        TerrainClasses { classes: src.parse().unwrap() }
    }

    #[test]
    fn the_shipped_file_loads() {
        let defs = ScatterDefs::load(Path::new("data/scatter.ron"), &classes()).unwrap();
        assert!(defs.kinds.iter().any(|k| k.shape == ScatterShape::Tuft));
        assert!(defs.kinds.iter().any(|k| k.shape == ScatterShape::Stone));
        assert!(defs.kinds.iter().any(|k| k.shape == ScatterShape::Bush));
        assert_eq!(defs.quality.low, 0.0, "Low draws no scatter");
    }

    #[test]
    fn bad_entries_are_named_with_file_and_line() {
        let text = "(\n    quality: (low: 0.0, medium: 0.5, high: 1.0),\n    kinds: [\n        (name: \"pebble\", shape: Stone, size: (0.5, 1.0), color: (0.2, 0.2, 0.2),\n            on: [(\"Pavement\", 1.0), (\"Moss\", 1.0)]),\n        (name: \"reed\", shape: Tuft,\n            size: (2.0, 1.0), color: (0.2, 0.3, 0.1), on: [(\"Rubble\", 1.0)]),\n    ],\n)\n";
        let err = ScatterDefs::parse(&Source::from_text("data/scatter.ron", text), &classes()).unwrap_err();
        let lines: Vec<String> = err.0.iter().map(ToString::to_string).collect();
        let has = |needle: &str| lines.iter().any(|l| l.contains(needle));
        assert!(has("data/scatter.ron:5: scatter kind \"pebble\", field `on`: \"Pavement\" is paved"), "{lines:#?}");
        assert!(
            has("data/scatter.ron:5: scatter kind \"pebble\", field `on`: no terrain class \"Moss\""),
            "{lines:#?}"
        );
        assert!(has("data/scatter.ron:7: scatter kind \"reed\", field `size`"), "{lines:#?}");
        assert!(has("data/scatter.ron:7: scatter kind \"reed\", field `on`: \"Rubble\" is impassable"), "{lines:#?}");
        // An unknown field is refused with its line and column by the parser.
        let typo = text.replace("shape: Tuft", "shape: Tuft, sise: 1.0");
        let err = ScatterDefs::parse(&Source::from_text("data/scatter.ron", typo), &classes()).unwrap_err();
        assert!(err.to_string().starts_with("data/scatter.ron:6:"), "{err}");
        // Shares that shrink with quality are refused on the line that sets them.
        let shares = text.replace("medium: 0.5", "medium: 1.5");
        let err = ScatterDefs::parse(&Source::from_text("data/scatter.ron", shares), &classes()).unwrap_err();
        assert!(err.to_string().contains("data/scatter.ron:2: scatter \"quality\""), "{err}");
    }
}
