//! The shape of the code, stated once: no file under `src/` holds more than [`MAX_FILE_LINES`]
//! lines outside its `#[cfg(test)]` modules, and no function there is longer than
//! [`MAX_FN_LINES`] lines, but for the functions named in [`LONG_FUNCTIONS`], each with its
//! reason. A long function on a main path (a right click to a command, a layout to pixels, a
//! packet to a frame) is split into named steps rather than trimmed by hand.
//!
//! The checker is tested against code that must fail, so a weakened rule is noticed too.

use std::path::Path;

use crate::common;
use common::rust_source::{code_only, rust_files};

/// The most lines a source file may hold outside its test modules.
const MAX_FILE_LINES: usize = 600;
/// The most lines a function may take, from its `fn` line to its closing brace.
const MAX_FN_LINES: usize = 100;

/// Functions allowed past [`MAX_FN_LINES`]: (file under `src/`, function, why).
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[
    ("bench/net.rs", "impaired", "a benchmark scenario read top to bottom, off the main paths"),
    ("bench/render.rs", "run", "a benchmark scenario read top to bottom, off the main paths"),
    ("game/app/requests.rs", "serve", "off the three main paths; not split yet (a follow-up)"),
    ("render/world/mod.rs", "new", "off the three main paths; not split yet (a follow-up)"),
    ("render/world/mod.rs", "render", "off the three main paths; not split yet (a follow-up)"),
    ("render/world/pipelines.rs", "new", "off the three main paths; not split yet (a follow-up)"),
];

/// One function found in a file: its name, its first line (1-based) and its length in lines.
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    line: usize,
    lines: usize,
}

/// What the rules look at in one file: its lines outside test modules, and its functions
/// outside them.
#[derive(Debug)]
struct Shape {
    code_lines: usize,
    functions: Vec<Function>,
}

/// Reads the shape of one file's source (comments and strings do not count as braces).
fn shape(source: &str) -> Shape {
    let code = code_only(source);
    let lines: Vec<&str> = code.lines().collect();
    let mut in_test = vec![false; lines.len()];
    let mut functions = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let text = lines[i].trim();
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        if text == "#[cfg(test)]" && is_inline_mod(next) {
            let end = block_end(&lines, i + 1).unwrap_or(lines.len() - 1);
            in_test[i..=end].iter_mut().for_each(|t| *t = true);
            i = end + 1;
            continue;
        }
        if let Some(name) = fn_name(lines[i])
            && let Some(end) = block_end(&lines, i)
        {
            functions.push(Function { name, line: i + 1, lines: end - i + 1 });
        }
        i += 1;
    }
    Shape { code_lines: in_test.iter().filter(|t| !**t).count(), functions }
}

/// Whether a line opens a module written inline (`mod tests {`), not one in its own file.
fn is_inline_mod(line: &str) -> bool {
    let rest = line.strip_prefix("pub(crate) ").or_else(|| line.strip_prefix("pub ")).unwrap_or(line);
    rest.starts_with("mod ") && line.ends_with('{')
}

/// The name of the function a line declares (`fn name` as a word, not a `fn(..)` type).
fn fn_name(line: &str) -> Option<String> {
    let at = line
        .match_indices("fn ")
        .map(|(i, _)| i)
        .find(|&i| i == 0 || !line[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))?;
    let name: String = line[at + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

/// The 0-based line where the block opened from line `from` closes: the first `{` there or
/// after (None when a `;` comes first: a declaration without a body) and its matching `}`.
fn block_end(lines: &[&str], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut opened = false;
    for (k, line) in lines.iter().enumerate().skip(from) {
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if opened && depth == 0 {
                        return Some(k);
                    }
                }
                ';' if !opened => return None,
                _ => {}
            }
        }
    }
    None
}

/// Every breach of the rules in `src/`, one line each, and the allow-list entries no longer
/// needed.
fn breaches(src: &Path) -> (Vec<String>, Vec<String>) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut found = Vec::new();
    let mut used = Vec::new();
    for path in files {
        let rel = path.strip_prefix(src).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let s = shape(&common::read(&path));
        if s.code_lines > MAX_FILE_LINES {
            found.push(format!("src/{rel}: {} lines outside tests (the cap is {MAX_FILE_LINES})", s.code_lines));
        }
        for f in s.functions.iter().filter(|f| f.lines > MAX_FN_LINES) {
            if LONG_FUNCTIONS.iter().any(|&(p, n, _)| p == rel && n == f.name) {
                used.push((rel.clone(), f.name.clone()));
                continue;
            }
            found.push(format!(
                "src/{rel}:{}: fn {} is {} lines (the cap is {MAX_FN_LINES}): split it into named steps",
                f.line, f.name, f.lines
            ));
        }
    }
    let stale = LONG_FUNCTIONS
        .iter()
        .filter(|&&(p, n, _)| !used.iter().any(|(up, un)| up == p && un == n))
        .map(|(p, n, why)| format!("src/{p}: fn {n} is allowed ({why}) but no longer long: take it off the list"))
        .collect();
    (found, stale)
}

#[test]
fn files_and_functions_stay_within_their_caps() {
    let (found, stale) = breaches(&common::root().join("src"));
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
fn the_checker_measures_functions_and_leaves_out_tests_comments_and_strings() {
    let body = |n: usize| (0..n).map(|i| format!("    let x{i} = {i};\n")).collect::<String>();
    // A function of 103 lines (its `fn` line, 101 inside, its brace), with a brace in a
    // string and one in a comment that must not end it early.
    let long = format!("pub(crate) fn long(a: u32) -> u32 {{\n    let s = \"}}\"; // }}\n{}}}\n", body(100));
    let short = "fn short() {}\nfn declared(&self);\nconst F: fn(u32) -> u32 = f;\n";
    let tests = format!("#[cfg(test)]\nmod tests {{\n    fn huge() {{\n{}    }}\n}}\n", body(200));
    let s = shape(&format!("{long}{short}{tests}"));
    let names: Vec<(&str, usize)> = s.functions.iter().map(|f| (f.name.as_str(), f.lines)).collect();
    assert_eq!(names, [("long", 103), ("short", 1)], "no body, a fn type and test functions are not counted");
    assert_eq!(s.functions[0].line, 1);
    // The file's lines outside its test module: the long function's 103 and three short lines.
    assert_eq!(s.code_lines, 106);
}

#[test]
fn the_checker_catches_a_long_function_and_a_long_file_and_a_stale_exception() {
    let dir = common::temp_dir("tidy_checker");
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("bench")).unwrap();
    let lines = |n: usize| (0..n).map(|i| format!("    let x{i} = {i};\n")).collect::<String>();
    std::fs::write(src.join("long_fn.rs"), format!("fn far_too_long() {{\n{}}}\n", lines(MAX_FN_LINES))).unwrap();
    std::fs::write(src.join("long_file.rs"), format!("// a comment\n{}", "const A: u8 = 0;\n".repeat(MAX_FILE_LINES)))
        .unwrap();
    // An allowed function that has been split: its entry is stale.
    std::fs::write(src.join("bench/net.rs"), "fn impaired() {}\n").unwrap();
    let (found, stale) = breaches(&src);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/long_file.rs: 601 lines"), "{found:?}");
    assert!(found[1].starts_with("src/long_fn.rs:1: fn far_too_long is 102 lines"), "{found:?}");
    assert!(stale.iter().any(|s| s.contains("bench/net.rs: fn impaired")), "{stale:?}");
    std::fs::remove_dir_all(&dir).ok();
}
