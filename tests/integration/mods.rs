//! Mods add to the game's definition lists instead of copying them: a mod's
//! `data/objects/*.ron` (and weapons, factions, upgrades) adds new entries and replaces single
//! entries by name; problems in those files name the mod's file and line; the entries take part
//! in the content digest online games compare.

use crate::common;

use ridgeline::defs::Definitions;

/// A mod adding the Ironclad tank and replacing the War Factory entry so it builds one.
fn ironclad_mod(name: &str, weapon: &str) -> std::path::PathBuf {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(dir.join("data/objects")).unwrap();
    let text = format!(
        r#"// The Ironclad: a heavier Bulwark.
[
    (
        name: "Ironclad", faction: "Coalition", kind: Vehicle, cost: 1400, build_time: 16.0,
        description: "A heavier tank.",
        max_health: 900, armor: "Tank", speed: 24.0, acceleration: 30.0, turn_rate: 90.0,
        vision: 180.0, radius: 10.0, weapons: ["{weapon}"], prerequisites: ["WarFactory"],
        model: (shape: Tank, color: (0.35, 0.4, 0.35), height: 9.0, kit: "BattleTank"),
    ),
    (
        name: "WarFactory", faction: "Coalition", kind: Structure, cost: 2000, build_time: 30.0,
        description: "Builds Coalition vehicles and aircraft.",
        footprint: (4, 4), max_health: 3500, armor: "Structure", vision: 160.0, radius: 20.0,
        builds: ["Scout", "Bulwark", "Ironclad", "Longbow", "Hawk", "Paladin"], prerequisites: ["Barracks"], power: -4,
        model: (shape: Building, color: (0.5, 0.5, 0.55), height: 18.0, kit: "WarFactory"),
    ),
]
"#
    );
    std::fs::write(dir.join("data/objects/ironclad.ron"), text).unwrap();
    dir
}

#[test]
fn a_mod_adds_a_unit_and_changes_one_entry_without_copying_the_file() {
    let game = common::defs();
    let dir = ironclad_mod("mod-ironclad", "TankCannon");
    let defs = Definitions::load(&common::roots().with_mod(dir)).unwrap();
    let rules = &defs.rules;
    assert_eq!(rules.templates.len(), game.rules.templates.len() + 1, "one object added");
    let iron = rules.template_id("Ironclad").expect("the new unit");
    assert_eq!(rules.template(iron).max_health, 900);
    let factory = rules.template(rules.template_id("WarFactory").unwrap());
    assert!(factory.builds.contains(&iron), "the replaced War Factory builds it");
    // Every other entry is the game's own, in the game's order.
    for (a, b) in game.rules.templates.iter().zip(&rules.templates) {
        if a.name != "WarFactory" {
            assert_eq!(a, b, "{} changed", a.name);
        }
    }
}

#[test]
fn a_slip_in_a_mods_entry_file_names_that_file_and_line() {
    let dir = ironclad_mod("mod-ironclad-bad", "TankCanon");
    let e = Definitions::load(&common::roots().with_mod(dir.clone())).unwrap_err().to_string();
    let file = dir.join("data/objects/ironclad.ron");
    let line = common::read(&file).lines().position(|l| l.contains("TankCanon")).unwrap() + 1;
    assert!(e.contains(&format!("ironclad.ron:{line}")) && e.contains("did you mean TankCannon?"), "{e}");
}

#[test]
fn a_mods_entries_take_part_in_the_content_digest() {
    let plain = ridgeline::session::start::content_digest(&common::roots()).unwrap();
    let dir = ironclad_mod("mod-ironclad-digest", "TankCannon");
    let modded = ridgeline::session::start::content_digest(&common::roots().with_mod(dir)).unwrap();
    assert_ne!(plain, modded);
    // A mod that only changes layouts leaves it alone (friends may use different HUDs).
    let hud = common::roots().with_mod(common::root().join("mods/compact-hud"));
    assert_eq!(ridgeline::session::start::content_digest(&hud).unwrap(), plain);
}

/// A good mod at `good` (its main menu's Skirmish button reads "Fight") and a broken one at
/// `bad` (an Options layout with an unknown window type at line 3).
fn good_and_bad_mods(good: &std::path::Path, bad: &std::path::Path) {
    std::fs::create_dir_all(good.join("ui")).unwrap();
    std::fs::create_dir_all(bad.join("ui")).unwrap();
    let menu =
        common::read(&common::root().join("ui/MainMenu.wnd")).replace("\"MainMenu:ButtonSkirmish\"", "\"Fight\"");
    std::fs::write(good.join("ui/MainMenu.wnd"), menu).unwrap();
    std::fs::write(bad.join("ui/Options.wnd"), "FILE_VERSION = 2;\nWINDOW\n  WINDOWTYPE = NOPE;\nEND\n").unwrap();
}

#[test]
fn one_broken_mod_is_left_out_alone_and_the_player_is_told_briefly() {
    use ridgeline::game::shell::{leave_out_broken, refusal_message};
    let base = common::temp_dir("mods-one-broken");
    let good = base.join("good");
    let bad = base.join("bad");
    good_and_bad_mods(&good, &bad);
    let game = common::roots();
    let wanted = game.clone().with_mod(good.clone()).with_mod(bad.clone());
    let (usable, refused) = leave_out_broken(&wanted, &game);
    assert!(usable.roots().contains(&good), "the good mod stays on");
    assert!(!usable.roots().contains(&bad));
    assert!(game.roots().iter().all(|r| usable.roots().contains(r)), "the game's own roots stay");
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].0, "bad");
    assert!(refused[0].1.iter().any(|p| p.contains("Options.wnd:3:")), "{:?}", refused[0].1);
    let labels = ridgeline::ui::labels::Labels::load_all(&game).unwrap();
    let text = refusal_message(&refused, &labels);
    assert!(text.contains("bad (1 problem):") && text.contains("Options.wnd:3:"), "{text}");
    // A mod with hundreds of problems (a Generals layout) gets a few lines, the rest counted.
    let many: Vec<String> = (0..390).map(|i| format!("X.wnd:{i}:1: a problem")).collect();
    let text = refusal_message(&[("generals".into(), many), ("other".into(), vec!["Y.wnd:1:1: one".into()])], &labels);
    assert!(text.contains("generals (390 problems):") && text.contains("… and 386 more"), "{text}");
    assert!(text.contains("other (1 problem):"), "{text}");
    assert!(text.lines().count() <= 14, "{text}");
    // The shell starts on the usable roots with the good mod's layout.
    let s = ridgeline::game::shell::Shell::new(&usable, (1280.0, 720.0), base.join("settings.ron")).unwrap();
    let label = s.ui.window(s.find("MainMenu.wnd:ButtonSkirmish").unwrap()).unwrap().text.clone();
    assert_eq!(label, "Fight");
}

#[test]
fn a_mod_translates_the_interface_with_a_string_table_alone() {
    let dir = common::temp_dir("mods-translation");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::write(
        dir.join("ui/strings.ron"),
        "{\n    \"MainMenu:ButtonSkirmish\": \"Escaramuza\",\n    \"MainMenu:ButtonQuit\": \"Salir\",\n    \"Title:Quit\": \"Salir\",\n    \"Message:Quit\": \"¿Salir de Ridgeline?\",\n    \"Message:Credits\": \"Hecho por sus ingenieros.\",\n}\n",
    )
    .unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let mut s = ridgeline::game::shell::Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap();
    let text = |s: &ridgeline::game::shell::Shell, name: &str| s.ui.window(s.find(name).unwrap()).unwrap().text.clone();
    assert_eq!(text(&s, "MainMenu.wnd:ButtonSkirmish"), "Escaramuza");
    assert_eq!(text(&s, "MainMenu.wnd:ButtonQuit"), "Salir");
    // What the mod does not word keeps the game's text.
    assert_eq!(text(&s, "MainMenu.wnd:ButtonOptions"), "Options");
    // The menus' messages too: the credits, and the quit question, which still quits on OK
    // with its title translated (a question is known by what it asks, not by its title).
    common::click(&mut s, "MainMenu.wnd:ButtonCredits");
    assert_eq!(text(&s, "MessageBox.wnd:MessageText"), "Hecho por sus ingenieros.");
    assert_eq!(text(&s, "MessageBox.wnd:MessageTitle"), "Credits", "the title the mod leaves alone");
    common::click(&mut s, "MessageBox.wnd:ButtonOk");
    common::click(&mut s, "MainMenu.wnd:ButtonQuit");
    assert_eq!(
        (text(&s, "MessageBox.wnd:MessageTitle"), text(&s, "MessageBox.wnd:MessageText")),
        ("Salir".to_string(), "¿Salir de Ridgeline?".to_string())
    );
    assert_eq!(s.question(), Some(ridgeline::game::shell::Question::Quit));
    common::click(&mut s, "MessageBox.wnd:ButtonOk");
    assert_eq!(s.take_requests(), [ridgeline::game::shell::ShellRequest::Quit]);
    // No layout was copied, and the game's own check is clean with it.
    assert!(!dir.join("ui/MainMenu.wnd").exists());
    let o = common::ridgeline().args(["--mod", dir.to_str().unwrap(), "ui-check"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn an_entry_named_twice_in_one_mod_file_is_refused_naming_it() {
    let dir = ironclad_mod("mods-twice", "TankGun");
    let path = dir.join("data/objects/ironclad.ron");
    let text = common::read(&path);
    // The Ironclad's block again, with another price.
    let start = text.find("    (\n        name: \"Ironclad\"").unwrap();
    let end = start + text[start..].find("    ),\n").unwrap() + "    ),\n".len();
    let twice = format!("{}{}{}", &text[..end], text[start..end].replace("cost: 1400", "cost: 1"), &text[end..]);
    std::fs::write(&path, twice).unwrap();
    let e = match Definitions::load(&common::roots().with_mod(dir.clone())) {
        Ok(_) => panic!("accepted an entry named twice"),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains("ironclad.ron") && e.contains("\"Ironclad\"") && e.contains("defined twice in this file"),
        "{e}"
    );
}

/// A translation is a mod's `ui/strings.<code>.ron`: Options offers it by the name it gives
/// itself, choosing it with the mouse and saving shows its words from the next screen on (and
/// in a game started afresh), and what it leaves out keeps the game's own text.
#[test]
fn a_translation_in_a_mod_is_chosen_in_options_and_fills_in_from_the_games_own_texts() {
    use ridgeline::game::settings::Settings;
    use ridgeline::game::shell::Shell;
    use ridgeline::ui::{Input, MouseButton};
    let dir = common::temp_dir("mods-language");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::write(
        dir.join("ui/strings.de.ron"),
        "{\n    \"Language:Name\": \"Deutsch\",\n    \"MainMenu:ButtonSkirmish\": \"Gefecht\",\n    \"Options:LabelLanguage\": \"Sprache\",\n    \"Relay:None\": \"Kein Relay eingestellt (Optionen)\",\n    \"Message:SetRelayFirst\": \"Erst in den Optionen ein Relay einstellen.\",\n}\n",
    )
    .unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let path = dir.join("settings.ron");
    let mut s = Shell::new(&roots, (1280.0, 720.0), path.clone()).unwrap();
    let text = |s: &Shell, name: &str| s.ui.window(s.find(name).unwrap()).unwrap().text.clone();
    assert_eq!(text(&s, "MainMenu.wnd:ButtonSkirmish"), "Skirmish", "the game's own texts until one is chosen");
    common::click(&mut s, "MainMenu.wnd:ButtonOptions");
    let combo = s.find("Options.wnd:ComboLanguage").unwrap();
    assert_eq!(s.ui.combo_items(combo), ["English", "Deutsch"]);
    assert_eq!(s.ui.combo_selected(combo), Some(0));
    // Open the list and pick its second entry.
    common::click(&mut s, "Options.wnd:ComboLanguage");
    let r = s.ui.window(combo).unwrap().rect;
    let y = r.bottom() + r.h * 1.5;
    s.handle(Input::MouseDown { x: r.x + 10.0, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: r.x + 10.0, y, button: MouseButton::Left });
    assert_eq!(s.ui.combo_selected(combo), Some(1));
    common::click(&mut s, "Options.wnd:ButtonSave");
    assert_eq!(Settings::load(&path).unwrap().language, "de");
    assert_eq!(text(&s, "MainMenu.wnd:ButtonSkirmish"), "Gefecht", "shown on the next screen");
    assert_eq!(text(&s, "MainMenu.wnd:ButtonOptions"), "Options", "left out by the translation: the game's own");
    common::click(&mut s, "MainMenu.wnd:ButtonOptions");
    assert_eq!(text(&s, "Options.wnd:LabelLanguage"), "Sprache");
    // Texts the code says are in the chosen language too: the Online screen's relay line, and
    // the message Host through relay gives without one.
    common::click(&mut s, "Options.wnd:ButtonBack");
    common::click(&mut s, "MainMenu.wnd:ButtonOnline");
    assert_eq!(text(&s, "Online.wnd:LabelRelay"), "Kein Relay eingestellt (Optionen)");
    common::click(&mut s, "Online.wnd:ButtonHostRelay");
    assert_eq!(text(&s, "MessageBox.wnd:MessageText"), "Erst in den Optionen ein Relay einstellen.");
    assert_eq!(text(&s, "MessageBox.wnd:MessageTitle"), "Online", "left out by the translation: the game's own");
    // A game started afresh starts in the chosen language.
    let again = Shell::new(&roots, (1280.0, 720.0), path.clone()).unwrap();
    assert_eq!(text(&again, "MainMenu.wnd:ButtonSkirmish"), "Gefecht");
    // Without the mod the language is gone: the game's own texts, nothing refused.
    let plain = Shell::new(&common::roots(), (1280.0, 720.0), path).unwrap();
    assert_eq!(text(&plain, "MainMenu.wnd:ButtonSkirmish"), "Skirmish");
}

/// Every label the game's code says (`"Title:Quit"`, `"Message:NotSaved"`…) has an entry in
/// the game's own string table, so no message shows as its bare label and a translation can
/// word every one of them.
#[test]
fn every_label_the_code_says_is_in_the_string_table() {
    const PREFIXES: [&str; 19] = [
        "Alert", "Bar", "Lobby", "Message", "Mods", "Online", "Outcome", "Pace", "Power", "Refused", "Relay", "Replay",
        "Seat", "Status", "Tip", "Title", "Language", "Skirmish", "Score",
    ];
    let labels = ridgeline::ui::labels::Labels::load_all(&common::roots()).unwrap();
    let mut files = vec![common::root().join("src")];
    let mut said = 0;
    let mut missing = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = common::read(&path);
        // The code, not its unit tests' made-up tables.
        let code = text.lines().take_while(|l| l.trim() != "#[cfg(test)]");
        for (n, line) in code.enumerate() {
            // Each quoted `Prefix:Name` (a name of letters only: a label, not a sentence).
            for quoted in line.split('"').skip(1).step_by(2) {
                let Some((prefix, name)) = quoted.split_once(':') else { continue };
                if PREFIXES.contains(&prefix) && !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()) {
                    said += 1;
                    if labels.missing(quoted) {
                        missing.push(format!("{}:{}: {quoted}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(said > 100, "the code says {said} labels: the scan finds them");
    assert!(missing.is_empty(), "labels without an entry in ui/strings.ron:\n{}", missing.join("\n"));
}

/// A broken `--mod` folder given beside mods the Mods screen turned on is left out alone:
/// the others are each checked in front of the game's own content, not behind the broken one.
#[test]
fn a_broken_mod_folder_from_the_command_line_is_left_out_alone_beside_the_mods_screens_mods() {
    use ridgeline::game::shell::mods_in_use;
    let home = common::temp_dir("mods-broken-command-line");
    let good = home.join("mods/good");
    let bad = home.join("bad");
    good_and_bad_mods(&good, &bad);
    // `ridgeline --mod <bad>`, with "good" turned on in the settings beside the mods folder.
    let base = common::roots().with_mod(bad.clone());
    let settings = ridgeline::game::settings::Settings { mods: vec!["good".into()], ..Default::default() };
    let (usable, refused) = mods_in_use(&base, &settings, &home.join("settings.ron"));
    assert_eq!(refused.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(), ["bad"], "{refused:?}");
    assert!(usable.roots().contains(&good), "the Mods screen's mod stays on: {:?}", usable.roots());
    assert!(!usable.roots().contains(&bad));
    assert!(
        refused[0].1.iter().all(|p| p.contains("Options.wnd")),
        "only the bad folder's problems: {:?}",
        refused[0].1
    );
}

/// The Mods screen words a mod's string table as merged into the game's (what it adds and what
/// it overrides), not as a file that replaces the game's: the game's other words stay.
#[test]
fn the_mods_screen_says_a_string_table_merges_with_what_it_adds_and_overrides() {
    let tmp = common::temp_dir("mods-strings-merge");
    let dir = tmp.join("mods/wording");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::write(dir.join("mod.ron"), "(name: \"Wording\", version: \"1\")").unwrap();
    std::fs::write(
        dir.join("ui/strings.ron"),
        "{\n    \"MainMenu:ButtonSkirmish\": \"Escaramuza\",\n    \"MainMenu:ButtonQuit\": \"Salir\",\n    \"Wording:Hello\": \"Hola\",\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("ui/strings.es.ron"), "{\n    \"Language:Name\": \"Español\",\n}\n").unwrap();
    let mut s =
        ridgeline::game::shell::Shell::new(&common::roots(), (1280.0, 720.0), tmp.join("settings.ron")).unwrap();
    s.open(ridgeline::game::shell::Screen::Mods);
    let i = s.mod_rows().iter().position(|m| m.id == "wording").unwrap();
    let list = s.find("Mods.wnd:ListMods").unwrap();
    s.ui.list_select(list, Some(i));
    // Turned on, its details show.
    common::click(&mut s, "Mods.wnd:ButtonToggle");
    assert!(s.mod_rows()[i].enabled);
    let details = s.ui.window(s.find("Mods.wnd:ModDetails").unwrap()).unwrap().text.clone();
    assert!(
        details.contains(
            "Merges ui/strings.ron into the game's strings: adds 1 string, overrides 2 (the rest stay the game's)"
        ),
        "{details}"
    );
    // A language's table words over the game's own texts where it has no table of that language.
    assert!(
        details.contains("Merges ui/strings.es.ron into the game's strings: adds 0 strings, overrides 1"),
        "{details}"
    );
    assert!(!details.contains("Replaces: ui/strings.ron") && !details.contains("Adds: ui/strings"), "{details}");
}
