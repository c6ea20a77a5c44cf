//! One window key's value read into its [`WindowDef`]: the rectangle within its limits, the
//! font, text colours, anchor edges, gadget data; keys Ridgeline does not use are kept as notes
//! (with "did you mean" for a misspelt one), so layouts written for the original game load.
//!
//! Must not: read past the key's value (the window parser hands each key's tokens over), or
//! accept a rectangle or font size past the limits in `content/limits.rs`.

use crate::content::limits::{CREATION_RESOLUTION, FONT_SIZES, MAX_RECT_COORDINATE};

use super::super::error::WndError;
use super::super::lexer::{Tok, Token};
use super::super::model::{
    Anchor, FontDef, GadgetData, ScalingMode, ScreenRect, TextColors, WindowDef, WindowType, status_bit, style_bit,
};
use super::{Group, Parser, render_tokens, show};

/// The window keys Ridgeline reads (for "did you mean" on a misspelt one).
const KNOWN_KEYS: [&str; 23] = [
    "WINDOWTYPE",
    "SCREENRECT",
    "NAME",
    "STATUS",
    "STYLE",
    "SYSTEMCALLBACK",
    "INPUTCALLBACK",
    "TOOLTIPCALLBACK",
    "DRAWCALLBACK",
    "FONT",
    "HEADERTEMPLATE",
    "TOOLTIPDELAY",
    "TEXT",
    "TOOLTIPTEXT",
    "TEXTCOLOR",
    "ENABLEDDRAWDATA",
    "DISABLEDDRAWDATA",
    "HILITEDRAWDATA",
    "ANCHOR",
    "SCALING",
    "CLICKSOUND",
    "HOVERSOUND",
    "ACTION",
];

const GADGET_BLOCKS: [&str; 8] = [
    "LISTBOXDATA",
    "COMBOBOXDATA",
    "SLIDERDATA",
    "RADIOBUTTONDATA",
    "TEXTENTRYDATA",
    "STATICTEXTDATA",
    "TABCONTROLDATA",
    "PROGRESSBARDATA",
];

/// A window with nothing read yet, its `WINDOW` keyword on `line`.
pub(super) fn empty_window(line: usize) -> WindowDef {
    WindowDef {
        line,
        kind: WindowType::User,
        rect: ScreenRect::default(),
        name: String::new(),
        status: 0,
        status_unknown: Vec::new(),
        style: 0,
        style_unknown: Vec::new(),
        system_callback: None,
        input_callback: None,
        tooltip_callback: None,
        draw_callback: None,
        font: None,
        header_template: None,
        tooltip_delay: -1,
        text: String::new(),
        tooltip_text: String::new(),
        click_sound: None,
        action: None,
        hover_sound: None,
        text_colors: TextColors::default(),
        enabled: Vec::new(),
        disabled: Vec::new(),
        hilite: Vec::new(),
        gadget: None,
        anchor: None,
        scaling: None,
        extra: Vec::new(),
        key_lines: Vec::new(),
        children: Vec::new(),
    }
}

impl Parser<'_> {
    /// Reads `key = value;` (named by `key_tok`) into `w`.
    pub(super) fn window_key(
        &mut self,
        w: &mut WindowDef,
        key_tok: &Token,
        key: &str,
        value: Vec<Token>,
    ) -> Result<(), WndError> {
        match key {
            "WINDOWTYPE" => {
                let t = value.first().ok_or_else(|| self.err(key_tok, "WINDOWTYPE needs a type"))?;
                let Tok::Word(word) = &t.tok else { return Err(self.err(t, "expected a window type")) };
                w.kind =
                    WindowType::from_keyword(word).ok_or_else(|| self.err(t, format!("unknown window type {word}")))?;
            }
            "SCREENRECT" => w.rect = self.screen_rect(key_tok, &value, w.rect)?,
            "NAME" => w.name = self.single_string(key_tok, &value)?,
            "STATUS" => (w.status, w.status_unknown) = self.flags(&value, status_bit, "status")?,
            "STYLE" => (w.style, w.style_unknown) = self.flags(&value, style_bit, "style")?,
            "SYSTEMCALLBACK" | "INPUTCALLBACK" | "TOOLTIPCALLBACK" | "DRAWCALLBACK" => {
                let s = self.single_string(key_tok, &value)?;
                let cb = if s.eq_ignore_ascii_case("[none]") || s.is_empty() { None } else { Some(s) };
                match key {
                    "SYSTEMCALLBACK" => w.system_callback = cb,
                    "INPUTCALLBACK" => w.input_callback = cb,
                    "TOOLTIPCALLBACK" => w.tooltip_callback = cb,
                    _ => w.draw_callback = cb,
                }
            }
            "FONT" => w.font = Some(self.font(&value)?),
            "HEADERTEMPLATE" => {
                let s = self.single_string(key_tok, &value)?;
                w.header_template = if s.eq_ignore_ascii_case("[none]") { None } else { Some(s) };
            }
            "TOOLTIPDELAY" => {
                w.tooltip_delay = match value.first().map(|t| &t.tok) {
                    Some(Tok::Int(v)) => *v as i32,
                    _ => return Err(self.err(key_tok, "TOOLTIPDELAY needs a number")),
                }
            }
            "TEXT" => w.text = self.single_string(key_tok, &value)?,
            "ACTION" => w.action = Some(self.single_string(key_tok, &value)?),
            "TOOLTIPTEXT" => w.tooltip_text = self.single_string(key_tok, &value)?,
            "CLICKSOUND" | "HOVERSOUND" => {
                let s = self.single_string(key_tok, &value)?;
                let sound = if s.eq_ignore_ascii_case("[none]") { String::new() } else { s };
                if key == "CLICKSOUND" {
                    w.click_sound = Some(sound);
                } else {
                    w.hover_sound = Some(sound);
                }
            }
            "TEXTCOLOR" => self.text_colors(&mut w.text_colors, &value)?,
            "ENABLEDDRAWDATA" => w.enabled = self.draw_data(&value)?,
            "DISABLEDDRAWDATA" => w.disabled = self.draw_data(&value)?,
            "HILITEDRAWDATA" => w.hilite = self.draw_data(&value)?,
            "ANCHOR" => w.anchor = Some(self.anchor(&value)?),
            "SCALING" => {
                w.scaling = match value.first().map(|t| &t.tok) {
                    Some(Tok::Word(s)) if s == "STRETCH" => Some(ScalingMode::Stretch),
                    Some(Tok::Word(s)) if s == "ASPECT" => Some(ScalingMode::Aspect),
                    _ => return Err(self.err(key_tok, "SCALING is STRETCH or ASPECT")),
                }
            }
            block if GADGET_BLOCKS.contains(&block) => {
                let mut fields = Vec::new();
                for g in self.groups(&value)? {
                    let v = self.ints(&g, 1)?;
                    fields.push((g.label.clone(), v));
                }
                w.gadget = Some(GadgetData { block: block.to_string(), fields });
            }
            other if other.ends_with("DRAWDATA") => {
                self.composite.push((key_tok.line, key_tok.col, other.to_string()));
                w.extra.push((other.to_string(), render_tokens(&value)));
            }
            other => {
                let hint =
                    crate::content::suggest::did_you_mean(other, KNOWN_KEYS.iter().chain(&GADGET_BLOCKS).copied());
                // A slip near one of the keys (`TEXTCOLOUR`) would silently lose what it sets:
                // refused with the key meant (reading goes on, so every slip and what the
                // rest of the layout gets wrong are told at once). Another game's own keys
                // are kept with a note.
                if !hint.is_empty() {
                    let slip = self.err(key_tok, format!("unknown key {other}{hint}"));
                    self.slips.push(slip);
                    w.extra.push((other.to_string(), render_tokens(&value)));
                    return Ok(());
                }
                self.note(
                    key_tok.line,
                    key_tok.col,
                    format!("key {other} is not used by Ridgeline; kept and ignored{hint}"),
                );
                w.extra.push((other.to_string(), render_tokens(&value)));
            }
        }
        Ok(())
    }

    /// `SCREENRECT = UPPERLEFT: x y, BOTTOMRIGHT: x y, CREATIONRESOLUTION: w h;`, each corner
    /// within [`MAX_RECT_COORDINATE`] and the resolution within [`CREATION_RESOLUTION`]; the
    /// labels it leaves out keep their values in `r`.
    fn screen_rect(&self, key_tok: &Token, value: &[Token], mut r: ScreenRect) -> Result<ScreenRect, WndError> {
        for g in self.groups(value)? {
            let v = self.ints(&g, 2)?;
            if g.label != "CREATIONRESOLUTION" && v.iter().any(|c| c.abs() > MAX_RECT_COORDINATE) {
                return Err(self.group_err(
                    &g,
                    format!("{} lies more than {MAX_RECT_COORDINATE} pixels away (the limit)", g.label),
                ));
            }
            if g.label == "CREATIONRESOLUTION" && !v.iter().take(2).all(|c| CREATION_RESOLUTION.contains(c)) {
                let (lo, hi) = (CREATION_RESOLUTION.start(), CREATION_RESOLUTION.end());
                let message = format!("CREATIONRESOLUTION {} {} is outside {lo}..={hi} (the limit)", v[0], v[1]);
                return Err(self.group_err(&g, message));
            }
            let pair = (v[0] as i32, v[1] as i32);
            match g.label.as_str() {
                "UPPERLEFT" => r.upper_left = pair,
                "BOTTOMRIGHT" => r.bottom_right = pair,
                "CREATIONRESOLUTION" => r.creation_resolution = pair,
                other => return Err(self.group_err(&g, format!("unknown SCREENRECT label {other}"))),
            }
        }
        if r.creation_resolution.0 <= 0 || r.creation_resolution.1 <= 0 {
            return Err(self.err(key_tok, "SCREENRECT needs a CREATIONRESOLUTION"));
        }
        if r.bottom_right.0 < r.upper_left.0 || r.bottom_right.1 < r.upper_left.1 {
            return Err(self.err(key_tok, "SCREENRECT's BOTTOMRIGHT is above or left of its UPPERLEFT"));
        }
        Ok(r)
    }

    /// `FONT = NAME: "…", SIZE: n, BOLD: 0|1;`, the size within [`FONT_SIZES`].
    fn font(&self, value: &[Token]) -> Result<FontDef, WndError> {
        let mut f = FontDef::default();
        for g in self.groups(value)? {
            match (g.label.as_str(), g.values.first()) {
                ("NAME", Some(Tok::Str(s) | Tok::Word(s))) => f.name = s.clone(),
                ("SIZE", _) => {
                    let size = self.ints(&g, 1)?[0];
                    if !FONT_SIZES.contains(&size) {
                        let (lo, hi) = (FONT_SIZES.start(), FONT_SIZES.end());
                        return Err(self.group_err(&g, format!("FONT SIZE {size} is outside {lo}..={hi} (the limit)")));
                    }
                    f.size = size as i32;
                }
                ("BOLD", _) => f.bold = self.ints(&g, 1)?[0] != 0,
                (other, _) => return Err(self.group_err(&g, format!("unknown FONT label {other}"))),
            }
        }
        Ok(f)
    }

    /// `TEXTCOLOR = ENABLED: r g b a, ENABLEDBORDER: …;` into `tc`.
    fn text_colors(&self, tc: &mut TextColors, value: &[Token]) -> Result<(), WndError> {
        for g in self.groups(value)? {
            let c = self.color(&g)?;
            match g.label.as_str() {
                "ENABLED" => tc.enabled = c,
                "ENABLEDBORDER" => tc.enabled_border = c,
                "DISABLED" => tc.disabled = c,
                "DISABLEDBORDER" => tc.disabled_border = c,
                "HILITE" => tc.hilite = c,
                "HILITEBORDER" => tc.hilite_border = c,
                other => return Err(self.group_err(&g, format!("unknown TEXTCOLOR label {other}"))),
            }
        }
        Ok(())
    }

    /// `ANCHOR = LEFT+TOP;`: the edges a window keeps its distance to.
    fn anchor(&self, value: &[Token]) -> Result<Anchor, WndError> {
        let mut a = Anchor::default();
        for t in value {
            match &t.tok {
                Tok::Punct('+') => {}
                Tok::Word(s) => match s.as_str() {
                    "LEFT" => a.left = true,
                    "RIGHT" => a.right = true,
                    "TOP" => a.top = true,
                    "BOTTOM" => a.bottom = true,
                    other => {
                        return Err(self.err(t, format!("unknown ANCHOR edge {other} (LEFT, RIGHT, TOP, BOTTOM)")));
                    }
                },
                other => return Err(self.err(t, format!("expected ANCHOR edges, found {}", show(other)))),
            }
        }
        Ok(a)
    }

    /// An error at a `LABEL: values` group.
    fn group_err(&self, g: &Group, message: String) -> WndError {
        WndError::new(self.path, g.line, g.col, message)
    }
}
