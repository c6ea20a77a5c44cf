//! Hostile maps closed in issue 58 (round two): a 512 × 512 map with 20,000 long road segments
//! (on flat and on hilly ground), the same through a mod whose road type is as wide as it may
//! be, and a preview of a big map at 16 pixels per cell — each a clear refusal naming the file,
//! the field and the limit, within the bounds (a 3 GB address space and 20 s).

use std::path::{Path, PathBuf};

use ridgeline::map::heightmap::Heightmap;

use crate::common;
use crate::common::procs::run_bounded;

/// A 512 × 512-cell map in a temporary folder with `segments` road segments of `road`, each
/// crossing the map from its west edge to its east edge; on `hilly` ground every cell corner
/// differs from its neighbours, so no stretch of road can be thinned out.
fn big_map(name: &str, segments: usize, road: &str, hilly: bool) -> PathBuf {
    let dir = common::temp_dir(name).join("big");
    std::fs::create_dir_all(&dir).unwrap();
    let side = 512u32;
    let mut hm = Heightmap::flat(side + 1, side + 1, 20_000);
    if hilly {
        for y in 0..=side {
            for x in 0..=side {
                let wave = ((x as f64 * 0.7).sin() + (y as f64 * 0.9).cos()) * 6_000.0;
                hm.samples[(y * (side + 1) + x) as usize] = (30_000.0 + wave) as u16;
            }
        }
    }
    hm.save(&dir.join("heightmap.png")).unwrap();
    image::GrayImage::new(side, side).save(dir.join("terrain.png")).unwrap();
    let mut roads = String::new();
    for i in 0..segments {
        // Every segment its own: no two share an end, so none is dropped as a duplicate.
        let (y0, k) = (i % 512, i / 512);
        let y1 = (y0 + 11 * k + 1) % 512;
        roads.push_str(&format!("        (road: \"{road}\", from: (0.0, {y0}.{k:02}), to: (512.0, {y1}.5)),\n"));
    }
    let map = format!(
        "(\n    name: \"Big\",\n    players: 2,\n    size: ({side}, {side}),\n    max_height: 100.0,\n    \
         cliff_height: 1000.0,\n    start_positions: [(40.0, 40.0), (470.0, 470.0)],\n    roads: [\n{roads}    ],\n)\n"
    );
    std::fs::write(dir.join("map.ron"), map).unwrap();
    dir
}

/// A mod whose asphalt is `width` wide with `share` of its band as surface.
fn wide_road_mod(name: &str, width: f32, share: f32) -> PathBuf {
    let dir = common::temp_dir(name).join("widemod");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("mod.ron"), "(\n    name: \"wide\",\n    version: \"1\",\n)\n").unwrap();
    let roads = common::read(&common::root().join("data/roads.ron")).replace(
        "width: 24.0,\n        width_in_texture: 0.8,",
        &format!("width: {width:?},\n        width_in_texture: {share:?},"),
    );
    std::fs::write(dir.join("data/roads.ron"), roads).unwrap();
    dir
}

/// `ridgeline [--mod <m>] map-check <dir> --json [extra]`, bounded.
fn map_check(dir: &Path, m: Option<&Path>, extra: &[&str]) -> (i32, String) {
    let mut args: Vec<&str> = Vec::new();
    if let Some(m) = m {
        args.extend(["--mod", m.to_str().unwrap()]);
    }
    args.extend(["map-check", dir.to_str().unwrap(), "--json"]);
    args.extend(extra);
    run_bounded(&args)
}

fn short(out: &str) -> String {
    out.chars().take(600).collect()
}

#[test]
fn twenty_thousand_long_segments_are_refused_where_they_pass_the_length_limit() {
    // Once 7 s on flat ground and an abort past 2.9 GB on hilly ground (release build).
    for hilly in [false, true] {
        let dir = big_map(&format!("roadcap-long-{hilly}"), 20_000, "Asphalt", hilly);
        let (code, out) = map_check(&dir, None, &[]);
        assert_eq!(code, 1, "hilly {hilly}: refused within the bounds, not {code}: {}", short(&out));
        assert!(out.contains("big/map.ron: field `roads[19"), "the segment that passes it: {}", short(&out));
        assert!(out.contains("cells long; the limit is 100000 for all together"), "{}", short(&out));
    }
}

#[test]
fn wide_roads_whose_mesh_would_pass_the_vertex_limit_are_refused_before_it_is_made() {
    // 150 crossings of a road 400 units wide: 41 points across, 513 along each, on any ground.
    let m = wide_road_mod("roadcap-wide-mod", 200.0, 0.5);
    for hilly in [false, true] {
        let dir = big_map(&format!("roadcap-wide-{hilly}"), 150, "Asphalt", hilly);
        let (code, out) = map_check(&dir, Some(&m), &[]);
        assert_eq!(code, 1, "hilly {hilly}: refused within the bounds, not {code}: {}", short(&out));
        assert!(
            out.contains("big/map.ron: field `roads`: the roads would make up to 3")
                && out.contains("the limits are 2000000 and 4000000"),
            "{}",
            short(&out)
        );
    }
}

#[test]
fn a_road_type_wider_than_the_mesh_limit_is_refused_in_its_file() {
    let m = wide_road_mod("roadcap-widest-mod", 200.0, 0.1);
    let dir = big_map("roadcap-widest", 10, "Asphalt", false);
    let (code, out) = map_check(&dir, Some(&m), &[]);
    assert_eq!(code, 1, "{}", short(&out));
    assert!(out.contains("roads.ron") && out.contains("the mesh is 2000 wide; the limit is 400"), "{}", short(&out));
}

#[test]
fn a_preview_past_4096_pixels_is_refused_and_one_within_is_drawn() {
    // Once past 20 s at 16 pixels per cell, with 2,000 segments.
    let dir = big_map("roadcap-preview", 150, "Asphalt", true);
    let png = dir.join("p.png");
    let (code, out) = map_check(&dir, None, &["--preview", png.to_str().unwrap(), "--preview-scale", "16"]);
    assert_eq!(code, 1, "{}", short(&out));
    assert!(
        out.contains(
            "--preview-scale 16: a 512×512-cell map would be 8192 pixels across; the limit is 4096 (scale 8 at most"
        ),
        "{}",
        short(&out)
    );
    assert!(!png.exists());
    let (code, out) = map_check(&dir, None, &["--preview", png.to_str().unwrap(), "--preview-scale", "2"]);
    assert_eq!(code, 0, "{}", short(&out));
    assert!(out.contains("\"road_segments\":150"), "{}", short(&out));
    assert_eq!(image::image_dimensions(&png).unwrap(), (1024, 1024));
}
