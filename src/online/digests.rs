//! What the handshake compares: the digests of the simulation's data files and of a map's
//! files, the names of those that differ, and a joiner's hello judged against this machine's
//! (protocol, build, files), a refusal naming what differs.
//!
//! Must not: send anything (the handshake's drivers say the refusal to the other side).

use std::collections::BTreeMap;

use crate::content::ContentRoots;
use crate::content::digest::folder_files;
use crate::map::Map;
use crate::net::wire::{FileDigest, Hello, PROTOCOL};
use crate::session::start::sim_data_paths;

use super::{BUILD, OnlineError};

/// The digests of the simulation's data files, as the handshake compares them.
pub fn sim_data_files(roots: &ContentRoots) -> Result<Vec<FileDigest>, OnlineError> {
    let mut out = Vec::new();
    for (name, path) in sim_data_paths(roots) {
        let digest = crate::content::digest::files_digest(vec![(name.clone(), path)])?;
        out.push(FileDigest { name, digest });
    }
    Ok(out)
}

/// The digests of a map folder's files, named `maps/<folder>/<file>`.
pub fn map_files(map: &Map) -> Result<Vec<FileDigest>, OnlineError> {
    let folder = map.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let files = folder_files(&map.dir)?;
    Ok(files.into_iter().map(|(name, digest)| FileDigest { name: format!("maps/{folder}/{name}"), digest }).collect())
}

/// The files whose digests differ between `mine` and `theirs` (or that one side lacks).
pub fn differing(mine: &[FileDigest], theirs: &[FileDigest]) -> Vec<String> {
    let a: BTreeMap<&str, u64> = mine.iter().map(|f| (f.name.as_str(), f.digest)).collect();
    let b: BTreeMap<&str, u64> = theirs.iter().map(|f| (f.name.as_str(), f.digest)).collect();
    let mut names: Vec<&str> = a.keys().chain(b.keys()).copied().collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter().filter(|n| a.get(n) != b.get(n)).map(str::to_string).collect()
}

/// Why a joiner's hello is refused, naming what differs; None if it may play.
pub fn refusal(hello: &Hello, mine: &[FileDigest]) -> Option<String> {
    if hello.protocol != PROTOCOL {
        return Some(format!("protocol {} (the host speaks {PROTOCOL})", hello.protocol));
    }
    if hello.build != BUILD {
        return Some(format!("game version {} (the host has {BUILD})", hello.build));
    }
    let files = differing(mine, &hello.files);
    (!files.is_empty()).then(|| format!("these files differ from the host's: {}", files.join(", ")))
}
