//! The documents cannot show what does not exist: every `ridgeline <subcommand> --flag` in
//! README.md and docs/*.md (in code blocks and inline code) is a subcommand of the built binary
//! and a flag its `--help` lists; docs/command-line.md shows every subcommand; every link and
//! every repository path a page names exists.
//!
//! The checker is tested with commands that must fail (a made-up flag, a made-up subcommand).

use crate::common;
use crate::common::markdown;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// README.md and every page under docs/, as (path from the root, text).
fn pages() -> Vec<(PathBuf, String)> {
    let root = common::root();
    let mut out = vec![(PathBuf::from("README.md"), common::read(&root.join("README.md")))];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    for p in docs {
        let rel = p.strip_prefix(&root).unwrap().to_path_buf();
        out.push((rel, common::read(&p)));
    }
    out
}

/// What one `--help` says: its subcommands and its flags (each with whether it takes a value).
#[derive(Clone, Debug, Default)]
struct Help {
    subcommands: Vec<String>,
    flags: BTreeMap<String, bool>,
}

impl Help {
    fn parse(text: &str) -> Help {
        let mut help = Help::default();
        let mut section = "";
        for line in text.lines() {
            if !line.starts_with(' ') {
                section = line.trim_end_matches(':');
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match section {
                "Commands" => help.subcommands.extend(words.first().map(|w| w.to_string())),
                "Options" if words.first().is_some_and(|w| w.starts_with('-')) => {
                    for (i, w) in words.iter().enumerate() {
                        if let Some(name) = w.trim_end_matches(',').strip_prefix("--") {
                            let value = words.get(i + 1).is_some_and(|v| v.starts_with('<'));
                            help.flags.insert(name.to_string(), value);
                        }
                    }
                }
                _ => {}
            }
        }
        help
    }
}

/// The built binary's `--help` for a subcommand path, asked once per path.
#[derive(Default)]
struct Binary(BTreeMap<Vec<String>, Help>);

impl Binary {
    fn help(&mut self, path: &[String]) -> &Help {
        self.0.entry(path.to_vec()).or_insert_with(|| {
            let out = common::ridgeline().args(path).arg("--help").output().expect("binary runs");
            assert!(out.status.success(), "ridgeline {} --help failed", path.join(" "));
            Help::parse(&String::from_utf8_lossy(&out.stdout))
        })
    }
}

/// Every invocation of the binary in a piece of code: the words after `ridgeline` up to the end
/// of the command (a comment, a pipe, a redirection, `;`, `&&`).
fn invocations(code: &str) -> Vec<Vec<String>> {
    let words: Vec<&str> = code.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if *w != "ridgeline" && !w.ends_with("/ridgeline") {
            continue;
        }
        let args = words[i + 1..]
            .iter()
            .take_while(|w| !w.starts_with('#') && !matches!(**w, "|" | ";" | "&&" | "||" | ">" | "2>" | "<"))
            .map(|w| w.to_string())
            .collect();
        out.push(args);
    }
    out
}

/// What is wrong with one invocation, if anything: an unknown subcommand or a flag the
/// subcommand's `--help` does not list.
fn check(binary: &mut Binary, args: &[String]) -> Option<String> {
    let mut path: Vec<String> = Vec::new();
    let mut skip_value = false;
    for arg in args {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        let arg = arg.trim_start_matches(['[', '(']);
        let help = binary.help(&path).clone();
        if let Some(flag) = arg.strip_prefix("--") {
            let name: String = flag.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            match help.flags.get(&name) {
                Some(takes_value) => skip_value = *takes_value && !flag.contains('='),
                None => {
                    let known: Vec<&String> = help.flags.keys().collect();
                    return Some(format!(
                        "`ridgeline {}` has no --{name} (its --help lists {known:?})",
                        path.join(" ")
                    ));
                }
            }
        } else if !help.subcommands.is_empty() {
            if arg.starts_with(['<', '\'', '…']) {
                return None;
            }
            if !help.subcommands.iter().any(|s| s == arg) {
                let name =
                    if path.is_empty() { "ridgeline".to_string() } else { format!("ridgeline {}", path.join(" ")) };
                return Some(format!("`{name}` has no subcommand `{arg}` (its --help lists {:?})", help.subcommands));
            }
            path.push(arg.to_string());
        }
    }
    None
}

/// Every problem on one page, as `page:line: message`, and how many invocations it checked.
fn problems(binary: &mut Binary, page: &Path, text: &str) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut seen = 0;
    for code in markdown::code(text) {
        for args in invocations(&code.text) {
            seen += 1;
            if let Some(p) = check(binary, &args) {
                out.push(format!("{}:{}: {p}", page.display(), code.line));
            }
        }
    }
    (out, seen)
}

#[test]
fn every_command_the_docs_show_exists() {
    let mut binary = Binary::default();
    let mut all = Vec::new();
    let mut seen = 0;
    for (page, text) in pages() {
        let (p, n) = problems(&mut binary, &page, &text);
        all.extend(p);
        seen += n;
    }
    assert!(seen >= 60, "only {seen} commands found in the docs: is the scanner reading them?");
    assert!(all.is_empty(), "the docs show commands the binary does not have:\n{}", all.join("\n"));
}

#[test]
fn the_checker_catches_a_made_up_flag_or_subcommand() {
    let mut binary = Binary::default();
    let page = Path::new("docs/made-up.md");
    let bad = [
        "```sh\nridgeline sim --map proving_grounds --made-up-flag 3\n```",
        "Run `ridgeline sim --map x\n--frames 3 --jsn` to see.",
        "```sh\nridgeline screenshot --map m \\\n    --out a.png --camra fight\n```",
        "`ridgeline simulate --map proving_grounds`",
        "`ridgeline bench rander`",
        "`ridgeline bench render --quality low --units 5`",
        "`ridgeline mod new my-hud --json`",
        "`ridgeline --mod m sim --jsn`",
        "`target/release/ridgeline relay --stats`",
    ];
    for text in bad {
        let (p, n) = problems(&mut binary, page, text);
        assert_eq!((p.len(), n), (1, 1), "{text:?} should give one problem: {p:?}");
    }
    let good = [
        "`ridgeline bench render --quality low`",
        "`ridgeline --mod m sim --json` and `ridgeline mod new <name> [layout.wnd…]`",
        "```sh\nridgeline join 'rl1@x/…' --connect 203.0.113.9:47600 # a comment --not-a-flag\n```",
        "`ridgeline bench <sim|roads> --anything`",
    ];
    for text in good {
        let (p, n) = problems(&mut binary, page, text);
        assert!(p.is_empty() && n >= 1, "{text:?} is fine: {p:?}");
    }
    let (p, _) = problems(&mut binary, page, "`ridgeline sim --jsn`");
    assert!(p[0].starts_with("docs/made-up.md:1: `ridgeline sim` has no --jsn"), "{p:?}");
}

#[test]
fn the_command_line_page_shows_every_subcommand() {
    let mut binary = Binary::default();
    let page = common::read(&common::root().join("docs/command-line.md"));
    let shown: Vec<Vec<String>> = markdown::code(&page).iter().flat_map(|c| invocations(&c.text)).collect();
    let mut missing = Vec::new();
    let top = binary.help(&[]).subcommands.clone();
    for sub in top.iter().filter(|s| *s != "help") {
        let path = vec![sub.clone()];
        let nested = binary.help(&path).subcommands.clone();
        let wanted: Vec<Vec<String>> = if nested.is_empty() {
            vec![path]
        } else {
            nested.iter().filter(|n| *n != "help").map(|n| vec![sub.clone(), n.clone()]).collect()
        };
        for w in wanted {
            if !shown.iter().any(|s| s.starts_with(&w)) {
                missing.push(format!("ridgeline {}", w.join(" ")));
            }
        }
    }
    assert!(missing.is_empty(), "docs/command-line.md shows no example of: {missing:?}");
}

#[test]
fn every_link_and_path_the_docs_name_exists() {
    let root = common::root();
    let mut missing = Vec::new();
    for (page, text) in pages() {
        let dir = page.parent().unwrap_or(Path::new(""));
        for (line, target) in markdown::links(&text) {
            if !markdown::exists(&root, dir, &target) {
                missing.push(format!("{}:{line}: link to {target}", page.display()));
            }
        }
        for code in markdown::code(&text) {
            if let Some(path) = markdown::repo_path(&code.text).filter(|p| !markdown::exists(&root, dir, p)) {
                missing.push(format!("{}:{}: {path}", page.display(), code.line));
            }
        }
    }
    assert!(missing.is_empty(), "the docs name what does not exist:\n{}", missing.join("\n"));
}

#[test]
fn the_markdown_reader_finds_blocks_spans_continuations_links_and_paths() {
    let page = "Run `ridgeline sim\n--json` now.\n```sh\nridgeline a \\\n  --b\nridgeline c\n```\n`x` [p](docs/no.md)";
    let texts: Vec<(usize, String)> = markdown::code(page).into_iter().map(|c| (c.line, c.text)).collect();
    assert_eq!(
        texts,
        [
            (1, "ridgeline sim --json".to_string()),
            (4, "ridgeline a    --b ".to_string()),
            (6, "ridgeline c ".to_string()),
            (8, "x".to_string())
        ]
    );
    assert_eq!(markdown::links(page), [(8, "docs/no.md".to_string())]);
    let root = common::root();
    assert!(!markdown::exists(&root, Path::new("docs"), "docs/no.md"));
    assert!(markdown::exists(&root, Path::new("docs"), "../deploy/README.md#limits"));
    assert_eq!(markdown::repo_path("src/sim/nothing_here.rs"), Some("src/sim/nothing_here.rs"));
    assert_eq!(markdown::repo_path("--into mods/my-port"), None);
    assert_eq!(markdown::repo_path("maps/<name>/"), None);
}
