//! Generated art is committed up to date: regenerating it gives the very pixels in data/.

mod common;

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
