//! What a saved game compares before it continues: the digest of each file the match reads —
//! the simulation's data, the computer players' plans and styles, the map's files — so a save
//! made with other data is refused naming the files that differ (as the online handshake and
//! replays compare the data they were made with).
//!
//! Must not: read anything but those files.

use std::collections::BTreeMap;

use crate::content::digest::{files_digest, folder_files, hex};
use crate::content::{ContentRoots, FileError};
use crate::map::Map;

use super::super::start::sim_data_paths;

/// The data files besides the simulation's that decide how a saved game goes on: the computer
/// players' plans and styles (their orders are not in the save, only their memory).
pub const AI_DATA_FILES: [&str; 2] = ["data/ai.ron", "data/ai_styles.ron"];

/// Each file a match on `map` reads through `roots`, by the name it is known by
/// (`data/<file>`, `maps/<folder>/<file>`), with its digest (16 hex digits), in name order.
pub fn match_files(roots: &ContentRoots, map: &Map) -> Result<Vec<(String, String)>, FileError> {
    let mut out = Vec::new();
    let mut paths = sim_data_paths(roots);
    paths.extend(AI_DATA_FILES.iter().filter_map(|n| roots.find(n).map(|p| (n.to_string(), p))));
    for (name, path) in paths {
        let digest = files_digest(vec![(name.clone(), path)])?;
        out.push((name, hex(digest)));
    }
    let folder = map.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for (name, digest) in folder_files(&map.dir)? {
        out.push((format!("maps/{folder}/{name}"), hex(digest)));
    }
    out.sort();
    Ok(out)
}

/// The names whose digests differ between `saved` and `here` (or that one side lacks).
pub fn differing(saved: &[(String, String)], here: &[(String, String)]) -> Vec<String> {
    let a: BTreeMap<&str, &str> = saved.iter().map(|(n, d)| (n.as_str(), d.as_str())).collect();
    let b: BTreeMap<&str, &str> = here.iter().map(|(n, d)| (n.as_str(), d.as_str())).collect();
    let mut names: Vec<&str> = a.keys().chain(b.keys()).copied().collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter().filter(|n| a.get(n) != b.get(n)).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_differ_or_are_missing_on_one_side_are_named() {
        let f = |n: &str, d: &str| (n.to_string(), d.to_string());
        let saved = [f("data/a.ron", "01"), f("data/b.ron", "02"), f("maps/x/map.ron", "03")];
        let here = [f("data/a.ron", "01"), f("data/b.ron", "09"), f("data/c.ron", "04")];
        assert_eq!(differing(&saved, &here), ["data/b.ron", "data/c.ron", "maps/x/map.ron"]);
        assert!(differing(&saved, &saved).is_empty());
    }
}
