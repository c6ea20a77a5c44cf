//! Reading a compiled string table of Command & Conquer: Generals (`.csf`), so `ui-import`
//! can bring its labels and texts into a mod's `ui/strings.ron`.
//!
//! The format, little-endian throughout: a header (the bytes ` FSC`, a version, the number of
//! labels, the number of strings, a reserved word and a language code), then per label the
//! bytes ` LBL`, its number of strings, the length of its name and the name (ASCII); then
//! per string ` RTS` (or `WRTS`, a string with an extra ASCII value after it), its length in
//! UTF-16 units and the units, every byte inverted (bitwise NOT). The first string of a label
//! is its text.
//!
//! Must not: do I/O (the caller reads and writes), allocate more than the input's length
//! justifies, or panic on any input: bad bytes are refused with their offset.

/// A `.csf` file's contents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csf {
    /// The language code in the header (0 US English, 1 UK English, 2 German, 3 French,
    /// 4 Spanish, 5 Italian, 6 Japanese, …).
    pub language: u32,
    /// Each label with its text, in the file's order (a label with no string has "").
    pub entries: Vec<(String, String)>,
}

/// Why a `.csf` file was refused, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {message}")]
pub struct CsfError {
    /// The offset in the file of what is wrong.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a `.csf` file's bytes.
pub fn parse(bytes: &[u8]) -> Result<Csf, CsfError> {
    let mut r = Reader { bytes, at: 0 };
    r.tag(b" FSC", "a string table (.csf) starts with ' FSC'")?;
    let version = r.word()?;
    if !(2..=3).contains(&version) {
        return Err(fail(r.at - 4, format!("version {version}: a Generals string table is version 3 (or 2)")));
    }
    let n_labels = r.word()?;
    let _n_strings = r.word()?;
    let _reserved = r.word()?;
    let language = r.word()?;
    // Each label takes at least 12 bytes: a count claiming more than the file holds is refused
    // before anything is reserved for it.
    if n_labels as usize > r.left() / 12 {
        return Err(fail(8, format!("{n_labels} labels claimed, but only {} bytes follow", r.left())));
    }
    let mut entries = Vec::with_capacity(n_labels as usize);
    for _ in 0..n_labels {
        let start = r.at;
        r.tag(b" LBL", "each label starts with ' LBL'")?;
        let n_texts = r.word()?;
        let name_len = r.word()? as usize;
        let name_at = r.at;
        let name = r.take(name_len, "the label's name")?;
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_graphic()) {
            return Err(fail(name_at, "a label's name is printable ASCII without spaces".into()));
        }
        let name = String::from_utf8_lossy(name).into_owned();
        let mut text = String::new();
        for k in 0..n_texts {
            let s = r.string()?;
            if k == 0 {
                text = s;
            }
        }
        if entries.iter().any(|(n, _)| *n == name) {
            return Err(fail(start, format!("label {name} appears twice")));
        }
        entries.push((name, text));
    }
    if r.left() > 0 {
        return Err(fail(r.at, format!("{} bytes after the last of the {n_labels} labels", r.left())));
    }
    Ok(Csf { language, entries })
}

fn fail(offset: usize, message: String) -> CsfError {
    CsfError { offset, message }
}

/// A cursor over the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// The next `n` bytes, or an error naming `what` ran past the end.
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], CsfError> {
        if n > self.left() {
            return Err(fail(self.at, format!("{what} needs {n} bytes; the file ends after {}", self.left())));
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn word(&mut self) -> Result<u32, CsfError> {
        let b = self.take(4, "a number")?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn tag(&mut self, tag: &[u8; 4], what: &str) -> Result<(), CsfError> {
        let at = self.at;
        let got = self.take(4, what)?;
        if got != tag {
            return Err(fail(at, format!("{what}; found {:?}", String::from_utf8_lossy(got))));
        }
        Ok(())
    }

    /// One ` RTS`/`WRTS` string: its UTF-16 units inverted; `WRTS`'s extra value is passed over.
    fn string(&mut self) -> Result<String, CsfError> {
        let at = self.at;
        let tag = self.take(4, "a string")?;
        let extra = match tag {
            b" RTS" => false,
            b"WRTS" => true,
            _ => {
                let found = String::from_utf8_lossy(tag).into_owned();
                return Err(fail(at, format!("a string starts with ' RTS' or 'WRTS'; found {found:?}")));
            }
        };
        let units = self.word()? as usize;
        let text_at = self.at;
        let raw = self.take(units.saturating_mul(2), "the string's text")?;
        let utf16: Vec<u16> = raw.chunks_exact(2).map(|c| u16::from_le_bytes([!c[0], !c[1]])).collect();
        let text = String::from_utf16(&utf16).map_err(|_| fail(text_at, "the text is not valid UTF-16".into()))?;
        if extra {
            let n = self.word()? as usize;
            self.take(n, "the string's extra value")?;
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A `.csf` file of `entries`, written per the format (the second one a `WRTS` string).
    pub(crate) fn csf(language: u32, entries: &[(&str, &str)]) -> Vec<u8> {
        let mut out = b" FSC".to_vec();
        for w in [3, entries.len() as u32, entries.len() as u32, 0, language] {
            out.extend(w.to_le_bytes());
        }
        for (i, (label, text)) in entries.iter().enumerate() {
            out.extend(b" LBL");
            out.extend(1u32.to_le_bytes());
            out.extend((label.len() as u32).to_le_bytes());
            out.extend(label.as_bytes());
            out.extend(if i == 1 { b"WRTS" } else { b" RTS" });
            let units: Vec<u16> = text.encode_utf16().collect();
            out.extend((units.len() as u32).to_le_bytes());
            out.extend(units.iter().flat_map(|u| u.to_le_bytes()).map(|b| !b));
            if i == 1 {
                out.extend(3u32.to_le_bytes());
                out.extend(b"abc");
            }
        }
        out
    }

    #[test]
    fn labels_and_their_inverted_utf16_texts_are_read() {
        let bytes = csf(4, &[("GUI:SinglePlayer", "Un jugador"), ("OBJECT:Ranger", "Guardabosques ñ\n€")]);
        let got = parse(&bytes).unwrap();
        assert_eq!(got.language, 4);
        assert_eq!(
            got.entries,
            [("GUI:SinglePlayer".into(), "Un jugador".into()), ("OBJECT:Ranger".into(), "Guardabosques ñ\n€".into())]
        );
    }

    #[test]
    fn bad_input_is_refused_with_its_offset() {
        let good = csf(0, &[("GUI:A", "a"), ("GUI:B", "b")]);
        let e = parse(b"CSF \x03\0\0\0").unwrap_err();
        assert_eq!(e.offset, 0);
        let mut bad = good.clone();
        bad[24] = b'X';
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.offset, 24, "{e}");
        assert!(e.to_string().contains("' LBL'"), "{e}");
        let e = parse(&good[..good.len() - 1]).unwrap_err();
        assert!(e.to_string().contains("the file ends"), "{e}");
        let mut huge = good.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = parse(&huge).unwrap_err();
        assert_eq!(e.offset, 8, "{e}");
        let twice = csf(0, &[("GUI:A", "a"), ("GUI:A", "b")]);
        assert!(parse(&twice).unwrap_err().to_string().contains("appears twice"));
    }

    proptest! {
        #[test]
        fn any_bytes_are_read_or_refused_without_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse(&bytes);
        }

        #[test]
        fn a_good_file_damaged_anywhere_is_read_or_refused_inside_it(at in 0usize..80, byte in any::<u8>(), cut in 0usize..80) {
            let mut bytes = csf(0, &[("GUI:A", "one"), ("GUI:B", "two")]);
            let at = at % bytes.len();
            bytes[at] = byte;
            bytes.truncate(bytes.len() - cut.min(bytes.len()));
            if let Err(e) = parse(&bytes) {
                prop_assert!(e.offset <= bytes.len());
            }
        }
    }
}
