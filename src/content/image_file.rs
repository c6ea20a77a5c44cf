//! Opening a content image (a heightmap, a terrain map, an atlas) within the limits on its
//! size, so a picture that claims to be enormous is refused before it is decoded.
//!
//! Must not: keep images; callers convert and own them.

use std::path::Path;

use super::FileError;
use super::limits::{MAX_IMAGE_BYTES, MAX_IMAGE_SIDE};

/// Decodes an image file within [`MAX_IMAGE_SIDE`] and [`MAX_IMAGE_BYTES`].
pub fn open_image(path: &Path) -> Result<image::DynamicImage, FileError> {
    let io = |message: String| FileError::Io { path: path.to_path_buf(), message };
    // A FIFO or device in the picture's place is refused before it is opened; a file larger
    // than any image the limits allow (compressed or not) is refused by its size.
    super::ron_file::regular_file(path, MAX_IMAGE_BYTES)?;
    let mut reader = image::ImageReader::open(path).map_err(|e| io(e.to_string()))?;
    reader = reader.with_guessed_format().map_err(|e| io(e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_IMAGE_BYTES);
    reader.limits(limits);
    reader.decode().map_err(|e| io(e.to_string()))
}
