//! Nothing the player makes is lost (issue 58): every file the game writes goes through the one
//! safe writer, a full disk (simulated: this thread's writes fail after so many bytes) during
//! each kind of write leaves the old file byte-identical and the window says what was not
//! saved; settings merge between two copies of the game, keep fields they do not know and keep
//! every unreadable copy; the environment is checked.

use crate::common::{self, click};

use ridgeline::content::safe_write::simulate_disk_space;
use ridgeline::game::settings::Settings;
use ridgeline::game::shell::Shell;
use ridgeline::ui::Input;

/// The text of the open message box.
fn message(s: &Shell) -> String {
    s.ui.window(s.find("MessageBox.wnd:MessageText").expect("a message box")).unwrap().text.clone()
}

fn shell_at(path: &std::path::Path) -> Shell {
    Shell::new(&common::roots(), (1280.0, 720.0), path.to_path_buf()).expect("shell starts")
}

/// Runs `f` with only `bytes` of disk space left on this thread.
fn on_full_disk<T>(bytes: u64, f: impl FnOnce() -> T) -> T {
    simulate_disk_space(Some(bytes));
    let out = f();
    simulate_disk_space(None);
    out
}

#[test]
fn nothing_in_src_writes_a_file_but_the_safe_writer() {
    let root = common::root().join("src");
    let mut files = Vec::new();
    common::rust_source::rust_files(&root, &mut files);
    let mut found = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        if rel == "content/safe_write.rs" {
            continue;
        }
        let text = common::read(f);
        // Tests at the end of a file may make their fixtures however they like.
        let code = common::rust_source::code_only(text.split("#[cfg(test)]\nmod tests").next().unwrap_or(""));
        for bad in ["fs::write(", "File::create(", "WavWriter::create(", ".append(true)", "fs::copy(", "img.save("] {
            if code.contains(bad) {
                found.push(format!("src/{rel}: {bad}"));
            }
        }
    }
    assert!(files.len() > 100, "the sources were not found");
    assert_eq!(found, Vec::<String>::new(), "writes that do not go beside and rename over");
}

#[test]
fn a_full_disk_during_the_editors_save_keeps_the_earlier_layout_and_the_window_says_so() {
    let dir = common::temp_dir("files-editor-full");
    let mut s = shell_at(&dir.join("settings.ron"));
    s.prefs.settings.modder_mode = true;
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    s.toggle_editor();
    s.handle(Input::Char('s'));
    click(&mut s, "MessageBox.wnd:ButtonOk");
    let saved = dir.join("mods/my-layouts/ui/Options.wnd");
    let before = std::fs::read(&saved).unwrap();
    click(&mut s, "MessageBox.wnd:ButtonOk");
    // The disk fills: 36 KB of layout do not fit in 1,000 bytes.
    on_full_disk(1_000, || s.handle(Input::Char('s')));
    assert_eq!(std::fs::read(&saved).unwrap(), before, "the earlier layout is byte-identical");
    let said = message(&s);
    assert!(said.starts_with("Not saved: ") && said.contains("Options.wnd: No space left on device"), "{said}");
    let left: Vec<_> = std::fs::read_dir(saved.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("Options.wnd")], "no temporary file left");
}

#[test]
fn a_settings_save_that_fails_is_said_in_the_window_and_not_applied() {
    let dir = common::temp_dir("files-settings-full");
    let path = dir.join("settings.ron");
    Settings { music_volume: 33, ..Settings::default() }.save(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut s = shell_at(&path);
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    on_full_disk(10, || click(&mut s, "Options.wnd:ButtonSave"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let said = message(&s);
    assert!(said.starts_with("Not saved: ") && said.contains("settings.ron: No space left on device"), "{said}");
    assert!(!said.contains("cannot read"), "{said}");
    assert_eq!(s.screen(), Some(ridgeline::game::shell::Screen::Options), "nothing applied: still on Options");
    // A change made in place (the hint dismissed, a rejoin code) is said the same way.
    s.prefs.settings.last_game = "x".into();
    assert!(!on_full_disk(10, || s.save_settings()));
    assert!(message(&s).contains("settings.ron: No space left on device"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_full_disk_keeps_an_earlier_replay_wav_and_picture() {
    use ridgeline::session::Replay;
    let dir = common::temp_dir("files-full-kinds");
    let setup_path = common::root().join("tests/data/match.ron");
    let setup: ridgeline::session::MatchSetup =
        ridgeline::content::parse_ron(&setup_path, &common::read(&setup_path)).unwrap();
    let replay = Replay {
        version: ridgeline::session::replay::REPLAY_VERSION,
        setup,
        local: 0,
        frames: 10,
        final_hash: "0123456789abcdef".into(),
        commands: Vec::new(),
        checkpoints: Vec::new(),
        pace: Vec::new(),
        origin: None,
        winner: None,
    };
    let r = dir.join("replay.ron");
    std::fs::write(&r, "an earlier replay").unwrap();
    let e = on_full_disk(100, || replay.save(&r)).unwrap_err().to_string();
    assert!(e.contains("replay.ron: No space left on device"), "{e}");
    assert_eq!(common::read(&r), "an earlier replay");
    replay.save(&r).unwrap();
    assert!(Replay::load(&r).is_ok());

    let wav = dir.join("match.wav");
    std::fs::write(&wav, "an earlier WAV").unwrap();
    let e = on_full_disk(1_000, || ridgeline::game::offline_audio::write_wav(&wav, &[0.5; 48_000])).unwrap_err();
    assert!(e.to_string().contains("No space left on device"), "{e}");
    assert_eq!(common::read(&wav), "an earlier WAV");

    let png = dir.join("shot.png");
    std::fs::write(&png, "an earlier picture").unwrap();
    let img = image::RgbaImage::from_fn(256, 256, |x, y| image::Rgba([x as u8, y as u8, (x ^ y) as u8, 255]));
    let e = on_full_disk(1_000, || ridgeline::content::write_image(&png, &img)).unwrap_err();
    assert!(e.to_string().contains("shot.png: No space left on device"), "{e}");
    assert_eq!(common::read(&png), "an earlier picture");
    let left = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".tmp"));
    assert_eq!(left.count(), 0, "no temporary files left");
}

#[test]
fn two_copies_of_the_game_keep_each_others_settings() {
    let dir = common::temp_dir("files-settings-two");
    let path = dir.join("settings.ron");
    let (mut a, mut b) = (shell_at(&path), shell_at(&path));
    a.prefs.settings.music_volume = 40;
    assert!(a.save_settings());
    // The other copy, loaded before, changes only the name: the music stays at 40.
    b.prefs.settings.player_name = "Bo".into();
    assert!(b.save_settings());
    let on_disk = Settings::load(&path).unwrap();
    assert_eq!((on_disk.music_volume, on_disk.player_name.as_str()), (40, "Bo"));
    assert_eq!(b.prefs.settings.music_volume, 40, "the saving copy now shows the other's change");
    // And the first copy's next change keeps the second's name.
    a.prefs.settings.sfx_volume = 5;
    assert!(a.save_settings());
    let on_disk = Settings::load(&path).unwrap();
    assert_eq!((on_disk.music_volume, on_disk.sfx_volume, on_disk.player_name.as_str()), (40, 5, "Bo"));
}

/// The window the player resized and moved is saved over what another copy saved meanwhile:
/// only its size and place, so the other copy's change stays.
#[test]
fn the_windows_size_and_place_are_saved_over_another_copys_changes() {
    let dir = common::temp_dir("files-settings-window");
    let path = dir.join("settings.ron");
    let (mut a, mut b) = (shell_at(&path), shell_at(&path));
    assert!(!a.prefs.unsaved());
    b.prefs.settings.music_volume = 33;
    assert!(b.save_settings());
    // What the game does on a resize or move, then on closing.
    assert!(a.prefs.settings.follow_window((1366, 741), Some((200, 120)), false));
    assert!(a.prefs.unsaved());
    assert!(a.save_settings());
    assert!(!a.prefs.unsaved());
    let on_disk = Settings::load(&path).unwrap();
    assert_eq!(
        (on_disk.resolution, on_disk.window_position, on_disk.music_volume),
        ((1366, 741), Some((200, 120)), 33)
    );
}

#[test]
fn a_field_of_a_newer_version_survives_a_save() {
    let dir = common::temp_dir("files-settings-unknown");
    let path = dir.join("settings.ron");
    let newer = "(\n    music_volume: 40,\n    camera_tilt: (near: 1, far: [2, 3]), // a newer version's\n)\n";
    std::fs::write(&path, newer).unwrap();
    let loaded = Settings::load(&path).unwrap();
    assert_eq!(loaded.music_volume, 40, "one unknown field does not reset the others");
    let mine = Settings { player_name: "Bo".into(), ..loaded.clone() };
    let merged = mine.save_changes(&loaded, &path).unwrap();
    let text = common::read(&path);
    assert!(text.contains("camera_tilt: (near: 1, far: [2, 3])"), "{text}");
    assert_eq!(Settings::load(&path).unwrap(), merged);
    assert_eq!((merged.music_volume, merged.player_name.as_str()), (40, "Bo"));
}

#[test]
fn every_unreadable_settings_file_is_kept_under_its_own_name() {
    let dir = common::temp_dir("files-settings-slips");
    let path = dir.join("settings.ron");
    let slips = ["(\n  master_volume: 80\n  music_volume: 50,\n)\n", "(\n  player_name: Ava,\n)\n"];
    for slip in slips {
        std::fs::write(&path, slip).unwrap();
        assert!(Settings::load(&path).is_err());
        Settings::default().save(&path).unwrap();
    }
    assert_eq!(common::read(&dir.join("settings.ron.unreadable")), slips[0]);
    assert_eq!(common::read(&dir.join("settings.ron.unreadable.2")), slips[1]);
    assert_eq!(Settings::load(&path).unwrap(), Settings::default());
}

#[cfg(unix)]
#[test]
fn a_symlinked_settings_file_is_written_through_the_link() {
    let dir = common::temp_dir("files-settings-link");
    std::fs::create_dir_all(dir.join("dotfiles")).unwrap();
    let real = dir.join("dotfiles/ridgeline.ron");
    std::fs::write(&real, "(\n    music_volume: 20,\n)\n").unwrap();
    let path = dir.join("settings.ron");
    std::os::unix::fs::symlink(&real, &path).unwrap();
    let mut s = shell_at(&path);
    s.prefs.settings.sfx_volume = 7;
    assert!(s.save_settings());
    assert!(std::fs::symlink_metadata(&path).unwrap().file_type().is_symlink(), "still a link");
    let on_disk = Settings::load(&real).unwrap();
    assert_eq!((on_disk.music_volume, on_disk.sfx_volume), (20, 7));
}

#[test]
fn an_empty_or_wrong_environment_is_a_clear_error_and_writes_nowhere() {
    let cwd = common::temp_dir("files-env");
    let run = |var: &str, value: &str, args: &[&str]| {
        let out = common::ridgeline().current_dir(&cwd).env(var, value).args(args).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = run("RIDGELINE_CONFIG_DIR", "", &["mod", "new", "fresh"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("RIDGELINE_CONFIG_DIR is set but empty"), "{err}");
    assert_eq!(std::fs::read_dir(&cwd).unwrap().count(), 0, "nothing written into the current folder");
    let (code, err) = run("RIDGELINE_HOME", "", &["data-check"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("RIDGELINE_HOME is set but empty"), "{err}");
    let nothing = cwd.join("no-such-folder");
    let (code, err) = run("RIDGELINE_HOME", nothing.to_str().unwrap(), &["data-check"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no-such-folder: no data/ folder there"), "{err}");
    // Set right, it is used.
    let (code, err) = run("RIDGELINE_HOME", common::root().to_str().unwrap(), &["data-check"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_copy_of_the_game_run_away_from_its_folder_says_where_it_looked_and_never_reads_the_build_path() {
    // The binary linked (or copied) into a folder with no content above it, run from another.
    let away = common::temp_dir("files-away");
    let (bin, cwd) = (away.join("bin/ridgeline"), away.join("work"));
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let built = std::path::PathBuf::from(env!("CARGO_BIN_EXE_ridgeline"));
    if std::fs::hard_link(&built, &bin).is_err() {
        std::fs::copy(&built, &bin).unwrap();
    }
    let out = std::process::Command::new(&bin)
        .current_dir(&cwd)
        .env_remove("RIDGELINE_HOME")
        .env("RIDGELINE_CONFIG_DIR", away.join("config"))
        .arg("data-check")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("is in none of") && err.contains("set RIDGELINE_HOME"), "{err}");
    assert!(err.contains(cwd.to_str().unwrap()) && err.contains(away.join("bin").to_str().unwrap()), "{err}");
    assert!(!err.contains(env!("CARGO_MANIFEST_DIR")), "the build path is not among the places: {err}");
    // Put beside the game's folder's content, the same copy finds it.
    let found = std::process::Command::new(&bin)
        .current_dir(common::root())
        .env_remove("RIDGELINE_HOME")
        .env("RIDGELINE_CONFIG_DIR", away.join("config"))
        .arg("data-check")
        .output()
        .unwrap();
    assert_eq!(found.status.code(), Some(0), "{}", String::from_utf8_lossy(&found.stderr));
    let _ = std::fs::remove_dir_all(&away);
}
