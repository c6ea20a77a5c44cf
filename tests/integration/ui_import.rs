//! `ridgeline ui-import` reads a TGA texture per its header — rows from the bottom or the top,
//! run-length encoded or not, 24 or 32 bits — to the same pixels as the same picture saved as
//! PNG (each TGA written here byte by byte per the Truevision TGA specification), says how it
//! read each file, and draws what it imported with `--preview`.

use crate::common;

/// A 7×5 picture no flip or mirror leaves unchanged: every pixel differs, except one row of a
/// single colour (so the run-length writer makes run packets as well as raw ones).
fn picture(opaque: bool) -> image::RgbaImage {
    image::RgbaImage::from_fn(7, 5, |x, y| {
        let alpha = if opaque { 255 } else { (40 + 30 * x + 7 * y) as u8 };
        if y == 2 {
            image::Rgba([200, 100, 50, alpha.max(1)])
        } else {
            image::Rgba([(x * 36) as u8, (y * 60) as u8, (x * y * 9 + 3) as u8, alpha])
        }
    })
}

/// The TGA file of `pic`: true colour (type 2, or 10 run-length encoded), `bits` 24 or 32,
/// rows stored from the top (descriptor bit 5) or from the bottom, pixels as B, G, R(, A).
fn tga(pic: &image::RgbaImage, bits: u8, rle: bool, top_first: bool) -> Vec<u8> {
    let (w, h) = (pic.width() as u16, pic.height() as u16);
    let alpha_bits = if bits == 32 { 8 } else { 0 };
    let mut out = vec![0, 0, if rle { 10 } else { 2 }, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    out.extend_from_slice(&w.to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.push(bits);
    out.push(alpha_bits | if top_first { 0x20 } else { 0 });
    let pixel = |x: u32, y: u32| {
        let p = pic.get_pixel(x, y).0;
        let mut v = vec![p[2], p[1], p[0]];
        if bits == 32 {
            v.push(p[3]);
        }
        v
    };
    let rows: Vec<u32> = if top_first { (0..pic.height()).collect() } else { (0..pic.height()).rev().collect() };
    for y in rows {
        let row: Vec<Vec<u8>> = (0..pic.width()).map(|x| pixel(x, y)).collect();
        if !rle {
            out.extend(row.iter().flatten());
            continue;
        }
        // Packets within the row: a run of equal pixels as a run packet, the rest raw.
        let mut i = 0;
        while i < row.len() {
            let run = row[i..].iter().take_while(|p| **p == row[i]).count();
            if run > 1 {
                out.push(0x80 | (run as u8 - 1));
                out.extend(&row[i]);
                i += run;
            } else {
                let raw = (i..row.len()).take_while(|&j| j + 1 == row.len() || row[j + 1] != row[j]).count().max(1);
                out.push(raw as u8 - 1);
                out.extend(row[i..i + raw].iter().flatten());
                i += raw;
            }
        }
    }
    out
}

fn run(args: &[&str]) -> (bool, String) {
    let o = common::ridgeline().args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr))
}

/// Imports `texture` (bytes, saved as `file`) through an INI mapping the whole picture and one
/// corner of it; the atlas written and what `ui-import` said.
fn import(name: &str, file: &str, texture: &[u8]) -> (image::RgbaImage, String, String) {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(dir.join("art")).unwrap();
    std::fs::write(dir.join("art").join(file), texture).unwrap();
    let block = |image: &str, r: u32, b: u32| {
        format!(
            "MappedImage {image}\n  Texture = {file}\n  TextureWidth = 7\n  TextureHeight = 5\n  Coords = Left:0 Top:0 Right:{r} Bottom:{b}\nEnd\n"
        )
    };
    std::fs::write(dir.join("art/Shell.ini"), block("Whole", 7, 5) + &block("TopLeft", 3, 2)).unwrap();
    let ini = dir.join("art/Shell.ini");
    let (ok, out) = run(&["ui-import", ini.to_str().unwrap(), "--into", dir.to_str().unwrap(), "--set", "t"]);
    assert!(ok, "{out}");
    let atlas = image::open(dir.join("ui/images-t.png")).unwrap().into_rgba8();
    (atlas, common::read(&dir.join("ui/images-t.ron")), out)
}

fn png(pic: &image::RgbaImage) -> Vec<u8> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    pic.write_to(&mut bytes, image::ImageFormat::Png).unwrap();
    bytes.into_inner()
}

#[test]
fn bottom_left_and_top_left_origin_tgas_import_to_the_same_pixels_as_their_png_twin() {
    let pic = picture(false);
    let (twin, twin_table, _) = import("tga-twin-png", "Shell.png", &png(&pic));
    assert_eq!(twin, pic, "the PNG twin imports unchanged");
    for (top_first, rle) in [(false, false), (true, false), (false, true), (true, true)] {
        let name = format!("tga-32-{top_first}-{rle}");
        let (atlas, table, out) = import(&name, "Shell.tga", &tga(&pic, 32, rle, top_first));
        assert_eq!(atlas, twin, "32-bit, rows from the top: {top_first}, RLE: {rle}");
        assert_eq!(table.replace("Shell.tga", "Shell.png"), twin_table);
        let origin = if top_first { "origin top-left" } else { "origin bottom-left" };
        assert!(out.contains(origin) && out.contains("32-bit with 8 alpha bits"), "{out}");
        assert_eq!(out.contains("run-length encoded"), rle, "{out}");
    }
    // 24 bits: no alpha, so the twin is opaque.
    let opaque = picture(true);
    let (twin, _, _) = import("tga-twin-png-24", "Shell.png", &png(&opaque));
    for top_first in [false, true] {
        let (atlas, _, out) = import(&format!("tga-24-{top_first}"), "Shell.tga", &tga(&opaque, 24, true, top_first));
        assert_eq!(atlas, twin, "24-bit RLE, rows from the top: {top_first}");
        assert!(out.contains("TGA 7×5, 24-bit"), "{out}");
    }
}

#[test]
fn a_texture_with_no_visible_pixel_is_said_to_be_transparent() {
    let clear = image::RgbaImage::from_pixel(7, 5, image::Rgba([255, 255, 255, 0]));
    let (_, _, out) = import("tga-clear", "Shell.tga", &tga(&clear, 32, false, false));
    assert!(out.contains("every pixel is fully transparent"), "{out}");
}

#[test]
fn the_preview_shows_each_imported_image_cut_out_and_labelled() {
    let dir = common::temp_dir("ui-import-preview");
    std::fs::create_dir_all(dir.join("art")).unwrap();
    // Two images cut from a texture red above, blue below.
    let texture = image::RgbaImage::from_fn(64, 64, |_, y| {
        image::Rgba(if y < 32 { [220, 30, 30, 255] } else { [30, 30, 220, 255] })
    });
    std::fs::write(dir.join("art/Shell.tga"), tga(&texture, 32, true, false)).unwrap();
    let ini = "MappedImage ARed\n  Texture = Shell.tga\n  TextureWidth = 64\n  TextureHeight = 64\n  Coords = Left:0 Top:0 Right:64 Bottom:32\nEnd\nMappedImage BBlue\n  Texture = Shell.tga\n  TextureWidth = 64\n  TextureHeight = 64\n  Coords = Left:0 Top:32 Right:64 Bottom:64\nEnd\n";
    std::fs::write(dir.join("art/Shell.ini"), ini).unwrap();
    let preview = dir.join("preview.png");
    let ini_path = dir.join("art/Shell.ini");
    let (ok, out) = run(&[
        "ui-import",
        ini_path.to_str().unwrap(),
        "--into",
        dir.to_str().unwrap(),
        "--preview",
        preview.to_str().unwrap(),
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("preview.png"), "{out}");
    let sheet = image::open(&preview).unwrap().into_rgba8();
    // Name order: ARed in the first cell, BBlue in the second; each centred in its cell.
    let near = |p: &image::Rgba<u8>, c: [u8; 3]| (0..3).all(|i| p.0[i].abs_diff(c[i]) <= 8);
    let cell_centre = |col: u32| sheet.get_pixel(col * 176 + 88, 30 + 4 + 60);
    assert!(near(cell_centre(0), [220, 30, 30]), "{:?}", cell_centre(0));
    assert!(near(cell_centre(1), [30, 30, 220]), "{:?}", cell_centre(1));
}

/// A Generals string table (`.csf`), written per the format: the header ` FSC`, version 3,
/// counts, language; per label ` LBL`, one string, its name; per string ` RTS`, its UTF-16
/// length and units with every byte inverted.
fn csf(language: u32, entries: &[(&str, &str)]) -> Vec<u8> {
    let mut out = b" FSC".to_vec();
    for w in [3, entries.len() as u32, entries.len() as u32, 0, language] {
        out.extend(w.to_le_bytes());
    }
    for (label, text) in entries {
        out.extend(b" LBL");
        out.extend(1u32.to_le_bytes());
        out.extend((label.len() as u32).to_le_bytes());
        out.extend(label.as_bytes());
        out.extend(b" RTS");
        let units: Vec<u16> = text.encode_utf16().collect();
        out.extend((units.len() as u32).to_le_bytes());
        out.extend(units.iter().flat_map(|u| u.to_le_bytes()).map(|b| !b));
    }
    out
}

#[test]
fn a_generals_string_table_imports_into_the_mods_translation_beside_its_entries() {
    let dir = common::temp_dir("ui-import-csf");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::write(
        dir.join("ui/strings.es.ron"),
        "{\n    \"Language:Name\": \"Español\",\n    \"GUI:Options\": \"old\",\n}\n",
    )
    .unwrap();
    let table = [
        ("GUI:Options", "Opciones"),
        ("OBJECT:Ranger", "Guardabosques \"élite\"\nsegunda línea"),
        ("Object:Dozer", "Excavadora"),
    ];
    std::fs::write(dir.join("generals.csf"), csf(4, &table)).unwrap();
    let csf_path = dir.join("generals.csf");
    let (ok, out) =
        run(&["ui-import", "--csf", csf_path.to_str().unwrap(), "--into", dir.to_str().unwrap(), "--language", "es"]);
    assert!(ok, "{out}");
    assert!(out.contains("3 labels") && out.contains("1 replaced"), "{out}");
    let roots = common::roots().with_mod(dir.clone());
    let labels = ridgeline::ui::labels::Labels::load_language(&roots, "es").unwrap();
    assert_eq!(labels.0["GUI:Options"], "Opciones");
    assert_eq!(labels.0["OBJECT:Ranger"], "Guardabosques \"élite\"\nsegunda línea");
    assert_eq!(labels.0["Object:Dozer"], "Excavadora");
    assert_eq!(labels.0["Language:Name"], "Español", "what was there stays");
    // Without --language the texts become the mod's own (ui/strings.ron), and a table that says
    // it is not English is pointed out.
    let (ok, out) = run(&["ui-import", "--csf", csf_path.to_str().unwrap(), "--into", dir.to_str().unwrap()]);
    assert!(ok && out.contains("--language CODE"), "{out}");
    assert!(common::read(&dir.join("ui/strings.ron")).contains("Opciones"));
}

#[test]
fn a_broken_string_table_is_refused_with_its_offset_and_writes_nothing() {
    let dir = common::temp_dir("ui-import-csf-bad");
    let mut bytes = csf(0, &[("GUI:A", "one"), ("GUI:B", "two")]);
    // The second label's tag: header 24 bytes, the first label 4+4+4+5, its string 4+4+6.
    let second = 24 + 17 + 14;
    assert_eq!(&bytes[second..second + 4], b" LBL");
    bytes[second + 1] = b'X';
    std::fs::write(dir.join("bad.csf"), &bytes).unwrap();
    let bad = dir.join("bad.csf");
    let (ok, out) = run(&["ui-import", "--csf", bad.to_str().unwrap(), "--into", dir.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains(&format!("bad.csf: at byte {second}: each label starts with ' LBL'")), "{out}");
    assert!(!dir.join("ui/strings.ron").exists());
    std::fs::write(dir.join("bad.csf"), &bytes[..50]).unwrap();
    let (ok, out) = run(&["ui-import", "--csf", bad.to_str().unwrap(), "--into", dir.to_str().unwrap()]);
    assert!(!ok && out.contains("the file ends"), "{out}");
}
