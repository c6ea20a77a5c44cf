//! The simulation boundary, enforced: src/sim and src/ai may not use floating point, the
//! clock, hashed containers, thread randomness, I/O, or the client's modules.
//!
//! The checker is tested against lines that must fail, so a weakened rule is noticed too.

use std::path::{Path, PathBuf};

/// Words that must not appear in simulation code, each with the reason.
const FORBIDDEN: &[(&str, &str)] = &[
    ("f32", "floating point differs between machines"),
    ("f64", "floating point differs between machines"),
    ("std::time", "the clock differs between machines"),
    ("Instant", "the clock differs between machines"),
    ("SystemTime", "the clock differs between machines"),
    ("HashMap", "hashed iteration order is random"),
    ("HashSet", "hashed iteration order is random"),
    ("thread_rng", "only the seeded game RNG may be used"),
    ("rand::random", "only the seeded game RNG may be used"),
    ("std::fs", "the simulation does no I/O"),
    ("std::net", "the simulation does no I/O"),
    ("std::env", "the simulation reads no settings"),
];

/// Modules of the client the simulation must not import.
const CLIENT_MODULES: &[&str] =
    &["render", "ui", "net", "audio", "game", "winit", "wgpu", "session", "lockstep", "map", "defs"];

/// Problems in one file's text: (line, message).
fn violations(source: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, raw) in source.lines().enumerate() {
        let line = raw.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let code = match line.find("//") {
            Some(k) => &line[..k],
            None => line,
        };
        for (word, why) in FORBIDDEN {
            if contains_word(code, word) {
                out.push((i + 1, format!("`{word}`: {why}")));
            }
        }
        for m in CLIENT_MODULES {
            let patterns = [format!("crate::{m}"), format!("use {m}::"), format!("{m}::")];
            let hit =
                if matches!(*m, "winit" | "wgpu") { code.contains(&patterns[2]) } else { code.contains(&patterns[0]) };
            if hit {
                out.push((i + 1, format!("imports `{m}`: the simulation must not depend on it")));
            }
        }
    }
    out
}

fn contains_word(code: &str, word: &str) -> bool {
    let bytes = code.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut start = 0;
    while let Some(k) = code[start..].find(word) {
        let a = start + k;
        let b = a + word.len();
        let before_ok = a == 0 || !is_ident(bytes[a - 1]);
        let after_ok = b >= bytes.len() || !is_ident(bytes[b]) || word.contains("::");
        if before_ok && after_ok {
            return true;
        }
        start = b;
    }
    false
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn sim_and_ai_stay_deterministic() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/sim", "src/ai"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() >= 10, "the sim's files were not found");
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, msg) in violations(&text) {
            problems.push(format!("{}:{line}: {msg}", f.strip_prefix(&root).unwrap_or(f).display()));
        }
    }
    assert!(problems.is_empty(), "determinism boundary broken:\n{}", problems.join("\n"));
}

#[test]
fn the_checker_catches_each_forbidden_line() {
    let bad = [
        "let x: f32 = 1.0;",
        "fn speed() -> f64 { 0.0 }",
        "use std::time::Duration;",
        "let t = Instant::now();",
        "let t = SystemTime::now();",
        "let m: HashMap<u32, u32> = HashMap::new();",
        "let s = HashSet::new();",
        "let r = rand::thread_rng();",
        "let r: u8 = rand::random();",
        "let f = std::fs::read(\"x\");",
        "use crate::render::Renderer;",
        "use crate::ui::Window;",
        "use crate::net::hub;",
        "use crate::audio::Mixer;",
        "use crate::game::Camera;",
        "let s = winit::window::Window::default();",
        "let d = wgpu::Device::default();",
    ];
    for line in bad {
        let text = format!("fn f() {{\n    {line}\n}}\n");
        assert!(!violations(&text).is_empty(), "not caught: {line}");
    }
}

#[test]
fn the_checker_allows_ordinary_sim_code() {
    let ok = "use super::fixed::Fixed;\n// f32 in a comment is fine\nlet half = Fixed::HALF; // f64 here too\nlet buf: Vec<u32> = Vec::new();\nlet field32 = 1;\n";
    assert_eq!(violations(ok), Vec::<(usize, String)>::new());
}
