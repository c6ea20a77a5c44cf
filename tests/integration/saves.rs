//! Saved games: a game saved at a frame and loaded goes on exactly as the uninterrupted one
//! (the hash of every frame after it equal), on two maps with four computer players; saves
//! made with other data, in another version, cut short or garbled are refused with the file
//! and why, never a panic; the headless `sim --save-at/--save` and `sim --load`.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use ridgeline::content::ContentRoots;
use ridgeline::session::save::{Save, SaveError};
use ridgeline::session::{CommandScript, MatchSetup, PlayersSpec, run_session, start_local};

use super::common::{click, playable, ridgeline, root, roots, temp_dir};

/// Four computer players of every difficulty on `map`.
fn four_ais(map: &str, seed: u64) -> MatchSetup {
    let spec: PlayersSpec = "ai:hard,ai:brutal,ai:normal,ai:easy".parse().expect("spec");
    spec.to_match_setup(map, seed, &playable())
}

/// Plays `setup` for `frames`, saving into `path` at the first frame from `at` on where
/// commands given wait in the stream to run (so the save must keep them): the frame saved at
/// and the hash of every frame.
fn play_saving(roots: &ContentRoots, setup: &MatchSetup, at: u32, frames: u32, path: &Path) -> (u32, Vec<(u32, u64)>) {
    let mut game = start_local(roots, setup, &CommandScript::default()).expect("match starts");
    let (_, mut log) = run_session(&mut game.session, at, &game.slots).expect("runs");
    while game.session.stream().held().commands == 0 && (log.len() as u32) + 1 < frames {
        log.extend(run_session(&mut game.session, 1, &game.slots).expect("runs").1);
    }
    let saved_at = log.len() as u32;
    Save::capture(roots, &game, &[], 1_800_000_000, None).expect("saves").write(path).expect("written");
    let (_, rest) = run_session(&mut game.session, frames - saved_at, &game.slots).expect("runs on");
    log.extend(rest);
    (saved_at, log)
}

/// Loads `path` and plays `frames` more: the hash of every frame.
fn play_loaded(roots: &ContentRoots, path: &Path, frames: u32) -> Vec<(u32, u64)> {
    let mut game = Save::load(roots, path).expect("loads");
    run_session(&mut game.session, frames, &game.slots).expect("runs").1
}

/// A game saved at `at` and loaded plays the same frames, bit for bit, as the one that went on.
fn continues_exactly(map: &str, seed: u64, at: u32, frames: u32) {
    let dir = temp_dir(&format!("save-exact-{map}"));
    let path = dir.join("game.rlsave");
    let (at, whole) = play_saving(&roots(), &four_ais(map, seed), at, frames, &path);
    assert_eq!(whole.len() as u32, frames, "{map}: the game ran to the end");
    let loaded = play_loaded(&roots(), &path, frames - at);
    assert_eq!(loaded.first().map(|l| l.0), Some(at), "{map}: the loaded game goes on from the saved frame");
    assert_eq!(&whole[at as usize..], &loaded[..], "{map}: the hash log after the load differs");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_save_on_four_corners_continues_exactly() {
    continues_exactly("four_corners", 5, 1_500, 3_000);
}

#[test]
fn a_save_on_compass_rose_continues_exactly() {
    continues_exactly("compass_rose", 11, 1_200, 2_400);
}

/// A save of a short four-AI game on four_corners, written into a fresh folder (the game is
/// played once for every test).
fn short_save(name: &str) -> (PathBuf, PathBuf) {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let bytes = BYTES.get_or_init(|| {
        let dir = temp_dir("save-short");
        let path = dir.join("short.rlsave");
        play_saving(&roots(), &four_ais("four_corners", 2), 200, 400, &path);
        let bytes = std::fs::read(&path).expect("written");
        std::fs::remove_dir_all(&dir).ok();
        bytes
    });
    let dir = temp_dir(name);
    let path = dir.join("short.rlsave");
    std::fs::write(&path, bytes).expect("written");
    (dir, path)
}

#[test]
fn a_save_made_with_other_data_is_refused_naming_the_files() {
    let (dir, path) = short_save("save-other-data");
    // A mod in front of the game's data with a computer players' plan file of its own.
    let front = dir.join("front");
    std::fs::create_dir_all(front.join("data")).unwrap();
    let plans = std::fs::read_to_string(root().join("data/ai.ron")).unwrap();
    std::fs::write(front.join("data/ai.ron"), format!("{plans}\n// changed\n")).unwrap();
    let changed = ContentRoots::new(vec![front, root()]);
    let e = Save::load(&changed, &path).err().expect("refused");
    let SaveError::OtherData { files, .. } = &e else { panic!("{e}") };
    assert_eq!(files, &["data/ai.ron"], "{e}");
    let said = e.to_string();
    assert!(
        said.contains("short.rlsave") && said.contains("data/ai.ron") && said.contains("other game data"),
        "{said}"
    );
    // The same file loads with the game's own data.
    assert!(Save::load(&roots(), &path).is_ok());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_save_of_another_format_version_is_refused_with_its_version() {
    let (dir, path) = short_save("save-version");
    let bytes = std::fs::read(&path).unwrap();
    let newer = [b"ridgeline-save 2".as_slice(), &bytes[b"ridgeline-save 1".len()..]].concat();
    std::fs::write(&path, newer).unwrap();
    let e = Save::load(&roots(), &path).err().expect("refused");
    assert!(matches!(e, SaveError::Version { version: 2, .. }), "{e}");
    assert!(e.to_string().contains("save format version 2 (this build reads version 1)"), "{e}");
    assert!(matches!(Save::read_header(&path), Err(SaveError::Version { .. })));
    std::fs::write(&path, "(just: \"some RON\")").unwrap();
    assert!(matches!(Save::load(&roots(), &path), Err(SaveError::NotASave { .. })));
    std::fs::remove_dir_all(&dir).ok();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every save cut short is refused as damaged, naming the file; a garbled byte anywhere
    /// either leaves a save that still reads (a changed digit in the header) or is refused —
    /// never a panic.
    #[test]
    fn cut_or_garbled_saves_are_refused_cleanly(cut in 0.0f64..1.0, at in 0.0f64..1.0, bits in 1u8..=255) {
        let (dir, path) = short_save("save-fuzz");
        let bytes = std::fs::read(&path).unwrap();
        let cut = ((bytes.len() - 1) as f64 * cut) as usize;
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let e = Save::read(&path).expect_err("a save cut short is refused");
        prop_assert!(e.to_string().contains("short.rlsave"), "{}", e);
        let mut garbled = bytes.clone();
        let at = ((bytes.len() - 1) as f64 * at) as usize;
        garbled[at] ^= bits;
        std::fs::write(&path, &garbled).unwrap();
        if let Err(e) = Save::load(&roots(), &path) {
            prop_assert!(e.to_string().contains("short.rlsave"), "{}", e);
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn headless_sim_saves_and_loads_with_the_same_hash_log() {
    let dir = temp_dir("save-cli");
    let (save, whole, rest) = (dir.join("g.rlsave"), dir.join("whole.log"), dir.join("rest.log"));
    let run = |args: &[&str]| {
        let out = ridgeline().args(args).output().expect("runs");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let p = |p: &Path| p.to_string_lossy().into_owned();
    run(&[
        "sim",
        "--map",
        "proving_grounds",
        "--players",
        "ai:hard,ai:brutal",
        "--seed",
        "4",
        "--frames",
        "700",
        "--save-at",
        "300",
        "--save",
        &p(&save),
        "--hash-log",
        &p(&whole),
    ]);
    let json = run(&["sim", "--load", &p(&save), "--frames", "400", "--hash-log", &p(&rest), "--json"]);
    let whole = std::fs::read_to_string(&whole).unwrap();
    let rest = std::fs::read_to_string(&rest).unwrap();
    let tail: Vec<&str> = whole.lines().skip(300).collect();
    assert_eq!(rest.lines().collect::<Vec<_>>(), tail);
    assert!(rest.starts_with("300 "), "the loaded log begins at the saved frame");
    assert!(json.contains("\"frames\":400"), "{json}");
    // A save that is not one: exit 1, the file named.
    std::fs::write(&save, "garbage").unwrap();
    let out = ridgeline().args(["sim", "--load", &p(&save)]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("g.rlsave: not a Ridgeline saved game"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_battle_menu_saves_and_the_load_screen_continues_it() {
    use ridgeline::game::battle::Battle;
    use ridgeline::game::shell::{Screen, Shell, ShellRequest, SkirmishConfig};
    const SCREEN: glam::Vec2 = glam::Vec2::new(1280.0, 720.0);
    let dir = temp_dir("save-shell");
    let mut s = Shell::new(&roots(), (1280.0, 720.0), dir.join("settings.ron")).expect("shell starts");
    let setup = SkirmishConfig::default().to_match_setup("proving_grounds", 2, &playable(), "Tester", 1);
    let mut battle = Battle::start(&roots(), &setup, SCREEN).expect("battle starts");
    for _ in 0..95 {
        battle.advance(1.0 / 30.0).unwrap();
    }
    // An online battle's menu has Save greyed out: a click asks nothing.
    s.follow_battle(true, true);
    s.battle_saves(false);
    s.open(Screen::InGame);
    click(&mut s, "InGame.wnd:ButtonMenu");
    assert_eq!(s.screen(), Some(Screen::GameMenu));
    click(&mut s, "GameMenu.wnd:ButtonSave");
    assert!(s.take_requests().is_empty(), "a greyed-out Save asks nothing");
    click(&mut s, "GameMenu.wnd:ButtonResume");
    // Menu → Save asks the client to save, which writes into the saves folder.
    s.follow_battle(true, false);
    s.battle_saves(true);
    s.open(Screen::InGame);
    click(&mut s, "InGame.wnd:ButtonMenu");
    assert_eq!(s.screen(), Some(Screen::GameMenu));
    click(&mut s, "GameMenu.wnd:ButtonSave");
    assert_eq!(s.take_requests(), vec![ShellRequest::SaveBattle]);
    let path = battle.play().save_into(&roots(), &s.prefs.save_dir(), 1_800_000_000).expect("saved");
    assert_eq!(path.parent(), Some(dir.join("saves").as_path()));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(name, "Proving Grounds 2027-01-15 080000.rlsave");
    let (saved_frame, saved_hash) = (battle.world().frame(), battle.world().state_hash());
    // Later, from the main menu: Load lists it with its map, game time, date and players.
    s.follow_battle(false, false);
    s.open(Screen::MainMenu);
    click(&mut s, "MainMenu.wnd:ButtonLoad");
    assert_eq!(s.screen(), Some(Screen::Load));
    let rows = s.ui.list_rows(s.find("Load.wnd:ListSaves").unwrap());
    let secs = saved_frame.0 / 30;
    let time = format!("{}:{:02}", secs / 60, secs % 60);
    assert_eq!(
        rows,
        vec![vec!["Proving Grounds".to_string(), time, "2027-01-15 08:00".into(), "Tester, Computer 2".into()]]
    );
    let details = s.ui.window(s.find("Load.wnd:SaveDetails").unwrap()).unwrap().text.clone();
    assert!(details.contains("Proving Grounds") && details.contains("Tester"), "{details}");
    // Its thumbnail is made, handed to the client to upload and drawn beside the list.
    let key = format!("@save/{name}");
    assert!(s.content.dynamic_images.contains_key(&key) && s.content.fresh_images.contains(&key));
    let fonts = ridgeline::ui::font::Fonts::load().unwrap();
    let cmds = ridgeline::ui::draw::draw_list(&s.ui, &fonts, &|w, out| s.custom_draw(w, out));
    let picture = s.ui.window(s.find("Load.wnd:SavePicture").unwrap()).unwrap().rect;
    let drawn = cmds.iter().any(|c| {
        matches!(c, ridgeline::ui::draw::DrawCmd::Image { name, rect, .. }
            if *name == key && picture.contains(rect.x + 1.0, rect.y + 1.0))
    });
    assert!(drawn, "the thumbnail is drawn in its window");
    // Load continues it: the same state, and the same frames after.
    click(&mut s, "Load.wnd:ButtonLoad");
    assert_eq!(s.take_requests(), vec![ShellRequest::LoadSave(path.clone())]);
    let mut loaded = Battle::resume(&roots(), &path, SCREEN).expect("the save continues");
    assert_eq!((loaded.world().frame(), loaded.world().state_hash()), (saved_frame, saved_hash));
    for _ in 0..120 {
        battle.advance(1.0 / 30.0).unwrap();
        loaded.advance(1.0 / 30.0).unwrap();
    }
    assert!(loaded.world().frame() > saved_frame);
    assert_eq!(
        (loaded.world().frame(), loaded.world().state_hash()),
        (battle.world().frame(), battle.world().state_hash())
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_saves_picture_shows_only_what_the_saving_player_may_see() {
    use ridgeline::session::save::Thumbnail;
    use ridgeline::sim::PlayerId;
    // At the start of Proving Grounds each base lies far under the other's shroud.
    let (world, _) = crate::common::opening_game("idle,idle", 7);
    let ground = image::RgbImage::from_pixel(256, 256, image::Rgb([0, 0, 0]));
    let colours = [[255, 0, 0], [0, 0, 255]];
    let count = |t: &Thumbnail, c: [u8; 3]| t.image().unwrap().pixels().filter(|p| p.0 == c).count();
    let everything = Thumbnail::of(&world, None, &ground, &colours);
    assert!(count(&everything, [255, 0, 0]) > 0 && count(&everything, [0, 0, 255]) > 0, "both bases");
    let mine = Thumbnail::of(&world, Some(PlayerId(0)), &ground, &colours);
    assert_eq!(count(&mine, [255, 0, 0]), count(&everything, [255, 0, 0]), "all of player 1's own");
    assert_eq!(count(&mine, [0, 0, 255]), 0, "none of the enemy hidden under the shroud");
}

#[test]
fn a_loaded_battle_keeps_the_score_so_far() {
    use ridgeline::game::battle::Battle;
    use ridgeline::game::shell::{SkirmishConfig, SlotChoice};
    const SCREEN: glam::Vec2 = glam::Vec2::new(1280.0, 720.0);
    let dir = temp_dir("save-score");
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(3);
    let setup = cfg.to_match_setup("proving_grounds", 2, &playable(), "Tester", 1);
    let mut battle = Battle::start(&roots(), &setup, SCREEN).expect("battle starts");
    // A minute: the brutal computer has trained and built by then.
    for _ in 0..1_800 {
        battle.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    let (_, rows) = battle.summary();
    let built = |rows: &[Vec<String>], i: usize| rows[i][3].parse::<u32>().unwrap();
    assert!(built(&rows, 1) > 0, "the computer built something: {rows:?}");
    let path = dir.join("score.rlsave");
    battle.play().save(&roots(), &path, 0).expect("saved");
    let loaded = Battle::resume(&roots(), &path, SCREEN).expect("the save continues");
    assert_eq!(loaded.summary().1, rows, "the score screen counts from the game's start, not from the load");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_loaded_battle_does_not_retell_the_pauses_before_the_save() {
    use ridgeline::game::battle::{AlertKind, Battle};
    use ridgeline::game::shell::{SkirmishConfig, SlotChoice};
    const SCREEN: glam::Vec2 = glam::Vec2::new(1280.0, 720.0);
    let dir = temp_dir("save-pace");
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(0);
    let setup = cfg.to_match_setup("proving_grounds", 2, &playable(), "Tester", 1);
    let mut battle = Battle::start(&roots(), &setup, SCREEN).expect("battle starts");
    let run = |b: &mut Battle, seconds: f32| {
        for _ in 0..(seconds * 30.0) as u32 {
            b.advance(1.0 / 30.0 + 1e-4).unwrap();
        }
    };
    let paces = |b: &Battle| b.alerts().log().filter(|a| a.kind == AlertKind::Pace).count();
    run(&mut battle, 2.0);
    battle.controls().hotkey('p', false);
    run(&mut battle, 0.5);
    battle.controls().hotkey('p', false);
    run(&mut battle, 1.0);
    assert_eq!(paces(&battle), 2, "paused and resumed, both told");
    let path = dir.join("pace.rlsave");
    battle.play().save(&roots(), &path, 0).expect("saved");
    let mut loaded = Battle::resume(&roots(), &path, SCREEN).expect("the save continues");
    run(&mut loaded, 1.0);
    assert_eq!(paces(&loaded), 0, "{:?}", loaded.alerts().log().collect::<Vec<_>>());
    // A pause after the load is told.
    loaded.controls().hotkey('p', false);
    run(&mut loaded, 0.5);
    assert_eq!(paces(&loaded), 1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_load_screen_deletes_the_chosen_save_only_after_asking() {
    use ridgeline::game::battle::Battle;
    use ridgeline::game::shell::{Screen, Shell, SkirmishConfig};
    use ridgeline::ui::{Input, Key};
    const SCREEN: glam::Vec2 = glam::Vec2::new(1280.0, 720.0);
    let dir = temp_dir("save-delete");
    let mut s = Shell::new(&roots(), (1280.0, 720.0), dir.join("settings.ron")).expect("shell starts");
    let setup = SkirmishConfig::default().to_match_setup("proving_grounds", 2, &playable(), "Tester", 1);
    let mut battle = Battle::start(&roots(), &setup, SCREEN).expect("battle starts");
    battle.advance(1.0 / 30.0).unwrap();
    let older = battle.play().save_into(&roots(), &s.prefs.save_dir(), 1_800_000_000).expect("saved");
    let newer = battle.play().save_into(&roots(), &s.prefs.save_dir(), 1_800_000_600).expect("saved");
    s.open(Screen::Load);
    let rows = |s: &Shell| s.ui.list_rows(s.find("Load.wnd:ListSaves").unwrap()).len();
    assert_eq!(rows(&s), 2);
    // The newest is chosen first. Delete asks; Cancel keeps the file.
    click(&mut s, "Load.wnd:ButtonDelete");
    assert!(s.message_open(), "Delete asks first");
    click(&mut s, "MessageBox.wnd:ButtonCancel");
    assert!(newer.exists() && rows(&s) == 2, "cancelled: nothing deleted");
    // OK deletes it, and only it; the other save is chosen now.
    click(&mut s, "Load.wnd:ButtonDelete");
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert!(!newer.exists(), "deleted from the disk");
    assert!(older.exists(), "the other save stays");
    assert_eq!(rows(&s), 1);
    let details = s.ui.window(s.find("Load.wnd:SaveDetails").unwrap()).unwrap().text.clone();
    assert!(details.contains("Proving Grounds"), "the remaining save is chosen: {details}");
    // The Del key on the list does the same.
    click(&mut s, "Load.wnd:ListSaves");
    s.handle(Input::Key { key: Key::Delete, shift: false });
    assert!(s.message_open(), "Del asks too");
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert!(!older.exists());
    assert_eq!(rows(&s), 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_loaded_battle_opens_where_the_player_was_looking() {
    use ridgeline::game::battle::Battle;
    use ridgeline::game::shell::SkirmishConfig;
    const SCREEN: glam::Vec2 = glam::Vec2::new(1280.0, 720.0);
    let dir = temp_dir("save-view");
    let setup = SkirmishConfig::default().to_match_setup("crossroads", 2, &playable(), "Tester", 1);
    let mut battle = Battle::start(&roots(), &setup, SCREEN).expect("battle starts");
    battle.advance(1.0 / 30.0).unwrap();
    let home = battle.picture().camera().target;
    // The player looks at the middle of the map, closer in.
    battle.controls().look_at(glam::Vec2::new(64.0, 64.0));
    battle.camera_mut().zoom = 1.6;
    battle.camera_mut().yaw = 0.5;
    let looking = *battle.picture().camera();
    assert!(looking.target.distance(home) > 20.0, "moved away from the start: {home} → {}", looking.target);
    let path = battle.save_into(&roots(), &dir, 1_800_000_000).expect("saved");
    let loaded = Battle::resume(&roots(), &path, SCREEN).expect("the save continues");
    let c = loaded.picture().camera();
    // The same ground point (its height is the ground's there).
    assert!(c.target.truncate().distance(looking.target.truncate()) < 0.01, "{} vs {}", c.target, looking.target);
    assert_eq!((c.yaw, c.zoom), (0.5, 1.6));
    // A save made without a window (headless) opens at the start, as before.
    let headless = dir.join("headless.rlsave");
    battle.play().save(&roots(), &headless, 1_800_000_000).expect("saved");
    let loaded = Battle::resume(&roots(), &headless, SCREEN).expect("the save continues");
    assert!(loaded.picture().camera().target.truncate().distance(home.truncate()) < 0.01);
    std::fs::remove_dir_all(&dir).ok();
}
