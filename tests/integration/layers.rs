//! No import circle among the rooms of `game/` and `net/`: each direct submodule (a file or a
//! folder) may import others only so that the imports form no cycle, as the crate's modules do
//! in ARCHITECTURE.md's table. A circle (the battle taking the shell's button type while the
//! shell took the battle's puff image) is reported with its path.
//!
//! The checker is tested with a circle that must be found.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::common::rust_source::{code_only, module_of, paths, resolve, rust_files};

/// Imports between the direct submodules of `top` (`game`), from every file under it.
fn room_imports(top: &str) -> BTreeMap<String, BTreeSet<String>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root.join(top), &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let module = module_of(&rel);
        // `game/mod.rs` itself only declares the rooms.
        let Some(room) = module.get(1).cloned() else { continue };
        let code = code_only(&std::fs::read_to_string(&f).unwrap());
        let into = edges.entry(room.clone()).or_default();
        for p in paths(&code) {
            let (abs, in_crate) = resolve(&p.segments, &module);
            if in_crate
                && abs.first().map(String::as_str) == Some(top)
                && let Some(other) = abs.get(1).filter(|o| **o != room)
            {
                into.insert(other.clone());
            }
        }
    }
    edges
}

/// A cycle in `edges`, as the path that closes it, if there is one.
fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            let mut c = path[at..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for next in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|n| visit(n, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_rooms_of_game_and_net_import_each_other_without_a_circle() {
    for top in ["game", "net"] {
        let edges = room_imports(top);
        assert!(edges.len() >= 4, "{top}'s rooms were not found: {edges:?}");
        assert_eq!(cycle(&edges), None, "an import circle in src/{top}/");
    }
}

/// Imports between sibling files (and folders) of every folder under `top`, keyed by the
/// folder: `game/battle` → `look` → {`play`, `picture`, …}. A folder's `mod.rs` declares its
/// children and is left out (its children may use what it re-exports).
fn sibling_imports(top: &str) -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root.join(top), &mut files);
    let rels: Vec<String> =
        files.iter().map(|f| f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/")).collect();
    let units: BTreeSet<Vec<String>> = rels.iter().map(|r| module_of(r)).collect();
    let mut out: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (f, rel) in files.iter().zip(&rels) {
        if rel.ends_with("mod.rs") {
            continue;
        }
        let module = module_of(rel);
        let (folder, unit) = (module[..module.len() - 1].to_vec(), module[module.len() - 1].clone());
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        let into = out.entry(folder.clone()).or_default().entry(unit.clone()).or_default();
        for p in paths(&code) {
            let (abs, in_crate) = resolve(&p.segments, &module);
            if !in_crate || abs.len() <= folder.len() || abs[..folder.len()] != folder[..] {
                continue;
            }
            let other = &abs[folder.len()];
            let mut sibling = folder.clone();
            sibling.push(other.clone());
            // A sibling file, or a folder of files beside it.
            if *other != unit && units.iter().any(|u| u.starts_with(&sibling)) {
                into.insert(other.clone());
            }
        }
    }
    out
}

#[test]
fn the_files_of_each_folder_in_game_and_net_import_each_other_without_a_circle() {
    for top in ["game", "net"] {
        let folders = sibling_imports(top);
        assert!(folders.keys().any(|f| f.len() == 2), "{top}'s folders were not found");
        for (folder, edges) in &folders {
            assert_eq!(cycle(edges), None, "an import circle among the files of src/{}/", folder.join("/"));
        }
    }
    // The battle's parts are among what is checked.
    let battle = &sibling_imports("game")[&vec!["game".to_string(), "battle".to_string()]];
    assert!(battle["look"].contains("play") && battle["input"].contains("look"), "{battle:?}");
}

#[test]
fn the_client_frame_sits_above_the_hud_the_battle_and_the_shell() {
    let edges = room_imports("game");
    let imports = |room: &str| edges.get(room).cloned().unwrap_or_default();
    for below in ["hud", "battle", "shell"] {
        assert!(imports("frame").contains(below), "frame imports {below}");
    }
    assert!(!imports("battle").contains("shell") && !imports("shell").contains("battle"));
}

#[test]
fn the_checker_finds_a_circle() {
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("battle", vec!["images", "shell"]),
        ("shell", vec!["images", "battle"]),
        ("images", vec![]),
        ("app", vec!["battle", "shell"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(str::to_string).collect()))
    .collect();
    assert_eq!(cycle(&edges), Some(vec!["battle".into(), "shell".into(), "battle".into()]));
    let mut fine = edges.clone();
    fine.get_mut("shell").unwrap().remove("battle");
    assert_eq!(cycle(&fine), None);
}
