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
