//! Importing another game's mapped images: INI files in the style of Command & Conquer:
//! Generals (`MappedImage Name` … `Texture = file.tga`, `TextureWidth`, `TextureHeight`,
//! `Coords = Left:x Top:y Right:x Bottom:y` … `End`) and their textures become a mod's own
//! atlas (`ui/images-<set>.png`) and image table (`ui/images-<set>.ron`), which the game reads
//! beside its own, so a layout brought over from that game draws its pictures.
//!
//! Must not: write anywhere but the folder it is given, or read a texture past the image
//! limits (`limits.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::FileError;
use super::limits::{MAX_DEFINITIONS, MAX_IMAGE_SIDE};

/// One mapped image as its INI block gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MappedImage {
    /// Its name, as layouts give it (`IMAGE: Buttons-Left`).
    pub name: String,
    /// The texture file it is cut from.
    pub texture: String,
    /// The texture's size the coordinates refer to.
    pub texture_size: (u32, u32),
    /// Left, top, right and bottom, in those coordinates.
    pub coords: (u32, u32, u32, u32),
    /// The line its block starts on.
    pub line: usize,
}

/// Reads the mapped-image blocks of an INI text; `path` names it in errors. Other blocks are
/// passed over; a block without a texture or coordinates, or with coordinates outside its
/// texture, is refused with its line.
pub fn parse(path: &Path, text: &str) -> Result<Vec<MappedImage>, FileError> {
    let err = |line: usize, message: String| FileError::Syntax { path: path.to_path_buf(), line, col: 1, message };
    let mut out = Vec::new();
    let mut current: Option<(String, usize, Keys)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        // Comments start with ; or //.
        let content = raw.split(';').next().unwrap_or("").split("//").next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut words = content.split_whitespace();
        let first = words.next().unwrap_or("");
        match &mut current {
            None if first.eq_ignore_ascii_case("MappedImage") => {
                let name = words.next().ok_or_else(|| err(line, "MappedImage needs a name".into()))?;
                current = Some((name.to_string(), line, BTreeMap::new()));
            }
            None => {}
            Some(_) if first.eq_ignore_ascii_case("End") => {
                if let Some((name, start, keys)) = current.take() {
                    out.push(block(path, name, start, &keys)?);
                    if out.len() > MAX_DEFINITIONS {
                        return Err(err(line, format!("more than {MAX_DEFINITIONS} mapped images")));
                    }
                }
            }
            Some((_, _, keys)) => {
                let Some((key, value)) = content.split_once('=') else {
                    return Err(err(line, format!("expected `Key = value`, found `{content}`")));
                };
                keys.insert(key.trim().to_ascii_lowercase(), (line, value.trim().to_string()));
            }
        }
    }
    if let Some((name, start, _)) = current {
        return Err(err(start, format!("MappedImage {name} has no End")));
    }
    Ok(out)
}

/// A block's keys (lower case), each with its line and value.
type Keys = BTreeMap<String, (usize, String)>;

/// One block's keys made into a mapped image.
fn block(path: &Path, name: String, start: usize, keys: &Keys) -> Result<MappedImage, FileError> {
    let err = |line: usize, message: String| FileError::Syntax { path: path.to_path_buf(), line, col: 1, message };
    let get = |key: &str| keys.get(key).ok_or_else(|| err(start, format!("MappedImage {name} has no {key}")));
    let number = |key: &str| -> Result<u32, FileError> {
        let (line, v) = get(key)?;
        v.parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_IMAGE_SIDE).contains(n))
            .ok_or_else(|| err(*line, format!("{key} = {v}: a size from 1 to {MAX_IMAGE_SIDE}")))
    };
    let (_, texture) = get("texture")?;
    let size = (number("texturewidth")?, number("textureheight")?);
    let (coords_line, coords) = get("coords")?;
    let mut c = BTreeMap::new();
    for part in coords.split_whitespace() {
        let (k, v) = part.split_once(':').ok_or_else(|| {
            err(*coords_line, format!("Coords part `{part}`: expected Left:, Top:, Right: or Bottom:"))
        })?;
        let v = v.parse::<u32>().map_err(|_| err(*coords_line, format!("Coords {k}: `{v}` is not a whole number")))?;
        c.insert(k.to_ascii_lowercase(), v);
    }
    let side = |k: &str| c.get(k).copied().ok_or_else(|| err(*coords_line, format!("Coords needs {k}")));
    let (l, t, r, b) = (side("left")?, side("top")?, side("right")?, side("bottom")?);
    if l >= r || t >= b || r > size.0 || b > size.1 {
        return Err(err(
            *coords_line,
            format!("Coords {l},{t}–{r},{b} are empty or outside the {}×{} texture", size.0, size.1),
        ));
    }
    if texture.contains("..") || Path::new(texture).is_absolute() {
        return Err(err(start, format!("Texture {texture}: give a file name beside the INI, not a path")));
    }
    Ok(MappedImage { name, texture: texture.clone(), texture_size: size, coords: (l, t, r, b), line: start })
}

/// What an import wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The atlas picture.
    pub atlas: PathBuf,
    /// The image table.
    pub table: PathBuf,
    /// Images written.
    pub images: usize,
    /// Textures put into the atlas.
    pub textures: usize,
    /// How each texture was read, one line each (`art/Shell.tga: TGA 512×256, 32-bit …`), so a
    /// flipped or transparent file can be told from the importer's doing.
    pub read: Vec<String>,
}

/// Builds the atlas and image table `ui/images-<set>.png` / `.ron` in `mod_dir` from mapped
/// images whose textures lie in `textures` (each texture once, stacked; coordinates scaled when
/// the file's size differs from the size the INI declares).
pub fn import(images: &[MappedImage], textures: &Path, mod_dir: &Path, set: &str) -> Result<Imported, FileError> {
    let io = |path: &Path, message: String| FileError::Io { path: path.to_path_buf(), message };
    if set.is_empty() || !set.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(io(mod_dir, format!("set name `{set}`: letters, digits, - and _ only")));
    }
    let mut names: Vec<&str> = images.iter().map(|m| m.texture.as_str()).collect();
    names.sort_by_key(|n| n.to_ascii_lowercase());
    names.dedup_by_key(|n| n.to_ascii_lowercase());
    // Each texture once, one under the other.
    let mut placed: BTreeMap<String, (u32, image::RgbaImage)> = BTreeMap::new();
    let (mut width, mut height) = (1u32, 0u32);
    let mut read = Vec::new();
    for name in names {
        let path = find_texture(textures, name).ok_or_else(|| io(&textures.join(name), "texture not found".into()))?;
        let picture = super::image_file::open_image(&path)?.into_rgba8();
        read.push(describe(&path, &picture));
        if height.saturating_add(picture.height()) > MAX_IMAGE_SIDE {
            return Err(io(&path, format!("the atlas would pass {} pixels", MAX_IMAGE_SIDE)));
        }
        width = width.max(picture.width());
        let below = height + picture.height();
        placed.insert(name.to_ascii_lowercase(), (height, picture));
        height = below;
    }
    let mut atlas = image::RgbaImage::new(width, height.max(1));
    for (y, picture) in placed.values() {
        image::imageops::replace(&mut atlas, picture, 0, i64::from(*y));
    }
    let mut table = String::from("// Made by `ridgeline ui-import` from mapped images.\n(\n");
    table.push_str(&format!(
        "    atlas: \"images-{set}.png\",\n    size: ({width}, {}),\n    images: {{\n",
        height.max(1)
    ));
    let mut sorted: Vec<&MappedImage> = images.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    sorted.dedup_by(|a, b| a.name == b.name);
    for m in &sorted {
        let Some((y, picture)) = placed.get(&m.texture.to_ascii_lowercase()) else { continue };
        // The INI's coordinates are for the size it declares; the file may be another size.
        let sx = |v: u32| (u64::from(v) * u64::from(picture.width()) / u64::from(m.texture_size.0)) as u32;
        let sy = |v: u32| (u64::from(v) * u64::from(picture.height()) / u64::from(m.texture_size.1)) as u32;
        let (l, t, r, b) = (sx(m.coords.0), sy(m.coords.1), sx(m.coords.2), sy(m.coords.3));
        let (w, h) = (r.saturating_sub(l).max(1), b.saturating_sub(t).max(1));
        table.push_str(&format!("        {:?}: (rect: ({l}, {}, {w}, {h}), border: 0),\n", m.name, t + y));
    }
    table.push_str("    },\n)\n");
    let ui = mod_dir.join("ui");
    let atlas_path = ui.join(format!("images-{set}.png"));
    super::write_image(&atlas_path, &atlas).map_err(|e| io(&atlas_path, e.why))?;
    let table_path = ui.join(format!("images-{set}.ron"));
    super::write_file(&table_path, table.as_bytes()).map_err(|e| io(&table_path, e.why))?;
    Ok(Imported { atlas: atlas_path, table: table_path, images: sorted.len(), textures: placed.len(), read })
}

/// One line on how a texture was read: its header's facts for a TGA, its size otherwise, and a
/// warning when every pixel is fully transparent (an alpha channel the writer left empty).
fn describe(path: &Path, picture: &image::RgbaImage) -> String {
    let is_tga = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("tga"));
    let header = if is_tga {
        // The file was just decoded as a regular file; only its first 18 bytes are read here.
        let mut bytes = [0u8; 18];
        let read = std::fs::File::open(path).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes));
        read.ok().and_then(|()| super::tga_header::TgaHeader::read(&bytes))
    } else {
        None
    };
    let mut line = match header {
        Some(h) => format!("{}: {h}", path.display()),
        None => format!("{}: {}×{}", path.display(), picture.width(), picture.height()),
    };
    if picture.pixels().all(|p| p[3] == 0) {
        line.push_str("; every pixel is fully transparent (alpha 0): it will draw as nothing");
    }
    line
}

/// The texture `name` in `dir`, matched without regard to case, and as a `.png` where the INI
/// names a `.tga` or `.dds` that was converted.
fn find_texture(dir: &Path, name: &str) -> Option<PathBuf> {
    let stem = Path::new(name).file_stem()?.to_string_lossy().to_ascii_lowercase();
    let wanted = name.to_ascii_lowercase();
    let entries: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).collect();
    let file_name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase());
    entries
        .iter()
        .find(|p| file_name(p).as_deref() == Some(wanted.as_str()))
        .cloned()
        .or_else(|| entries.iter().find(|p| file_name(p).as_deref() == Some(format!("{stem}.png").as_str())).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const INI: &str = "; a comment\nMappedImage Buttons-Left\n  Texture = Shell512.tga\n  TextureWidth = 512\n  TextureHeight = 256\n  Coords = Left:1 Top:2 Right:24 Bottom:40\n  Status = NONE\nEnd\n\nMappedImage Backdrop\n  Texture = Back.tga\n  TextureWidth = 64\n  TextureHeight = 64\n  Coords = Left:0 Top:0 Right:64 Bottom:64\nEnd\n";

    #[test]
    fn blocks_are_read_with_their_texture_size_and_coordinates() {
        let got = parse(Path::new("x.ini"), INI).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].name, "Buttons-Left");
        assert_eq!(got[0].texture, "Shell512.tga");
        assert_eq!(got[0].texture_size, (512, 256));
        assert_eq!(got[0].coords, (1, 2, 24, 40));
        assert_eq!(got[0].line, 2);
    }

    #[test]
    fn a_broken_block_names_its_line() {
        let bad = INI.replace("Right:24", "Right:600");
        let e = parse(Path::new("x.ini"), &bad).unwrap_err().to_string();
        assert!(e.contains("x.ini:6:") && e.contains("outside the 512×256 texture"), "{e}");
        let e = parse(Path::new("x.ini"), "MappedImage A\n  Texture = a.tga\n").unwrap_err().to_string();
        assert!(e.contains("x.ini:1:") && e.contains("no End"), "{e}");
        let e = parse(Path::new("x.ini"), &INI.replace("Shell512.tga", "../../etc/passwd")).unwrap_err().to_string();
        assert!(e.contains("not a path"), "{e}");
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_a_panic(text in "(MappedImage [A-Za-z]{1,4}\n|  Texture = [a-z.]{0,6}\n|  TextureWidth = [0-9]{0,5}\n|  TextureHeight = [0-9]{0,5}\n|  Coords = (Left|Top|Right|Bottom|x):[0-9]{0,4}( (Left|Top|Right|Bottom):[0-9]{0,4}){0,4}\n|End\n|[ -~]{0,12}\n){0,20}") {
            let _ = parse(Path::new("p.ini"), &text);
        }
    }
}
