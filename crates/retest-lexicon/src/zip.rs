//! A minimal reader of zip archives held in memory: the central directory, then stored or
//! deflated entries checked against their CRC-32. Enough for NLTK's data packages; no zip64,
//! encryption or multi-disk archives.

use std::io::Read;

use flate2::Crc;
use flate2::read::DeflateDecoder;

/// End of central directory record: signature and fixed size.
const EOCD_SIGNATURE: u32 = 0x0605_4b50;
const EOCD_LEN: usize = 22;
/// Central directory file header.
const CENTRAL_SIGNATURE: u32 = 0x0201_4b50;
const CENTRAL_LEN: usize = 46;
/// Local file header.
const LOCAL_SIGNATURE: u32 = 0x0403_4b50;
const LOCAL_LEN: usize = 30;
/// Compression methods.
const STORED: u16 = 0;
const DEFLATED: u16 = 8;

/// Why an archive or entry cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ZipError(String);

fn bad(reason: impl Into<String>) -> ZipError {
    ZipError(reason.into())
}

/// One file of the central directory.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    method: u16,
    crc32: u32,
    compressed_size: usize,
    size: usize,
    local_offset: usize,
}

/// A zip archive read into memory, with its central directory parsed.
#[derive(Debug)]
pub struct ZipArchive {
    bytes: Vec<u8>,
    entries: Vec<Entry>,
}

fn u16_at(bytes: &[u8], at: usize) -> Result<u16, ZipError> {
    bytes
        .get(at..at + 2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .ok_or_else(|| bad(format!("truncated at byte {at}")))
}

fn u32_at(bytes: &[u8], at: usize) -> Result<u32, ZipError> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| bad(format!("truncated at byte {at}")))
}

fn usize_at(bytes: &[u8], at: usize) -> Result<usize, ZipError> {
    let value = u32_at(bytes, at)?;
    if value == u32::MAX {
        return Err(bad("zip64 archives are not supported"));
    }
    Ok(value as usize)
}

impl ZipArchive {
    /// Parses the central directory of the archive `bytes`.
    ///
    /// # Errors
    ///
    /// No end-of-central-directory record, a multi-disk or zip64 archive, or a central
    /// directory that runs past the end of the data.
    pub fn parse(bytes: Vec<u8>) -> Result<ZipArchive, ZipError> {
        if bytes.len() < EOCD_LEN {
            return Err(bad("too short for a zip archive"));
        }
        // The record ends the file, followed only by a comment of at most 65535 bytes.
        let lowest = bytes.len().saturating_sub(EOCD_LEN + usize::from(u16::MAX));
        let eocd = (lowest..=bytes.len() - EOCD_LEN)
            .rev()
            .find(|&at| u32_at(&bytes, at) == Ok(EOCD_SIGNATURE))
            .ok_or_else(|| bad("no end-of-central-directory record (not a zip archive)"))?;
        if u16_at(&bytes, eocd + 4)? != 0 || u16_at(&bytes, eocd + 6)? != 0 {
            return Err(bad("multi-disk archives are not supported"));
        }
        let n_entries = u16_at(&bytes, eocd + 10)?;
        if n_entries == u16::MAX {
            return Err(bad("zip64 archives are not supported"));
        }
        let mut at = usize_at(&bytes, eocd + 16)?;
        let mut entries = Vec::with_capacity(usize::from(n_entries));
        for _ in 0..n_entries {
            if u32_at(&bytes, at)? != CENTRAL_SIGNATURE {
                return Err(bad(format!("no central directory header at byte {at}")));
            }
            let flags = u16_at(&bytes, at + 8)?;
            let name_len = usize::from(u16_at(&bytes, at + 28)?);
            let extra_len = usize::from(u16_at(&bytes, at + 30)?);
            let comment_len = usize::from(u16_at(&bytes, at + 32)?);
            let name = bytes
                .get(at + CENTRAL_LEN..at + CENTRAL_LEN + name_len)
                .ok_or_else(|| bad(format!("truncated entry name at byte {at}")))?;
            let name = String::from_utf8_lossy(name).into_owned();
            if flags & 1 != 0 {
                return Err(bad(format!("entry `{name}` is encrypted")));
            }
            entries.push(Entry {
                method: u16_at(&bytes, at + 10)?,
                crc32: u32_at(&bytes, at + 16)?,
                compressed_size: usize_at(&bytes, at + 20)?,
                size: usize_at(&bytes, at + 24)?,
                local_offset: usize_at(&bytes, at + 42)?,
                name,
            });
            at += CENTRAL_LEN + name_len + extra_len + comment_len;
        }
        Ok(ZipArchive { bytes, entries })
    }

    /// The entry names, in central-directory order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }

    /// The content of entry `name`, or `None` when the archive has no such entry.
    ///
    /// # Errors
    ///
    /// An unsupported compression method, corrupt deflate data, or a size or CRC-32 that
    /// does not match the central directory.
    pub fn read(&self, name: &str) -> Result<Option<Vec<u8>>, ZipError> {
        let Some(entry) = self.entries.iter().find(|e| e.name == name) else {
            return Ok(None);
        };
        let at = entry.local_offset;
        if u32_at(&self.bytes, at)? != LOCAL_SIGNATURE {
            return Err(bad(format!("entry `{name}`: no local header at byte {at}")));
        }
        let name_len = usize::from(u16_at(&self.bytes, at + 26)?);
        let extra_len = usize::from(u16_at(&self.bytes, at + 28)?);
        let start = at + LOCAL_LEN + name_len + extra_len;
        let data = self
            .bytes
            .get(start..start + entry.compressed_size)
            .ok_or_else(|| bad(format!("entry `{name}` runs past the end of the archive")))?;
        let content = match entry.method {
            STORED => data.to_vec(),
            DEFLATED => {
                let mut out = Vec::with_capacity(entry.size);
                DeflateDecoder::new(data)
                    .read_to_end(&mut out)
                    .map_err(|e| bad(format!("entry `{name}`: corrupt deflate data ({e})")))?;
                out
            }
            other => {
                return Err(bad(format!(
                    "entry `{name}`: compression method {other} (only stored and deflate are supported)"
                )));
            }
        };
        if content.len() != entry.size {
            return Err(bad(format!(
                "entry `{name}`: {} bytes, the directory says {}",
                content.len(),
                entry.size
            )));
        }
        let mut crc = Crc::new();
        crc.update(&content);
        if crc.sum() != entry.crc32 {
            return Err(bad(format!("entry `{name}`: CRC-32 mismatch")));
        }
        Ok(Some(content))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::DeflateEncoder;

    use super::*;

    /// Writes a zip archive of `(name, content, deflate)` entries, with an archive comment.
    pub(crate) fn write_zip(files: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut central = Vec::new();
        for &(name, content, deflate) in files {
            let (method, data) = if deflate {
                let mut enc = DeflateEncoder::new(Vec::new(), Compression::default());
                enc.write_all(content).unwrap();
                (DEFLATED, enc.finish().unwrap())
            } else {
                (STORED, content.to_vec())
            };
            let mut crc = Crc::new();
            crc.update(content);
            let offset = out.len() as u32;
            let fields = |v: &mut Vec<u8>| {
                v.extend_from_slice(&20u16.to_le_bytes()); // version needed
                v.extend_from_slice(&0u16.to_le_bytes()); // flags
                v.extend_from_slice(&method.to_le_bytes());
                v.extend_from_slice(&[0; 4]); // time, date
                v.extend_from_slice(&crc.sum().to_le_bytes());
                v.extend_from_slice(&(data.len() as u32).to_le_bytes());
                v.extend_from_slice(&(content.len() as u32).to_le_bytes());
                v.extend_from_slice(&(name.len() as u16).to_le_bytes());
                v.extend_from_slice(&0u16.to_le_bytes()); // extra
            };
            out.extend_from_slice(&LOCAL_SIGNATURE.to_le_bytes());
            fields(&mut out);
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(&data);
            central.extend_from_slice(&CENTRAL_SIGNATURE.to_le_bytes());
            central.extend_from_slice(&20u16.to_le_bytes()); // version made by
            fields(&mut central);
            central.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
            central.extend_from_slice(&[0; 4]); // external attributes
            central.extend_from_slice(&offset.to_le_bytes());
            central.extend_from_slice(name.as_bytes());
        }
        let cd_offset = out.len() as u32;
        out.extend_from_slice(&central);
        out.extend_from_slice(&EOCD_SIGNATURE.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&(files.len() as u16).to_le_bytes());
        out.extend_from_slice(&(files.len() as u16).to_le_bytes());
        out.extend_from_slice(&(central.len() as u32).to_le_bytes());
        out.extend_from_slice(&cd_offset.to_le_bytes());
        let comment = b"a comment";
        out.extend_from_slice(&(comment.len() as u16).to_le_bytes());
        out.extend_from_slice(comment);
        out
    }

    #[test]
    fn reads_stored_and_deflated_entries() {
        let long = "abc ".repeat(1000);
        let zip = write_zip(&[
            ("dir/", b"", false),
            ("dir/stored.txt", b"hello", false),
            ("dir/deflated.txt", long.as_bytes(), true),
        ]);
        let archive = ZipArchive::parse(zip).unwrap();
        assert_eq!(
            archive.names().collect::<Vec<_>>(),
            ["dir/", "dir/stored.txt", "dir/deflated.txt"]
        );
        assert_eq!(archive.read("dir/stored.txt").unwrap().unwrap(), b"hello");
        assert_eq!(
            archive.read("dir/deflated.txt").unwrap().unwrap(),
            long.as_bytes()
        );
        assert_eq!(archive.read("dir/absent.txt").unwrap(), None);
    }

    #[test]
    fn detects_corruption() {
        let mut zip = write_zip(&[("a.txt", b"hello", false)]);
        // Flip a byte of the stored content: the CRC no longer matches.
        let at = LOCAL_LEN + "a.txt".len();
        zip[at] ^= 0x20;
        let archive = ZipArchive::parse(zip).unwrap();
        assert_eq!(
            archive.read("a.txt").unwrap_err().to_string(),
            "entry `a.txt`: CRC-32 mismatch"
        );
    }

    #[test]
    fn rejects_what_is_not_a_zip() {
        let err = ZipArchive::parse(b"just some text, long enough to search".to_vec()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no end-of-central-directory record (not a zip archive)"
        );
        assert_eq!(
            ZipArchive::parse(b"PK".to_vec()).unwrap_err().to_string(),
            "too short for a zip archive"
        );
    }
}
