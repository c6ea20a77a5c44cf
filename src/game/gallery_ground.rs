//! The gallery's ground set: close-ups of the battlefield's own ground at the gallery's
//! quality — grass with its scatter, a cliff and the rocky slope below it, a road junction and
//! a lake's shore — so the ground is reviewed beside the units. Each place is found on the
//! map's height field (the steepest face, the shore nearest the middle), so the set follows
//! the gallery's map.
//!
//! Must not: run a game or change what a battle draws (the stages are only camera placings,
//! with a unit or two for scale).

use glam::Vec2;

use crate::sim::PlayerId;
use crate::sim::ids::TemplateId;
use crate::sim::rules::{ObjectKind, Rules};

use super::gallery_stage::{Piece, Stage};

/// What the ground set needs to know of the map: its heights and size, and its water.
pub struct Ground<'a> {
    /// The ground's height at a point (world units).
    pub height: &'a dyn Fn(Vec2) -> f32,
    /// The map's size (world units).
    pub size: Vec2,
    /// The water's level (world units; 0 or below: no water).
    pub water: f32,
    /// The map's roads, as segments (world units): grass is looked for away from them.
    pub roads: Vec<(Vec2, Vec2)>,
    /// Where two roads meet (world units), if the map has such a place.
    pub junction: Option<Vec2>,
}

/// How far from any road the grass close-up looks (world units).
const OFF_ROAD: f32 = 45.0;

/// The spacing of the search for places (world units).
const STEP: f32 = 5.0;

/// The ground set's stages: `ground-grass`, `ground-cliff`, `ground-road` (with a junction)
/// and `ground-shore` (with water), each relative to the map's centre as gallery stages are.
pub fn stages(rules: &Rules, ground: &Ground) -> Vec<Stage> {
    let centre = ground.size / 2.0;
    let slope = |p: Vec2| {
        let h = ground.height;
        Vec2::new(h(p + Vec2::X * STEP) - h(p - Vec2::X * STEP), h(p + Vec2::Y * STEP) - h(p - Vec2::Y * STEP)).length()
            / (2.0 * STEP)
    };
    let places = grid(ground.size);
    let mut out = Vec::new();
    // Grass: the flattest dry ground near the middle, a vehicle and a soldier on it for scale.
    let road_gap = |p: Vec2| ground.roads.iter().map(|&(a, b)| gap(p, a, b)).fold(f32::MAX, f32::min);
    let dry = |p: Vec2| (ground.height)(p) > ground.water + 4.0 && road_gap(p) > OFF_ROAD;
    let grass = pick(&places, |p| dry(p).then(|| slope(p) * 400.0 + (p - centre).length() * 0.1));
    if let Some(at) = grass {
        out.push(stage("ground-grass", centre, at, 70.0, scale_pieces(rules)));
    }
    // A cliff: the steepest face, seen from its foot's side (the camera looks from the south).
    if let Some(at) = pick(&places, |p| Some(-slope(p))) {
        out.push(stage("ground-cliff", centre, at, 90.0, Vec::new()));
    }
    if let Some(at) = ground.junction {
        out.push(stage("ground-road", centre, at, 80.0, Vec::new()));
    }
    // The shore: ground at the water's level nearest the middle, where it slopes gently in.
    if ground.water > 0.0 {
        let shore = pick(&places, |p| {
            (((ground.height)(p) - ground.water).abs() < 0.6).then(|| (p - centre).length() + slope(p) * 200.0)
        });
        if let Some(at) = shore {
            out.push(stage("ground-shore", centre, at, 80.0, Vec::new()));
        }
    }
    out
}

/// How far `p` is from the segment `a`–`b`.
fn gap(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    (a + ab * t - p).length()
}

/// The map's roads as segments in world units.
pub fn roads(map: &crate::map::Map) -> Vec<(Vec2, Vec2)> {
    let cell = map.file.cell_size as f32;
    let at = |(x, y): (f64, f64)| Vec2::new(x as f32, y as f32) * cell;
    map.file.roads.iter().map(|r| (at(r.from), at(r.to))).collect()
}

/// The search's points: every `STEP` over the map, a tenth of it kept clear at each edge.
fn grid(size: Vec2) -> Vec<Vec2> {
    let (lo, hi) = (size * 0.1, size * 0.9);
    let (nx, ny) = (((hi.x - lo.x) / STEP) as usize, ((hi.y - lo.y) / STEP) as usize);
    (0..=ny).flat_map(|y| (0..=nx).map(move |x| lo + Vec2::new(x as f32, y as f32) * STEP)).collect()
}

/// The point of `places` with the least score (`None`: not a candidate); the first on ties.
fn pick(places: &[Vec2], score: impl Fn(Vec2) -> Option<f32>) -> Option<Vec2> {
    places
        .iter()
        .filter_map(|&p| score(p).map(|s| (p, s)))
        .fold(None, |best: Option<(Vec2, f32)>, (p, s)| match best {
            Some((_, b)) if b <= s => best,
            _ => Some((p, s)),
        })
        .map(|(p, _)| p)
}

fn stage(name: &str, centre: Vec2, at: Vec2, distance: f32, pieces: Vec<Piece>) -> Stage {
    let offset = at - centre;
    let pieces = pieces.into_iter().map(|p| Piece { at: p.at + offset, ..p }).collect();
    Stage { name: name.into(), pieces, blasts: Vec::new(), distance, look: offset.extend(0.0) }
}

/// A vehicle and a soldier of the first playable faction (for the ground's scale).
fn scale_pieces(rules: &Rules) -> Vec<Piece> {
    let first = |kind: ObjectKind| {
        (0..rules.templates.len()).map(|i| TemplateId(i as u16)).find(|&t| {
            let tt = rules.template(t);
            tt.kind == kind && rules.factions.get(tt.faction as usize).is_some_and(|f| f.playable)
        })
    };
    let mut out = Vec::new();
    if let Some(t) = first(ObjectKind::Vehicle) {
        out.push(Piece::new(t, Vec2::new(-12.0, 6.0), PlayerId(0)));
    }
    if let Some(t) = first(ObjectKind::Infantry) {
        out.push(Piece::new(t, Vec2::new(10.0, -4.0), PlayerId(0)));
    }
    out
}

/// Where a road joins another nearest the middle of `map` (world units): the joining end of
/// a road marked `Join`.
pub fn junction(map: &crate::map::Map) -> Option<Vec2> {
    let cell = map.file.cell_size as f32;
    let centre = Vec2::new(map.file.size.0 as f32, map.file.size.1 as f32) * cell / 2.0;
    let ends = map
        .file
        .roads
        .iter()
        .filter(|r| r.flags.contains(&crate::map::format::RoadFlag::Join))
        .flat_map(|r| [r.from, r.to]);
    let points: Vec<Vec2> = ends.map(|(x, y)| Vec2::new(x as f32, y as f32) * cell).collect();
    pick(&points, |p| Some((p - centre).length()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up field 400 units square: flat at 20, a cliff rising 12 along x = 300, and a
    /// lake (ground falling below the water at 10) in the south-west corner.
    fn field(p: Vec2) -> f32 {
        let cliff = 12.0 * ((p.x - 300.0) / 4.0).clamp(0.0, 1.0);
        let lake = ((150.0 - p.length()) * 0.2).max(0.0);
        20.0 + cliff - lake
    }

    #[test]
    fn the_ground_set_finds_grass_a_cliff_a_road_and_a_shore() {
        let defs = crate::defs::test_support::shipped();
        let ground = Ground {
            height: &field,
            size: Vec2::splat(400.0),
            water: 10.0,
            roads: vec![(Vec2::new(0.0, 200.0), Vec2::new(400.0, 200.0))],
            junction: Some(Vec2::new(120.0, 260.0)),
        };
        let all = stages(&defs.rules, &ground);
        let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ground-grass", "ground-cliff", "ground-road", "ground-shore"]);
        let at = |name: &str| {
            let s = all.iter().find(|s| s.name == name).unwrap();
            Vec2::splat(200.0) + s.look.truncate()
        };
        // The cliff's face, the junction given, and a point at the water's level.
        assert!((at("ground-cliff").x - 302.0).abs() <= 5.0, "{}", at("ground-cliff"));
        assert_eq!(at("ground-road"), Vec2::new(120.0, 260.0));
        assert!((field(at("ground-shore")) - 10.0).abs() < 0.6);
        // The grass is flat dry ground, with a vehicle and a soldier on it near the camera's point.
        let grass = all.iter().find(|s| s.name == "ground-grass").unwrap();
        // (off the road that runs through the middle).
        assert!(field(at("ground-grass")) > 14.0 && (field(at("ground-grass")) - 20.0).abs() < 0.01);
        assert!((at("ground-grass").y - 200.0).abs() > OFF_ROAD, "{}", at("ground-grass"));
        let kinds: Vec<ObjectKind> = grass.pieces.iter().map(|p| defs.rules.template(p.template).kind).collect();
        assert_eq!(kinds, [ObjectKind::Vehicle, ObjectKind::Infantry]);
        assert!(grass.pieces.iter().all(|p| (Vec2::splat(200.0) + p.at - at("ground-grass")).length() < 20.0));
    }

    #[test]
    fn no_water_and_no_junction_leave_out_the_shore_and_the_road() {
        let defs = crate::defs::test_support::shipped();
        let ground = Ground { height: &field, size: Vec2::splat(400.0), water: 0.0, roads: Vec::new(), junction: None };
        let names: Vec<String> = stages(&defs.rules, &ground).into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["ground-grass", "ground-cliff"]);
    }
}
