//! The one way the game writes a file (settings, layouts, replays, identity keys, new mods,
//! screenshots, WAVs, generated art, hash logs, desync reports): the bytes go to a new file
//! beside the target (same folder, a unique name), are flushed to the disk, and only then is
//! that file renamed over the target. A full disk, a read-only folder or a crash half-way
//! leaves the old file byte-identical; the error names the file and why.
//!
//! Files that belong together (a map's heightmap and terrain) are all written beside their
//! targets first and only renamed over them once every one is on the disk ([`commit_all`]), so
//! a failure leaves all the old ones.
//!
//! A symlinked target is written through the link (the file it names is replaced, the link
//! stays); the target's permissions are kept, or a given mode set (identity keys: 0600).
//!
//! For tests, [`simulate_disk_space`] makes this thread's writes fail as a full disk does
//! after so many bytes.
//!
//! Must not: write anywhere but beside the target, or leave its temporary file behind.

use std::cell::Cell;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

/// A file that was not written; the old one (if any) is as it was.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{}: {why}", path.display())]
pub struct WriteError {
    /// The file that was to be written.
    pub path: PathBuf,
    /// Why not, in the operating system's or the encoder's words.
    pub why: String,
}

impl WriteError {
    /// An error naming `path`.
    pub fn new(path: &Path, why: impl std::fmt::Display) -> WriteError {
        WriteError { path: path.to_path_buf(), why: why.to_string() }
    }
}

/// Links followed to find the file a symlinked target names (as the system's own limit).
const MAX_LINKS: usize = 40;

thread_local! {
    /// Bytes this thread may still write before a simulated full disk (None: no limit).
    static SPACE_LEFT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// For tests: this thread's writes through this module fail with "No space left on device"
/// once `bytes` more bytes have been written (None: the real disk's space again).
pub fn simulate_disk_space(bytes: Option<u64>) {
    SPACE_LEFT.with(|s| s.set(bytes));
}

/// Takes `n` bytes of the simulated space; false when the simulated disk is full.
fn take_space(n: usize) -> bool {
    SPACE_LEFT.with(|s| match s.get() {
        None => true,
        Some(left) if left >= n as u64 => {
            s.set(Some(left - n as u64));
            true
        }
        Some(_) => {
            s.set(Some(0));
            false
        }
    })
}

fn disk_full() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::StorageFull, "No space left on device")
}

/// The file `path` names once symlinks are followed (itself when it is no link, or names
/// nothing yet); a link loop is an error.
pub fn resolve_links(path: &Path) -> Result<PathBuf, WriteError> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&at).map_err(|e| WriteError::new(path, e))?;
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(WriteError::new(path, format!("more than {MAX_LINKS} symlinks in a row (a loop?)")))
}

/// A file being written beside its target; [`SafeFile::commit`] puts it in place. Dropped
/// without a commit, it is removed and the target is untouched.
pub struct SafeFile {
    /// The path asked for (named in errors).
    asked: PathBuf,
    /// The file actually replaced (the link's target for a symlink).
    target: PathBuf,
    /// The new file beside it.
    temp: PathBuf,
    file: Option<BufWriter<std::fs::File>>,
}

impl SafeFile {
    /// Starts writing `path` (its folder is created if missing), keeping the permissions of
    /// the file it replaces.
    pub fn create(path: &Path) -> Result<SafeFile, WriteError> {
        SafeFile::open(path, None)
    }

    /// Starts writing `path` with permissions `mode` (Unix; `0o600` for a secret).
    pub fn create_with_mode(path: &Path, mode: u32) -> Result<SafeFile, WriteError> {
        SafeFile::open(path, Some(mode))
    }

    fn open(path: &Path, mode: Option<u32>) -> Result<SafeFile, WriteError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let err = |e: &dyn std::fmt::Display| WriteError::new(path, e);
        let target = resolve_links(path)?;
        let old = match std::fs::metadata(&target) {
            Ok(m) if !m.is_file() => {
                let kind = if m.is_dir() { "a folder" } else { "not a regular file (a FIFO, socket or device)" };
                return Err(err(&format!("{kind} is there: not written")));
            }
            Ok(m) => Some(m),
            Err(_) => None,
        };
        let name = target.file_name().ok_or_else(|| err(&"not a file name"))?.to_string_lossy().into_owned();
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&dir).map_err(|e| WriteError::new(&dir, e))?;
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(mode.unwrap_or(0o666));
        }
        let file = options.open(&temp).map_err(|e| err(&e))?;
        let out = SafeFile { asked: path.to_path_buf(), target, temp, file: Some(BufWriter::new(file)) };
        // The umask may have narrowed the mode; the old file's permissions are kept.
        let permissions = match (mode, old) {
            #[cfg(unix)]
            (Some(mode), _) => Some(std::os::unix::fs::PermissionsExt::from_mode(mode)),
            (_, Some(old)) => Some(old.permissions()),
            _ => None,
        };
        if let Some(p) = permissions {
            std::fs::set_permissions(&out.temp, p).map_err(|e| out.error(e))?;
        }
        Ok(out)
    }

    /// An error naming the file asked for.
    pub fn error(&self, why: impl std::fmt::Display) -> WriteError {
        WriteError::new(&self.asked, why)
    }

    /// Flushes the new file to the disk and renames it over the target.
    pub fn commit(mut self) -> Result<(), WriteError> {
        self.flush_to_disk()?;
        self.put_in_place()
    }

    /// Flushes the new file to the disk (and closes it), not yet in place.
    fn flush_to_disk(&mut self) -> Result<(), WriteError> {
        let Some(buffered) = self.file.take() else { return Err(self.error("already committed")) };
        let file = buffered.into_inner().map_err(|e| self.error(e.error()))?;
        file.sync_all().map_err(|e| self.error(e))
    }

    /// Renames the flushed new file over the target.
    fn put_in_place(mut self) -> Result<(), WriteError> {
        std::fs::rename(&self.temp, &self.target).map_err(|e| self.error(e))?;
        // The rename is kept across a crash once the folder is flushed too (Unix).
        #[cfg(unix)]
        if let Some(dir) = self.target.parent().filter(|d| !d.as_os_str().is_empty())
            && let Ok(d) = std::fs::File::open(dir)
        {
            let _ = d.sync_all();
        }
        self.temp = PathBuf::new();
        Ok(())
    }

    fn inner(&mut self) -> std::io::Result<&mut BufWriter<std::fs::File>> {
        self.file.as_mut().ok_or_else(|| std::io::Error::other("already committed"))
    }
}

impl Write for SafeFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !take_space(buf.len()) {
            return Err(disk_full());
        }
        self.inner()?.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner()?.flush()
    }
}

impl Seek for SafeFile {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner()?.seek(pos)
    }
}

impl Drop for SafeFile {
    fn drop(&mut self) {
        self.file = None;
        if !self.temp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Puts files that belong together in place: every one is flushed to the disk first, and only
/// then are they renamed over their targets, so a full disk leaves every old file as it was.
pub fn commit_all(mut files: Vec<SafeFile>) -> Result<(), WriteError> {
    for f in &mut files {
        f.flush_to_disk()?;
    }
    for f in files {
        f.put_in_place()?;
    }
    Ok(())
}

/// Writes `bytes` as the file `path`, safely (see the module's doc).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_with(path, None, |f| f.write_all(bytes))
}

/// Writes `bytes` as the file `path` with permissions `mode` (Unix).
pub fn write_file_mode(path: &Path, bytes: &[u8], mode: u32) -> Result<(), WriteError> {
    write_with(path, Some(mode), |f| f.write_all(bytes))
}

/// Writes the file `path` by `fill` (an encoder writing into it), then puts it in place;
/// any error of `fill` leaves the old file as it was and is returned naming `path`.
pub fn write_with<E: std::fmt::Display>(
    path: &Path,
    mode: Option<u32>,
    fill: impl FnOnce(&mut SafeFile) -> Result<(), E>,
) -> Result<(), WriteError> {
    let mut f = SafeFile::open(path, mode)?;
    fill(&mut f).map_err(|e| f.error(e))?;
    f.commit()
}

/// Writes `img` as the file `path`, in the format its extension names (PNG when it names none
/// the game writes).
pub fn write_image<P>(path: &Path, img: &image::ImageBuffer<P, Vec<P::Subpixel>>) -> Result<(), WriteError>
where
    P: image::PixelWithColorType,
    [P::Subpixel]: image::EncodableLayout,
{
    prepare_image(path, img)?.commit()
}

/// `img` encoded into a new file beside `path`, not yet in place (see [`commit_all`]).
pub fn prepare_image<P>(path: &Path, img: &image::ImageBuffer<P, Vec<P::Subpixel>>) -> Result<SafeFile, WriteError>
where
    P: image::PixelWithColorType,
    [P::Subpixel]: image::EncodableLayout,
{
    let format = image::ImageFormat::from_path(path).unwrap_or(image::ImageFormat::Png);
    let mut f = SafeFile::open(path, None)?;
    img.write_to(&mut f, format).map_err(|e| f.error(e))?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ridgeline-safe-write-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn leftovers(d: &Path) -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_full_disk_half_way_leaves_the_old_file_byte_identical_and_no_temporary_file() {
        let d = dir("full");
        let path = d.join("layout.wnd");
        let old = vec![b'a'; 40_000];
        std::fs::write(&path, &old).unwrap();
        simulate_disk_space(Some(1_000));
        let e = write_file(&path, &vec![b'b'; 36_000]).unwrap_err();
        simulate_disk_space(None);
        assert_eq!(std::fs::read(&path).unwrap(), old);
        assert_eq!(e.path, path);
        assert!(e.to_string().contains("layout.wnd: No space left on device"), "{e}");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
        // With room, it is written.
        write_file(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(leftovers(&d).is_empty());
    }

    #[test]
    fn an_encoder_error_leaves_the_old_file() {
        let d = dir("encoder");
        let path = d.join("shot.png");
        std::fs::write(&path, "old").unwrap();
        let e = write_with(&path, None, |f| {
            f.write_all(b"half")?;
            Err::<(), _>(std::io::Error::other("the encoder gave up"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), format!("{}: the encoder gave up", path.display()));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert!(leftovers(&d).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_written_through_and_permissions_are_kept_or_set() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("link");
        let real = d.join("real.ron");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = d.join("settings.ron");
        std::os::unix::fs::symlink("real.ron", &link).unwrap();
        write_file(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays");
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
        let key = d.join("sub/identity.key");
        write_file_mode(&key, b"secret", 0o600).unwrap();
        assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
        // A link loop is refused, naming the file.
        let (a, b) = (d.join("a"), d.join("b"));
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", &b).unwrap();
        assert!(write_file(&a, b"x").unwrap_err().to_string().contains("symlinks in a row"));
    }

    #[test]
    fn a_folder_in_the_way_is_refused() {
        let d = dir("folder");
        let e = write_file(&d, b"x").unwrap_err();
        assert!(e.to_string().contains("a folder is there"), "{e}");
    }
}
