//! The handshake on the wire: a joiner's hello (magic, protocol, build, name, file digests),
//! the host's welcome or refusal, the start of the match, and goodbye.
//!
//! Must not: decide whether to admit anyone (the session's handshake does).

use crate::lockstep::transport::PeerId;
use crate::net::wire::{FileDigest, Hello, MAGIC, Start, WireMessage};

use super::bytes::{Reader, text, varint};
use super::{DecodeError, MAX_FILES, MAX_SETUP, MAX_TEXT};

const T_HELLO: u8 = 16;
const T_WELCOME: u8 = 17;
const T_REFUSED: u8 = 18;
const T_START: u8 = 19;
const T_BYE: u8 = 21;

fn files(w: &mut Vec<u8>, files: &[FileDigest]) {
    varint(w, files.len() as u64);
    for f in files {
        text(w, &f.name);
        w.extend_from_slice(&f.digest.to_le_bytes());
    }
}

fn read_files(r: &mut Reader) -> Result<Vec<FileDigest>, DecodeError> {
    // A digest takes at least a length byte and eight bytes.
    let n = r.count(MAX_FILES, 9, "file digests")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.text(MAX_TEXT, "file name")?;
        out.push(FileDigest { name, digest: r.u64_le()? });
    }
    Ok(out)
}

/// Appends a hello.
pub(super) fn hello(w: &mut Vec<u8>, h: &Hello) {
    w.push(T_HELLO);
    w.extend_from_slice(&MAGIC);
    w.extend_from_slice(&h.protocol.to_le_bytes());
    text(w, &h.build);
    text(w, &h.name);
    files(w, &h.files);
    w.extend_from_slice(&h.seat);
    w.push(h.watch as u8);
}

/// What to tell the sender of `bytes`, a batch that failed to decode with `error`, when it
/// began as a hello (a joiner's first words): the reason it could not be read, so the joiner
/// is answered rather than left waiting. None for anything else.
pub fn unreadable_hello(bytes: &[u8], error: &DecodeError) -> Option<String> {
    (bytes.first() == Some(&T_HELLO)).then(|| format!("the host could not read this machine's hello: {}", error.what))
}

/// `s` cut (at a character) to what a reader takes, [`MAX_TEXT`] bytes: a welcome or refusal
/// the joiner cannot read would leave it waiting for ever.
fn fitted(s: &str) -> &str {
    let mut end = s.len().min(MAX_TEXT);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Appends a welcome (the host's name cut to what a joiner reads).
pub(super) fn welcome(w: &mut Vec<u8>, peer: PeerId, host: &str) {
    w.push(T_WELCOME);
    w.push(peer.0);
    text(w, fitted(host));
}

/// Appends a refusal (its reason cut to what a joiner reads).
pub(super) fn refused(w: &mut Vec<u8>, reason: &str) {
    w.push(T_REFUSED);
    text(w, fitted(reason));
}

/// Appends the start of a match.
pub(super) fn start(w: &mut Vec<u8>, s: &Start) {
    w.push(T_START);
    text(w, &s.setup);
    files(w, &s.map_files);
    w.push(s.unpaced as u8);
    varint(w, s.frames as u64);
}

/// Appends a goodbye.
pub(super) fn bye(w: &mut Vec<u8>) {
    w.push(T_BYE);
}

/// Reads the message under `tag` into `out`; false when the tag is not this protocol's.
pub(super) fn read(r: &mut Reader, tag: u8, out: &mut Vec<WireMessage>) -> Result<bool, DecodeError> {
    out.push(match tag {
        T_HELLO => {
            if r.take(4)? != MAGIC {
                return r.fail("not a Ridgeline hello");
            }
            let p = r.take(2)?;
            let protocol = u16::from_le_bytes([p[0], p[1]]);
            let build = r.text(MAX_TEXT, "build")?;
            let name = r.text(MAX_TEXT, "name")?;
            let files = read_files(r)?;
            let mut seat = [0u8; 32];
            seat.copy_from_slice(r.take(32)?);
            let watch = r.flag()?;
            WireMessage::Hello(Hello { protocol, build, name, files, seat, watch })
        }
        T_WELCOME => {
            let peer = PeerId(r.u8()?);
            WireMessage::Welcome { peer, host: r.text(MAX_TEXT, "host name")? }
        }
        T_REFUSED => WireMessage::Refused { reason: r.text(MAX_TEXT, "reason")? },
        T_START => {
            let setup = r.text(MAX_SETUP, "setup")?;
            let map_files = read_files(r)?;
            let unpaced = r.flag()?;
            WireMessage::Start(Start { setup, map_files, unpaced, frames: r.u32v("frames")? })
        }
        T_BYE => WireMessage::Bye,
        _ => return Ok(false),
    });
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::{decode, encode};
    use super::*;

    fn a_hello(name: &str, files: usize) -> Vec<u8> {
        let files = (0..files).map(|i| FileDigest { name: format!("data/{i}.ron"), digest: i as u64 }).collect();
        let h = Hello { protocol: 1, build: "0.1".into(), name: name.into(), files, seat: [3; 32], watch: false };
        encode(&[WireMessage::Hello(h)])
    }

    #[test]
    fn a_hello_that_cannot_be_read_says_why_to_its_sender() {
        let why = |bytes: &[u8]| unreadable_hello(bytes, &decode(bytes).unwrap_err()).unwrap();
        let long = "n".repeat(MAX_TEXT + 1);
        assert!(
            why(&a_hello(&long, 1)).ends_with("name of 513 bytes is longer than 512"),
            "{}",
            why(&a_hello(&long, 1))
        );
        let mut bad = a_hello("Ben", 1);
        // The name's bytes follow the build's; make the first one invalid UTF-8.
        let at = bad.iter().position(|&b| b == b'B').unwrap();
        bad[at] = 0xFF;
        assert!(why(&bad).ends_with("name is not UTF-8"), "{}", why(&bad));
        assert!(why(&a_hello("Ben", MAX_FILES + 1)).ends_with("65 file digests, more than 64"));
        assert!(decode(&a_hello("Ben", MAX_FILES)).is_ok());
        let not = encode(&[WireMessage::Bye, WireMessage::Bye]);
        assert_eq!(unreadable_hello(&not, &DecodeError { at: 0, what: "x".into() }), None);
    }

    #[test]
    fn a_long_refusal_or_host_name_still_reaches_the_joiner() {
        let long = "é".repeat(MAX_TEXT);
        let bytes = encode(&[
            WireMessage::Refused { reason: long.clone() },
            WireMessage::Welcome { peer: PeerId(1), host: long.clone() },
        ]);
        let got = decode(&bytes).unwrap();
        let WireMessage::Refused { reason } = &got[0] else { panic!("{got:?}") };
        assert!(reason.len() <= MAX_TEXT && long.starts_with(reason.as_str()));
        assert!(matches!(&got[1], WireMessage::Welcome { host, .. } if host.len() <= MAX_TEXT));
    }

    #[test]
    fn a_strangers_bytes_are_not_a_hello() {
        let mut bytes = encode(&[WireMessage::Bye]);
        bytes[0] = T_HELLO;
        bytes.extend_from_slice(b"HTTP");
        assert!(decode(&bytes).unwrap_err().what.contains("not a Ridgeline hello"));
    }
}
