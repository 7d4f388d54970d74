//! Transparent decompression of corpus streams, detected from the first bytes (magic numbers),
//! never from file names.

use std::io::{self, BufRead, BufReader, Cursor, Read};

/// Buffer size of the returned reader: big reads keep the per-line overhead of the readers low.
const BUF_CAPACITY: usize = 1 << 20;

/// Longest magic number we look at (xz: 6 bytes).
const MAGIC_LEN: usize = 6;

const MAGIC_BZIP2: &[u8] = b"BZh";
const MAGIC_ZSTD: &[u8] = &[0x28, 0xB5, 0x2F, 0xFD];
const MAGIC_XZ: &[u8] = &[0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00];
const MAGIC_GZIP: &[u8] = &[0x1F, 0x8B];

/// Compression format of a stream, as detected by [`decompress`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compression {
    /// Not compressed (no known magic number).
    None,
    /// bzip2 (`BZh` and a block-size digit `1`–`9`), possibly several concatenated streams
    /// (pbzip2).
    Bzip2,
    /// Zstandard (`28 B5 2F FD`), windows up to 2 GiB (`zstd -d --long=31`), several frames.
    Zstd,
    /// xz (`FD 37 7A 58 5A 00`), possibly several concatenated streams.
    Xz,
    /// gzip (`1F 8B`), possibly several members.
    Gzip,
}

impl Compression {
    /// Stable name, as used in tables and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Bzip2 => "bzip2",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
            Compression::Gzip => "gzip",
        }
    }

    /// Detects the format from the first bytes of a stream (at least 6 bytes, fewer only if the
    /// stream is that short). Anything unrecognised is [`Compression::None`].
    pub fn detect(prefix: &[u8]) -> Compression {
        if prefix.starts_with(MAGIC_BZIP2) && prefix.get(3).is_some_and(|b| (b'1'..=b'9').contains(b)) {
            Compression::Bzip2
        } else if prefix.starts_with(MAGIC_ZSTD) {
            Compression::Zstd
        } else if prefix.starts_with(MAGIC_XZ) {
            Compression::Xz
        } else if prefix.starts_with(MAGIC_GZIP) {
            Compression::Gzip
        } else {
            Compression::None
        }
    }
}

/// Wraps a raw byte stream in the right decoder, detecting the compression by its magic bytes:
/// bzip2 (`BZh1`–`BZh9`), zstd (`28 B5 2F FD`, window log up to 31 like `zstd -d --long=31`), xz
/// (`FD 37 7A 58 5A 00`), gzip (`1F 8B`), otherwise plain.
///
/// Multi-stream files (pbzip2, `xz -T`, concatenated gzip members, several zstd frames) are read
/// to the end. Corrupt or truncated compressed data surfaces as an [`io::Error`] from the
/// returned reader, never as a panic.
///
/// Caveat: a plain-text file that happens to start with a magic number (say `BZh5`) is taken for
/// compressed data and then fails with an I/O error.
pub fn decompress(
    mut reader: impl Read + Send + 'static,
) -> io::Result<(Compression, Box<dyn BufRead + Send>)> {
    let mut prefix = Vec::with_capacity(MAGIC_LEN);
    // `read` may return short counts (pipes): keep reading until we have the magic or EOF.
    while prefix.len() < MAGIC_LEN {
        let mut byte_buf = [0u8; MAGIC_LEN];
        let want = MAGIC_LEN - prefix.len();
        match reader.read(&mut byte_buf[..want]) {
            Ok(0) => break,
            Ok(n) => prefix.extend_from_slice(&byte_buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let compression = Compression::detect(&prefix);
    let whole = Cursor::new(prefix).chain(reader);
    let out: Box<dyn BufRead + Send> = match compression {
        Compression::None => Box::new(BufReader::with_capacity(BUF_CAPACITY, whole)),
        Compression::Bzip2 => Box::new(BufReader::with_capacity(
            BUF_CAPACITY,
            bzip2::read::MultiBzDecoder::new(whole),
        )),
        Compression::Zstd => {
            let mut decoder = zstd::stream::read::Decoder::new(whole)?;
            decoder.window_log_max(31)?;
            Box::new(BufReader::with_capacity(BUF_CAPACITY, decoder))
        }
        Compression::Xz => Box::new(BufReader::with_capacity(
            BUF_CAPACITY,
            liblzma::read::XzDecoder::new_multi_decoder(whole),
        )),
        Compression::Gzip => Box::new(BufReader::with_capacity(
            BUF_CAPACITY,
            flate2::read::MultiGzDecoder::new(whole),
        )),
    };
    Ok((compression, out))
}
