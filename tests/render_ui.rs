//! The UI pass offscreen (software adapters are fine): the main menu renders through the same
//! pass the window uses, and the picture shows what the layout says, within tolerances.

mod common;

use ridgeline::game::screenshot;

fn px(img: &image::RgbaImage, x: u32, y: u32) -> [u8; 4] {
    img.get_pixel(x, y).0
}

#[test]
fn the_main_menu_renders_offscreen_as_laid_out() {
    let layout = common::root().join("ui/MainMenu.wnd");
    let img = screenshot::ui(&common::roots(), &layout, (800, 600), None).expect("offscreen render");
    assert_eq!(img.dimensions(), (800, 600));
    // At 800×600 the layout maps one to one. The Skirmish button (110–330, 260–300) is the
    // green-grey plate with light text in its middle; the panel around it is darker.
    let button = px(&img, 130, 265);
    assert!(button[1] > button[2] && button[1] > 40, "button plate {button:?}");
    let label: u32 = (200..260).map(|x| px(&img, x, 280).iter().take(3).map(|c| *c as u32).sum::<u32>()).max().unwrap();
    assert!(label > 500, "the button's text is drawn (brightest {label})");
    // The title's large bold letters are bright cream on the dusk sky.
    let title = (60..400).map(|x| px(&img, x, 100)).filter(|p| p[0] > 200 && p[1] > 180).count();
    assert!(title > 20, "{title} title pixels");
    // Everything is opaque (the backdrop fills the screen).
    assert!(img.pixels().all(|p| p.0[3] == 255));
    // Hovering a button lights it up.
    let hovered = screenshot::ui(&common::roots(), &layout, (800, 600), Some("MainMenu.wnd:ButtonSkirmish")).unwrap();
    let h = px(&hovered, 130, 265);
    assert!(
        h.iter().take(3).map(|c| *c as u32).sum::<u32>() > button.iter().take(3).map(|c| *c as u32).sum::<u32>() + 20,
        "{h:?} vs {button:?}"
    );
}
