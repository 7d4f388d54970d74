//! The on-disk format of a merged co-occurrence table (`cooccurrences.bin`), written once per
//! corpus and read by every seed's training.
//!
//! All integers are little-endian. A 32-byte header, then the records:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `b"RTGLCOOC"` |
//! | 8 | 4 | format version, `u32` = 1 |
//! | 12 | 4 | zero |
//! | 16 | 8 | vocabulary size `V`, `u64` |
//! | 24 | 8 | number of records `N`, `u64` |
//! | 32 | 16·N | records: `i: u32`, `j: u32`, `x: f64` (IEEE-754 bits) |
//!
//! Records are sorted strictly by `(i, j)`, ids are `< V` and `x` is finite and positive; the
//! reader checks all of it, that exactly `N` records follow and that nothing follows them.
//! Unlike glove.c's `CREC` files, ids start at 0 and the file says how many records it holds.

use std::io::{self, Read, Seek, SeekFrom, Write};

use crate::error::GloveError;
use crate::records::{CoocRecord, Cooccurrences, check_record};

/// Magic bytes at the start of every co-occurrence file.
pub const MAGIC: &[u8; 8] = b"RTGLCOOC";
/// Format version written by this build (and the only one it reads).
pub const FORMAT_VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 32;
/// Bytes per record.
pub const RECORD_LEN: usize = 16;

/// Records encoded per buffered write or read.
const BATCH_RECORDS: usize = 1 << 16;

fn header(vocab_size: u64, n_records: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[16..24].copy_from_slice(&vocab_size.to_le_bytes());
    h[24..32].copy_from_slice(&n_records.to_le_bytes());
    h
}

fn encode(r: &CoocRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(&r.i.to_le_bytes());
    out.extend_from_slice(&r.j.to_le_bytes());
    out.extend_from_slice(&r.x.to_bits().to_le_bytes());
}

fn decode(b: &[u8]) -> CoocRecord {
    CoocRecord {
        i: u32::from_le_bytes(b[0..4].try_into().expect("4 bytes")),
        j: u32::from_le_bytes(b[4..8].try_into().expect("4 bytes")),
        x: f64::from_bits(u64::from_le_bytes(b[8..16].try_into().expect("8 bytes"))),
    }
}

/// Writes a co-occurrence table in the format of the module documentation. The same table
/// always gives the same bytes.
pub fn write_cooccurrences(c: &Cooccurrences, mut w: impl Write) -> io::Result<()> {
    w.write_all(&header(c.vocab_size() as u64, c.len() as u64))?;
    let mut buf = Vec::with_capacity(BATCH_RECORDS * RECORD_LEN);
    for batch in c.records().chunks(BATCH_RECORDS) {
        buf.clear();
        for r in batch {
            encode(r, &mut buf);
        }
        w.write_all(&buf)?;
    }
    w.flush()
}

/// Reads into `buf` until it is full or the stream ends; returns the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> Result<usize, GloveError> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(GloveError::Read(e)),
        }
    }
    Ok(n)
}

/// Reads and validates a co-occurrence table written by [`write_cooccurrences`] (or by
/// [`count_cooccurrences_to_writer`](crate::count_cooccurrences_to_writer)).
///
/// Errors name what is wrong: [`GloveError::BadMagic`], [`GloveError::UnsupportedVersion`],
/// [`GloveError::Truncated`] (with the records announced and found),
/// [`GloveError::TrailingData`] and [`GloveError::InvalidRecord`] (with its index).
pub fn read_cooccurrences(mut r: impl Read) -> Result<Cooccurrences, GloveError> {
    let mut h = [0u8; HEADER_LEN];
    let got = read_full(&mut r, &mut h)?;
    let magic_len = got.min(MAGIC.len());
    if h[..magic_len] != MAGIC[..magic_len] {
        return Err(GloveError::BadMagic {
            found: String::from_utf8_lossy(&h[..magic_len]).into_owned(),
        });
    }
    if got < HEADER_LEN {
        return Err(GloveError::Truncated {
            expected: 0,
            complete: 0,
        });
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(GloveError::UnsupportedVersion {
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let vocab_size = u64::from_le_bytes(h[16..24].try_into().expect("8 bytes"));
    let n_records = u64::from_le_bytes(h[24..32].try_into().expect("8 bytes"));
    let vocab_size = usize::try_from(vocab_size).map_err(|_| GloveError::InvalidConfig {
        what: format!("vocabulary size {vocab_size} in the co-occurrence header does not fit this machine"),
    })?;

    // Do not trust the header with a huge allocation: grow as records actually arrive.
    let mut records = Vec::with_capacity(n_records.min(1 << 22) as usize);
    let mut buf = vec![0u8; BATCH_RECORDS * RECORD_LEN];
    let mut previous = None;
    let mut done = 0u64;
    while done < n_records {
        let want = (n_records - done).min(BATCH_RECORDS as u64) as usize;
        let got = read_full(&mut r, &mut buf[..want * RECORD_LEN])?;
        for b in buf[..got - got % RECORD_LEN].chunks_exact(RECORD_LEN) {
            let rec = decode(b);
            check_record(done, &rec, vocab_size, previous)?;
            previous = Some((rec.i, rec.j));
            records.push(rec);
            done += 1;
        }
        if got < want * RECORD_LEN {
            return Err(GloveError::Truncated {
                expected: n_records,
                complete: done,
            });
        }
    }
    let mut extra = [0u8; 1];
    if read_full(&mut r, &mut extra)? != 0 {
        return Err(GloveError::TrailingData { n_records });
    }
    Ok(Cooccurrences::from_valid(vocab_size, records))
}

/// Streams records into the file format: the header is written first with a zero record count
/// and patched by [`RecordWriter::finish`].
pub(crate) struct RecordWriter<'w, W: Write + Seek> {
    w: &'w mut W,
    start: u64,
    vocab_size: u64,
    n_records: u64,
    buf: Vec<u8>,
}

impl<'w, W: Write + Seek> RecordWriter<'w, W> {
    pub(crate) fn new(w: &'w mut W, vocab_size: u64) -> io::Result<Self> {
        let start = w.stream_position()?;
        w.write_all(&header(vocab_size, 0))?;
        Ok(RecordWriter {
            w,
            start,
            vocab_size,
            n_records: 0,
            buf: Vec::with_capacity(BATCH_RECORDS * RECORD_LEN),
        })
    }

    #[inline]
    pub(crate) fn push(&mut self, r: &CoocRecord) -> io::Result<()> {
        encode(r, &mut self.buf);
        self.n_records += 1;
        if self.buf.len() >= BATCH_RECORDS * RECORD_LEN {
            self.w.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Flushes the records, patches the header's count and leaves the stream after the last
    /// record. Returns the number of records.
    pub(crate) fn finish(self) -> io::Result<u64> {
        self.w.write_all(&self.buf)?;
        let end = self.w.stream_position()?;
        self.w.seek(SeekFrom::Start(self.start))?;
        self.w.write_all(&header(self.vocab_size, self.n_records))?;
        self.w.seek(SeekFrom::Start(end))?;
        self.w.flush()?;
        Ok(self.n_records)
    }
}
