//! A layout written for Command & Conquer: Generals (a hand-written one in its style, in
//! `tests/data/wnd`; never the game's own files) brought into a mod as a modder would: it loads
//! with notes, not errors (its callbacks, fonts, unnamed windows and composite-gadget keys), its
//! mapped images come over with `ridgeline ui-import`, and it draws them.

use crate::common;

/// The test layout copied into a fresh mod folder's `ui/`, with its Generals-style mapped
/// images (an INI and a texture whose every pixel is `colour`) beside it in `art/`.
fn generals_mod(name: &str, colour: [u8; 4]) -> std::path::PathBuf {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::create_dir_all(dir.join("art")).unwrap();
    let layout = common::read(&common::root().join("tests/data/wnd/GeneralsStyle.wnd"));
    std::fs::write(dir.join("ui/GeneralsMenu.wnd"), layout).unwrap();
    // The INI declares a 128×64 texture; the file is 64×32 (a converted, halved copy): the
    // importer scales the coordinates.
    let mut ini = String::from("; mapped images in the original game's style\n");
    for (image, (l, t, r, b)) in [
        ("Buttons-Left", (0, 0, 20, 40)),
        ("Buttons-Middle", (20, 0, 100, 40)),
        ("Buttons-Right", (100, 0, 120, 40)),
        ("MainMenuBackdrop", (0, 40, 128, 64)),
    ] {
        ini.push_str(&format!(
            "MappedImage {image}\n  Texture = SCShell.tga\n  TextureWidth = 128\n  TextureHeight = 64\n  Coords = Left:{l} Top:{t} Right:{r} Bottom:{b}\n  Status = NONE\nEnd\n\n"
        ));
    }
    std::fs::write(dir.join("art/Shell.ini"), ini).unwrap();
    image::RgbaImage::from_pixel(64, 32, image::Rgba(colour)).save(dir.join("art/SCShell.png")).unwrap();
    dir
}

fn run(args: &[&str]) -> (bool, String) {
    let o = common::ridgeline().args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr))
}

/// Pixels of a PNG within 12 of `colour` on every channel.
fn pixels_like(path: &std::path::Path, colour: [u8; 4]) -> usize {
    let img = image::open(path).unwrap().into_rgba8();
    img.pixels().filter(|p| (0..3).all(|c| p.0[c].abs_diff(colour[c]) <= 12)).count()
}

#[test]
fn a_generals_layout_in_a_mod_loads_with_notes_and_draws_its_imported_images() {
    let colour = [20, 210, 90, 255];
    let dir = generals_mod("generals-mod", colour);
    let m = dir.to_str().unwrap();
    // Loaded as it is: notes only, one per kind (callbacks, the images it brings).
    let (ok, out) = run(&["ui-check", "--mod", m]);
    assert!(ok, "{out}");
    // The original's screen callbacks come over through ui/generals-names.ron: no note for them.
    assert!(!out.contains("MainMenuInput") && !out.contains("MainMenuUpdate"), "{out}");
    // At the first of them, each with its own place (not 1:1).
    assert!(
        out.contains("GeneralsMenu.wnd:25:3: 4 image(s) not in the game (MainMenuBackdrop at 25:3, Buttons-Left at 58:5, Buttons-Right at 58:5, Buttons-Middle at 58:5)"),
        "{out}"
    );
    assert_eq!(out.matches("not in the game").count(), 1, "one note for all the images: {out}");
    // Drawn before the import: placeholders, none of the texture's colour.
    let before = dir.join("before.png");
    let (ok, out) = run(&["screenshot", "--mod", m, "--ui", "GeneralsMenu.wnd", "--out", before.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert_eq!(pixels_like(&before, colour), 0);
    // The import writes the mod's atlas and table.
    let (ok, out) = run(&[
        "ui-import",
        dir.join("art/Shell.ini").to_str().unwrap(),
        "--textures",
        dir.join("art").to_str().unwrap(),
        "--into",
        m,
        "--set",
        "generals",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("4 images from 1 texture(s)"), "{out}");
    let table = common::read(&dir.join("ui/images-generals.ron"));
    // Coordinates halved with the texture: Buttons-Middle was 20..100 × 0..40 of 128×64.
    assert!(table.contains("\"Buttons-Middle\": (rect: (10, 0, 40, 20), border: 0)"), "{table}");
    let (ok, out) = run(&["ui-check", "--mod", m]);
    assert!(ok && !out.contains("not in the game"), "the images are known now: {out}");
    // And the button draws them.
    let after = dir.join("after.png");
    let (ok, out) = run(&["screenshot", "--mod", m, "--ui", "GeneralsMenu.wnd", "--out", after.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(pixels_like(&after, colour) > 500, "the button shows the imported texture");
}

#[test]
fn ui_import_refuses_a_broken_block_with_its_line_and_writes_nothing() {
    let dir = generals_mod("generals-bad-ini", [0, 0, 0, 255]);
    let ini = dir.join("art/Shell.ini");
    let text = common::read(&ini).replacen("Right:20", "Right:900", 1);
    std::fs::write(&ini, text).unwrap();
    let (ok, out) = run(&["ui-import", ini.to_str().unwrap(), "--into", dir.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("Shell.ini:6:") && out.contains("outside the 128×64 texture"), "{out}");
    assert!(!dir.join("ui/images-imported.ron").exists());
}

#[test]
fn labelled_texts_come_from_the_string_table_and_a_missing_one_shows_its_label_with_a_note() {
    let dir = generals_mod("generals-labels", [0, 0, 0, 255]);
    let m = dir.to_str().unwrap();
    let (ok, out) = run(&["ui-check", "--mod", m]);
    assert!(ok, "{out}");
    assert!(
        out.contains("GeneralsMenu.wnd:53:5: 2 label(s) with no text in ui/strings.ron (GUI:SinglePlayer at 53:5, GUI:ToolTipSinglePlayer at 54:5)"),
        "{out}"
    );
    // The mod words one of them.
    std::fs::write(dir.join("ui/strings.ron"), "{\n    \"GUI:SinglePlayer\": \"Single Player\",\n}\n").unwrap();
    let (ok, out) = run(&["ui-check", "--mod", m]);
    assert!(ok, "{out}");
    assert!(out.contains("1 label(s) with no text in ui/strings.ron (GUI:ToolTipSinglePlayer at 54:5)"), "{out}");
    // The window shows the text; the one without an entry shows its label.
    let roots = common::roots().with_mod(dir.clone());
    let mut s = ridgeline::game::shell::Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap();
    let file = ridgeline::ui::wnd::parse("GeneralsMenu.wnd", &common::read(&dir.join("ui/GeneralsMenu.wnd"))).unwrap();
    s.ui.create_layout("GeneralsMenu.wnd", &file);
    let w = s.ui.window(s.find("MainMenu.wnd:ButtonSinglePlayer").unwrap()).unwrap();
    assert_eq!(w.text, "Single Player");
    assert_eq!(w.tooltip, "GUI:ToolTipSinglePlayer");
}
