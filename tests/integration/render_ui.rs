//! The UI pass offscreen (software adapters are fine): the main menu renders through the same
//! pass the window uses, and the picture shows what the layout says, within tolerances.

use crate::common;

use ridgeline::game::screenshot;

fn px(img: &image::RgbaImage, x: u32, y: u32) -> [u8; 4] {
    img.get_pixel(x, y).0
}

#[test]
fn the_main_menu_renders_offscreen_as_laid_out() {
    let layout = common::root().join("ui/MainMenu.wnd");
    let img = screenshot::ui(&common::roots(), &layout, (800, 600), (None, None)).expect("offscreen render");
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
    let hovered =
        screenshot::ui(&common::roots(), &layout, (800, 600), (Some("MainMenu.wnd:ButtonSkirmish"), None)).unwrap();
    let h = px(&hovered, 130, 265);
    assert!(
        h.iter().take(3).map(|c| *c as u32).sum::<u32>() > button.iter().take(3).map(|c| *c as u32).sum::<u32>() + 20,
        "{h:?} vs {button:?}"
    );
}

#[test]
fn megabytes_of_text_make_only_the_vertices_that_can_show() {
    use ridgeline::ui::draw::DrawCmd;
    let shell = ridgeline::game::shell::Shell::new(
        &common::roots(),
        (800.0, 600.0),
        common::temp_dir("render-huge-text").join("settings.ron"),
    )
    .unwrap();
    let gpu = ridgeline::render::gpu::Gpu::headless().expect("a software adapter");
    let atlas = screenshot::load_atlas(&shell).unwrap();
    let mut pass = ridgeline::render::ui_pass::UiPass::new(
        &gpu.device,
        &gpu.queue,
        ridgeline::render::offscreen::FORMAT,
        &atlas,
        shell.content.images.clone(),
        shell.content.fonts.clone(),
    );
    let text = |y: f32, px: f32| DrawCmd::Text {
        x: 10.0,
        y,
        text: "W".repeat(4 << 20),
        px,
        bold: false,
        color: [255; 4],
        shadow: Some([0, 0, 0, 255]),
    };
    // One line on screen, one far below it, one at an absurd size, and fills off screen.
    let cmds = vec![
        text(100.0, 14.0),
        text(1.0e7, 14.0),
        text(200.0, 1.0e9),
        DrawCmd::Fill { rect: ridgeline::ui::Rect::new(-1.0e9, 0.0, 10.0, 10.0), color: [255; 4] },
    ];
    let (verts, _) = pass.build(&cmds, (800, 600));
    // A 14 px W is about 13 px wide: some 60 fit across 800 px, twice (shadow), six vertices
    // each; the giant line is drawn at most at 256 px: a handful of letters.
    assert!(verts.len() < 2 * 6 * 100, "{} vertices", verts.len());
    assert!(verts.len() >= 2 * 6 * 50, "the visible line is drawn ({} vertices)", verts.len());
}

/// A mod folder (a test's own) with an atlas of its own: `ui/<file>.png`, 64×32 of one colour,
/// and `ui/images-<file>.ron` naming all of it `image`.
fn mod_with_atlas(test: &str, file: &str, image: &str, colour: [u8; 4]) -> std::path::PathBuf {
    let dir = common::temp_dir(test);
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    image::RgbaImage::from_pixel(64, 32, image::Rgba(colour)).save(dir.join(format!("ui/{file}.png"))).unwrap();
    let set = format!("(atlas: \"{file}.png\", size: (64, 32), images: {{ \"{image}\": (rect: (0, 0, 64, 32)) }})");
    std::fs::write(dir.join(format!("ui/images-{file}.ron")), set).unwrap();
    dir
}

#[test]
fn a_mod_adds_its_own_atlas_beside_the_games_and_a_layout_draws_from_it() {
    // A 64×32 picture: pure magenta, which the game's art never uses.
    let dir = mod_with_atlas("mod-own-atlas", "flag", "ModFlag", [255, 0, 255, 255]);
    // The main menu's Skirmish button wears it.
    let menu = common::read(&common::root().join("ui/MainMenu.wnd"));
    let at = menu.find("\"MainMenu.wnd:ButtonSkirmish\"").unwrap();
    let draw = at + menu[at..].find("ENABLEDDRAWDATA = IMAGE: ").unwrap() + "ENABLEDDRAWDATA = IMAGE: ".len();
    let end = draw + menu[draw..].find(',').unwrap();
    let modded = format!("{}ModFlag{}", &menu[..draw], &menu[end..]);
    std::fs::write(dir.join("ui/MainMenu.wnd"), modded).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let settings = dir.join("settings.ron");
    let shell =
        ridgeline::game::shell::Shell::new(&roots, (800.0, 600.0), settings).expect("the mod's images are known");
    let region = shell.content.images.images["ModFlag"];
    assert_eq!(region.rect, (0, 1024, 64, 32), "stacked under the game's 1024² atlas");
    let atlas = screenshot::load_atlas(&shell).unwrap();
    assert_eq!(atlas.dimensions(), (1024, 1056));
    assert_eq!(px(&atlas, 10, 1030), [255, 0, 255, 255]);
    assert_ne!(px(&atlas, 10, 10), [255, 0, 255, 255], "the game's art stays where it was");
    let img = screenshot::ui(&roots, std::path::Path::new("MainMenu.wnd"), (800, 600), (None, None)).unwrap();
    let p = px(&img, 130, 265);
    assert!(p[0] > 200 && p[1] < 60 && p[2] > 200, "the button shows the mod's picture: {p:?}");
}

#[test]
fn enabling_a_mod_with_its_own_atlas_brings_its_images_in_without_a_restart() {
    let dir = mod_with_atlas("mod-atlas-live", "badge", "ModBadge", [0, 255, 255, 255]);
    let settings = dir.join("settings.ron");
    let mut shell = ridgeline::game::shell::Shell::new(&common::roots(), (800.0, 600.0), settings).unwrap();
    assert!(!shell.content.images.images.contains_key("ModBadge"));
    assert_eq!(shell.reload_images(&common::roots()), Ok(false), "nothing changed");
    // The Mods screen's choice applied: the roots now hold the mod.
    let with_mod = common::roots().with_mod(dir.clone());
    assert_eq!(shell.reload_images(&with_mod), Ok(true));
    assert_eq!(shell.content.images.images["ModBadge"].rect, (0, 1024, 64, 32));
    let atlas = screenshot::load_atlas(&shell).unwrap();
    assert_eq!(px(&atlas, 10, 1030), [0, 255, 255, 255], "the atlas the client rebuilds from holds it");
    // And it goes again when the mod is turned off.
    assert_eq!(shell.reload_images(&common::roots()), Ok(true));
    assert!(!shell.content.images.images.contains_key("ModBadge"));
    assert_eq!(screenshot::load_atlas(&shell).unwrap().dimensions(), (1024, 1024));
}
