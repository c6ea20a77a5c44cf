//! The heightmap: one height per cell corner, read from and written to a 16-bit grayscale PNG.
//!
//! Must not: be read by the simulation (it gets the passability derived from it).

use std::path::Path;

use image::{ImageBuffer, Luma};

/// Corner heights in raw 16-bit steps, row-major, row 0 at the south edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heightmap {
    /// Samples across (cells + 1).
    pub width: u32,
    /// Samples down (cells + 1).
    pub height: u32,
    /// Raw samples, 0..=65535.
    pub samples: Vec<u16>,
}

impl Heightmap {
    /// A flat heightmap at raw height `level`.
    pub fn flat(width: u32, height: u32, level: u16) -> Heightmap {
        Heightmap { width, height, samples: vec![level; width as usize * height as usize] }
    }

    /// Reads a grayscale PNG (8-bit values are widened to 16).
    pub fn load(path: &Path) -> Result<Heightmap, crate::content::FileError> {
        let img = crate::content::open_image(path)?.into_luma16();
        let (w, h) = img.dimensions();
        // PNG rows run north to south; the map's rows run south to north.
        let mut samples = Vec::with_capacity(w as usize * h as usize);
        for y in (0..h).rev() {
            samples.extend((0..w).map(|x| img.get_pixel(x, y).0[0]));
        }
        Ok(Heightmap { width: w, height: h, samples })
    }

    /// Writes a 16-bit grayscale PNG.
    pub fn save(&self, path: &Path) -> Result<(), crate::content::WriteError> {
        self.prepare(path)?.commit()
    }

    /// The heightmap encoded into a new file beside `path`, not yet in place (to be put there
    /// with the files that belong with it: `content::commit_all`).
    pub fn prepare(&self, path: &Path) -> Result<crate::content::SafeFile, crate::content::WriteError> {
        let img: ImageBuffer<Luma<u16>, Vec<u16>> =
            ImageBuffer::from_fn(self.width, self.height, |x, y| Luma([self.at(x, self.height - 1 - y)]));
        crate::content::prepare_image(path, &img)
    }

    /// The raw sample at a corner (clamped to the edge).
    pub fn at(&self, x: u32, y: u32) -> u16 {
        let x = x.min(self.width.saturating_sub(1));
        let y = y.min(self.height.saturating_sub(1));
        self.samples.get(y as usize * self.width as usize + x as usize).copied().unwrap_or(0)
    }
}
