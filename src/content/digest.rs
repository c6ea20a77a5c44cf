//! Content digests: a 64-bit FNV-1a hash of a folder's files (names and bytes, in name order),
//! so two machines, or a replay and the game playing it, can tell whether they hold the same
//! map and data. It detects accidents, not attackers.
//!
//! Must not: be used for the simulation's state hash (that lives in `sim::hash`).

use std::path::{Path, PathBuf};

use super::ron_file::FileError;

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// A running FNV-1a hash.
#[derive(Clone, Copy, Debug)]
struct Fnv(u64);

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(PRIME);
        }
    }

    /// A length-prefixed field, so ("ab", "c") and ("a", "bc") differ.
    fn field(&mut self, bytes: &[u8]) {
        self.write(&(bytes.len() as u64).to_le_bytes());
        self.write(bytes);
    }
}

/// The digest of some bytes.
pub fn bytes_digest(bytes: &[u8]) -> u64 {
    let mut h = Fnv(OFFSET);
    h.write(bytes);
    h.0
}

/// The digest of `files`, each given as (name it is known by, path to read), in name order.
pub fn files_digest(mut files: Vec<(String, PathBuf)>) -> Result<u64, FileError> {
    files.sort();
    let mut h = Fnv(OFFSET);
    for (name, path) in files {
        super::ron_file::regular_file(&path, super::limits::MAX_MAP_FILE_BYTES)?;
        let bytes = std::fs::read(&path).map_err(|e| FileError::Io { path: path.clone(), message: e.to_string() })?;
        h.field(name.as_bytes());
        h.field(&bytes);
    }
    Ok(h.0)
}

/// Each regular file directly inside `dir` with its own digest, by name.
pub fn folder_files(dir: &Path) -> Result<Vec<(String, u64)>, FileError> {
    let io = |e: std::io::Error| FileError::Io { path: dir.to_path_buf(), message: e.to_string() };
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_file() {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            out.push((name.clone(), files_digest(vec![(name, path)])?));
        }
    }
    out.sort();
    Ok(out)
}

/// The digest of every regular file directly inside `dir`.
pub fn folder_digest(dir: &Path) -> Result<u64, FileError> {
    let io = |e: std::io::Error| FileError::Io { path: dir.to_path_buf(), message: e.to_string() };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_file() {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            files.push((name, path));
        }
    }
    files_digest(files)
}

/// A digest as the 16 hex digits setups and replays carry.
pub fn hex(digest: u64) -> String {
    format!("{digest:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_bytes_both_count() {
        let dir = std::env::temp_dir().join(format!("ridgeline-digest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.ron"), "one").unwrap();
        let first = folder_digest(&dir).unwrap();
        assert_eq!(folder_digest(&dir).unwrap(), first, "stable");
        std::fs::write(dir.join("a.ron"), "two").unwrap();
        let changed = folder_digest(&dir).unwrap();
        assert_ne!(changed, first);
        std::fs::rename(dir.join("a.ron"), dir.join("b.ron")).unwrap();
        assert_ne!(folder_digest(&dir).unwrap(), changed, "a renamed file counts");
        std::fs::remove_dir_all(&dir).unwrap();
        // FNV-1a's published value for the empty input is its offset basis.
        assert_eq!(files_digest(Vec::new()).unwrap(), 0xcbf2_9ce4_8422_2325);
    }
}
