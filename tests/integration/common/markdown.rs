//! Reading the project's Markdown pages for the docs tests: the code they show (fenced blocks
//! and inline spans, each with the line it starts on), the links they make and the repository
//! paths they name.

use std::path::Path;

/// A piece of code on a page: a logical line of a fenced block (a trailing `\` joins the next
/// line) or an inline span (which may run over a line break), with the line it starts on.
#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    /// The 1-based line of the page where it starts.
    pub line: usize,
    /// The code, its line breaks turned into spaces.
    pub text: String,
}

/// Every piece of code on a page.
pub fn code(page: &str) -> Vec<Code> {
    let mut out = Vec::new();
    let mut fence = false;
    let mut pending: Option<Code> = None;
    let mut prose = String::new();
    let mut prose_lines = Vec::new();
    for (i, line) in page.lines().enumerate() {
        let n = i + 1;
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if !fence {
            prose_lines.push((prose.len(), n));
            prose.push_str(line);
            prose.push('\n');
            continue;
        }
        let (body, more) = match line.trim_end().strip_suffix('\\') {
            Some(body) => (body, true),
            None => (line, false),
        };
        let piece = pending.get_or_insert_with(|| Code { line: n, text: String::new() });
        piece.text.push_str(body);
        piece.text.push(' ');
        if !more {
            out.extend(pending.take());
        }
    }
    out.extend(pending);
    // Inline spans: text between single backticks, over line breaks within a paragraph.
    let line_at = |offset: usize| prose_lines.iter().rev().find(|(start, _)| *start <= offset).map_or(1, |(_, n)| *n);
    let mut rest = prose.as_str();
    let mut offset = 0;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let span = &after[..close];
        if !span.contains("\n\n") {
            out.push(Code { line: line_at(offset + open), text: span.replace('\n', " ") });
        }
        let used = open + 1 + close + 1;
        offset += used;
        rest = &rest[used..];
    }
    out.sort_by_key(|c| c.line);
    out
}

/// The targets of a page's Markdown links (`[text](target)`), with their lines; web links and
/// anchors within the page are left out.
pub fn links(page: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in page.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = &after[..end];
            if !target.contains("://") && !target.starts_with('#') && !target.starts_with("mailto:") {
                out.push((i + 1, target.to_string()));
            }
            rest = &after[end..];
        }
    }
    out
}

/// Folders at the repository's top whose paths a page may name in backticks.
const ROOTS: [&str; 11] =
    ["src/", "tests/", "data/", "ui/", "maps/", "mods/", "deploy/", "docs/", "benches/", ".ci/", "shaders/"];

/// The repository path a piece of code is, if it is one: a single word that starts with one of
/// the top folders and is not a pattern (`maps/<name>/`, `data/sounds/*.wav`, `…`). Words inside
/// a command (`--into mods/my-port`) are examples, not claims, and are left alone.
pub fn repo_path(code: &str) -> Option<&str> {
    let word = code.trim().trim_end_matches(['.', ':']);
    let one = !word.is_empty() && !word.contains(char::is_whitespace);
    (one && ROOTS.iter().any(|r| word.starts_with(r)) && !word.contains(['<', '*', '…', '{', '|'])).then_some(word)
}

/// Whether `path` (from the repository root, or relative to the page's folder) exists.
pub fn exists(root: &Path, page_dir: &Path, path: &str) -> bool {
    let path = path.split('#').next().unwrap_or(path);
    root.join(path).exists() || root.join(page_dir).join(path).exists()
}
