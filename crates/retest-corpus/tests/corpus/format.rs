//! The on-disk format and the vocabulary file: round trips, specific errors for bad magic,
//! version and truncation, and byte-identical output from two preparations.

use retest_corpus::{
    AlignedBytes, CorpusBuilder, EncodedCorpus, EncodedCorpusView, UnkHandling, format, read_vocab,
};
use retest_test_support::{corpus_from_text, wiki_valid};

use super::corpus_bytes;

fn prepare_wikitext(min_count: u64) -> EncodedCorpus {
    wiki_valid(UnkHandling::Keep, None, min_count)
}

fn binary(corpus: &EncodedCorpus) -> Vec<u8> {
    corpus_bytes(corpus).0
}

fn parse_error(bytes: &[u8]) -> String {
    let aligned = AlignedBytes::from_bytes(bytes);
    EncodedCorpusView::parse(aligned.as_bytes())
        .unwrap_err()
        .to_string()
}

#[test]
fn binary_round_trip_through_the_view() {
    let corpus = prepare_wikitext(3);
    let bytes = binary(&corpus);
    let n_tokens = corpus.tokens().len();
    let n_sentences = corpus.n_sentences();
    assert_eq!(bytes.len(), 64 + (4 * n_tokens).div_ceil(8) * 8 + 8 * n_sentences);
    let aligned = AlignedBytes::read_from(&bytes[..]).unwrap();
    assert_eq!(aligned.as_bytes(), &bytes[..]);
    let view = EncodedCorpusView::parse(aligned.as_bytes()).unwrap();
    assert_eq!(view.tokens(), corpus.tokens());
    assert_eq!(view.sentence_ends(), corpus.sentence_ends());
    assert_eq!(view.n_sentences(), n_sentences);
    assert_eq!(view.vocab_size(), corpus.vocab().len());
    assert_eq!(view.sentence(0), corpus.sentence(0));
    assert_eq!(view.sentence(n_sentences - 1), corpus.sentence(n_sentences - 1));
    assert!(view.sentences().eq(corpus.sentences()));
    // The in-memory view has the same shape.
    let own = corpus.view();
    assert_eq!(
        (own.tokens(), own.sentence_ends()),
        (view.tokens(), view.sentence_ends())
    );

    let mut vocab_text = Vec::new();
    corpus.write_vocab(&mut vocab_text).unwrap();
    assert!(vocab_text.starts_with(b"the\t12639\n,\t10079\n.\t7770\n"));
    assert_eq!(&read_vocab(&vocab_text[..]).unwrap(), corpus.vocab());
}

#[test]
fn empty_corpus_round_trips() {
    let corpus = CorpusBuilder::new(None).finish(5);
    let bytes = binary(&corpus);
    assert_eq!(bytes.len(), 64);
    let aligned = AlignedBytes::from_bytes(&bytes);
    let view = EncodedCorpusView::parse(aligned.as_bytes()).unwrap();
    assert_eq!(
        (view.n_tokens(), view.n_sentences(), view.vocab_size()),
        (0, 0, 0)
    );
    assert_eq!(corpus.stats().oov_share, 0.0);
}

#[test]
fn header_layout_is_as_documented() {
    let bytes = binary(&corpus_from_text(" b a\n a \n c\n", 1));
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    assert_eq!(&bytes[..8], format::MAGIC);
    assert_eq!(bytes[8..12], 1u32.to_le_bytes());
    assert_eq!(bytes[12..16], 64u32.to_le_bytes());
    assert_eq!([u64_at(16), u64_at(24), u64_at(32)], [3, 4, 3]); // vocab, tokens, sentences
    assert_eq!([u64_at(40), u64_at(48), u64_at(56)], [64, 80, 104]); // offsets, length
    // Ids: a=0, b=1, c=2; tokens "b a", "a", "c"; sentence ends 2, 3, 4.
    let tokens: Vec<u32> = bytes[64..80]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(tokens, [1, 0, 0, 2]);
    assert_eq!([u64_at(80), u64_at(88), u64_at(96)], [2, 3, 4]);
    assert_eq!(bytes.len(), 104);
}

#[test]
fn bad_magic_wrong_version_and_truncation_have_specific_errors() {
    let bytes = binary(&prepare_wikitext(5));

    let mut bad_magic = bytes.clone();
    bad_magic[..8].copy_from_slice(b"PK\x03\x04abcd");
    assert_eq!(
        parse_error(&bad_magic),
        "not an encoded corpus: expected magic bytes \"RTCORPUS\", found \"PK\\u{3}\\u{4}abcd\""
    );
    assert_eq!(
        parse_error(b"RTC"),
        "truncated encoded corpus: the header needs 64 bytes, the buffer has 3"
    );

    let mut version = bytes.clone();
    version[8..12].copy_from_slice(&2u32.to_le_bytes());
    assert_eq!(
        parse_error(&version),
        "unsupported encoded corpus format version 2 (this build reads version 1); prepare the \
         corpus again"
    );

    let cut = bytes.len() - 100;
    assert_eq!(
        parse_error(&bytes[..cut]),
        format!(
            "truncated encoded corpus: the token and sentence arrays needs {} bytes, the buffer \
             has {cut}",
            bytes.len()
        )
    );
    assert_eq!(
        parse_error(&bytes[..40]),
        "truncated encoded corpus: the header needs 64 bytes, the buffer has 40"
    );

    let mut trailing = bytes.clone();
    trailing.extend_from_slice(&[0; 8]);
    assert!(parse_error(&trailing).starts_with("corrupt encoded corpus: 8 unexpected bytes after"));

    let mut small_vocab = bytes.clone();
    small_vocab[16..24].copy_from_slice(&10u64.to_le_bytes());
    assert_eq!(
        parse_error(&small_vocab),
        "corrupt encoded corpus: token id 4986 is out of range for a vocabulary of 10 words"
    );

    let mut bad_ends = bytes.clone();
    let ends_offset = u64::from_le_bytes(bytes[48..56].try_into().unwrap()) as usize;
    bad_ends[ends_offset..ends_offset + 8].copy_from_slice(&0u64.to_le_bytes());
    assert!(
        parse_error(&bad_ends).starts_with("corrupt encoded corpus: sentence 0 ends at token 0"),
        "{}",
        parse_error(&bad_ends)
    );

    // One byte off an aligned address.
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&bytes);
    let aligned = AlignedBytes::from_bytes(&shifted);
    let err = EncodedCorpusView::parse(&aligned.as_bytes()[1..])
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("encoded corpus buffer is not 8-byte aligned"),
        "{err}"
    );
}

#[test]
fn vocab_file_errors_name_the_line() {
    let cases: [(&[u8], &str); 6] = [
        (
            b"a\t3\nb 2\n",
            "vocabulary line 2: expected `word<TAB>count`, found \"b 2\"",
        ),
        (
            b"a\t3\nb\tx\n",
            "vocabulary line 2: expected an unsigned integer count after the tab, found \"x\"",
        ),
        (
            b"a\t3\nb\t2\nc\t5\n",
            "vocabulary line 3: \"c\" (5) comes after \"b\" (2): expected count descending, ties in byte order of the word",
        ),
        (b"a\t3\na\t3\n", "vocabulary line 2: duplicate word \"a\""),
        (b"a\t3\n\t2\n", "vocabulary line 2: empty word"),
        (
            b"a\t3\nb\t2",
            "vocabulary line 2: missing final newline (truncated file?)",
        ),
    ];
    for (input, message) in cases {
        assert_eq!(read_vocab(input).unwrap_err().to_string(), message);
    }
    assert!(read_vocab(&b""[..]).unwrap().is_empty());
}

#[test]
fn two_preparations_are_byte_identical() {
    let first = prepare_wikitext(5);
    let second = prepare_wikitext(5);
    assert_eq!(corpus_bytes(&first), corpus_bytes(&second));
    assert_eq!(
        serde_json::to_string(first.stats()).unwrap(),
        serde_json::to_string(second.stats()).unwrap()
    );
}
