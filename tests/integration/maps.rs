//! Maps: the shipped maps load, pass every check and together exercise every road feature;
//! broken maps are refused with the file and field named; mangled map files never panic.

use crate::common;

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use ridgeline::map::roads::{self, HeightField};
use ridgeline::map::{Map, MapContent, MapError};

fn content() -> MapContent {
    MapContent::load(&common::roots()).expect("map content")
}

fn shipped() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(common::root().join("maps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("map.ron").is_file())
        .collect();
    v.sort();
    v
}

#[test]
fn shipped_maps_are_valid_and_cover_every_road_feature() {
    let (defs, content) = (common::defs(), content());
    let maps = shipped();
    assert!(maps.len() >= 3);
    let mut totals = std::collections::BTreeMap::new();
    let mut four_player = false;
    for dir in &maps {
        let map = Map::load(dir).unwrap();
        let problems = map.check(&content, &defs.rules);
        assert!(problems.is_empty(), "{}: {problems:?}", dir.display());
        four_player |= map.file.players == 4;
        assert!(!map.file.supplies.is_empty(), "{} has no supply sources", dir.display());
        let mesh = roads::build(&map.road_segments(), &content.roads, &HeightField::from_map(&map)).unwrap();
        assert!(mesh.warnings.is_empty(), "{}: {:?}", dir.display(), mesh.warnings);
        for (k, n) in mesh.stats().pieces {
            *totals.entry(k).or_insert(0) += n;
        }
        // Start positions are fair: every start sees the same number of supply sources within
        // 40 cells.
        let near: Vec<usize> = map
            .file
            .start_positions
            .iter()
            .map(|s| {
                map.file
                    .supplies
                    .iter()
                    .filter(|p| ((p.at.0 - s.0).powi(2) + (p.at.1 - s.1).powi(2)).sqrt() < 40.0)
                    .count()
            })
            .collect();
        assert!(near.iter().all(|n| *n == near[0]), "{}: supplies near starts {near:?}", dir.display());
    }
    assert!(four_player, "a 4-player map ships");
    for key in ["straight", "curve", "tee", "y", "h", "four_way", "alpha_join", "cap"] {
        assert!(totals[key] > 0, "no {key} pieces in any shipped map: {totals:?}");
    }
}

#[test]
fn map_objects_become_neutral_blocking_objects_in_the_world() {
    let (world, _) = common::opening_game("idle,idle", 1);
    let neutral: Vec<_> = world.objects().filter(|o| o.owner == ridgeline::sim::PlayerId::NEUTRAL).collect();
    assert!(neutral.len() >= 30, "{} neutral objects", neutral.len());
    for o in &neutral {
        assert!(!world.terrain().passable(world.terrain().cell_of(o.pos)), "a placed object blocks its cell");
    }
    // Neutral objects do not keep a finished game from ending, nor count as a player's.
    assert!(world.players().iter().all(|p| !p.defeated));
}

/// A writable copy of proving_grounds with `edit` applied to its map.ron.
fn broken(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = common::temp_dir(&format!("map-{name}"));
    let src = common::root().join("maps/proving_grounds");
    for f in ["map.ron", "heightmap.png", "terrain.png"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let text = std::fs::read_to_string(dir.join("map.ron")).unwrap();
    std::fs::write(dir.join("map.ron"), edit(text)).unwrap();
    dir
}

fn problems(dir: &Path) -> Vec<String> {
    match Map::load(dir) {
        Err(e) => vec![e.to_string()],
        Ok(map) => map.check(&content(), &common::defs().rules).iter().map(MapError::to_string).collect(),
    }
}

#[test]
fn a_terrain_image_that_is_not_8_bit_grayscale_is_refused_by_its_kind() {
    for (name, picture, kind) in [
        ("terrain16", image::DynamicImage::ImageLuma16(image::ImageBuffer::new(128, 128)), "16-bit grayscale"),
        ("terrain-rgb", image::DynamicImage::ImageRgb8(image::ImageBuffer::new(128, 128)), "8-bit colour"),
    ] {
        let dir = broken(name, |t| t);
        picture.save(dir.join("terrain.png")).unwrap();
        let p = problems(&dir);
        assert!(
            p.iter().any(|m| m.contains("terrain.png is ") && m.contains(kind) && m.contains("8-bit grayscale")),
            "{name}: {p:?}"
        );
    }
}

#[test]
fn broken_maps_name_the_file_and_field() {
    let p = problems(&broken("water-start", |t| {
        t.replace("start_positions: [(20.0, 108.0)", "start_positions: [(40.0, 92.0)")
    }));
    assert!(
        p.iter().any(|m| m.contains("map.ron: field `start_positions[0]`: (40, 92) is on impassable ground")),
        "{p:?}"
    );

    let p = problems(&broken("road-type", |t| t.replacen("road: \"DirtTrack\"", "road: \"Cobbles\"", 1)));
    assert!(p.iter().any(|m| m.contains("field `roads[6].road`: unknown road type \"Cobbles\"")), "{p:?}");

    let p = problems(&broken("template", |t| t.replacen("template: \"Tree\"", "template: \"Palm\"", 1)));
    assert!(p.iter().any(|m| m.contains("field `objects[0].template`: unknown object \"Palm\"")), "{p:?}");

    let p = problems(&broken("size", |t| t.replace("size: (128, 128)", "size: (120, 128)")));
    assert!(p[0].contains("heightmap") && p[0].contains("129×129") && p[0].contains("121×129"), "{p:?}");

    let p = problems(&broken("syntax", |t| t.replacen("players: 2,", "players: 2,\n    weather: Rain,", 1)));
    assert!(p[0].contains("map.ron:") && p[0].contains("weather"), "{p:?}");

    let p = problems(&broken("supply", |t| t.replacen("(at: (32.0, 116.0)", "(at: (300.0, 116.0)", 1)));
    assert!(p.iter().any(|m| m.contains("field `supplies[0]`") && m.contains("outside the map")), "{p:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn mangled_map_files_never_panic(cut in 0usize..4000, len in 0usize..30, junk in "[ -~]{0,10}") {
        let dir = broken("fuzz", |t| {
            let a = cut.min(t.len());
            let b = (a + len).min(t.len());
            if t.is_char_boundary(a) && t.is_char_boundary(b) { format!("{}{}{}", &t[..a], junk, &t[b..]) } else { t }
        });
        let _ = problems(&dir);
    }
}

/// Where `symmetry` puts the point `(x, y)` on a square `w` × `h` (its other images).
fn symmetric_images<T: Copy + std::ops::Sub<Output = T>>(
    symmetry: ridgeline::map::generate::Symmetry,
    (x, y): (T, T),
    (w, h): (T, T),
) -> Vec<(T, T)> {
    use ridgeline::map::generate::Symmetry;
    match symmetry {
        Symmetry::None => vec![],
        Symmetry::Rotate2 => vec![(w - x, h - y)],
        Symmetry::Rotate4 => vec![(w - y, x), (w - x, h - y), (y, h - x)],
        Symmetry::Mirror8 => {
            vec![(w - y, x), (w - x, h - y), (y, h - x), (y, x), (w - x, y), (h - y, w - x), (x, h - y)]
        }
    }
}

#[test]
fn maps_generated_with_a_symmetry_give_every_start_the_same_ground() {
    use ridgeline::map::generate::{Symmetry, TerrainSpec};
    use ridgeline::map::heightmap::Heightmap;
    let mut checked = 0;
    for dir in shipped() {
        let Ok(text) = std::fs::read_to_string(dir.join("terrain.ron")) else { continue };
        let spec: TerrainSpec = ron::from_str(&text).expect("terrain.ron parses");
        let hm = Heightmap::load(&dir.join("heightmap.png")).expect("heightmap loads");
        let (w, h) = (hm.width - 1, hm.height - 1); // corners run 0..=size
        let turn = |x: u32, y: u32| symmetric_images(spec.symmetry, (x, y), (w, h));
        let mut worst = 0i32;
        for y in 0..=h {
            for x in 0..=w {
                for (tx, ty) in turn(x, y) {
                    worst = worst.max((hm.at(x, y) as i32 - hm.at(tx, ty) as i32).abs());
                }
            }
        }
        // Equal up to the rounding of the 16-bit samples.
        assert!(worst <= 1, "{}: heights differ by {worst} between turned corners", dir.display());
        checked += (spec.symmetry != Symmetry::None) as usize;
        // What stands on the ground follows the same symmetry: every supply source and every
        // placed object has its images (the same amount, the same kind) where the symmetry
        // puts them, so no start has a pile, a tree or a rock the others lack.
        let map = Map::load(&dir).unwrap();
        let (sw, sh) = (map.file.size.0 as f64, map.file.size.1 as f64);
        let images = |p: (f64, f64)| symmetric_images(spec.symmetry, p, (sw, sh));
        let near = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 0.02 && (a.1 - b.1).abs() < 0.02;
        for s in &map.file.supplies {
            for p in images(s.at) {
                assert!(
                    map.file.supplies.iter().any(|t| near(t.at, p) && t.amount == s.amount),
                    "{}: the supply at {:?} has no image at {p:?}",
                    dir.display(),
                    s.at
                );
            }
        }
        for o in &map.file.objects {
            for p in images(o.at) {
                assert!(
                    map.file.objects.iter().any(|t| near(t.at, p) && t.template == o.template),
                    "{}: the {} at {:?} has no image at {p:?}",
                    dir.display(),
                    o.template,
                    o.at
                );
            }
        }
    }
    assert!(checked >= 4, "every shipped map is symmetric ({checked})");
}
