//! The settings file as its top-level fields, each value the text it is written as, so a save
//! can write only what this copy of the game changed on top of what is on disk now: another
//! copy's changes, and fields a newer version wrote that this one does not know, survive.
//!
//! Must not: interpret a value (the settings' own parser does, after the merge), or drop a
//! field from the disk's text that this copy did not change.

/// The top-level `name: value` entries of a RON struct's text (`( … )`, maybe named), in
/// order, each value as written (comments inside it kept, trimmed); None when the text is not
/// such a struct.
pub fn fields(text: &str) -> Option<Vec<(String, String)>> {
    let b = text.as_bytes();
    let mut i = skip_blank(b, 0);
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    i = skip_blank(b, i);
    if b.get(i) != Some(&b'(') {
        return None;
    }
    i += 1;
    let mut out = Vec::new();
    loop {
        i = skip_blank(b, i);
        if b.get(i) == Some(&b')') {
            i += 1;
            break;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if i == start {
            return None;
        }
        let name = text.get(start..i)?.to_string();
        i = skip_blank(b, i);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let value_start = i + 1;
        i = value_end(b, value_start)?;
        let value = text.get(value_start..i)?.trim().to_string();
        if value.is_empty() {
            return None;
        }
        out.push((name, value));
        match b.get(i) {
            Some(b',') => i += 1,
            Some(b')') => {}
            _ => return None,
        }
    }
    (skip_blank(b, i) == b.len()).then_some(out)
}

/// The position after whitespace and comments from `i`.
fn skip_blank(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = block_comment_end(b, i);
        } else {
            return i;
        }
    }
}

/// The position after the (nested) block comment starting at `i`.
fn block_comment_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if b[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Where the value starting at `i` ends: the `,` or `)` at its own level (brackets, strings,
/// characters and comments skipped); None when the text ends first.
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return (b[i] == b')').then_some(i),
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => return Some(i),
            b'"' => i = string_end(b, i)?,
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !is_word(b[i - 1])) => {
                i = raw_string_end(b, i)?
            }
            b'\'' => i = char_end(b, i)?,
            b'/' if matches!(b.get(i + 1), Some(b'/' | b'*')) => {
                i = skip_blank(b, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The position of the closing quote of the string opening at `i`.
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The position of the last byte of the raw string (`r"…"`, `r#"…"#`) opening at `i`.
fn raw_string_end(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    let hashes = b[i..].iter().take_while(|&&c| c == b'#').count();
    i += hashes;
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let from = i + 1;
    b[from..].windows(close.len()).position(|w| w == close.as_slice()).map(|p| from + p + close.len() - 1)
}

/// The position of the closing quote of the character opening at `i`.
fn char_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    if b.get(j) == Some(&b'\\') {
        j += 1;
    }
    j += 1;
    while j < b.len() && b[j] != b'\'' {
        j += 1;
    }
    (j < b.len()).then_some(j)
}

/// The fields of `disk` with each field `mine` has changed since `base` (its value differs, or
/// `base` has none) taken from `mine`, fields `disk` lacks added from `mine`; disk's order
/// and its other fields (those of a newer version included) kept.
pub fn merge(
    disk: &[(String, String)],
    mine: &[(String, String)],
    base: Option<&[(String, String)]>,
) -> Vec<(String, String)> {
    let value = |list: &[(String, String)], name: &str| list.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let mut out = disk.to_vec();
    for (name, v) in mine {
        let changed = base.is_none_or(|b| value(b, name).as_deref() != Some(v.as_str()));
        match out.iter_mut().find(|(n, _)| n == name) {
            Some(entry) if changed => entry.1 = v.clone(),
            Some(_) => {}
            None => out.push((name.clone(), v.clone())),
        }
    }
    out
}

/// The fields as a settings file's text.
pub fn text_of(fields: &[(String, String)]) -> String {
    let mut out = String::from("(\n");
    for (name, value) in fields {
        out.push_str(&format!("    {name}: {value},\n"));
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn fields_are_split_at_their_own_level_with_strings_and_comments_kept_whole() {
        let text = "// mine\nSettings(\n  a: (1, 2), // size\n  b: \"x, y)\",\n  c: [\n    \"m\",\n  ],\n  d: r#\"q\"),\"#,\n  e: ',',\n  f: Low\n)\n";
        let f = fields(text).unwrap();
        assert_eq!(
            f,
            pairs(&[
                ("a", "(1, 2)"),
                ("b", "\"x, y)\""),
                ("c", "[\n    \"m\",\n  ]"),
                ("d", "r#\"q\"),\"#"),
                ("e", "','"),
                ("f", "Low")
            ])
        );
        for bad in ["", "(a: )", "(a 1)", "(a: 1) x", "(a: \"open)", "[1]"] {
            assert_eq!(fields(bad), None, "{bad:?}");
        }
        assert_eq!(fields("()"), Some(vec![]));
    }

    #[test]
    fn only_what_this_copy_changed_is_written_over_the_disk() {
        let base = pairs(&[("music", "60"), ("name", "\"A\""), ("sfx", "80")]);
        let mine = pairs(&[("music", "60"), ("name", "\"B\""), ("sfx", "80")]);
        // Another copy set the music to 40 meanwhile, and a newer version added `zoom`.
        let disk = pairs(&[("zoom", "3"), ("music", "40"), ("name", "\"A\"")]);
        let merged = merge(&disk, &mine, Some(&base));
        assert_eq!(merged, pairs(&[("zoom", "3"), ("music", "40"), ("name", "\"B\""), ("sfx", "80")]));
        // Without a base every field of this copy wins; unknown ones stay.
        assert_eq!(
            merge(&disk, &mine, None),
            pairs(&[("zoom", "3"), ("music", "60"), ("name", "\"B\""), ("sfx", "80")])
        );
        assert_eq!(fields(&text_of(&merged)), Some(merged));
    }
}
