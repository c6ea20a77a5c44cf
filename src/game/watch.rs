//! Watching the content files for changes while the game runs, so a modder sees an edited
//! layout, image set, map or data file without a restart. The `ui/`, `data/` and `maps/`
//! folders of every content root (mods included) are watched through the operating system's
//! file notifications (`notify`); where those cannot be had, they are polled instead (names,
//! sizes and modification times), at most once a second.
//!
//! Only changes count: content written, files created, removed or renamed. Opening or reading
//! a file — the game's own reloads do both — is never a change, so a reload cannot set off
//! another. Changes are reported once they have settled ([`QUIET`] without a new one), so an
//! editor saving a file in several writes causes one reload.
//!
//! A change wakes the window's event loop itself (a [`Waker`], given by the window: an
//! `EventLoopProxy` event), and [`ContentWatch::next_look`] says when to look again while
//! changes settle, so an outside edit shows without waiting for input; reads never wake it.
//!
//! Must not: read the files' contents (the shell reloads and checks them), or block.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant, SystemTime};

use notify::event::{AccessKind, AccessMode, ModifyKind};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use crate::content::ContentRoots;

/// How often the files are looked at when polling.
const EVERY: Duration = Duration::from_secs(1);
/// How long changes must settle before they are reported.
pub const QUIET: Duration = Duration::from_millis(250);
/// Most files the polling watch stamps under one root's folder (a runaway folder is cut off
/// there rather than walked for ever).
const MAX_STAMPED: usize = 20_000;
/// Deepest folder the polling watch walks under `data/` and `maps/`.
const MAX_DEPTH: usize = 4;

/// What changed under the watched folders since the last report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// A layout (`ui/*.wnd`).
    pub layouts: bool,
    /// Another file of the interface (`ui/images*.ron`, an atlas, `fonts.ron`, …).
    pub interface: bool,
    /// A data file (`data/`): used from the next match.
    pub data: bool,
    /// A map (`maps/`): the skirmish list follows.
    pub maps: bool,
}

impl Changes {
    /// True if anything changed.
    pub fn any(&self) -> bool {
        self.layouts || self.interface || self.data || self.maps
    }

    /// Everything at once (a lost notification may have been anything).
    fn all() -> Changes {
        Changes { layouts: true, interface: true, data: true, maps: true }
    }

    fn add(&mut self, other: Changes) {
        self.layouts |= other.layouts;
        self.interface |= other.interface;
        self.data |= other.data;
        self.maps |= other.maps;
    }
}

/// Wakes whoever looks at the watch (the window's event loop) from the notification thread,
/// when content changed.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// How the watch learns of changes.
enum Source {
    /// File notifications; the watcher must be kept alive.
    Notify { _watcher: RecommendedWatcher, events: Receiver<notify::Result<notify::Event>> },
    /// Looking at the files now and then.
    Poll { seen: Vec<Stamp>, checked: Instant },
}

/// One file as the polling watch saw it: its path, modification time and size.
type Stamp = (PathBuf, Option<SystemTime>, u64);

/// The content folders being watched.
pub struct ContentWatch {
    source: Source,
    /// Changes seen but not yet reported (still settling).
    pending: Changes,
    /// When the last of them was seen.
    last: Option<Instant>,
}

impl std::fmt::Debug for ContentWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.source {
            Source::Notify { .. } => "notify",
            Source::Poll { .. } => "poll",
        };
        f.debug_struct("ContentWatch").field("source", &kind).field("pending", &self.pending).finish()
    }
}

impl ContentWatch {
    /// Starts watching from the files as they are now: by notification if the system gives
    /// them for every watched folder, else by polling.
    pub fn new(roots: &ContentRoots) -> ContentWatch {
        ContentWatch::waking(roots, None)
    }

    /// As [`ContentWatch::new`], and each change notified calls `wake` (from the notification
    /// thread) so a sleeping event loop looks at once; see [`ContentWatch::next_look`].
    pub fn waking(roots: &ContentRoots, wake: Option<Waker>) -> ContentWatch {
        match notifying(roots, wake) {
            Ok(source) => ContentWatch { source, pending: Changes::default(), last: None },
            Err(e) => {
                log::info!("content files are polled (no file notifications: {e})");
                ContentWatch::polling(roots)
            }
        }
    }

    /// A watch that polls, whatever the system offers.
    pub fn polling(roots: &ContentRoots) -> ContentWatch {
        let source = Source::Poll { seen: stamp(roots), checked: Instant::now() };
        ContentWatch { source, pending: Changes::default(), last: None }
    }

    /// True if changes arrive by notification (false: by polling).
    pub fn notified(&self) -> bool {
        matches!(self.source, Source::Notify { .. })
    }

    /// When to look again ([`ContentWatch::changed`]) without other reasons to: while
    /// notified changes settle, when they will have; when polling, the next poll; none when
    /// nothing is pending (a new change wakes the loop).
    pub fn next_look(&self) -> Option<Instant> {
        match &self.source {
            Source::Notify { .. } => self.last.map(|t| t + QUIET),
            Source::Poll { checked, .. } => Some(*checked + EVERY),
        }
    }

    /// What changed since the last report, once the changes have settled for [`QUIET`]
    /// (nothing until then, and each change is reported once).
    pub fn changed(&mut self, roots: &ContentRoots) -> Changes {
        let now = Instant::now();
        let seen = match &mut self.source {
            Source::Notify { events, .. } => {
                let mut seen = Changes::default();
                for e in events.try_iter() {
                    match e {
                        Ok(e) if is_write(&e.kind) => {
                            for p in &e.paths {
                                seen.add(classify(roots, p));
                            }
                        }
                        Ok(_) => {}
                        // A lost event may have been anything: look at everything again.
                        Err(_) => seen = Changes::all(),
                    }
                }
                seen
            }
            Source::Poll { seen, checked } => {
                if checked.elapsed() < EVERY {
                    Changes::default()
                } else {
                    *checked = now;
                    let fresh = stamp(roots);
                    let diff = differences(roots, seen, &fresh);
                    *seen = fresh;
                    diff
                }
            }
        };
        if seen.any() {
            self.pending.add(seen);
            self.last = Some(now);
        }
        // Polling is already a second apart: what it saw has settled.
        let settled = !self.notified() || self.last.is_some_and(|t| now.duration_since(t) >= QUIET);
        if self.pending.any() && settled {
            self.last = None;
            std::mem::take(&mut self.pending)
        } else {
            Changes::default()
        }
    }
}

/// True for the notifications that mean content changed: a file created, removed, renamed,
/// written or closed after writing; never an open, a read or a change of attributes alone.
fn is_write(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any => true,
        EventKind::Modify(ModifyKind::Metadata(_)) => false,
        EventKind::Modify(_) => true,
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) | EventKind::Other => false,
    }
}

/// Which kind of content a path under one of the roots is (nothing: not watched content).
fn classify(roots: &ContentRoots, path: &Path) -> Changes {
    let mut c = Changes::default();
    let Some(rel) = roots.roots().iter().find_map(|r| path.strip_prefix(r).ok()) else { return c };
    let mut parts = rel.components();
    match parts.next().and_then(|p| p.as_os_str().to_str()) {
        Some("ui") if path.extension().is_some_and(|e| e == "wnd") => c.layouts = true,
        // The folder itself (removed or renamed) may have held anything.
        Some("ui") if parts.next().is_none() => (c.layouts, c.interface) = (true, true),
        Some("ui") => c.interface = true,
        Some("data") => c.data = true,
        Some("maps") => c.maps = true,
        _ => {}
    }
    c
}

/// A notification source over every root's `ui/`, `data/` and `maps/` folder.
fn notifying(roots: &ContentRoots, wake: Option<Waker>) -> notify::Result<Source> {
    let (tx, events) = channel();
    let mut watcher = notify::recommended_watcher(move |e: notify::Result<notify::Event>| {
        // Only a change (or a lost event) wakes the loop; reads never do.
        let change = e.as_ref().map_or(true, |e| is_write(&e.kind));
        // The receiver goes with the watch; nothing to tell once it has.
        let _ = tx.send(e);
        if let (true, Some(wake)) = (change, &wake) {
            wake();
        }
    })?;
    for root in roots.roots() {
        for (folder, mode) in [
            // With its folders: a mod's patches (`ui/patches/`) and fonts (`ui/fonts/`).
            ("ui", RecursiveMode::Recursive),
            ("data", RecursiveMode::Recursive),
            ("maps", RecursiveMode::Recursive),
        ] {
            let dir = root.join(folder);
            if dir.is_dir() {
                watcher.watch(&dir, mode)?;
            }
        }
    }
    Ok(Source::Notify { _watcher: watcher, events })
}

/// Name, modification time and size of every file in the watched folders, sorted: `ui/`'s
/// own files and its folders' (`ui/patches/`, `ui/fonts/`), and `data/` and `maps/` down to
/// [`MAX_DEPTH`] folders.
fn stamp(roots: &ContentRoots) -> Vec<Stamp> {
    let mut out = Vec::new();
    for root in roots.roots() {
        for (folder, depth) in [("ui", 1), ("data", MAX_DEPTH), ("maps", MAX_DEPTH)] {
            let mut budget = MAX_STAMPED;
            walk(&root.join(folder), depth, &mut budget, &mut out);
        }
    }
    out.sort();
    out
}

/// Stamps the files under `dir`, into folders `depth` deep; symbolic links are not followed.
fn walk(dir: &Path, depth: usize, budget: &mut usize, out: &mut Vec<Stamp>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let Ok(kind) = entry.file_type() else { continue };
        let path = entry.path();
        if kind.is_dir() {
            if depth > 0 {
                walk(&path, depth - 1, budget, out);
            }
        } else if kind.is_file() {
            let meta = entry.metadata().ok();
            out.push((path, meta.as_ref().and_then(|m| m.modified().ok()), meta.map_or(0, |m| m.len())));
        }
    }
}

/// What differs between two sorted stamp lists: the kinds of the files added, removed or
/// changed.
fn differences(roots: &ContentRoots, old: &[Stamp], new: &[Stamp]) -> Changes {
    let mut c = Changes::default();
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a.0 == b.0 => {
                if a != b {
                    c.add(classify(roots, &b.0));
                }
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a.0 < b.0 => {
                c.add(classify(roots, &a.0));
                i += 1;
            }
            (Some(_), Some(b)) | (None, Some(b)) => {
                c.add(classify(roots, &b.0));
                j += 1;
            }
            (Some(a), None) => {
                c.add(classify(roots, &a.0));
                i += 1;
            }
            (None, None) => break,
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mods_patch_and_font_are_watched() {
        let (dir, roots) = folder("patches");
        std::fs::create_dir_all(dir.join("ui/patches")).unwrap();
        std::fs::create_dir_all(dir.join("ui/fonts")).unwrap();
        std::fs::write(dir.join("ui/patches/MainMenu.wnd"), "WINDOW END").unwrap();
        std::fs::write(dir.join("ui/fonts/Orbit.ttf"), "font").unwrap();
        let stamped: Vec<PathBuf> = stamp(&roots).into_iter().map(|(p, ..)| p).collect();
        assert!(
            stamped.contains(&dir.join("ui/patches/MainMenu.wnd")) && stamped.contains(&dir.join("ui/fonts/Orbit.ttf"))
        );
        assert!(classify(&roots, &dir.join("ui/patches/MainMenu.wnd")).layouts);
        assert!(classify(&roots, &dir.join("ui/fonts/Orbit.ttf")).interface);
        std::fs::remove_dir_all(dir).unwrap();
    }

    fn folder(name: &str) -> (PathBuf, ContentRoots) {
        let dir = std::env::temp_dir().join(format!("ridgeline-watch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["ui", "data", "maps/small"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        std::fs::write(dir.join("ui/A.wnd"), "one").unwrap();
        std::fs::write(dir.join("ui/B.wnd"), "two").unwrap();
        std::fs::write(dir.join("data/objects.ron"), "[]").unwrap();
        std::fs::write(dir.join("maps/small/map.ron"), "()").unwrap();
        let roots = ContentRoots::new(vec![dir.clone()]);
        (dir, roots)
    }

    /// Lets the polling watch look again at once.
    fn rewind(w: &mut ContentWatch) {
        if let Source::Poll { checked, .. } = &mut w.source {
            *checked -= EVERY;
        }
    }

    /// Every report a notified watch gives over `wait` (looking every 10 ms).
    fn reports(w: &mut ContentWatch, roots: &ContentRoots, wait: Duration) -> Vec<Changes> {
        let end = Instant::now() + wait;
        let mut out = Vec::new();
        while Instant::now() < end {
            std::thread::sleep(Duration::from_millis(10));
            let c = w.changed(roots);
            if c.any() {
                out.push(c);
            }
        }
        out
    }

    fn read_everything(dir: &Path) {
        for sub in ["ui", "data", "maps/small"] {
            for e in std::fs::read_dir(dir.join(sub)).unwrap().flatten() {
                if e.path().is_file() {
                    let _ = std::fs::read(e.path()).unwrap();
                }
            }
        }
    }

    #[test]
    fn a_change_wakes_the_loop_and_says_when_it_will_have_settled_but_a_read_does_not() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (dir, roots) = folder("wake");
        let woken = Arc::new(AtomicUsize::new(0));
        let count = Arc::clone(&woken);
        let mut w = ContentWatch::waking(&roots, Some(Arc::new(move || _ = count.fetch_add(1, Ordering::SeqCst))));
        let linux = cfg!(target_os = "linux");
        assert!(w.notified() || !linux, "no file notifications on Linux");
        if !w.notified() {
            return;
        }
        assert_eq!(w.next_look(), None, "nothing pending: sleep until woken");
        for _ in 0..5 {
            read_everything(&dir);
        }
        std::thread::sleep(QUIET);
        assert_eq!(woken.load(Ordering::SeqCst), 0, "reads never wake the loop");
        std::fs::write(dir.join("ui/A.wnd"), "changed").unwrap();
        // Woken from the notification thread, with no input and nobody asking (bounded wait).
        let end = Instant::now() + Duration::from_secs(5);
        while woken.load(Ordering::SeqCst) == 0 && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(woken.load(Ordering::SeqCst) > 0, "the change woke the loop");
        // Looked at when woken: pending, and the loop is told when it will have settled.
        assert!(!w.changed(&roots).any(), "not settled yet");
        assert!(w.next_look().is_some(), "told when to look again");
        let got = reports(&mut w, &roots, QUIET * 3);
        assert_eq!(got, vec![Changes { layouts: true, ..Changes::default() }]);
        assert_eq!(w.next_look(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn polling_notices_each_kind_of_change_once() {
        let (dir, roots) = folder("poll");
        let mut w = ContentWatch::polling(&roots);
        rewind(&mut w);
        read_everything(&dir);
        assert_eq!(w.changed(&roots), Changes::default(), "nothing changed yet: reads are no change");
        std::fs::write(dir.join("ui/A.wnd"), "one more").unwrap();
        rewind(&mut w);
        assert_eq!(w.changed(&roots), Changes { layouts: true, ..Changes::default() });
        rewind(&mut w);
        assert!(!w.changed(&roots).any(), "reported once");
        std::fs::write(dir.join("maps/small/extra.ron"), "new").unwrap();
        assert!(!w.changed(&roots).any(), "not looked at again within a second");
        rewind(&mut w);
        assert_eq!(w.changed(&roots), Changes { maps: true, ..Changes::default() }, "a new map file counts");
        std::fs::remove_file(dir.join("data/objects.ron")).unwrap();
        std::fs::write(dir.join("ui/images.ron"), "[]").unwrap();
        rewind(&mut w);
        assert_eq!(w.changed(&roots), Changes { data: true, interface: true, ..Changes::default() });
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn notifications_report_writes_once_and_never_reads() {
        let (dir, roots) = folder("notify");
        let mut w = ContentWatch::new(&roots);
        // Linux always has inotify: there, no notifications is a failure, not a skip; elsewhere
        // the polling test covers the fallback.
        let linux = cfg!(target_os = "linux");
        assert!(w.notified() || !linux, "no file notifications on Linux");
        if !w.notified() {
            return;
        }
        // The game's own reloads open and read every file, again and again: no change.
        for _ in 0..20 {
            read_everything(&dir);
        }
        assert_eq!(reports(&mut w, &roots, QUIET * 3), vec![], "reading is no change");
        // One save, written in several pieces as editors do, is one report.
        {
            use std::io::Write;
            let mut f = std::fs::File::create(dir.join("ui/A.wnd")).unwrap();
            for piece in ["FILE_VERSION = 2;\n", "WINDOW\n", "END\n"] {
                f.write_all(piece.as_bytes()).unwrap();
                f.flush().unwrap();
            }
        }
        let got = reports(&mut w, &roots, QUIET * 4);
        assert_eq!(got, vec![Changes { layouts: true, ..Changes::default() }]);
        // A file beside the layouts, data and a map are told apart.
        std::fs::write(dir.join("data/objects.ron"), "[ ]").unwrap();
        std::fs::write(dir.join("maps/small/map.ron"), "( )").unwrap();
        let got = reports(&mut w, &roots, QUIET * 4);
        assert_eq!(got, vec![Changes { data: true, maps: true, ..Changes::default() }]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
