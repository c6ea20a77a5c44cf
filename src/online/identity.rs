//! A player's identity key, which proves a seat when the player comes back: 32 random bytes
//! kept in a file (hex; created when missing — the window keeps one in the settings folder,
//! `join --identity <file>` headless). The hello carries only the seat token, SHA-256 of a
//! label, the key and the host's certificate fingerprint: a host learns nothing it could
//! use at another host, and (TLS being end to end) nobody else sees it at all.
//!
//! The file is read bounded ([`MAX_KEY_FILE_BYTES`]; a FIFO or a device in its place is
//! refused before it is opened) and written owner-only (mode 0600), beside and renamed over.
//! A key found readable by others (older builds wrote mode 0644) is made owner-only when it is
//! read, and the log says so.
//!
//! Must not: send the key itself anywhere, or accept a malformed file silently.

use std::path::{Path, PathBuf};

use ring::rand::SecureRandom;
use thiserror::Error;

/// Why an identity file could not be used.
#[derive(Debug, Error)]
pub enum IdentityError {
    /// It could not be read (too large, not a regular file, …).
    #[error(transparent)]
    Read(#[from] crate::content::FileError),
    /// It could not be written.
    #[error(transparent)]
    Write(#[from] crate::content::WriteError),
    /// Its folder could not be looked at.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// It does not hold a key.
    #[error("{path}:1: not an identity key (64 hex digits expected)")]
    Malformed {
        /// The file.
        path: PathBuf,
    },
    /// The system's random generator failed.
    #[error("no random bytes for a new identity key")]
    Random,
}

/// Bytes an identity file may hold (a key is 64 hex digits and a line end).
pub const MAX_KEY_FILE_BYTES: u64 = 1_024;

/// A player's identity key.
#[derive(Clone)]
pub struct Identity {
    key: [u8; 32],
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Identity(…)")
    }
}

impl Identity {
    /// A new random key (kept nowhere: the player cannot come back with it).
    pub fn fresh() -> Result<Identity, IdentityError> {
        let mut key = [0u8; 32];
        ring::rand::SystemRandom::new().fill(&mut key).map_err(|_| IdentityError::Random)?;
        Ok(Identity { key })
    }

    /// The key in `path`, or a new one written there when the file does not exist.
    pub fn load_or_create(path: &Path) -> Result<Identity, IdentityError> {
        let malformed = || IdentityError::Malformed { path: path.to_path_buf() };
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let id = Identity::fresh()?;
                let hex: String = id.key.iter().map(|b| format!("{b:02x}")).collect();
                crate::content::write_file_mode(path, format!("{hex}\n").as_bytes(), 0o600)?;
                Ok(id)
            }
            Err(source) => Err(IdentityError::Io { path: path.to_path_buf(), source }),
            Ok(meta) => {
                let bytes = crate::content::read_bytes_limited(path, MAX_KEY_FILE_BYTES)?;
                let text = String::from_utf8(bytes).map_err(|_| malformed())?;
                let id = Identity::parse(&text).ok_or_else(malformed)?;
                owner_only(path, &meta);
                Ok(id)
            }
        }
    }

    /// The key as its file holds it: 64 hex digits.
    fn parse(text: &str) -> Option<Identity> {
        let hex = text.trim();
        if hex.len() != 64 || !hex.is_ascii() {
            return None;
        }
        let mut key = [0u8; 32];
        for (i, b) in key.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Identity { key })
    }

    /// The seat token this identity shows the host whose certificate has `fingerprint`.
    pub fn seat(&self, fingerprint: &[u8; 32]) -> [u8; 32] {
        let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
        ctx.update(b"ridgeline seat v1");
        ctx.update(&self.key);
        ctx.update(fingerprint);
        let mut out = [0u8; 32];
        out.copy_from_slice(ctx.finish().as_ref());
        out
    }
}

/// Makes the key file at `path` (its metadata `meta`) owner-only when others may read it,
/// saying so in the log; a file it cannot change (another user's) is only warned about.
fn owner_only(path: &Path, meta: &std::fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 == 0 {
            return;
        }
        match std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
            Ok(()) => log::warn!(
                "{}: the identity key was readable by others (mode {mode:o}); made owner-only (600)",
                path.display()
            ),
            Err(e) => log::warn!(
                "{}: the identity key is readable by others (mode {mode:o}) and could not be made owner-only: {e}",
                path.display()
            ),
        }
    }
    #[cfg(not(unix))]
    let _ = (path, meta);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_created_once_and_its_token_differs_per_host() {
        let dir = std::env::temp_dir().join(format!("ridgeline-identity-{}", std::process::id()));
        let path = dir.join("nested").join("identity.key");
        let a = Identity::load_or_create(&path).unwrap();
        let b = Identity::load_or_create(&path).unwrap();
        let (host1, host2) = ([1u8; 32], [2u8; 32]);
        assert_eq!(a.seat(&host1), b.seat(&host1), "the same file is the same player");
        assert_ne!(a.seat(&host1), a.seat(&host2), "a token is no use at another host");
        assert_ne!(Identity::fresh().unwrap().seat(&host1), a.seat(&host1));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "only its owner may read a key");
            // A key an older build left readable by others is made owner-only when read.
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let c = Identity::load_or_create(&path).unwrap();
            assert_eq!(c.seat(&host1), a.seat(&host1), "the same key");
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "tightened when read");
        }
        std::fs::write(&path, "not hex at all\n").unwrap();
        let e = Identity::load_or_create(&path).unwrap_err();
        assert!(e.to_string().ends_with("identity.key:1: not an identity key (64 hex digits expected)"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_device_a_fifo_or_a_huge_file_is_refused_without_reading_it() {
        let dir = std::env::temp_dir().join(format!("ridgeline-identity-kinds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // /dev/zero would be read until memory runs out.
        let e = Identity::load_or_create(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("/dev/zero: cannot read: not a regular file"), "{e}");
        // A FIFO nobody writes to would block for ever.
        let fifo = dir.join("fifo.key");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let e = Identity::load_or_create(&fifo).unwrap_err().to_string();
        assert!(e.contains("fifo.key: cannot read: not a regular file"), "{e}");
        let big = dir.join("big.key");
        std::fs::write(&big, "0".repeat(10_000)).unwrap();
        let e = Identity::load_or_create(&big).unwrap_err().to_string();
        assert!(e.contains("big.key: 10000 bytes is over the limit of 1024 bytes"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
