//! Tokens of the WND layout language, each with its line and column.

use super::error::WndError;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A bare word: keywords, flag names, image and callback names.
    Word(String),
    /// A whole number (possibly negative).
    Int(i64),
    /// A decimal number.
    Real(f64),
    /// A quoted string (without the quotes).
    Str(String),
    /// `=`, `;`, `:`, `,` or `+`.
    Punct(char),
}

/// A token and where it starts (1-based).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Line.
    pub line: usize,
    /// Column.
    pub col: usize,
}

/// True for bytes that may be part of a bare word (any non-ASCII byte counts, so names in
/// other scripts survive).
fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(b, b'_' | b'[' | b']' | b'.' | b'\\' | b'/' | b'-' | b'#' | b'\'')
        || b >= 0x80
}

/// Splits a layout's text into tokens. `//` comments are skipped. Columns count characters.
pub fn lex(path: &str, text: &str) -> Result<Vec<Token>, WndError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 6);
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    // Advances over one byte, keeping line and (character) column.
    let step = |i: &mut usize, line: &mut usize, col: &mut usize| {
        let b = bytes[*i];
        *i += 1;
        if b == b'\n' {
            *line += 1;
            *col = 1;
        } else if b & 0xC0 != 0x80 {
            *col += 1;
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        let (l, k) = (line, col);
        if b.is_ascii_whitespace() {
            step(&mut i, &mut line, &mut col);
            continue;
        }
        if text[i..].starts_with('\u{feff}') {
            i += 3;
            continue;
        }
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                step(&mut i, &mut line, &mut col);
            }
            continue;
        }
        if b == b'"' {
            step(&mut i, &mut line, &mut col);
            let start = i;
            let mut escaped = false;
            loop {
                match bytes.get(i) {
                    None | Some(b'\n') => return Err(WndError::new(path, l, k, "unterminated string")),
                    Some(b'"') => break,
                    Some(b'\\') if bytes.get(i + 1) == Some(&b'"') => {
                        escaped = true;
                        step(&mut i, &mut line, &mut col);
                        step(&mut i, &mut line, &mut col);
                    }
                    Some(_) => step(&mut i, &mut line, &mut col),
                }
            }
            let raw = &text[start..i];
            step(&mut i, &mut line, &mut col);
            let s = if escaped { raw.replace("\\\"", "\"") } else { raw.to_string() };
            out.push(Token { tok: Tok::Str(s), line: l, col: k });
            continue;
        }
        if matches!(b, b'=' | b';' | b':' | b',' | b'+') {
            step(&mut i, &mut line, &mut col);
            out.push(Token { tok: Tok::Punct(b as char), line: l, col: k });
            continue;
        }
        let starts_number = b.is_ascii_digit() || (b == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit));
        if starts_number {
            let start = i;
            step(&mut i, &mut line, &mut col);
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                step(&mut i, &mut line, &mut col);
            }
            let s = &text[start..i];
            let tok = if s.contains('.') {
                Tok::Real(s.parse().map_err(|_| WndError::new(path, l, k, format!("bad number \"{s}\"")))?)
            } else {
                Tok::Int(s.parse().map_err(|_| WndError::new(path, l, k, format!("bad number \"{s}\"")))?)
            };
            out.push(Token { tok, line: l, col: k });
            continue;
        }
        if word_byte(b) {
            let start = i;
            while i < bytes.len() && word_byte(bytes[i]) {
                step(&mut i, &mut line, &mut col);
            }
            out.push(Token { tok: Tok::Word(text[start..i].to_string()), line: l, col: k });
            continue;
        }
        let c = text[i..].chars().next().unwrap_or('?');
        return Err(WndError::new(path, l, k, format!("unexpected character '{c}'")));
    }
    Ok(out)
}
