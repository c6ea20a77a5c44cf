//! A small reader of Rust source for the tidy tests: comments and string contents blanked,
//! `use` trees expanded into whole paths (`use crate::{a, b::c}` → `crate::a`, `crate::b::c`;
//! `use wgpu as w` → `wgpu`), every other path in the code (`crate::x::y`, `::wgpu::Device`,
//! `super::super::game`) found with its line, and `super::`/`self::` resolved against the
//! file's own module. Not a parser: enough for import boundaries and forbidden words.

/// Source with comments and the insides of string and char literals replaced by spaces
/// (newlines kept, so line numbers hold).
pub fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if b[i] == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_char(b.get(i.wrapping_sub(1))) {
            // Raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push('"');
            j += 1;
            let closing: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            while j < b.len() && !b[j..].iter().take(closing.len()).copied().eq(closing.chars()) {
                out.push(if b[j] == '\n' { '\n' } else { ' ' });
                j += 1;
            }
            out.push('"');
            i = (j + closing.len()).min(b.len());
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(if b[i] == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && is_char_literal(&b, i) {
            out.push('\'');
            i += 1;
            while i < b.len() && b[i] != '\'' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                out.push(' ');
                i += 1;
            }
            out.push('\'');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// A quote that opens a char literal (not a lifetime): `'a'`, `'\n'`, `'\u{1F600}'`.
fn is_char_literal(b: &[char], i: usize) -> bool {
    matches!((b.get(i + 1), b.get(i + 2)), (Some('\\'), _) | (Some(_), Some('\'')))
}

/// A path found in code, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundPath {
    pub line: usize,
    /// Segments, `::` prefix kept as an empty first segment.
    pub segments: Vec<String>,
}

/// Every path in `code` (from `code_only`): expanded `use` and `extern crate` items, then
/// every `a::b` path elsewhere.
pub fn paths(code: &str) -> Vec<FoundPath> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let line_at = |pos: usize| chars[..pos].iter().filter(|c| **c == '\n').count() + 1;
    let mut covered = vec![false; chars.len()];
    // `use` and `extern crate` items.
    let mut i = 0;
    while i < chars.len() {
        let word_start = i == 0 || !ident_char(chars.get(i - 1));
        let rest: String = chars[i..(i + 13).min(chars.len())].iter().collect();
        if word_start && (rest.starts_with("use ") || rest.starts_with("extern crate ")) {
            let skip = if rest.starts_with("use ") { 4 } else { 13 };
            let end = chars[i..].iter().position(|c| *c == ';').map_or(chars.len(), |k| i + k);
            let tree: String = chars[i + skip..end].iter().collect();
            for p in expand_use(&tree) {
                out.push(FoundPath { line: line_at(i), segments: p });
            }
            for c in covered.iter_mut().take(end).skip(i) {
                *c = true;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    // Other paths: identifiers joined by `::`.
    let mut i = 0;
    while i < chars.len() {
        if covered[i] {
            i += 1;
            continue;
        }
        let starts_ident = (chars[i].is_alphabetic() || chars[i] == '_') && !ident_char(chars.get(i.wrapping_sub(1)));
        let starts_global = chars[i] == ':'
            && chars.get(i + 1) == Some(&':')
            && !ident_char(chars.get(i.wrapping_sub(1)))
            && chars.get(i.wrapping_sub(1)) != Some(&':')
            && chars.get(i.wrapping_sub(1)) != Some(&'>');
        if !(starts_ident || starts_global) {
            i += 1;
            continue;
        }
        let start = i;
        let mut segs = Vec::new();
        if starts_global {
            segs.push(String::new());
            i += 2;
        }
        loop {
            let s = i;
            while i < chars.len() && ident_char(chars.get(i)) {
                i += 1;
            }
            if s == i {
                break;
            }
            segs.push(chars[s..i].iter().collect());
            if chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':') {
                i += 2;
            } else {
                break;
            }
        }
        if segs.len() >= 2 {
            out.push(FoundPath { line: line_at(start), segments: segs });
        }
        i = i.max(start + 1);
    }
    out
}

/// Expands a use tree (`crate::{a, b::{c, d as e}}`) into its paths (aliases dropped).
pub fn expand_use(tree: &str) -> Vec<Vec<String>> {
    let t: String = tree.chars().filter(|c| !c.is_whitespace() || *c == ' ').collect();
    let mut out = Vec::new();
    expand(&t, Vec::new(), &mut out);
    out
}

fn expand(t: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let t = t.trim();
    if t.is_empty() {
        if !prefix.is_empty() {
            out.push(prefix);
        }
        return;
    }
    // Split at the first top-level `{`.
    if let Some(open) = t.find('{') {
        let head = t[..open].trim().trim_end_matches("::");
        let mut p = prefix;
        p.extend(segments(head));
        let inner = &t[open + 1..t.rfind('}').unwrap_or(t.len())];
        for part in split_top(inner) {
            expand(part, p.clone(), out);
        }
    } else {
        let path = t.split(" as ").next().unwrap_or(t).trim();
        let mut p = prefix;
        p.extend(segments(path));
        if !p.is_empty() {
            out.push(p);
        }
    }
}

fn segments(path: &str) -> Vec<String> {
    let segs: Vec<String> = path.split("::").map(|s| s.trim().to_string()).collect();
    // `::wgpu` keeps its empty first segment, so it reads as an external crate.
    let global = segs.len() > 1 && segs[0].is_empty();
    let rest = segs.into_iter().filter(|s| !s.is_empty());
    if global { std::iter::once(String::new()).chain(rest).collect() } else { rest.collect() }
}

fn split_top(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// The module path of a source file under `src/` (`src/ui/manager/mod.rs` → `ui::manager`).
pub fn module_of(relative: &str) -> Vec<String> {
    let p = relative.trim_start_matches("src/").trim_end_matches(".rs");
    let mut segs: Vec<String> = p.split('/').map(str::to_string).collect();
    if segs.last().is_some_and(|s| s == "mod" || s == "lib" || s == "main") {
        segs.pop();
    }
    segs
}

/// Where a path points, made absolute: `crate::a::b` → `["a", "b"]`; `super::x` from module
/// `m::n` → `["m", "x"]`; anything else (external crates, `std`, local names) as written,
/// with a leading `::` dropped. The second value says whether it is inside this crate.
pub fn resolve(path: &[String], module: &[String]) -> (Vec<String>, bool) {
    match path.first().map(String::as_str) {
        Some("crate") => (path[1..].to_vec(), true),
        Some("self") => {
            let mut m = module.to_vec();
            m.extend(path[1..].iter().cloned());
            (m, true)
        }
        Some("super") => {
            let mut m = module.to_vec();
            let mut k = 0;
            while path.get(k).is_some_and(|s| s == "super") {
                m.pop();
                k += 1;
            }
            m.extend(path[k..].iter().cloned());
            (m, true)
        }
        Some("") => (path[1..].to_vec(), false),
        _ => (path.to_vec(), false),
    }
}

/// Float literals in a line of code: `1.0`, `2.5e3`, `1e-3`, and suffixed ones (`2f32`,
/// `1.0_f64`). Tuple fields (`t.0`) and ranges (`0..9`) are not floats.
pub fn float_literals(code: &str) -> Vec<String> {
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let prev = i.checked_sub(1).and_then(|k| b.get(k));
        let starts = b[i].is_ascii_digit() && !ident_char(prev) && prev != Some(&'.');
        if !starts {
            i += 1;
            continue;
        }
        let s = i;
        if b[i] == '0' && matches!(b.get(i + 1), Some('x' | 'o' | 'b')) {
            i += 2;
            while i < b.len() && (b[i].is_ascii_hexdigit() || b[i] == '_') {
                i += 1;
            }
            continue;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == '_') {
            i += 1;
        }
        let mut float = false;
        if b.get(i) == Some(&'.') && b.get(i + 1).is_some_and(char::is_ascii_digit) {
            float = true;
            i += 1;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == '_') {
                i += 1;
            }
        }
        if matches!(b.get(i), Some('e' | 'E'))
            && (b.get(i + 1).is_some_and(char::is_ascii_digit)
                || (matches!(b.get(i + 1), Some('-' | '+')) && b.get(i + 2).is_some_and(char::is_ascii_digit)))
        {
            float = true;
            i += 2;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == '_') {
                i += 1;
            }
        }
        let rest: String = b[i..(i + 3).min(b.len())].iter().collect();
        if rest == "f32" || rest == "f64" {
            float = true;
            i += 3;
        }
        if float {
            out.push(b[s..i].iter().collect());
        }
        while i < b.len() && ident_char(b.get(i)) {
            i += 1;
        }
    }
    out
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
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
