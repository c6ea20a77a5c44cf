//! A mod's files stay inside the mod (issue 58, round two): an image set whose atlas climbs out
//! of `ui/`, a `mod.ron` that is a link leading out of the mod, and a `ui/` that is a link loop
//! are each refused by `ui-check` and `data-check`, naming the file, never passed as "ok"; so is
//! any file inside a mod that is a link leading out of it, in every command.

use crate::common;

/// `ridgeline --mod <dir> <cmd>`: its exit code and what it printed.
fn check(dir: &std::path::Path, cmd: &str) -> (Option<i32>, String) {
    let out = common::ridgeline().args(["--mod", dir.to_str().unwrap(), cmd]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

fn a_mod(name: &str) -> std::path::PathBuf {
    let dir = common::temp_dir(name).join("m");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mod.ron"), "(\n    name: \"m\",\n    version: \"1\",\n)\n").unwrap();
    dir
}

#[test]
fn an_image_set_whose_atlas_climbs_out_of_the_mod_is_refused_at_its_line() {
    let dir = a_mod("modpaths-atlas");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    for atlas in ["../../../etc/passwd", "/etc/passwd", "sub/../../x.png"] {
        let set = format!("(\n    size: (4, 4),\n    atlas: {atlas:?},\n    images: {{}},\n)\n");
        std::fs::write(dir.join("ui/images-x.ron"), set).unwrap();
        let (code, out) = check(&dir, "ui-check");
        assert_eq!(code, Some(1), "{atlas}: {out}");
        assert!(
            out.contains("images-x.ron:3: image set") && out.contains("must name a file in this ui/ folder"),
            "{out}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_mod_ron_leading_out_of_the_mod_or_a_ui_folder_that_loops_is_refused() {
    let dir = a_mod("modpaths-links");
    let outside = dir.parent().unwrap().join("outside.ron");
    std::fs::rename(dir.join("mod.ron"), &outside).unwrap();
    std::os::unix::fs::symlink("../outside.ron", dir.join("mod.ron")).unwrap();
    for cmd in ["data-check", "ui-check"] {
        let (code, out) = check(&dir, cmd);
        assert_eq!(code, Some(1), "{cmd}: {out}");
        assert!(out.contains("mod.ron: a link leading out of the mod: refused"), "{cmd}: {out}");
    }
    // Refused unread: a file elsewhere that is no mod.ron is not parsed into the message.
    let kept = std::fs::read(&outside).unwrap();
    std::fs::write(&outside, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    let (code, out) = check(&dir, "data-check");
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains("root:x") && !out.contains("Expected"), "the outside file was read: {out}");
    std::fs::write(&outside, kept).unwrap();
    std::fs::remove_file(dir.join("mod.ron")).unwrap();
    std::fs::rename(&outside, dir.join("mod.ron")).unwrap();
    std::os::unix::fs::symlink("ui", dir.join("ui")).unwrap();
    for cmd in ["data-check", "ui-check"] {
        let (code, out) = check(&dir, cmd);
        assert_eq!(code, Some(1), "{cmd}: {out}");
        assert!(out.contains("/ui: ") && out.contains("refused"), "{cmd}: {out}");
    }
}

#[cfg(unix)]
#[test]
fn a_file_inside_a_mod_that_links_out_refuses_the_mod_in_every_command() {
    // Its layout, its data and its picture each a link to a file of the player's elsewhere.
    let dir = a_mod("modpaths-file-links");
    let elsewhere = dir.parent().unwrap().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    for (sub, name, from) in [
        ("ui", "MainMenu.wnd", "ui/MainMenu.wnd"),
        ("data", "weapons.ron", "data/weapons.ron"),
        ("ui", "flag.png", "ui/MainMenu.wnd"),
    ] {
        let dir = a_mod(&format!("modpaths-file-links-{name}"));
        let target = elsewhere.join(name);
        std::fs::copy(common::root().join(from), &target).unwrap();
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::os::unix::fs::symlink(&target, dir.join(sub).join(name)).unwrap();
        let told = format!("{sub}/{name}: a link leading out of the mod (or to nothing): refused");
        for cmd in ["data-check", "ui-check"] {
            let (code, out) = check(&dir, cmd);
            assert_eq!(code, Some(1), "{cmd} {name}: {out}");
            assert!(out.contains(&told), "{cmd} {name}: {out}");
        }
        // A headless run with the mod refuses it rather than playing on without it.
        let out = common::ridgeline()
            .args([
                "--mod",
                dir.to_str().unwrap(),
                "sim",
                "--map",
                "proving_grounds",
                "--players",
                "idle,idle",
                "--frames",
                "3",
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "sim {name}: {err}");
        assert!(err.contains("a mod given with --mod cannot be used") && err.contains(&told), "sim {name}: {err}");
    }
    // A link that stays inside the mod is fine.
    let inside = a_mod("modpaths-file-links-inside");
    std::fs::create_dir_all(inside.join("ui/real")).unwrap();
    std::fs::copy(common::root().join("ui/MainMenu.wnd"), inside.join("ui/real/MainMenu.wnd")).unwrap();
    std::os::unix::fs::symlink("real/MainMenu.wnd", inside.join("ui/MainMenu.wnd")).unwrap();
    let (code, out) = check(&inside, "ui-check");
    assert_eq!(code, Some(0), "{out}");
}
