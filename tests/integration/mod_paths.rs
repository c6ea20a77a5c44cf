//! A mod's files stay inside the mod (issue 58, round two): an image set whose atlas climbs out
//! of `ui/`, a `mod.ron` that is a link leading out of the mod, and a `ui/` that is a link loop
//! are each refused by `ui-check` and `data-check`, naming the file, never passed as "ok".

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
    std::fs::remove_file(dir.join("mod.ron")).unwrap();
    std::fs::rename(&outside, dir.join("mod.ron")).unwrap();
    std::os::unix::fs::symlink("ui", dir.join("ui")).unwrap();
    for cmd in ["data-check", "ui-check"] {
        let (code, out) = check(&dir, cmd);
        assert_eq!(code, Some(1), "{cmd}: {out}");
        assert!(out.contains("/ui: ") && out.contains("refused"), "{cmd}: {out}");
    }
}
