//! The original game's names, mapped to Ridgeline's: `ui/generals-names.ron` (data, so a mod
//! may add to it) says which of Generals' layout files stands for which of Ridgeline's
//! (`OptionsMenu.wnd` for `Options.wnd`), what each of its windows is to the game's code (a
//! window the code fills or reads, such as `ComboBoxResolution` for `ComboResolution`, or a
//! button's action, such as `ButtonExit` for `quit`) and which screen callbacks are whose
//! (`OptionsMenuSystem` for `OptionsSystem`). A layout is read under its own names and then
//! [`OriginalNames::translate`]d, so every later step (the check, the screens, the editor)
//! sees Ridgeline's names.
//!
//! Must not: know what a role does (the screens do), or change a window the table does not
//! name beyond its file prefix.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::content::ContentRoots;
use crate::defs::DefsErrors;

use super::wnd::model::{WindowDef, WndFile};

/// Where the table lives in a content root.
pub const TABLE: &str = "ui/generals-names.ron";

/// What an original window is to Ridgeline.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum Alias {
    /// The window the game's code knows by this (short) name: the window is renamed to it.
    Window(String),
    /// A click does this action (see `ui/FORMAT.md`), unless the window declares its own.
    Action(String),
}

/// One original layout file and the Ridgeline layout it stands for.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OriginalLayout {
    /// The original's file name (`OptionsMenu.wnd`).
    pub original: String,
    /// Ridgeline's (`Options.wnd`).
    pub layout: String,
    /// Its windows' short names; `{N}` in a name stands for a trailing number (a player slot).
    #[serde(default)]
    pub windows: BTreeMap<String, Alias>,
}

/// The whole table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OriginalNames {
    /// Original callback names (system, input, draw, layout) and Ridgeline's for them.
    #[serde(default)]
    pub callbacks: BTreeMap<String, String>,
    /// The layouts.
    #[serde(default)]
    pub layouts: Vec<OriginalLayout>,
}

impl OriginalNames {
    /// Reads `ui/generals-names.ron` from every root that has one; a mod's entries come first.
    pub fn load_all(roots: &ContentRoots) -> Result<OriginalNames, DefsErrors> {
        let mut all = OriginalNames::default();
        for root in roots.roots() {
            let path = root.join(TABLE);
            if !path.is_file() {
                continue;
            }
            let src = crate::defs::Source::read(&path).map_err(|e| DefsErrors(vec![e]))?;
            let table: OriginalNames = src.parse().map_err(|e| DefsErrors(vec![e]))?;
            for (k, v) in table.callbacks {
                all.callbacks.entry(k).or_insert(v);
            }
            for l in table.layouts {
                match all.layouts.iter_mut().find(|m| m.original == l.original) {
                    Some(m) => {
                        for (k, v) in l.windows {
                            m.windows.entry(k).or_insert(v);
                        }
                    }
                    None => all.layouts.push(l),
                }
            }
        }
        Ok(all)
    }

    /// The original file names that stand for Ridgeline's layout `layout` (not itself).
    pub fn originals_of(&self, layout: &str) -> Vec<&str> {
        self.layouts
            .iter()
            .filter(|l| l.layout == layout && l.original != layout)
            .map(|l| l.original.as_str())
            .collect()
    }

    /// The Ridgeline layout an original file name stands for.
    pub fn layout_for(&self, original: &str) -> Option<&str> {
        self.layouts.iter().find(|l| l.original == original).map(|l| l.layout.as_str())
    }

    /// The original names of the window that has the role `role` (a short name) in `layout`.
    pub fn originals_for_role(&self, layout: &str, role: &str) -> Vec<String> {
        let digits = role.len() - role.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (stem, n) = role.split_at(role.len() - digits);
        let mut out = Vec::new();
        for l in self.layouts.iter().filter(|l| l.layout == layout) {
            for (k, a) in &l.windows {
                let Alias::Window(r) = a else { continue };
                if r == role {
                    out.push(k.clone());
                } else if !n.is_empty() && *r == format!("{stem}{{N}}") {
                    out.push(k.replace("{N}", n));
                }
            }
        }
        out
    }

    /// Puts Ridgeline's names into `file`, read from a file called `file_name`: callbacks
    /// everywhere; and, when `file_name` is in the table, every named window's prefix becomes
    /// the Ridgeline layout's, the windows it names take their role's name or action, and
    /// `show:`/`hide:`/`toggle:` targets follow. Returns the Ridgeline layout's name.
    pub fn translate(&self, file_name: &str, file: &mut WndFile) -> String {
        for slot in [&mut file.layout_init, &mut file.layout_update, &mut file.layout_shutdown] {
            self.callback(slot);
        }
        let entry = self.layouts.iter().find(|l| l.original == file_name);
        let to = entry.map_or(file_name, |l| l.layout.as_str()).to_string();
        let mut stack: Vec<&mut WindowDef> = file.windows.iter_mut().collect();
        while let Some(w) = stack.pop() {
            for slot in [&mut w.system_callback, &mut w.input_callback, &mut w.tooltip_callback, &mut w.draw_callback] {
                self.callback(slot);
            }
            if let Some(l) = entry {
                self.rename(l, w);
            }
            stack.extend(w.children.iter_mut());
        }
        to
    }

    /// An original callback name becomes Ridgeline's (none where the table maps it to "").
    fn callback(&self, slot: &mut Option<String>) {
        if let Some(to) = slot.as_deref().and_then(|n| self.callbacks.get(n)) {
            *slot = Some(to.clone()).filter(|t| !t.is_empty());
        }
    }

    /// One window of an original layout: its name, its action, its panel actions' targets.
    fn rename(&self, l: &OriginalLayout, w: &mut WindowDef) {
        if let Some((_, short)) = w.name.split_once(':')
            && !short.is_empty()
        {
            let short = short.to_string();
            match alias(l, &short) {
                Some(Alias::Window(role)) => w.name = format!("{}:{role}", l.layout),
                Some(Alias::Action(action)) => {
                    w.name = format!("{}:{short}", l.layout);
                    w.action.get_or_insert(action);
                }
                None => w.name = format!("{}:{short}", l.layout),
            }
        }
        let Some(action) = &w.action else { return };
        let Some((verb, target)) = action.split_once(':').filter(|(v, _)| ["show", "hide", "toggle"].contains(v))
        else {
            return;
        };
        let (file, short) = target.split_once(':').map_or(("", target), |(f, s)| (f, s));
        let target_layout = if file.is_empty() { None } else { self.layouts.iter().find(|m| m.original == file) };
        let renamed = match (file.is_empty(), target_layout) {
            (true, _) => match alias(l, short) {
                Some(Alias::Window(role)) => role,
                _ => short.to_string(),
            },
            (false, Some(m)) => match alias(m, short) {
                Some(Alias::Window(role)) => format!("{}:{role}", m.layout),
                _ => format!("{}:{short}", m.layout),
            },
            (false, None) => target.to_string(),
        };
        w.action = Some(format!("{verb}:{renamed}"));
    }
}

/// What the layout's table says of the window `short` (`ComboBoxPlayer3` matches
/// `ComboBoxPlayer{N}`, with the number carried over).
fn alias(l: &OriginalLayout, short: &str) -> Option<Alias> {
    if let Some(a) = l.windows.get(short) {
        return Some(a.clone());
    }
    let stem = short.trim_end_matches(|c: char| c.is_ascii_digit());
    let n = &short[stem.len()..];
    if n.is_empty() {
        return None;
    }
    let fill = |s: &String| s.replace("{N}", n);
    l.windows.get(&format!("{stem}{{N}}")).map(|a| match a {
        Alias::Window(r) => Alias::Window(fill(r)),
        Alias::Action(a) => Alias::Action(fill(a)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> OriginalNames {
        ron::from_str(
            r#"(callbacks: {"OptionsMenuInit": "OptionsInit"}, layouts: [(original: "OptionsMenu.wnd", layout: "Options.wnd",
                windows: {"SliderMusicVolume": Window("SliderMusic"), "ComboBoxPlayer{N}": Window("ComboPlayer{N}"),
                          "ButtonExit": Action("quit")})])"#,
        )
        .unwrap()
    }

    #[test]
    fn an_original_layout_takes_ridgelines_names_and_keeps_the_rest() {
        let text = "STARTLAYOUTBLOCK\n LAYOUTINIT = OptionsMenuInit;\nENDLAYOUTBLOCK\n\
            WINDOW\n WINDOWTYPE = USER;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 8 8, CREATIONRESOLUTION: 800 600;\n NAME = \"OptionsMenu.wnd:Parent\";\n\
            CHILD\nWINDOW\n WINDOWTYPE = PUSHBUTTON;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 8 8, CREATIONRESOLUTION: 800 600;\n NAME = \"OptionsMenu.wnd:ButtonExit\";\n ACTION = \"hide:SliderMusicVolume\";\nEND\n\
            CHILD\nWINDOW\n WINDOWTYPE = HORZSLIDER;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 8 8, CREATIONRESOLUTION: 800 600;\n NAME = \"OptionsMenu.wnd:SliderMusicVolume\";\nEND\n\
            CHILD\nWINDOW\n WINDOWTYPE = COMBOBOX;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 8 8, CREATIONRESOLUTION: 800 600;\n NAME = \"OptionsMenu.wnd:ComboBoxPlayer2\";\nEND\nENDALLCHILDREN\nEND\n";
        let mut file = crate::ui::wnd::parse("OptionsMenu.wnd", text).unwrap();
        let t = table();
        assert_eq!(t.translate("OptionsMenu.wnd", &mut file), "Options.wnd");
        let names: Vec<&str> = file.all_windows().iter().map(|w| w.name.as_str()).collect();
        assert_eq!(
            names,
            ["Options.wnd:Parent", "Options.wnd:ButtonExit", "Options.wnd:SliderMusic", "Options.wnd:ComboPlayer2"]
        );
        // Its own ACTION wins over the table's, and its target follows the rename.
        assert_eq!(file.all_windows()[1].action.as_deref(), Some("hide:SliderMusic"));
        assert_eq!(file.layout_init.as_deref(), Some("OptionsInit"));
        assert_eq!(t.originals_for_role("Options.wnd", "ComboPlayer3"), ["ComboBoxPlayer3"]);
        assert_eq!(t.originals_of("Options.wnd"), ["OptionsMenu.wnd"]);
    }
}
