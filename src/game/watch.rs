//! Watching the interface files for changes while the game runs, so a modder sees an edited
//! layout at once: the `ui/*.wnd` files of every content root are polled (names, sizes and
//! modification times) at most once a second.
//!
//! Must not: read the files' contents (the shell reloads and checks them), or block.

use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use crate::content::ContentRoots;

/// How often the files are looked at.
const EVERY: Duration = Duration::from_secs(1);

/// The layout files as last seen.
#[derive(Debug)]
pub struct LayoutWatch {
    seen: Vec<(PathBuf, Option<SystemTime>, u64)>,
    checked: Instant,
}

impl LayoutWatch {
    /// Starts watching from the files as they are now.
    pub fn new(roots: &ContentRoots) -> LayoutWatch {
        LayoutWatch { seen: stamp(roots), checked: Instant::now() }
    }

    /// True (once) when a layout file was added, removed or changed since the last look.
    pub fn changed(&mut self, roots: &ContentRoots) -> bool {
        if self.checked.elapsed() < EVERY {
            return false;
        }
        self.checked = Instant::now();
        let now = stamp(roots);
        if now == self.seen {
            return false;
        }
        self.seen = now;
        true
    }
}

/// Name, modification time and size of every `ui/*.wnd` file, sorted.
fn stamp(roots: &ContentRoots) -> Vec<(PathBuf, Option<SystemTime>, u64)> {
    let mut out = Vec::new();
    for root in roots.roots() {
        let Ok(dir) = std::fs::read_dir(root.join("ui")) else { continue };
        for entry in dir.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "wnd") {
                let meta = entry.metadata().ok();
                out.push((path, meta.as_ref().and_then(|m| m.modified().ok()), meta.map_or(0, |m| m.len())));
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edited_layout_is_noticed_once() {
        let dir = std::env::temp_dir().join(format!("ridgeline-watch-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("ui")).unwrap();
        std::fs::write(dir.join("ui/A.wnd"), "one").unwrap();
        let roots = ContentRoots::new(vec![dir.clone()]);
        let mut w = LayoutWatch::new(&roots);
        w.checked -= EVERY;
        assert!(!w.changed(&roots), "nothing changed yet");
        std::fs::write(dir.join("ui/A.wnd"), "one more").unwrap();
        w.checked -= EVERY;
        assert!(w.changed(&roots));
        w.checked -= EVERY;
        assert!(!w.changed(&roots), "reported once");
        std::fs::write(dir.join("ui/B.wnd"), "new").unwrap();
        assert!(!w.changed(&roots), "not looked at again within a second");
        w.checked -= EVERY;
        assert!(w.changed(&roots), "a new file counts");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
