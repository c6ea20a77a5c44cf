//! The windows each layout must keep for the game's code to drive it — the labels it fills,
//! the lists it reads, the buttons it answers — by name. A layout (a mod's, say) without one is
//! refused when loaded and by `ui-check`, naming what is missing, instead of silently breaking
//! its screen. `ui/FORMAT.md` lists the same names (a test keeps the two together).
//!
//! Windows the code fills when they are there and does without otherwise (a version label, a
//! setting the original game's layout has no control for) are [`OPTIONAL`]: `ui-check` notes
//! their absence, the game loads the layout.
//!
//! Must not: name windows the code can do without as needed (a layout may drop decoration
//! freely).

use crate::ui::original_names::OriginalNames;
use crate::ui::wnd::WndFile;

/// Slots on the skirmish and lobby screens.
const SLOTS: usize = 4;

/// Windows needed once, by layout file.
const NEEDED: [(&str, &[&str]); 11] = [
    (
        "InGame.wnd",
        &[
            "Radar",
            "LabelClock",
            "LabelMoney",
            "LabelPower",
            "LabelQueue",
            "QueueProgress",
            "SelectionPanel",
            "AlertLine",
            "HintPanel",
            "ReplayBar",
            "ButtonReplayPlay",
            "ButtonReplayView",
            "ButtonReplayTakeOver",
            "LabelReplaySpeed",
            "LabelReplayTime",
            "SliderReplaySeek",
            "ButtonCommand0",
        ],
    ),
    ("Lobby.wnd", &["CheckReady", "ComboMap", "ComboMoney", "EntryChat", "EntryCode", "ListChat", "LobbyHeader"]),
    ("Editor.wnd", &["EditorPanel", "LabelSelected", "EntryText", "EntryTooltip", "ComboCallback"]),
    ("Mods.wnd", &["ListMods", "ModDetails"]),
    ("MessageBox.wnd", &["MessageBoxParent", "MessageTitle", "MessageText", "ButtonCancel"]),
    ("Online.wnd", &["EntryAddress", "EntryPort"]),
    ("Options.wnd", &["ComboResolution", "SliderSfx", "SliderVoice", "SliderMusic", "SliderScroll"]),
    ("Replays.wnd", &["ListReplays"]),
    ("Load.wnd", &["ListSaves", "SavesNote", "SaveDetails", "SavePicture"]),
    ("ScoreScreen.wnd", &["ListScores", "ScoreOutcome"]),
    ("SkirmishSetup.wnd", &["ListMaps", "ComboMoney"]),
];

/// Windows the code fills or reads when a layout has them and does without otherwise: the
/// setting or text is then not offered on that screen (`ui-check` says so in a note).
pub const OPTIONAL: [(&str, &[&str]); 4] = [
    ("MainMenu.wnd", &["Version"]),
    (
        "Options.wnd",
        &["CheckFullscreen", "RadioScaleAspect", "RadioScaleStretch", "SliderMaster", "EntryName", "EntryRelay"],
    ),
    ("Replays.wnd", &["ReplaysNote"]),
    ("SkirmishSetup.wnd", &["MapDescription"]),
];

/// Windows needed once per player slot (`ComboPlayer0` … `ComboPlayer3`), by layout file.
const PER_SLOT: [(&str, &[&str]); 2] = [
    ("SkirmishSetup.wnd", &["ComboPlayer", "ComboFaction", "ComboColor", "ComboTeam"]),
    ("Lobby.wnd", &["ComboPlayer", "ComboFaction", "ComboColor", "ComboTeam", "Status", "Ping"]),
];

/// The short names (after `File.wnd:`) of the windows the layout `file` must have.
pub fn required(file: &str) -> Vec<String> {
    let mut out: Vec<String> =
        NEEDED.iter().filter(|(f, _)| *f == file).flat_map(|(_, names)| names.iter().map(|n| n.to_string())).collect();
    for (f, fields) in PER_SLOT {
        if f == file {
            out.extend((0..SLOTS).flat_map(|i| fields.iter().map(move |n| format!("{n}{i}"))));
        }
    }
    out
}

/// The short names of the windows the layout `file` may have for the code to fill.
pub fn optional(file: &str) -> Vec<String> {
    OPTIONAL.iter().filter(|(f, _)| *f == file).flat_map(|(_, names)| names.iter().map(|n| n.to_string())).collect()
}

/// Every layout with needed windows.
pub fn layouts() -> Vec<&'static str> {
    NEEDED.iter().map(|(f, _)| *f).collect()
}

/// The needed windows `wnd` (the layout file `file`) lacks, as `File.wnd:Name`.
pub fn missing(file: &str, wnd: &WndFile) -> Vec<String> {
    lacking(file, wnd, required(file))
}

fn lacking(file: &str, wnd: &WndFile, names: Vec<String>) -> Vec<String> {
    let have: std::collections::BTreeSet<&str> = wnd.all_windows().into_iter().map(|w| w.name.as_str()).collect();
    names.into_iter().map(|n| format!("{file}:{n}")).filter(|n| !have.contains(n.as_str())).collect()
}

/// Each needed window `wnd` (Ridgeline's layout `file`, read from `shown`) lacks, as a
/// problem at the layout's first window: the role's name, the original game's name for it
/// (`names`) and, when a window of the layout is near either, that one.
pub fn missing_problems(shown: &str, file: &str, wnd: &WndFile, names: &OriginalNames) -> Vec<String> {
    describe(shown, file, wnd, names, missing(file, wnd), "the game needs a window")
}

/// Notes for the optional windows `wnd` lacks: what the screen then does without.
pub fn optional_notes(shown: &str, file: &str, wnd: &WndFile, names: &OriginalNames) -> Vec<String> {
    let lacks = lacking(file, wnd, optional(file));
    describe(shown, file, wnd, names, lacks, "no window")
        .into_iter()
        .map(|n| n + ": the screen does without it")
        .collect()
}

fn describe(
    shown: &str,
    file: &str,
    wnd: &WndFile,
    names: &OriginalNames,
    lacks: Vec<String>,
    lead: &str,
) -> Vec<String> {
    let line = wnd.windows.first().map_or(1, |w| w.line);
    let windows = wnd.all_windows();
    let shorts: Vec<&str> = windows.iter().map(|w| crate::ui::window::short_name(&w.name)).collect();
    lacks
        .iter()
        .map(|full| {
            let role = crate::ui::window::short_name(full);
            let originals = names.originals_for_role(file, role);
            let near = std::iter::once(role.to_string())
                .chain(originals.iter().cloned())
                .find_map(|n| crate::content::suggest::nearest(&n, shorts.iter().copied()));
            // Said at the window meant, when one is near the name; else at the layout's first.
            let at = near.and_then(|n| shorts.iter().position(|s| *s == n)).map(|i| windows[i].key_at("NAME"));
            let (line, col) = at.unwrap_or((line, 1));
            let mut said = format!("{shown}:{line}:{col}: {lead} \"{full}\"");
            if !originals.is_empty() {
                said += &format!(" (the original game calls it {})", originals.join(" or "));
            }
            if let Some(near) = near {
                said += &format!("; did you mean \"{near}\"?");
            }
            said
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_expand_and_a_missing_window_is_named() {
        let names = required("SkirmishSetup.wnd");
        assert!(names.contains(&"ComboTeam3".to_string()) && names.contains(&"ListMaps".to_string()));
        let wnd = crate::ui::wnd::parse(
            "MainMenu.wnd",
            "WINDOW\n WINDOWTYPE = USER;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 8 8, CREATIONRESOLUTION: 800 600;\n NAME = \"MainMenu.wnd:Other\";\nEND\n",
        )
        .unwrap();
        assert!(missing("MainMenu.wnd", &wnd).is_empty(), "the version label is decoration");
        assert_eq!(optional("MainMenu.wnd"), ["Version"]);
        assert_eq!(missing("Replays.wnd", &wnd), vec!["Replays.wnd:ListReplays".to_string()]);
        assert!(missing("Unknown.wnd", &wnd).is_empty());
    }
}
