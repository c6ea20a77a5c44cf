//! Reading a RON content file: the two ways it can fail, each naming the file (and line and
//! column for syntax), shared by maps, scripts and settings.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use thiserror::Error;

/// A content file that could not be read or parsed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FileError {
    /// The file could not be read (or written).
    #[error("{}: cannot read: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's words.
        message: String,
    },
    /// The file could not be written (the old one, if any, is as it was).
    #[error(transparent)]
    Write(#[from] super::safe_write::WriteError),
    /// The file is of a format version this build does not read.
    #[error("{}: {message}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Which version it is and which this build reads.
        message: String,
    },
    /// The file is larger than the game reads.
    #[error("{}: {size} bytes is over the limit of {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The text is not valid RON for the expected shape.
    #[error("{}:{line}:{col}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        message: String,
    },
}

/// Parses RON text (`path` names it in errors). Optional fields may be written without
/// `Some(…)` (RON's implicit_some), which is friendlier to people editing the files.
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    let options = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_recursion_limit(super::limits::MAX_RON_DEPTH);
    options.from_str(text).map_err(|e| FileError::Syntax {
        path: path.to_path_buf(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })
}

/// The size of `path` if it is a regular file of at most `limit` bytes, looked at before it is
/// opened: a FIFO, a device or a folder in its place is refused by kind (opening or reading one
/// could block for ever), a link loop by the error it gives, a larger file by its size.
pub fn regular_file(path: &Path, limit: u64) -> Result<u64, FileError> {
    let io = |e: std::io::Error| FileError::Io { path: path.to_path_buf(), message: e.to_string() };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        let kind = if meta.is_dir() { "a folder" } else { "not a regular file (a FIFO, socket or device)" };
        return Err(FileError::Io { path: path.to_path_buf(), message: format!("{kind}: refused") });
    }
    if meta.len() > limit {
        return Err(FileError::TooLarge { path: path.to_path_buf(), size: meta.len(), limit });
    }
    Ok(meta.len())
}

/// The bytes of the regular file `path`, at most `limit` of them: its kind is looked at before
/// it is opened, it is opened without waiting (a FIFO put in its place meanwhile does not
/// block) and looked at again once open, and never more than `limit` bytes are read, however
/// the file grows.
pub fn read_bytes_limited(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let io = |e: std::io::Error| FileError::Io { path: path.to_path_buf(), message: e.to_string() };
    let size = regular_file(path, limit)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(FileError::Io { path: path.to_path_buf(), message: "not a regular file: refused".into() });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    std::io::Read::read_to_end(&mut std::io::Read::take(file, limit + 1), &mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge { path: path.to_path_buf(), size: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

/// Reads a text content file of at most `limit` bytes; bytes that are not UTF-8 are refused
/// at their line and column.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String, FileError> {
    text_of(path, read_bytes_limited(path, limit)?)
}

/// Reads a text content file (at most [`super::limits::MAX_TEXT_FILE_BYTES`]).
pub fn read_text(path: &Path) -> Result<String, FileError> {
    read_text_limited(path, super::limits::MAX_TEXT_FILE_BYTES)
}

/// The bytes as text, or the line and column of the first byte that is not UTF-8.
pub fn text_of(path: &Path, bytes: Vec<u8>) -> Result<String, FileError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let col = String::from_utf8_lossy(&valid[line_start..]).chars().count() + 1;
        FileError::Syntax { path: path.to_path_buf(), line, col, message: "this byte is not UTF-8 text".into() }
    })
}

/// Reads and parses a RON file.
pub fn read_ron<T: DeserializeOwned>(path: &Path) -> Result<T, FileError> {
    let text = read_text(path)?;
    parse_ron(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_that_is_not_utf8_is_named_at_its_line_and_column() {
        let e = text_of(Path::new("x.wnd"), b"ab\ncd\xffe".to_vec()).unwrap_err();
        assert_eq!(e.to_string(), "x.wnd:2:3: this byte is not UTF-8 text");
        // Columns count characters, not bytes.
        let e = text_of(Path::new("x.wnd"), "\u{e9}\u{e9}".bytes().chain([0xff]).collect()).unwrap_err();
        assert_eq!(e.to_string(), "x.wnd:1:3: this byte is not UTF-8 text");
    }
}
