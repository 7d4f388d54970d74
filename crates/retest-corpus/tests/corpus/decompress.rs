//! Compression detection by magic bytes, decoding of the mirror's real files, and corrupt or
//! truncated input giving an I/O error rather than a panic.

use std::io::{self, Read, Write};

use retest_corpus::{Compression, decompress};

use super::data_file;

const RC_ZST: &str = "reddit/pushshift_monthly/RC_2005-12.zst";
const RC_BZ2: &str = "reddit/pushshift_monthly/RC_2005-12.bz2";
const GUTENBERG_XZ: &str = "corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz";

fn read_all(bytes: Vec<u8>) -> (Compression, io::Result<Vec<u8>>) {
    let (compression, mut reader) = decompress(io::Cursor::new(bytes)).unwrap();
    let mut out = Vec::new();
    let result = reader.read_to_end(&mut out).map(|_| out);
    (compression, result)
}

/// A reader that hands out one byte per call, like a slow pipe.
struct Trickle(io::Cursor<Vec<u8>>);

impl Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(1);
        self.0.read(&mut buf[..n])
    }
}

#[test]
fn zstd_and_bzip2_files_decode_to_the_same_ndjson() {
    let (zst_kind, zst) = read_all(std::fs::read(data_file(RC_ZST)).unwrap());
    let (bz2_kind, bz2) = read_all(std::fs::read(data_file(RC_BZ2)).unwrap());
    assert_eq!(zst_kind, Compression::Zstd);
    assert_eq!(bz2_kind, Compression::Bzip2);
    let (zst, bz2) = (zst.unwrap(), bz2.unwrap());
    // MANIFEST: decompressed NDJSON is 671,841 bytes.
    assert_eq!(zst.len(), 671_841);
    assert_eq!(zst, bz2);
}

#[test]
fn xz_gzip_and_plain_are_detected() {
    let (kind, mut reader) = decompress(std::fs::File::open(data_file(GUTENBERG_XZ)).unwrap()).unwrap();
    assert_eq!(kind, Compression::Xz);
    let mut start = vec![0u8; 17];
    reader.read_exact(&mut start).unwrap();
    assert_eq!(start, b"\nLINCOLN LETTERS\n");

    let text = b"plain text\nsecond line\n".repeat(100);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let mut gz = gz.finish().unwrap();
    // A second gzip member is read too (concatenated .gz files).
    let mut second = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    second.write_all(b"more\n").unwrap();
    gz.extend(second.finish().unwrap());
    let (kind, out) = read_all(gz);
    assert_eq!(kind, Compression::Gzip);
    let mut expected = text.clone();
    expected.extend_from_slice(b"more\n");
    assert_eq!(out.unwrap(), expected);

    let (kind, out) = read_all(text.clone());
    assert_eq!(kind, Compression::None);
    assert_eq!(out.unwrap(), text);

    for short in [&b""[..], b"B", b"BZ", b"BZh", b"BZhx and text", b"\xFD7zX"] {
        let (kind, out) = read_all(short.to_vec());
        assert_eq!(kind, Compression::None, "{short:?}");
        assert_eq!(out.unwrap(), short);
    }
    assert_eq!(Compression::detect(b"BZh91AY&SY"), Compression::Bzip2);
    assert_eq!(
        Compression::detect(&[0x28, 0xB5, 0x2F, 0xFD, 0]),
        Compression::Zstd
    );
    assert_eq!(
        Compression::detect(&[0xFD, b'7', b'z', b'X', b'Z', 0]),
        Compression::Xz
    );
    assert_eq!(Compression::detect(&[0x1F, 0x8B, 8]), Compression::Gzip);
    assert_eq!(
        [
            Compression::None,
            Compression::Bzip2,
            Compression::Zstd,
            Compression::Xz,
            Compression::Gzip
        ]
        .map(Compression::as_str),
        ["none", "bzip2", "zstd", "xz", "gzip"]
    );
}

#[test]
fn magic_is_found_when_the_stream_trickles() {
    let bytes = std::fs::read(data_file(RC_ZST)).unwrap();
    let (kind, mut reader) = decompress(Trickle(io::Cursor::new(bytes))).unwrap();
    assert_eq!(kind, Compression::Zstd);
    let mut first_line = String::new();
    io::BufRead::read_line(&mut reader, &mut first_line).unwrap();
    assert!(first_line.starts_with("{\"controversiality\":0,\"body\":\"A look at Vietnam"));
}

/// Flips bytes in the middle, and separately cuts the file in half: both must be errors.
fn assert_corruption_is_an_error(path: &str, expected: Compression) {
    let bytes = std::fs::read(data_file(path)).unwrap();
    let mut flipped = bytes.clone();
    let middle = flipped.len() / 2;
    for b in &mut flipped[middle..middle + 256] {
        *b ^= 0xA5;
    }
    let (kind, out) = read_all(flipped);
    assert_eq!(kind, expected);
    assert!(out.is_err(), "{path}: corrupt data decoded without error");

    let (kind, out) = read_all(bytes[..bytes.len() / 2].to_vec());
    assert_eq!(kind, expected);
    assert!(out.is_err(), "{path}: truncated data decoded without error");
}

#[test]
fn corrupt_or_truncated_bzip2_zstd_and_xz_are_io_errors() {
    assert_corruption_is_an_error(RC_BZ2, Compression::Bzip2);
    assert_corruption_is_an_error(RC_ZST, Compression::Zstd);
    // A small xz file (the Gutenberg one is 40 MB): compress a real text here.
    let text = std::fs::read(data_file("wikitext-2/tokens/README"))
        .unwrap()
        .repeat(50);
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(&text).unwrap();
    let xz = xz.finish().unwrap();
    let (kind, out) = read_all(xz.clone());
    assert_eq!((kind, out.unwrap()), (Compression::Xz, text));
    let bytes = xz;
    let mut flipped = bytes.clone();
    let middle = flipped.len() / 2;
    for b in &mut flipped[middle..middle + 16] {
        *b ^= 0xA5;
    }
    assert!(read_all(flipped).1.is_err(), "corrupt xz decoded without error");
    assert!(
        read_all(bytes[..bytes.len() / 2].to_vec()).1.is_err(),
        "truncated xz decoded"
    );
    // Just the magic, then garbage.
    for (magic, kind) in [
        (&b"BZh9"[..], Compression::Bzip2),
        (&[0x28, 0xB5, 0x2F, 0xFD][..], Compression::Zstd),
        (&[0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00][..], Compression::Xz),
        (&[0x1F, 0x8B][..], Compression::Gzip),
    ] {
        let mut bytes = magic.to_vec();
        bytes.extend_from_slice(b"this is not compressed data at all, not at all");
        let (detected, out) = read_all(bytes);
        assert_eq!(detected, kind);
        assert!(out.is_err(), "{kind:?}: garbage decoded without error");
    }
}
