//! Generated art is committed up to date: regenerating it gives the very pixels in data/.

use crate::common;

use ridgeline::map::MapContent;

#[test]
fn the_committed_road_atlas_matches_its_generator() {
    let content = MapContent::load(&common::roots()).unwrap();
    let fresh = ridgeline::art::road_atlas::render(&content.roads);
    let committed = image::open(common::root().join("data/roads.png")).unwrap().into_rgba8();
    assert_eq!(fresh.dimensions(), committed.dimensions());
    assert!(fresh.as_raw() == committed.as_raw(), "data/roads.png is stale: run `ridgeline gen-art`");
    // Shoulders fade to transparent; the surface is opaque.
    let px = |x: u32, y: u32| committed.get_pixel(x, y).0[3];
    assert_eq!(px(100, 32), 255);
    assert!(px(100, 0) < 40);
}

#[test]
fn the_committed_ui_atlas_and_image_list_match_their_generator() {
    let (fresh, images) = ridgeline::art::ui_atlas::render();
    let committed = image::open(common::root().join("ui/ui.png")).unwrap().into_rgba8();
    assert!(fresh.as_raw() == committed.as_raw(), "ui/ui.png is stale: run `ridgeline gen-art`");
    let listed = ridgeline::ui::images::ImageSet::load(&common::root().join("ui/images.ron")).unwrap();
    assert_eq!(listed, images, "ui/images.ron is stale: run `ridgeline gen-art`");
    for (name, r) in &images.images {
        assert!(
            r.rect.0 + r.rect.2 <= images.size.0 && r.rect.1 + r.rect.3 <= images.size.1,
            "{name} lies outside the atlas"
        );
    }
}

#[test]
fn committed_map_images_match_their_generator_input() {
    use ridgeline::map::generate::{TerrainSpec, classes, heightmap};
    use ridgeline::map::{Heightmap, MapFile};
    let content = MapContent::load(&common::roots()).unwrap();
    let mut checked = 0;
    for dir in common::roots().map_dirs() {
        let spec_path = dir.join("terrain.ron");
        if !spec_path.exists() {
            continue;
        }
        let spec: TerrainSpec = ridgeline::content::read_ron(&spec_path).unwrap();
        let file: MapFile = ridgeline::content::read_ron(&dir.join("map.ron")).unwrap();
        let fresh = heightmap(&spec);
        assert!(
            fresh == Heightmap::load(&dir.join("heightmap.png")).unwrap(),
            "{}: heightmap.png is stale: run map-gen",
            dir.display()
        );
        let fresh_classes = classes(&spec, &fresh, file.water_level, &content.classes).unwrap();
        let committed = image::open(dir.join("terrain.png")).unwrap().into_luma8();
        let (w, h) = committed.dimensions();
        let committed: Vec<u8> = (0..h)
            .rev()
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| committed.get_pixel(x, y).0[0])
            .collect();
        assert!(fresh_classes == committed, "{}: terrain.png is stale: run map-gen", dir.display());
        checked += 1;
    }
    assert!(checked >= 3);
}
