//! `ridgeline bench roads`: road mesh build time for each shipped map and for a generated map
//! of 1,000 segments (a grid of streets with bends, junctions and joins over rolling hills).

use std::time::Instant;

use glam::Vec2;
use serde_json::{Value, json};

use crate::content::ContentRoots;
use crate::map::roads::{self, HeightField, RoadSegment, SegmentFlags};
use crate::map::{Map, MapContent, MapError};

/// Builds per measurement (the median is reported).
const RUNS: usize = 9;

/// A generated network of about `n` segments on a 512×512-cell map.
pub fn generated_network(n: usize) -> (Vec<RoadSegment>, HeightField) {
    let ground = HeightField::from_fn((512, 512), 10.0, |x, y| 20.0 + 12.0 * ((x / 300.0).sin() + (y / 410.0).cos()));
    let names = ["Asphalt", "DirtTrack", "DamagedRoad"];
    let mut segs = Vec::with_capacity(n);
    let step = 200.0;
    let mut k = 0usize;
    'grid: for row in 0..25 {
        for col in 0..25 {
            let p = Vec2::new(100.0 + col as f32 * step, 100.0 + row as f32 * step);
            // A jog in some streets makes bends; every street links right and up.
            let bend = if (row + col) % 3 == 0 { Vec2::new(0.0, 40.0) } else { Vec2::ZERO };
            let road = names[(row / 8) % 3].to_string();
            let flags = SegmentFlags { angled: (row + col) % 7 == 0, tight: (row * col) % 5 == 0, join: col == 24 };
            if col < 24 {
                segs.push(RoadSegment {
                    road: road.clone(),
                    from: p,
                    to: p + Vec2::new(step * 0.5, 0.0) + bend,
                    flags,
                });
                segs.push(RoadSegment {
                    road: road.clone(),
                    from: p + Vec2::new(step * 0.5, 0.0) + bend,
                    to: p + Vec2::new(step, 0.0),
                    flags,
                });
            }
            if row < 24 {
                segs.push(RoadSegment { road, from: p, to: p + Vec2::new(0.0, step), flags });
            }
            k += 1;
            if segs.len() >= n || k > 10_000 {
                break 'grid;
            }
        }
    }
    segs.truncate(n);
    (segs, ground)
}

fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..RUNS)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// Runs the benchmark.
pub fn run(roots: &ContentRoots) -> Result<Value, MapError> {
    let content = MapContent::load(roots)?;
    let mut rows = Vec::new();
    for dir in roots.map_dirs() {
        let map = Map::load(&dir)?;
        let ground = HeightField::from_map(&map);
        let segs = map.road_segments();
        let mesh = map.road_mesh(&content.roads)?;
        let ms = median_ms(|| {
            let _ = std::hint::black_box(roads::build(&segs, &content.roads, &ground));
        });
        rows.push(json!({
            "map": map.file.name,
            "segments": segs.len(),
            "vertices": mesh.vertices.len(),
            "triangles": mesh.indices.len() / 3,
            "build_ms": (ms * 100.0).round() / 100.0,
        }));
    }
    let (segs, ground) = generated_network(1000);
    let mesh = roads::build(&segs, &content.roads, &ground)
        .map_err(|source| MapError::Roads { path: "generated".into(), source })?;
    let ms = median_ms(|| {
        let _ = std::hint::black_box(roads::build(&segs, &content.roads, &ground));
    });
    rows.push(json!({
        "map": "generated",
        "segments": segs.len(),
        "vertices": mesh.vertices.len(),
        "triangles": mesh.indices.len() / 3,
        "pieces": mesh.stats().pieces,
        "build_ms": (ms * 100.0).round() / 100.0,
    }));
    Ok(json!({ "bench": "roads", "runs": RUNS, "results": rows }))
}
