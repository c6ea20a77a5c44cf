//! The windows each layout must keep for the game's code to drive it — the labels it fills,
//! the lists it reads, the buttons it answers — by name. A layout (a mod's, say) without one is
//! refused when loaded and by `ui-check`, naming what is missing, instead of silently breaking
//! its screen. `ui/FORMAT.md` lists the same names (a test keeps the two together).
//!
//! Must not: name windows the code can do without (a layout may drop decoration freely).

use crate::ui::wnd::WndFile;

/// Slots on the skirmish and lobby screens.
const SLOTS: usize = 4;

/// Windows needed once, by layout file.
const NEEDED: [(&str, &[&str]); 12] = [
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
    ("MainMenu.wnd", &["Version"]),
    ("Mods.wnd", &["ListMods", "ModDetails"]),
    ("MessageBox.wnd", &["MessageBoxParent", "MessageTitle", "MessageText", "ButtonCancel"]),
    ("Online.wnd", &["EntryAddress", "EntryPort"]),
    (
        "Options.wnd",
        &[
            "ComboResolution",
            "CheckFullscreen",
            "RadioScaleAspect",
            "RadioScaleStretch",
            "SliderMaster",
            "SliderSfx",
            "SliderVoice",
            "SliderMusic",
            "SliderScroll",
            "EntryName",
            "EntryRelay",
        ],
    ),
    ("Replays.wnd", &["ListReplays", "ReplaysNote"]),
    ("Load.wnd", &["ListSaves", "SavesNote", "SaveDetails", "SavePicture"]),
    ("ScoreScreen.wnd", &["ListScores", "ScoreOutcome"]),
    ("SkirmishSetup.wnd", &["ListMaps", "MapDescription", "ComboMoney"]),
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

/// Every layout with needed windows.
pub fn layouts() -> Vec<&'static str> {
    NEEDED.iter().map(|(f, _)| *f).collect()
}

/// The needed windows `wnd` (the layout file `file`) lacks, as `File.wnd:Name`.
pub fn missing(file: &str, wnd: &WndFile) -> Vec<String> {
    let have: std::collections::BTreeSet<&str> = wnd.all_windows().into_iter().map(|w| w.name.as_str()).collect();
    required(file).into_iter().map(|n| format!("{file}:{n}")).filter(|n| !have.contains(n.as_str())).collect()
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
        assert_eq!(missing("MainMenu.wnd", &wnd), vec!["MainMenu.wnd:Version".to_string()]);
        assert!(missing("Unknown.wnd", &wnd).is_empty());
    }
}
