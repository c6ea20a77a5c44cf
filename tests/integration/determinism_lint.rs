//! The simulation's determinism, enforced: src/sim and src/ai may not use floating point
//! (float types, float literals, glam), the clock, hashed containers or `RandomState`, thread
//! randomness, I/O (`std::{fs, io, net, thread, process, time, env}`, grouped or not), or
//! compare pointer addresses. Which modules they may import is `tests/integration/boundaries.rs`'s job.
//!
//! The checker is tested against lines that must fail, so a weakened rule is noticed too.

use crate::common;

use std::path::PathBuf;

use common::rust_source::{code_only, float_literals, paths, resolve};

/// Words that must not appear in simulation code, each with the reason.
const FORBIDDEN_WORDS: &[(&str, &str)] = &[
    ("f32", "floating point differs between machines"),
    ("f64", "floating point differs between machines"),
    ("Instant", "the clock differs between machines"),
    ("SystemTime", "the clock differs between machines"),
    ("HashMap", "hashed iteration order is random"),
    ("HashSet", "hashed iteration order is random"),
    ("RandomState", "hashed iteration order is random"),
    ("thread_rng", "only the seeded game RNG may be used"),
    ("addr_of", "pointer addresses differ between machines"),
];

/// Text that must not appear (not a whole word), with the reason.
const FORBIDDEN_TEXT: &[(&str, &str)] = &[
    ("ptr::eq", "pointer addresses differ between machines"),
    ("as *const", "pointer addresses differ between machines"),
    ("as *mut", "pointer addresses differ between machines"),
    (".as_ptr()", "pointer addresses differ between machines"),
];

/// `std` modules the simulation must not reach, with the reason.
const FORBIDDEN_STD: &[(&str, &str)] = &[
    ("time", "the clock differs between machines"),
    ("fs", "the simulation does no I/O"),
    ("io", "the simulation does no I/O"),
    ("net", "the simulation does no I/O"),
    ("thread", "the simulation runs on one thread, in one order"),
    ("process", "the simulation does no I/O"),
    ("env", "the simulation reads no settings"),
];

/// External crates the simulation must not use, with the reason.
const FORBIDDEN_CRATES: &[(&str, &str)] =
    &[("glam", "floating point differs between machines"), ("rand", "only the seeded game RNG may be used")];

/// Problems in one file's text: (line, message).
fn violations(source: &str) -> Vec<(usize, String)> {
    let code = code_only(source);
    let mut out = Vec::new();
    for (i, line) in code.lines().enumerate() {
        for (word, why) in FORBIDDEN_WORDS {
            if contains_word(line, word) {
                out.push((i + 1, format!("`{word}`: {why}")));
            }
        }
        for (text, why) in FORBIDDEN_TEXT {
            if line.contains(text) {
                out.push((i + 1, format!("`{text}`: {why}")));
            }
        }
        for lit in float_literals(line) {
            out.push((i + 1, format!("float literal `{lit}`: floating point differs between machines")));
        }
    }
    for p in paths(&code) {
        let (abs, in_crate) = resolve(&p.segments, &[]);
        if in_crate {
            continue;
        }
        let first = abs.first().map(String::as_str).unwrap_or("");
        if (first == "std" || first == "core")
            && let Some((m, why)) = FORBIDDEN_STD.iter().find(|(m, _)| abs.get(1).is_some_and(|s| s == m))
        {
            out.push((p.line, format!("`{first}::{m}`: {why}")));
        }
        if let Some((c, why)) = FORBIDDEN_CRATES.iter().find(|(c, _)| first == *c) {
            out.push((p.line, format!("`{c}`: {why}")));
        }
    }
    out.sort();
    out.dedup();
    out
}

fn contains_word(code: &str, word: &str) -> bool {
    let bytes = code.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut start = 0;
    while let Some(k) = code[start..].find(word) {
        let a = start + k;
        let b = a + word.len();
        // A float suffix (`2f32`) is a float literal, found as such; here whole words only.
        let before_ok = a == 0 || !is_ident(bytes[a - 1]);
        let after_ok = b >= bytes.len() || !is_ident(bytes[b]);
        if before_ok && after_ok {
            return true;
        }
        start = b;
    }
    false
}

#[test]
fn sim_and_ai_stay_deterministic() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/sim", "src/ai"] {
        common::rust_source::rust_files(&root.join(dir), &mut files);
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
        "let x = 1.0_f64;",
        "let y = 2f32;",
        "let z = 0.5;",
        "let w = 1e3;",
        "let v = glam::Vec2::ZERO;",
        "use glam::Vec3;",
        "use ::glam as g;",
        "use std::time::Duration;",
        "use std::{fs, env};",
        "use std::{collections::BTreeMap, io::Read};",
        "let h = std::thread::spawn(|| ());",
        "std::process::exit(1);",
        "let t = Instant::now();",
        "let t = SystemTime::now();",
        "let m: HashMap<u32, u32> = HashMap::new();",
        "let s = HashSet::new();",
        "let s = std::hash::RandomState::new();",
        "let r = rand::thread_rng();",
        "let r: u8 = rand::random();",
        "let f = std::fs::read(\"x\");",
        "let same = std::ptr::eq(a, b);",
        "let k = &x as *const u32 as usize;",
        "let k = v.as_ptr() as usize;",
        "let e = ::std::env::var(\"X\");",
    ];
    for line in bad {
        let text = format!("fn f() {{\n    {line}\n}}\n");
        assert!(!violations(&text).is_empty(), "not caught: {line}");
    }
}

#[test]
fn the_checker_allows_ordinary_sim_code() {
    let ok = "use super::fixed::Fixed;\n// f32 in a comment is fine\nlet half = Fixed::HALF; // f64 here too\nlet buf: Vec<u32> = Vec::new();\nlet field32 = 1;\nlet s = \"1.5 f32 std::fs\";\nlet t = pair.0 + pair.1;\nfor i in 0..10 {}\nlet h = 0x1e5;\nlet m = 3.max(4);\nuse std::collections::BTreeMap;\n";
    assert_eq!(violations(ok), Vec::<(usize, String)>::new());
}
