//! Watching the interface files for changes while the game runs, so a modder sees an edited
//! layout at once. The `ui/` folders of every content root are watched through the operating
//! system's file notifications (`notify`); where those cannot be had, the `ui/*.wnd` files are
//! polled instead (names, sizes and modification times), at most once a second.
//!
//! Must not: read the files' contents (the shell reloads and checks them), or block.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant, SystemTime};

use notify::{RecommendedWatcher, RecursiveMode, Watcher};

use crate::content::ContentRoots;

/// How often the files are looked at when polling.
const EVERY: Duration = Duration::from_secs(1);

/// How the watch learns of changes.
enum Source {
    /// File notifications; the watcher must be kept alive.
    Notify { _watcher: RecommendedWatcher, events: Receiver<notify::Result<notify::Event>> },
    /// Looking at the files now and then.
    Poll { seen: Vec<(PathBuf, Option<SystemTime>, u64)>, checked: Instant },
}

/// The layout files being watched.
pub struct LayoutWatch {
    source: Source,
}

impl std::fmt::Debug for LayoutWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.source {
            Source::Notify { .. } => "notify",
            Source::Poll { .. } => "poll",
        };
        f.debug_struct("LayoutWatch").field("source", &kind).finish()
    }
}

impl LayoutWatch {
    /// Starts watching from the files as they are now: by notification if the system gives
    /// them for every `ui/` folder, else by polling.
    pub fn new(roots: &ContentRoots) -> LayoutWatch {
        match notifying(roots) {
            Ok(source) => LayoutWatch { source },
            Err(e) => {
                log::info!("layout files are polled (no file notifications: {e})");
                LayoutWatch::polling(roots)
            }
        }
    }

    /// A watch that polls, whatever the system offers.
    pub fn polling(roots: &ContentRoots) -> LayoutWatch {
        LayoutWatch { source: Source::Poll { seen: stamp(roots), checked: Instant::now() } }
    }

    /// True if changes arrive by notification (false: by polling).
    pub fn notified(&self) -> bool {
        matches!(self.source, Source::Notify { .. })
    }

    /// True (once) when a layout file was added, removed or changed since the last look.
    pub fn changed(&mut self, roots: &ContentRoots) -> bool {
        match &mut self.source {
            Source::Notify { events, .. } => {
                let mut any = false;
                for e in events.try_iter() {
                    match e {
                        Ok(e) => any |= e.paths.iter().any(|p| is_layout(p)),
                        // A lost event may have been a layout: look again.
                        Err(_) => any = true,
                    }
                }
                any
            }
            Source::Poll { seen, checked } => {
                if checked.elapsed() < EVERY {
                    return false;
                }
                *checked = Instant::now();
                let now = stamp(roots);
                if now == *seen {
                    return false;
                }
                *seen = now;
                true
            }
        }
    }
}

fn is_layout(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "wnd")
}

/// A notification source over every root's `ui/` folder.
fn notifying(roots: &ContentRoots) -> notify::Result<Source> {
    let (tx, events) = channel();
    let mut watcher = notify::recommended_watcher(move |e| {
        // The receiver goes with the watch; nothing to tell once it has.
        let _ = tx.send(e);
    })?;
    for root in roots.roots() {
        let ui = root.join("ui");
        if ui.is_dir() {
            watcher.watch(&ui, RecursiveMode::NonRecursive)?;
        }
    }
    Ok(Source::Notify { _watcher: watcher, events })
}

/// Name, modification time and size of every `ui/*.wnd` file, sorted.
fn stamp(roots: &ContentRoots) -> Vec<(PathBuf, Option<SystemTime>, u64)> {
    let mut out = Vec::new();
    for root in roots.roots() {
        let Ok(dir) = std::fs::read_dir(root.join("ui")) else { continue };
        for entry in dir.flatten() {
            let path = entry.path();
            if is_layout(&path) {
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

    fn folder(name: &str) -> (PathBuf, ContentRoots) {
        let dir = std::env::temp_dir().join(format!("ridgeline-watch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("ui")).unwrap();
        std::fs::write(dir.join("ui/A.wnd"), "one").unwrap();
        let roots = ContentRoots::new(vec![dir.clone()]);
        (dir, roots)
    }

    /// Lets the polling watch look again at once.
    fn rewind(w: &mut LayoutWatch) {
        if let Source::Poll { checked, .. } = &mut w.source {
            *checked -= EVERY;
        }
    }

    #[test]
    fn polling_notices_an_edited_layout_once() {
        let (dir, roots) = folder("poll");
        let mut w = LayoutWatch::polling(&roots);
        rewind(&mut w);
        assert!(!w.changed(&roots), "nothing changed yet");
        std::fs::write(dir.join("ui/A.wnd"), "one more").unwrap();
        rewind(&mut w);
        assert!(w.changed(&roots));
        rewind(&mut w);
        assert!(!w.changed(&roots), "reported once");
        std::fs::write(dir.join("ui/B.wnd"), "new").unwrap();
        assert!(!w.changed(&roots), "not looked at again within a second");
        rewind(&mut w);
        assert!(w.changed(&roots), "a new file counts");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn notifications_report_layout_edits_and_ignore_other_files() {
        let (dir, roots) = folder("notify");
        let mut w = LayoutWatch::new(&roots);
        // Linux always has inotify: there, no notifications is a failure, not a skip; elsewhere
        // the polling test covers the fallback.
        let linux = cfg!(target_os = "linux");
        assert!(w.notified() || !linux, "no file notifications on Linux");
        if !w.notified() {
            return;
        }
        // Wait (bounded) for an event of each kind to be delivered.
        let wait_for = |w: &mut LayoutWatch, tries: u32| {
            (0..tries).any(|_| {
                std::thread::sleep(Duration::from_millis(10));
                w.changed(&roots)
            })
        };
        std::fs::write(dir.join("ui/notes.txt"), "not a layout").unwrap();
        assert!(!wait_for(&mut w, 30), "a file that is not a layout is no change");
        std::fs::write(dir.join("ui/A.wnd"), "edited").unwrap();
        assert!(wait_for(&mut w, 300), "an edited layout is noticed");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
