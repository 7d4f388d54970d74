//! The co-occurrence file format: round trip and every error message.

mod common;

use common::{count_in_memory, wiki_valid};
use retest_glove::{CoocRecord, Cooccurrences, read_cooccurrences, write_cooccurrences};

fn small() -> Cooccurrences {
    let records = vec![
        CoocRecord { i: 0, j: 1, x: 2.5 },
        CoocRecord {
            i: 0,
            j: 2,
            x: 1.0 / 3.0,
        },
        CoocRecord { i: 1, j: 0, x: 2.5 },
        CoocRecord {
            i: 2,
            j: 0,
            x: 1.0 / 3.0,
        },
        CoocRecord {
            i: 2,
            j: 2,
            x: 1e-300,
        },
        CoocRecord { i: 2, j: 3, x: 7.0 },
    ];
    Cooccurrences::new(4, records).unwrap()
}

fn encode(c: &Cooccurrences) -> Vec<u8> {
    let mut out = Vec::new();
    write_cooccurrences(c, &mut out).unwrap();
    out
}

fn read_err(bytes: &[u8]) -> String {
    read_cooccurrences(bytes).unwrap_err().to_string()
}

#[test]
fn round_trip_is_exact_and_bytes_are_stable() {
    let c = small();
    let bytes = encode(&c);
    assert_eq!(bytes.len(), 32 + 16 * 6);
    assert_eq!(&bytes[..8], b"RTGLCOOC");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1);
    assert_eq!(u64::from_le_bytes(bytes[16..24].try_into().unwrap()), 4);
    assert_eq!(u64::from_le_bytes(bytes[24..32].try_into().unwrap()), 6);
    // First record: i = 0, j = 1, x = 2.5, little-endian.
    assert_eq!(&bytes[32..48], &[0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 64]);
    let back = read_cooccurrences(&bytes[..]).unwrap();
    assert_eq!(back, c);
    assert_eq!(encode(&back), bytes);

    let empty = Cooccurrences::new(10, Vec::new()).unwrap();
    assert_eq!(read_cooccurrences(&encode(&empty)[..]).unwrap(), empty);
}

#[test]
fn round_trip_of_a_real_table() {
    let c = count_in_memory(&wiki_valid(Some(20_000)));
    assert!(c.len() > 50_000, "{} records", c.len());
    let bytes = encode(&c);
    let back = read_cooccurrences(&bytes[..]).unwrap();
    assert!(back == c);
}

#[test]
fn bad_magic_is_named() {
    assert_eq!(
        read_err(b"RTCORPUS\x01\x00\x00\x00"),
        "not a retest co-occurrence file: expected magic bytes \"RTGLCOOC\", found \"RTCORPUS\""
    );
    assert_eq!(
        read_err(b""),
        "co-occurrence file is truncated: the header announces 0 records but the data ends after 0 \
         complete records"
    );
    assert_eq!(
        read_err(b"xy"),
        "not a retest co-occurrence file: expected magic bytes \"RTGLCOOC\", found \"xy\""
    );
}

#[test]
fn truncation_and_trailing_data_are_named() {
    let bytes = encode(&small());
    assert_eq!(
        read_err(&bytes[..20]),
        "co-occurrence file is truncated: the header announces 0 records but the data ends after 0 \
         complete records"
    );
    assert_eq!(
        read_err(&bytes[..32 + 16 * 3 + 5]),
        "co-occurrence file is truncated: the header announces 6 records but the data ends after 3 \
         complete records"
    );
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        read_err(&longer),
        "co-occurrence file has trailing data after its 6 records"
    );
}

#[test]
fn unsupported_version_and_invalid_records_are_named() {
    let mut bytes = encode(&small());
    bytes[8] = 2;
    assert_eq!(
        read_err(&bytes),
        "unsupported co-occurrence file version 2 (this build reads version 1)"
    );

    let mut bytes = encode(&small());
    // Record 2 (1, 0) becomes (0, 0), which sorts before its predecessor (0, 2).
    bytes[32 + 2 * 16..32 + 2 * 16 + 4].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(
        read_err(&bytes),
        "invalid co-occurrence record 2 (i = 0, j = 0, x = 2.5): records are not strictly \
         increasing in (i, j)"
    );

    let mut bytes = encode(&small());
    bytes[32 + 5 * 16 + 4..32 + 5 * 16 + 8].copy_from_slice(&4u32.to_le_bytes());
    assert_eq!(
        read_err(&bytes),
        "invalid co-occurrence record 5 (i = 2, j = 4, x = 7): word id not below the vocabulary size"
    );

    let mut bytes = encode(&small());
    bytes[32 + 8..32 + 16].copy_from_slice(&f64::NAN.to_bits().to_le_bytes());
    assert_eq!(
        read_err(&bytes),
        "invalid co-occurrence record 0 (i = 0, j = 1, x = NaN): weight is not finite and positive"
    );

    let err = Cooccurrences::new(2, vec![CoocRecord { i: 0, j: 0, x: 0.0 }]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid co-occurrence record 0 (i = 0, j = 0, x = 0): weight is not finite and positive"
    );
}
