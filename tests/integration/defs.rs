//! Definition loading: the shipped data is valid, and broken data is reported with file,
//! line, item and field, all problems at once, never a panic.

use crate::common;

use proptest::prelude::*;
use ridgeline::content::FileError;
use ridgeline::defs::{Definitions, DefsError, RuleSources, Source};

fn shipped() -> RuleSources {
    let read = |n: &str| Source::read(&common::root().join("data").join(n)).unwrap();
    RuleSources {
        objects: read("objects.ron"),
        weapons: read("weapons.ron"),
        armor: read("armor.ron"),
        factions: read("factions.ron"),
        upgrades: read("upgrades.ron"),
    }
}

fn with_objects(text: String) -> RuleSources {
    let mut s = shipped();
    s.objects = Source::from_text("data/objects.ron", text);
    s
}

#[test]
fn shipped_data_loads_with_cross_references_resolved() {
    let defs = common::defs();
    let r = &defs.rules;
    assert!(r.templates.len() >= 10);
    assert_eq!(defs.models.len(), r.templates.len());
    let rifleman = r.template(r.template_id("Rifleman").unwrap());
    assert_eq!(r.weapon(rifleman.weapons[0]).name, "Rifle");
    // 20 units/s at 30 frames/s.
    assert_eq!(rifleman.speed.raw(), (20.0f64 / 30.0 * 65536.0).round() as i64);
    let barracks = r.template_id("Barracks").unwrap();
    assert!(rifleman.prerequisites.contains(&barracks));
    assert_eq!(r.factions.iter().filter(|f| f.playable).count(), 2);
    let neutral = r.factions.iter().find(|f| !f.playable).unwrap();
    assert!(neutral.starting_objects.is_empty());
}

#[test]
fn unknown_field_names_file_line_and_column() {
    let text = shipped().objects.text.replacen("max_health: 180", "max_helth: 180", 1);
    let errs = Definitions::from_sources(&with_objects(text.clone())).unwrap_err();
    let line = text.lines().position(|l| l.contains("max_helth")).unwrap() + 1;
    match &errs.0[0] {
        DefsError::File(FileError::Syntax { path, line: l, message, .. }) => {
            assert!(path.ends_with("objects.ron"));
            assert_eq!(*l, line);
            assert!(message.contains("max_helth"), "{message}");
        }
        e => panic!("unexpected {e}"),
    }
    assert!(errs.to_string().starts_with(&format!("data/objects.ron:{line}:")));
}

#[test]
fn bad_references_are_all_reported_with_item_and_field() {
    let text = shipped()
        .objects
        .text
        .replacen("weapons: [\"Rifle\"]", "weapons: [\"Rifel\"]", 1)
        .replacen("prerequisites: [\"WarFactory\"]", "prerequisites: [\"WarFactroy\"]", 1)
        .replacen("armor: \"Tank\"", "armor: \"Tonk\"", 1);
    let errs = Definitions::from_sources(&with_objects(text.clone())).unwrap_err();
    let msgs: Vec<String> = errs.0.iter().map(|e| e.to_string()).collect();
    assert_eq!(msgs.len(), 3, "{msgs:#?}");
    // The line of the field, not of the entry's name; near misses get a suggestion.
    let rifle_line = text.lines().position(|l| l.contains("[\"Rifel\"]")).unwrap() + 1;
    assert!(
        msgs.iter().any(|m| m
            == &format!(
                "data/objects.ron:{rifle_line}: object \"Rifleman\", field `weapons`: unknown weapon \"Rifel\" (did you mean Rifle?)"
            )),
        "{msgs:#?}"
    );
    assert!(msgs.iter().any(|m| m.contains("\"WarFactroy\" (did you mean WarFactory?)")), "{msgs:#?}");
    assert!(msgs.iter().any(|m| m.contains("field `prerequisites`: unknown object \"WarFactroy\"")));
    assert!(msgs.iter().any(|m| m.contains("field `armor`: unknown armour class \"Tonk\"")));
}

#[test]
fn bad_numbers_and_duplicates_are_caught() {
    let text = shipped().objects.text.replacen("speed: 20.0", "speed: -20.0", 1).replacen(
        "name: \"Scout\"",
        "name: \"Rifleman\"",
        1,
    );
    let errs = Definitions::from_sources(&with_objects(text)).unwrap_err();
    let all = errs.to_string();
    assert!(all.contains("field `speed`: -20 must not be negative"), "{all}");
    assert!(all.contains("field `name`: defined twice"), "{all}");
}

#[test]
fn a_missing_file_is_named() {
    let roots = ridgeline::content::ContentRoots::new(vec![common::temp_dir("nodata")]);
    let errs = Definitions::load(&roots).unwrap_err();
    assert_eq!(errs.0.len(), 5);
    assert!(errs.to_string().contains("objects.ron: cannot read"));
    assert!(errs.to_string().contains("upgrades.ron: cannot read"));
}

#[test]
fn bad_upgrades_and_research_lists_are_named_with_their_lines() {
    let mut s = shipped();
    s.upgrades = Source::from_text(
        "data/upgrades.ron",
        s.upgrades.text.replacen("percent: 80", "percent: 5", 1).replacen(
            "faction: \"Dominion\"",
            "faction: \"Nobody\"",
            1,
        ),
    );
    s.objects = Source::from_text(
        "data/objects.ron",
        s.objects.text.replacen("\"Turbines\"", "\"Turbine\"", 1).replacen("\"DrillSergeants\"", "\"Turbines\"", 1),
    );
    let all = Definitions::from_sources(&s).unwrap_err().to_string();
    assert!(all.contains("upgrades.ron") && all.contains("5% is outside 10..=500"), "{all}");
    assert!(all.contains("unknown faction \"Nobody\""), "{all}");
    assert!(all.contains("field `researches`: unknown upgrade \"Turbine\""), "{all}");
    // The Citadel (Dominion) now lists a Coalition upgrade.
    let mut s = shipped();
    s.objects = Source::from_text("data/objects.ron", s.objects.text.replacen("\"DrillSergeants\"", "\"Turbines\"", 1));
    let all = Definitions::from_sources(&s).unwrap_err().to_string();
    assert!(all.contains("\"Turbines\" is another faction's upgrade"), "{all}");
}

#[test]
fn display_names_are_what_players_read_and_bad_ones_are_named_with_their_lines() {
    let defs = common::defs();
    let id = |n: &str| defs.rules.template_id(n).unwrap();
    assert_eq!(defs.object_name(id("PowerStation")), "Power Station");
    // Without one, the unique name is shown.
    assert_eq!(defs.object_name(id("Rifleman")), "Rifleman");
    let armor = defs.rules.upgrades.iter().position(|u| u.name == "CompositeArmor").unwrap();
    assert_eq!(defs.upgrade_name(ridgeline::sim::ids::UpgradeId(armor as u16)), "Composite Armour");
    // Empty, two lines, too long: each refused at its own line, for the field.
    let text = shipped()
        .objects
        .text
        .replacen("display_name: \"Power Station\"", "display_name: \"  \"", 1)
        .replacen("display_name: \"War Factory\"", "display_name: \"War\\nFactory\"", 1)
        .replacen("display_name: \"Supply Depot\"", &format!("display_name: \"{}\"", "Depot ".repeat(6)), 1);
    let errs = Definitions::from_sources(&with_objects(text.clone())).unwrap_err();
    let msgs: Vec<String> = errs.0.iter().map(|e| e.to_string()).collect();
    assert_eq!(msgs.len(), 3, "{msgs:#?}");
    let line = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let at = |needle: &str| format!("data/objects.ron:{}: object", line(needle));
    assert!(msgs[0].starts_with(&at("\"PowerStation\"")) && msgs[0].contains("field `display_name`: is empty"));
    assert!(msgs[1].starts_with(&at("\"WarFactory\"")) && msgs[1].contains("control character"), "{msgs:#?}");
    assert!(msgs[2].starts_with(&at("\"SupplyDepot\"")) && msgs[2].contains("35 characters; the limit is 32"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any display name either loads as players will read it (trimmed, one line, 1–32
    /// characters) or is refused for that field at its line; never a panic.
    #[test]
    fn any_display_name_loads_as_shown_or_is_refused_at_its_line(given in "\\PC{0,40}|[ \t\n\u{7}a-z]{0,40}") {
        let ron = format!("display_name: {given:?}");
        let text = shipped().objects.text.replacen("display_name: \"Power Station\"", &ron, 1);
        let line = text.lines().position(|l| l.contains("name: \"PowerStation\"")).unwrap() + 1;
        match Definitions::from_sources(&with_objects(text)) {
            Ok(defs) => {
                let shown = defs.object_name(defs.rules.template_id("PowerStation").unwrap());
                prop_assert_eq!(shown, given.trim());
                prop_assert!(!shown.is_empty() && shown.chars().count() <= 32);
                prop_assert!(!shown.chars().any(char::is_control));
            }
            Err(errs) => {
                let all = errs.to_string();
                prop_assert!(all.starts_with(&format!("data/objects.ron:{line}")), "{}", all);
                prop_assert!(all.contains("display_name"), "{}", all);
            }
        }
    }

    /// Random damage to a valid file (cut, duplicated or replaced bytes) is an error, never a panic.
    #[test]
    fn mangled_objects_never_panic(cut in 0usize..6000, len in 0usize..40, junk in "[ -~]{0,12}") {
        let text = shipped().objects.text;
        let a = cut.min(text.len());
        let b = (a + len).min(text.len());
        if text.is_char_boundary(a) && text.is_char_boundary(b) {
            let mangled = format!("{}{}{}", &text[..a], junk, &text[b..]);
            let _ = Definitions::from_sources(&with_objects(mangled));
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = Definitions::from_sources(&with_objects(text));
    }
}

#[test]
fn armour_that_lets_anything_through_lets_at_least_one_point_through() {
    let defs = common::defs();
    let r = &defs.rules;
    let weapon = |n: &str| ridgeline::sim::ids::WeaponId(r.weapons.iter().position(|w| w.name == n).unwrap() as u16);
    let armor = |n: &str| ridgeline::sim::ids::ArmorId(r.armors.iter().position(|a| a.name == n).unwrap() as u16);
    // A rifle (8) against a structure (10 %) would round to 0: it does 1.
    assert_eq!(r.damage_after_armor(weapon("Rifle"), armor("Structure")), 1);
    // Whole numbers are unchanged: a tank cannon (60) against a structure (60 %).
    assert_eq!(r.damage_after_armor(weapon("TankCannon"), armor("Structure")), 36);
}

#[test]
fn the_shipped_counters_read_from_the_tables_are_the_ones_the_factions_promise() {
    // Rifles do best against infantry, rockets against vehicles, tanks and aircraft, artillery
    // against structures (static defence) and light vehicles, anti-air only against aircraft; cannons cannot
    // reach the air at all.
    let defs = common::defs();
    let r = &defs.rules;
    let against = |unit: &str| -> Vec<String> {
        r.strong_against(r.template_id(unit).unwrap()).iter().map(|a| r.armors[a.0 as usize].name.clone()).collect()
    };
    assert_eq!(against("Rifleman"), ["Infantry"]);
    assert_eq!(against("Rocketeer"), ["LightVehicle", "Tank", "Aircraft"]);
    assert_eq!(against("Longbow"), ["LightVehicle", "Structure"]);
    assert_eq!(against("Thunder"), ["LightVehicle", "Structure"]);
    assert_eq!(against("Skyguard"), ["Aircraft"]);
    assert_eq!(against("Bulwark"), ["LightVehicle", "Tank"]);
    assert!(against("Dozer").is_empty());
}

#[test]
fn data_check_passes_the_game_and_names_a_mods_slip_at_its_line() {
    let run = |args: &[&str]| {
        let out = common::ridgeline().args(args).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, out) = run(&["data-check"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("ok: ") && out.contains("map crossroads") && out.contains("sound files"), "{out}");
    assert!(out.contains("ground scatter"), "{out}");
    let dir = common::temp_dir("data-check-mod");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let models = common::read(&common::root().join("data/models.ron"));
    let objects =
        common::read(&common::root().join("data/objects.ron")).replacen("kit: \"Barracks\"", "kit: \"Barraks\"", 1);
    std::fs::write(dir.join("data/objects.ron"), &objects).unwrap();
    std::fs::write(dir.join("data/models.ron"), models).unwrap();
    let (code, out) = run(&["--mod", &dir.display().to_string(), "data-check"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("Barraks"), "{out}");
    // The ground's scatter is checked too: a kind strewn on a class that does not exist is
    // named with its file and line.
    let dir = common::temp_dir("data-check-scatter");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let scatter =
        common::read(&common::root().join("data/scatter.ron")).replacen("(\"Rock\", 0.7)", "(\"Rokc\", 0.7)", 1);
    let line = scatter.lines().position(|l| l.contains("Rokc")).unwrap() + 1;
    std::fs::write(dir.join("data/scatter.ron"), scatter).unwrap();
    let (code, out) = run(&["--mod", &dir.display().to_string(), "data-check"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(&format!("scatter.ron:{line}: scatter kind \"stone\", field `on`: no terrain class \"Rokc\"")),
        "{out}"
    );
}

#[test]
fn data_check_refuses_a_mods_effect_setting_out_of_range_naming_its_file_and_line() {
    let dir = common::temp_dir("effects-check");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let game = common::read(&common::root().join("data/effects.ron"));
    assert!(ridgeline::game::data_check::run(&common::roots()).problems.is_empty(), "the game's own pass");
    let bad = game.replacen("puffs: 16,", "puffs: 400,", 1);
    let line = bad.lines().position(|l| l.contains("puffs: 400")).unwrap() + 1;
    std::fs::write(dir.join("data/effects.ron"), bad).unwrap();
    let report = ridgeline::game::data_check::run(&common::roots().with_mod(dir.clone()));
    assert!(report.checked.iter().any(|c| c == "effect settings"), "{:?}", report.checked);
    let want =
        format!("data/effects.ron:{line}: effects \"effects\", field `explosion.ring.puffs`: 400 is out of range");
    assert!(
        report.problems.iter().any(|p| p.contains(&want) && p.contains(&dir.display().to_string())),
        "{:?}",
        report.problems
    );
}
