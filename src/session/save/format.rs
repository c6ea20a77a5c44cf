//! The saved game's file: a first line `ridgeline-save <version> <header bytes>`, the header as
//! RON (what the Load screen lists, read without the rest), then the state as RON compressed
//! with zlib (whose checksum catches a damaged file). Any file that is not all of this — cut
//! short, garbled, another version, past a limit — is refused with the file and why.
//!
//! Must not: panic or allocate past the limits in `content/limits.rs` on any input.

use std::io::{Read, Write};
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::content::limits::{MAX_RON_DEPTH, MAX_SAVE_BYTES, MAX_SAVE_HEADER_BYTES, MAX_SAVE_STATE_BYTES};

use super::SaveError;

/// The first word of every save file.
pub const MAGIC: &str = "ridgeline-save";
/// The save format version this build writes and reads.
pub const SAVE_VERSION: u32 = 1;
/// The longest first line read.
const FIRST_LINE_MAX: usize = 64;

/// The file's bytes for `header` and `state`.
pub fn encode<H: Serialize, S: Serialize>(path: &Path, header: &H, state: &S) -> Result<Vec<u8>, SaveError> {
    let damaged = |e: &dyn std::fmt::Display| SaveError::Write { path: path.to_path_buf(), why: e.to_string() };
    let cfg = ron::ser::PrettyConfig::new().depth_limit(2).indentor("  ".to_string());
    let header = ron::ser::to_string_pretty(header, cfg).map_err(|e| damaged(&e))?;
    let state = ron::ser::to_string(state).map_err(|e| damaged(&e))?;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(state.as_bytes()).map_err(|e| damaged(&e))?;
    let body = z.finish().map_err(|e| damaged(&e))?;
    let mut out = format!("{MAGIC} {SAVE_VERSION} {}\n", header.len()).into_bytes();
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

/// Reads the first line and the header of the save at `path` (not the state): the header,
/// and where the state begins.
pub fn read_header<H: DeserializeOwned>(path: &Path, bytes: &[u8]) -> Result<(H, usize), SaveError> {
    let damaged = |why: String| SaveError::Damaged { path: path.to_path_buf(), why };
    let first = bytes
        .iter()
        .take(FIRST_LINE_MAX)
        .position(|&b| b == b'\n')
        .ok_or_else(|| SaveError::NotASave { path: path.to_path_buf() })?;
    let line = std::str::from_utf8(&bytes[..first]).map_err(|_| SaveError::NotASave { path: path.to_path_buf() })?;
    let mut words = line.split(' ');
    if words.next() != Some(MAGIC) {
        return Err(SaveError::NotASave { path: path.to_path_buf() });
    }
    let version: u32 = words.next().and_then(|v| v.parse().ok()).ok_or_else(|| damaged("no version".into()))?;
    if version != SAVE_VERSION {
        return Err(SaveError::Version { path: path.to_path_buf(), version });
    }
    let len: u64 = words.next().and_then(|v| v.parse().ok()).ok_or_else(|| damaged("no header length".into()))?;
    if len > MAX_SAVE_HEADER_BYTES {
        return Err(damaged(format!("a header of {len} bytes is over the limit of {MAX_SAVE_HEADER_BYTES}")));
    }
    let start = first + 1;
    let end = start + len as usize;
    let Some(header) = bytes.get(start..end) else {
        return Err(damaged(format!("cut short: the header needs {len} bytes, the file has {}", bytes.len() - start)));
    };
    let text = std::str::from_utf8(header).map_err(|_| damaged("the header is not text".into()))?;
    let header: H = parse(text).map_err(|e| damaged(format!("header: {e}")))?;
    Ok((header, end))
}

/// The state of the save at `path`, from `bytes` (the whole file) after the header.
pub fn read_state<S: DeserializeOwned>(path: &Path, bytes: &[u8], from: usize) -> Result<S, SaveError> {
    let damaged = |why: String| SaveError::Damaged { path: path.to_path_buf(), why };
    let body = bytes.get(from..).unwrap_or_default();
    let mut text = String::new();
    let mut z = flate2::read::ZlibDecoder::new(body).take(MAX_SAVE_STATE_BYTES + 1);
    z.read_to_string(&mut text)
        .map_err(|e| damaged(format!("the state cannot be read ({e}): cut short or garbled")))?;
    if text.len() as u64 > MAX_SAVE_STATE_BYTES {
        return Err(damaged(format!("the state is over the limit of {MAX_SAVE_STATE_BYTES} bytes")));
    }
    parse(&text).map_err(|e| damaged(format!("state: {e}")))
}

/// The bytes of the file at `path`: all of it, or with `header_only` what a header can take.
pub fn read_file(path: &Path, header_only: bool) -> Result<Vec<u8>, SaveError> {
    let io = |e: &dyn std::fmt::Display| SaveError::Io { path: path.to_path_buf(), why: e.to_string() };
    crate::content::regular_file(path, MAX_SAVE_BYTES).map_err(|e| match e {
        crate::content::FileError::TooLarge { .. } => {
            SaveError::Damaged { path: path.to_path_buf(), why: format!("over the limit of {MAX_SAVE_BYTES} bytes") }
        }
        e => io(&e),
    })?;
    let limit = if header_only { FIRST_LINE_MAX as u64 + MAX_SAVE_HEADER_BYTES } else { MAX_SAVE_BYTES };
    let file = std::fs::File::open(path).map_err(|e| io(&e))?;
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes).map_err(|e| io(&e))?;
    Ok(bytes)
}

/// RON as the game reads it (with its depth limit).
fn parse<T: DeserializeOwned>(text: &str) -> Result<T, ron::error::SpannedError> {
    ron::Options::default().with_recursion_limit(MAX_RON_DEPTH).from_str(text)
}
