//! The WND parser: tokens → [`WndFile`]. Every error names `file:line:col`; keys Ridgeline does
//! not use are kept as notes rather than refused, so layouts written for the original game load.

use crate::content::limits::{MAX_WINDOW_DEPTH, MAX_WINDOWS};

mod values;
mod window_keys;

use super::error::WndError;
use super::lexer::{Tok, Token, lex};
use super::model::{WindowDef, WndFile};
use window_keys::empty_window;

/// Parses a layout's text; `path` names it in errors.
pub fn parse(path: &str, text: &str) -> Result<WndFile, WndError> {
    let (file, slips) = parse_as(path, text, true)?;
    match slips.into_iter().next() {
        Some(first) => Err(first),
        None => Ok(file),
    }
}

/// As [`parse`], but a misspelt key (`TEXTCOLOUR`, near one Ridgeline reads) does not stop
/// it: the layout comes back with every such slip, so a checker reports them all beside what
/// it finds in the rest (`ui-check` in one run). Any other error still stops it.
pub fn parse_with_slips(path: &str, text: &str) -> Result<(WndFile, Vec<WndError>), WndError> {
    parse_as(path, text, true)
}

/// Parses a mod's patch of a layout (`ui/patches/<Layout>.wnd`): a layout whose windows need
/// give only the keys they change (no `SCREENRECT`).
pub fn parse_patch(path: &str, text: &str) -> Result<WndFile, WndError> {
    let (file, slips) = parse_as(path, text, false)?;
    match slips.into_iter().next() {
        Some(first) => Err(first),
        None => Ok(file),
    }
}

/// Parses; `need_rect`: every window must give its `SCREENRECT`. The misspelt keys met come
/// back beside the file.
fn parse_as(path: &str, text: &str, need_rect: bool) -> Result<(WndFile, Vec<WndError>), WndError> {
    let tokens = lex(path, text)?;
    let mut p = Parser {
        path,
        tokens,
        pos: 0,
        notes: Vec::new(),
        slips: Vec::new(),
        windows: 0,
        composite: Vec::new(),
        need_rect,
    };
    let mut file = WndFile::default();
    while let Some(t) = p.peek() {
        let (line, col) = (t.line, t.col);
        match p.word()?.as_str() {
            "FILE_VERSION" => {
                p.expect('=')?;
                file.version = p.int()?;
                p.expect(';')?;
            }
            "STARTLAYOUTBLOCK" => loop {
                let key = p.word()?;
                if key == "ENDLAYOUTBLOCK" {
                    break;
                }
                p.expect('=')?;
                let value = p.callback()?;
                p.expect(';')?;
                match key.as_str() {
                    "LAYOUTINIT" => file.layout_init = value,
                    "LAYOUTUPDATE" => file.layout_update = value,
                    "LAYOUTSHUTDOWN" => file.layout_shutdown = value,
                    other => p.note(line, col, format!("layout key {other} ignored")),
                }
            },
            "WINDOW" => file.windows.push(p.window(line, 1)?),
            other => {
                return Err(WndError::new(
                    path,
                    line,
                    col,
                    format!("expected WINDOW, STARTLAYOUTBLOCK or FILE_VERSION, found {other}"),
                ));
            }
        }
    }
    // The original game's composite gadgets (a list box's scroll buttons, a combo box's
    // parts) bring many draw keys: one note says so for the whole file.
    let mut composite = std::mem::take(&mut p.composite);
    if let Some(&(line, col, _)) = composite.first() {
        let count = composite.len();
        let mut keys: Vec<String> = composite.drain(..).map(|(_, _, k)| k).collect();
        keys.sort();
        keys.dedup();
        let shown = keys.iter().take(4).cloned().collect::<Vec<_>>().join(", ");
        let more = if keys.len() > 4 { format!(" and {} more", keys.len() - 4) } else { String::new() };
        p.note(
            line,
            col,
            format!("{count} composite-gadget draw key(s) ({shown}{more}) are not used by Ridgeline; kept and ignored"),
        );
    }
    file.notes = p.notes;
    Ok((file, p.slips))
}

struct Parser<'a> {
    path: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    notes: Vec<String>,
    /// Misspelt keys met (each a problem; the key is kept, unused, and reading goes on).
    slips: Vec<WndError>,
    /// Windows read so far (at most [`MAX_WINDOWS`]).
    windows: usize,
    /// Composite gadgets' draw keys met (line, column, key), summed up in one note.
    composite: Vec<(usize, usize, String)>,
    /// Every window must give its `SCREENRECT` (a patch's need not).
    need_rect: bool,
}

/// One `LABEL: values` group of a property value.
struct Group {
    label: String,
    values: Vec<Tok>,
    line: usize,
    col: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn end_error(&self, what: &str) -> WndError {
        let (line, col) = self.tokens.last().map_or((1, 1), |t| (t.line, t.col));
        WndError::new(self.path, line, col, format!("unexpected end of file, expected {what}"))
    }

    fn next(&mut self, what: &str) -> Result<Token, WndError> {
        if self.pos >= self.tokens.len() {
            return Err(self.end_error(what));
        }
        // Tokens are read once: move each out instead of cloning it.
        let slot = &mut self.tokens[self.pos];
        let t = Token { tok: std::mem::replace(&mut slot.tok, Tok::Punct(' ')), line: slot.line, col: slot.col };
        self.pos += 1;
        Ok(t)
    }

    fn err(&self, t: &Token, message: impl Into<String>) -> WndError {
        WndError::new(self.path, t.line, t.col, message)
    }

    fn note(&mut self, line: usize, col: usize, message: String) {
        self.notes.push(format!("{}:{line}:{col}: {message}", self.path));
    }

    fn word(&mut self) -> Result<String, WndError> {
        let t = self.next("a keyword")?;
        match t.tok {
            Tok::Word(w) => Ok(w),
            _ => Err(self.err(&t, format!("expected a keyword, found {}", show(&t.tok)))),
        }
    }

    fn expect(&mut self, c: char) -> Result<(), WndError> {
        let t = self.next(&format!("'{c}'"))?;
        if t.tok == Tok::Punct(c) {
            Ok(())
        } else {
            Err(self.err(&t, format!("expected '{c}', found {}", show(&t.tok))))
        }
    }

    fn int(&mut self) -> Result<i64, WndError> {
        let t = self.next("a number")?;
        match t.tok {
            Tok::Int(v) => Ok(v),
            _ => Err(self.err(&t, format!("expected a number, found {}", show(&t.tok)))),
        }
    }

    /// A callback name: a string or word; `[None]` (any case) is none.
    fn callback(&mut self) -> Result<Option<String>, WndError> {
        let t = self.next("a callback name")?;
        let s = match t.tok {
            Tok::Str(s) | Tok::Word(s) => s,
            _ => return Err(self.err(&t, format!("expected a callback name, found {}", show(&t.tok)))),
        };
        Ok(if s.eq_ignore_ascii_case("[none]") || s.is_empty() { None } else { Some(s) })
    }

    /// The tokens of a property value, up to (and eating) the `;`.
    fn value(&mut self) -> Result<Vec<Token>, WndError> {
        let mut out: Vec<Token> = Vec::new();
        loop {
            let t = self.next("';'")?;
            if t.tok == Tok::Punct(';') {
                return Ok(out);
            }
            if let Tok::Word(w) = &t.tok
                && matches!(w.as_str(), "WINDOW" | "END" | "CHILD" | "ENDALLCHILDREN")
            {
                return Err(self.err(&t, format!("missing ';' before {w}")));
            }
            // A word starting a later line and followed by `=` is the next key: the value
            // before it lacks its `;` (say so at the end of that value's line).
            if let (Tok::Word(w), Some(last)) = (&t.tok, out.last())
                && t.line > last.line
                && self.peek().is_some_and(|n| n.tok == Tok::Punct('='))
            {
                return Err(WndError::new(
                    self.path,
                    last.line,
                    last.col,
                    format!("missing ';' at the end of this line (before {w} on line {})", t.line),
                ));
            }
            out.push(t);
        }
    }

    /// A `WINDOW` block up to its `END` (the keyword itself was read), `depth` windows deep:
    /// its keys one by one ([`Parser::window_key`]), its `CHILD` windows in turn.
    fn window(&mut self, line: usize, depth: usize) -> Result<WindowDef, WndError> {
        self.count_window(line, depth)?;
        let mut w = empty_window(line);
        let mut saw_rect = false;
        loop {
            // The file ending inside a window: say which window is left open.
            if self.pos >= self.tokens.len() {
                let named = if w.name.is_empty() { String::new() } else { format!(" \"{}\"", w.name) };
                return Err(WndError::new(
                    self.path,
                    line,
                    1,
                    format!("this WINDOW{named} has no END (the file ends first)"),
                ));
            }
            let key_tok = self.next("END")?;
            let Tok::Word(key) = &key_tok.tok else {
                return Err(self.err(&key_tok, format!("expected a window key or END, found {}", show(&key_tok.tok))));
            };
            match key.as_str() {
                "END" => break,
                "ENDALLCHILDREN" => continue,
                "CHILD" => {
                    let t = self.next("WINDOW")?;
                    if t.tok != Tok::Word("WINDOW".into()) {
                        return Err(self.err(&t, format!("expected WINDOW after CHILD, found {}", show(&t.tok))));
                    }
                    let child = self.window(t.line, depth + 1)?;
                    w.children.push(child);
                    continue;
                }
                "WINDOW" => return Err(self.err(&key_tok, "a nested WINDOW must follow CHILD")),
                _ => {}
            }
            self.expect('=')?;
            let value = self.value()?;
            let key = key.clone();
            w.key_lines.push((key.clone(), key_tok.line, key_tok.col));
            self.window_key(&mut w, &key_tok, &key, value)?;
            saw_rect |= key == "SCREENRECT";
        }
        if !saw_rect && self.need_rect {
            return Err(WndError::new(self.path, line, 1, format!("window \"{}\" has no SCREENRECT", w.name)));
        }
        Ok(w)
    }

    /// Counts one more window, `depth` deep: refused past [`MAX_WINDOWS`] in the layout or
    /// [`MAX_WINDOW_DEPTH`] deep.
    fn count_window(&mut self, line: usize, depth: usize) -> Result<(), WndError> {
        self.windows += 1;
        if self.windows > MAX_WINDOWS {
            return Err(WndError::new(
                self.path,
                line,
                1,
                format!("more than {MAX_WINDOWS} windows in one layout (the limit)"),
            ));
        }
        if depth > MAX_WINDOW_DEPTH {
            return Err(WndError::new(
                self.path,
                line,
                1,
                format!("windows nested more than {MAX_WINDOW_DEPTH} deep (the limit)"),
            ));
        }
        Ok(())
    }
}

/// A value's tokens as text that reads back as the same tokens.
fn render_tokens(value: &[Token]) -> String {
    let mut out = String::new();
    for (i, t) in value.iter().enumerate() {
        let glued = matches!(t.tok, Tok::Punct(':' | ',' | '+'))
            || matches!(value.get(i.wrapping_sub(1)).map(|p| &p.tok), Some(Tok::Punct('+')));
        if i > 0 && !glued {
            out.push(' ');
        }
        match &t.tok {
            Tok::Str(s) => {
                out.push('"');
                out.push_str(&s.replace('"', "\\\""));
                out.push('"');
            }
            Tok::Word(w) => out.push_str(w),
            Tok::Int(v) => out.push_str(&v.to_string()),
            Tok::Real(r) => out.push_str(&format!("{r:?}")),
            Tok::Punct(c) => out.push(*c),
        }
    }
    out
}

/// A key as errors name it.
fn show_key(t: &Tok) -> String {
    match t {
        Tok::Word(w) => w.clone(),
        other => show(other),
    }
}

fn show(t: &Tok) -> String {
    match t {
        Tok::Word(w) => w.clone(),
        Tok::Int(i) => i.to_string(),
        Tok::Real(r) => r.to_string(),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Punct(c) => format!("'{c}'"),
    }
}
