//! Everything players read is translatable: a Spanish mod (a `ui/strings.es.ron` alone)
//! words a unit's and a structure's name and description in the battle's control bar and
//! selection panel and on a `screenshot --language es`, while the simulation keeps its unique
//! names.

use ridgeline::content::ContentRoots;
use ridgeline::game::battle::{Action, Battle};
use ridgeline::game::hud::panel;
use ridgeline::ui::draw::DrawCmd;
use ridgeline::ui::labels::Labels;

use crate::common;

const SPANISH: &str = r#"{
    "Language:Name": "Español",
    "Object:CommandPost": "Puesto de mando",
    "Object:CommandPost.Description": "El cuartel general de la Coalición.",
    "Object:Dozer": "Excavadora",
    "Object:Dozer.Description": "Construye y repara las estructuras de la Coalición.",
}"#;

/// A mod folder holding only the Spanish string table.
fn spanish_mod(name: &str) -> std::path::PathBuf {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::write(dir.join("ui/strings.es.ron"), SPANISH).unwrap();
    dir
}

fn roots_with(dir: &std::path::Path) -> ContentRoots {
    let mut roots = vec![dir.to_path_buf()];
    roots.extend(common::roots().roots().iter().cloned());
    ContentRoots::new(roots)
}

#[test]
fn a_spanish_mod_names_and_describes_a_unit_in_the_control_bar_and_the_selection_panel() {
    let roots = roots_with(&spanish_mod("translation-battle"));
    let mut b = common::skirmish();
    b.set_labels(std::sync::Arc::new(Labels::load_language(&roots, "es").unwrap()));
    let me = b.local();
    let post_t = b.world().rules().template_id("CommandPost").unwrap();
    let post = b.world().objects().find(|o| o.owner == me && o.template == post_t).unwrap().id;
    b.controls().select(vec![post]);
    common::run_for(&mut b, 0.5);
    // The Command Post trains Dozers: the button and its tooltip in Spanish.
    let commands = b.look().commands();
    let dozer = commands
        .iter()
        .find(|c| matches!(c.action, Action::Produce { .. }) && c.label.starts_with("Excavadora"))
        .unwrap_or_else(|| {
            panic!("a Spanish Dozer button: {:?}", commands.iter().map(|c| &c.label).collect::<Vec<_>>())
        });
    assert!(dozer.tooltip.contains("Excavadora"), "{}", dozer.tooltip);
    assert!(dozer.tooltip.contains("Construye y repara las estructuras de la Coalición."), "{}", dozer.tooltip);
    // The selection panel names the Command Post in Spanish.
    let panel_texts = |w: f32| -> Vec<String> {
        let measure = ridgeline::ui::font::FixedMeasure; // 6 px a character at the panel's 12 px
        panel::draw(&b, ridgeline::ui::Rect { x: 0.0, y: 0.0, w, h: 142.0 }, &measure)
            .into_iter()
            .filter_map(|c| match c {
                DrawCmd::Text { text, .. } => Some(text),
                _ => None,
            })
            .collect()
    };
    let texts = panel_texts(300.0);
    assert!(texts.iter().any(|t| t == "Puesto de mando"), "{texts:?}");
    // In a narrower panel the longer name ends in an ellipsis inside it: the name starts 54 px
    // in (the icon) and keeps 4 px clear of the edge, 72 px for 12 characters.
    let texts = panel_texts(130.0);
    assert!(texts.iter().any(|t| t == "Puesto de m…"), "{texts:?}");
    // Display only: the simulation's names are the ids.
    assert_eq!(b.world().rules().template(post_t).name, "CommandPost");
    // Back to the game's own words.
    b.set_labels(std::sync::Arc::new(Labels::load_all(&roots).unwrap()));
    assert_eq!(b.play().defs().object_name(post_t), "Command Post");
}

/// What a battle's Command Post's selection panel draws, by the CLI's `screenshot`.
fn hud_shot(dir: &std::path::Path, language: Option<&str>, out: &std::path::Path) -> (bool, String) {
    let mut args =
        vec!["--mod", dir.to_str().unwrap(), "screenshot", "--map", "proving_grounds", "--players", "idle,idle"];
    args.extend(["--ui", "hud", "--select", "CommandPost", "--size", "960x540", "--out", out.to_str().unwrap()]);
    if let Some(code) = language {
        args.extend(["--language", code]);
    }
    let o = common::ridgeline().args(&args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr))
}

#[test]
fn screenshot_language_shows_the_translation_and_refuses_a_language_nobody_has() {
    let dir = spanish_mod("translation-shot");
    let (english, spanish) = (dir.join("en.png"), dir.join("es.png"));
    let (ok, out) = hud_shot(&dir, None, &english);
    assert!(ok, "{out}");
    let (ok, out) = hud_shot(&dir, Some("es"), &spanish);
    assert!(ok, "{out}");
    // The same battle, the same frame: only the words differ, and they are on the HUD (the
    // bottom third), not on the battlefield.
    let (a, b) = (image::open(&english).unwrap().into_rgba8(), image::open(&spanish).unwrap().into_rgba8());
    let differing: Vec<u32> =
        a.enumerate_pixels().filter(|(x, y, p)| *p != b.get_pixel(*x, *y)).map(|(_, y, _)| y).collect();
    assert!(!differing.is_empty(), "the Spanish picture differs");
    assert!(differing.iter().all(|&y| y > 540 * 2 / 3), "only the HUD's words change");
    let (ok, out) = hud_shot(&dir, Some("fr"), &dir.join("fr.png"));
    assert!(!ok && out.contains("--language fr") && out.contains("there are: es"), "{out}");
}

/// A battle whose names were translated plays the same game: translation never reaches the
/// simulation's state.
#[test]
fn a_translated_battle_keeps_the_same_state_hash() {
    let roots = roots_with(&spanish_mod("translation-hash"));
    let mut plain = common::skirmish();
    let mut translated: Battle = common::skirmish();
    translated.set_labels(std::sync::Arc::new(Labels::load_language(&roots, "es").unwrap()));
    common::run_for(&mut plain, 2.0);
    common::run_for(&mut translated, 2.0);
    assert_eq!(plain.world().state_hash().total, translated.world().state_hash().total);
}

/// The skirmish screen's own words and the data's names it lists: the computer players'
/// difficulties, a closed slot, colours, factions and the map list's "(2 players)", from the
/// chosen language; and the score screen's "Computer 2 · armour".
#[test]
fn the_skirmish_and_score_screens_word_choices_maps_factions_and_players_in_the_chosen_language() {
    use ridgeline::game::settings::Settings;
    use ridgeline::game::shell::Shell;
    let dir = spanish_mod("translation-skirmish");
    let more = r#"{
    "Language:Name": "Español",
    "Skirmish:EasyAI": "IA fácil",
    "Skirmish:Closed": "Cerrado",
    "Skirmish:MapPlayers": "{map} ({players} jugadores)",
    "Colour:Red": "Rojo",
    "Faction:Coalition": "Coalición",
    "Map:proving_grounds": "Campo de pruebas",
    "Map:proving_grounds.Description": "Un mapa para aprender.",
    "Score:Computer": "Ordenador {n}",
    "Style:armour": "blindados",
    "Style:balanced": "equilibrado",
    "Style:rush": "asalto",
    "Style:air": "aire",
    "Score:WithStyle": "{name} ({style})",
}"#;
    std::fs::write(dir.join("ui/strings.es.ron"), more).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let settings = dir.join("settings.ron");
    let chosen = Settings { language: "es".into(), ..Settings::default() };
    chosen.save(&settings).unwrap();
    let mut s = Shell::new(&roots, (1280.0, 720.0), settings).unwrap();
    common::click(&mut s, "MainMenu.wnd:ButtonSkirmish");
    let items = |s: &Shell, name: &str| s.ui.combo_items(s.find(name).unwrap()).to_vec();
    let players = items(&s, "SkirmishSetup.wnd:ComboPlayer1");
    assert_eq!(players[1], "IA fácil");
    assert_eq!(players[5], "Cerrado");
    assert_eq!(players[2], "Normal AI", "left out by the translation: the game's own");
    assert_eq!(items(&s, "SkirmishSetup.wnd:ComboColor0")[1], "Rojo");
    assert!(items(&s, "SkirmishSetup.wnd:ComboFaction0").contains(&"Coalición".to_string()));
    let rows = s.ui.list_rows(s.find("SkirmishSetup.wnd:ListMaps").unwrap()).to_vec();
    assert!(rows.iter().any(|r| r[0] == "Campo de pruebas (2 jugadores)"), "{rows:?}");
    assert!(
        rows.iter().any(|r| r[0].ends_with(" jugadores)") && !r[0].starts_with("Campo")),
        "others keep their names"
    );
    // The score screen: a computer player who named none, with its style.
    let mut b = common::skirmish();
    b.set_labels(std::sync::Arc::new(Labels::load_language(&roots, "es").unwrap()));
    // The computer draws its style when it first thinks.
    common::run_for(&mut b, 1.0);
    let (_, rows) = b.summary();
    let computer = &rows[1][0];
    assert!(computer.starts_with("Ordenador 2 (") && computer.ends_with(')'), "{computer}");
    assert!(!computer.contains("Computer") && !computer.contains('·'), "{computer}");
}
