//! Reading a key's value: `LABEL: values` groups, numbers, colours, flags, a single string and
//! draw data, each refused at its own line and column when it is malformed or past a limit.
//!
//! Must not: read past the value it is given (the window parser hands each key's tokens over).

use crate::content::limits::MAX_WINDOW_TEXT;

use super::super::error::WndError;
use super::super::lexer::{Tok, Token};
use super::super::model::{DrawEntry, Rgba};
use super::{Group, Parser, show, show_key};

impl Parser<'_> {
    /// Splits a value into `LABEL: values` groups separated by commas.
    pub(super) fn groups(&self, value: &[Token]) -> Result<Vec<Group>, WndError> {
        let mut out: Vec<Group> = Vec::new();
        let mut i = 0;
        while i < value.len() {
            let t = &value[i];
            let Tok::Word(label) = &t.tok else {
                return Err(self.err(t, format!("expected a label, found {}", show(&t.tok))));
            };
            match value.get(i + 1) {
                Some(Token { tok: Tok::Punct(':'), .. }) => {}
                Some(o) => return Err(self.err(o, format!("expected ':' after {label}, found {}", show(&o.tok)))),
                None => return Err(self.err(t, format!("expected ':' after {label}"))),
            }
            i += 2;
            let mut values = Vec::new();
            while i < value.len() && value[i].tok != Tok::Punct(',') {
                values.push(value[i].tok.clone());
                i += 1;
            }
            i += 1; // the comma
            out.push(Group { label: label.clone(), values, line: t.line, col: t.col });
        }
        Ok(out)
    }

    pub(super) fn ints(&self, g: &Group, n: usize) -> Result<Vec<i64>, WndError> {
        let v: Vec<i64> = g
            .values
            .iter()
            .filter_map(|t| match t {
                Tok::Int(i) => Some(*i),
                Tok::Real(r) => Some(*r as i64),
                _ => None,
            })
            .collect();
        if v.len() < n || v.len() != g.values.len() {
            return Err(WndError::new(self.path, g.line, g.col, format!("{} needs {n} number(s)", g.label)));
        }
        Ok(v)
    }

    pub(super) fn color(&self, g: &Group) -> Result<Rgba, WndError> {
        let v = self.ints(g, 4)?;
        if let Some(bad) = v.iter().take(4).find(|c| !(0..=255).contains(*c)) {
            return Err(WndError::new(
                self.path,
                g.line,
                g.col,
                format!("{}: {bad} is not a colour channel (0 to 255)", g.label),
            ));
        }
        Ok([0, 1, 2, 3].map(|k| v[k] as u8))
    }

    /// Flag bits and the names it does not know (kept, not used).
    pub(super) fn flags(
        &mut self,
        value: &[Token],
        bit: fn(&str) -> u32,
        what: &str,
    ) -> Result<(u32, Vec<String>), WndError> {
        let mut bits = 0;
        let mut unknown = Vec::new();
        for t in value {
            match &t.tok {
                Tok::Punct('+') => {}
                Tok::Word(w) => {
                    let b = bit(w);
                    if b == 0 {
                        let table: &[(&str, u32)] = if what == "status" {
                            &super::super::model::STATUS_FLAGS
                        } else {
                            &super::super::model::STYLE_FLAGS
                        };
                        let hint = crate::content::suggest::did_you_mean(w, table.iter().map(|(n, _)| *n));
                        self.note(t.line, t.col, format!("unknown {what} flag {w} ignored{hint}"));
                        unknown.push(w.clone());
                    }
                    bits |= b;
                }
                Tok::Int(v) => bits |= *v as u32,
                other => return Err(self.err(t, format!("expected {what} flags, found {}", show(other)))),
            }
        }
        Ok((bits, unknown))
    }

    pub(super) fn single_string(&self, key: &Token, value: &[Token]) -> Result<String, WndError> {
        match value {
            [] => Ok(String::new()),
            [t] => match &t.tok {
                Tok::Str(s) | Tok::Word(s) if s.chars().nth(MAX_WINDOW_TEXT).is_some() => Err(self
                    .err(t, format!("{} is longer than {MAX_WINDOW_TEXT} characters (the limit)", show_key(&key.tok)))),
                Tok::Str(s) | Tok::Word(s) => Ok(s.clone()),
                Tok::Int(v) => Ok(v.to_string()),
                other => Err(self.err(t, format!("expected a string, found {}", show(other)))),
            },
            [_, extra, ..] => Err(self.err(extra, format!("{} takes one value", show(&key.tok)))),
        }
    }

    pub(super) fn draw_data(&self, value: &[Token]) -> Result<Vec<DrawEntry>, WndError> {
        let mut out: Vec<DrawEntry> = Vec::new();
        for g in self.groups(value)? {
            match g.label.as_str() {
                "IMAGE" => {
                    let name = match g.values.first() {
                        Some(Tok::Word(s) | Tok::Str(s)) => s.clone(),
                        _ => return Err(WndError::new(self.path, g.line, g.col, "IMAGE needs a name")),
                    };
                    out.push(DrawEntry { image: name, ..DrawEntry::default() });
                }
                "COLOR" | "BORDERCOLOR" => {
                    let c = self.color(&g)?;
                    let Some(last) = out.last_mut() else {
                        return Err(WndError::new(self.path, g.line, g.col, format!("{} before IMAGE", g.label)));
                    };
                    if g.label == "COLOR" {
                        last.color = c;
                    } else {
                        last.border = c;
                    }
                }
                other => {
                    return Err(WndError::new(self.path, g.line, g.col, format!("unknown draw data label {other}")));
                }
            }
        }
        Ok(out)
    }
}
