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

/// Splits a layout's text into tokens. `;` comments (a line starting with `;`) and `//`
/// comments are skipped.
pub fn lex(path: &str, text: &str) -> Result<Vec<Token>, WndError> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    while i < chars.len() {
        let c = chars[i];
        let (l, k) = (line, col);
        let advance = |i: &mut usize, line: &mut usize, col: &mut usize, ch: char| {
            *i += 1;
            if ch == '\n' {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
        };
        if c.is_whitespace() || c == '\u{feff}' {
            advance(&mut i, &mut line, &mut col, c);
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                let ch = chars[i];
                advance(&mut i, &mut line, &mut col, ch);
            }
            continue;
        }
        if c == '"' {
            advance(&mut i, &mut line, &mut col, c);
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None | Some('\n') => return Err(WndError::new(path, l, k, "unterminated string")),
                    Some('"') => {
                        advance(&mut i, &mut line, &mut col, '"');
                        break;
                    }
                    Some('\\') if chars.get(i + 1) == Some(&'"') => {
                        s.push('"');
                        advance(&mut i, &mut line, &mut col, '\\');
                        advance(&mut i, &mut line, &mut col, '"');
                    }
                    Some(&ch) => {
                        s.push(ch);
                        advance(&mut i, &mut line, &mut col, ch);
                    }
                }
            }
            out.push(Token { tok: Tok::Str(s), line: l, col: k });
            continue;
        }
        if matches!(c, '=' | ';' | ':' | ',' | '+') {
            advance(&mut i, &mut line, &mut col, c);
            out.push(Token { tok: Tok::Punct(c), line: l, col: k });
            continue;
        }
        let starts_number = c.is_ascii_digit() || (c == '-' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()));
        if starts_number {
            let mut s = String::new();
            while let Some(&ch) = chars.get(i) {
                if ch.is_ascii_digit() || ch == '.' || (ch == '-' && s.is_empty()) {
                    s.push(ch);
                    advance(&mut i, &mut line, &mut col, ch);
                } else {
                    break;
                }
            }
            let tok = if s.contains('.') {
                Tok::Real(s.parse().map_err(|_| WndError::new(path, l, k, format!("bad number \"{s}\"")))?)
            } else {
                Tok::Int(s.parse().map_err(|_| WndError::new(path, l, k, format!("bad number \"{s}\"")))?)
            };
            out.push(Token { tok, line: l, col: k });
            continue;
        }
        if c.is_alphanumeric() || matches!(c, '_' | '[' | ']' | '.' | '\\' | '/' | '-' | '#' | '\'') {
            let mut s = String::new();
            while let Some(&ch) = chars.get(i) {
                if ch.is_alphanumeric() || matches!(ch, '_' | '[' | ']' | '.' | '\\' | '/' | '-' | '#' | '\'') {
                    s.push(ch);
                    advance(&mut i, &mut line, &mut col, ch);
                } else {
                    break;
                }
            }
            out.push(Token { tok: Tok::Word(s), line: l, col: k });
            continue;
        }
        return Err(WndError::new(path, l, k, format!("unexpected character '{c}'")));
    }
    Ok(out)
}
