//! Reddit comment dumps: the real Pushshift months through zstd and bzip2, subreddit and year
//! filters, and the cleaning rules on small inline records.

use retest_corpus::{
    Compression, CorpusBuilder, CorpusError, EncodedCorpus, NewlineHandling, ReadSummary, RedditOptions,
    SentenceSplitting, decompress,
};

use super::{open_data, sentence_words};

/// Options with one comment per sentence (the reader's behaviour before sentence splitting,
/// which the filter and cleaning tests pin).
fn options(subreddits: &[&str], years: &[i32], newlines: NewlineHandling) -> RedditOptions {
    RedditOptions {
        subreddits: subreddits.iter().map(|s| s.to_string()).collect(),
        years: years.to_vec(),
        newlines,
        sentences: SentenceSplitting::Comment,
    }
}

fn read_file(path: &str, opts: &RedditOptions) -> (Compression, ReadSummary, EncodedCorpus) {
    let (compression, reader) = decompress(open_data(path)).unwrap();
    let mut builder = CorpusBuilder::new(None);
    let summary = builder.read_reddit(reader, opts).unwrap();
    (compression, summary, builder.finish(1))
}

fn read_str(text: &str, opts: &RedditOptions) -> Result<(ReadSummary, EncodedCorpus), CorpusError> {
    let mut builder = CorpusBuilder::new(None);
    let summary = builder.read_reddit(text.as_bytes(), opts)?;
    Ok((summary, builder.finish(1)))
}

#[test]
fn zst_and_bz2_of_the_same_month_give_the_same_corpus() {
    let all = options(&[], &[], NewlineHandling::Space);
    let (zst_kind, zst_summary, zst) = read_file("reddit/pushshift_monthly/RC_2005-12.zst", &all);
    let (bz2_kind, bz2_summary, bz2) = read_file("reddit/pushshift_monthly/RC_2005-12.bz2", &all);
    assert_eq!((zst_kind, bz2_kind), (Compression::Zstd, Compression::Bzip2));
    assert_eq!(zst, bz2);
    assert_eq!(zst_summary, bz2_summary);
    // MANIFEST: 671,841 decompressed bytes, 1,075 comments, 105 `[deleted]`; and
    // zstd -dc --long=31 RC_2005-12.zst | grep -c '"body":"\[removed\]"'  ->  15
    assert_eq!(zst_summary.bytes, 671_841);
    assert_eq!(zst_summary.lines, 1075);
    assert_eq!(zst_summary.records_read, 1075);
    assert_eq!(zst_summary.dropped_deleted, 105 + 15);
    assert_eq!(zst_summary.records_kept, 955);
    assert_eq!((zst_summary.dropped_subreddit, zst_summary.dropped_year), (0, 0));
    // 5 kept comments are nothing but URLs (python: bodies whose whitespace runs all start
    // with http://, https:// or www.), so they give no sentence.
    assert_eq!(zst_summary.sentences, 950);
    assert_eq!(zst.n_sentences(), 950);
    assert_eq!(
        sentence_words(&zst)[0],
        [
            "a",
            "look",
            "at",
            "vietnam",
            "and",
            "mexico",
            "exposes",
            "the",
            "myth",
            "of",
            "market",
            "liberalisation",
            "."
        ]
    );
    assert!(zst.vocab().words().iter().all(|w| !w.starts_with("http")));
}

#[test]
fn subreddit_filter_is_case_insensitive() {
    // RC_2006-01: 3,666 comments, 2 in "nsfw", the rest in "reddit.com".
    let (_, summary, corpus) = read_file(
        "reddit/pushshift_monthly/RC_2006-01.zst",
        &options(&["NSFW"], &[], NewlineHandling::Space),
    );
    assert_eq!(summary.records_read, 3666);
    assert_eq!(summary.dropped_subreddit, 3664);
    assert_eq!(summary.records_kept, 2);
    assert_eq!(summary.dropped_deleted, 0);
    let sentences = sentence_words(&corpus);
    assert_eq!(sentences.len(), 2);
    assert_eq!(sentences[0], ["awesome", "nipples", "!"]);
    assert_eq!(sentences[1][..6], ["that", "'", "s", "what", "i", "get"]);
}

#[test]
fn year_filter_uses_the_utc_year_of_created_utc() {
    let path = "reddit/pushshift_monthly/RC_2005-12.bz2";
    let (_, in_2005, corpus_2005) = read_file(path, &options(&[], &[2005], NewlineHandling::Space));
    assert_eq!((in_2005.records_kept, in_2005.dropped_year), (955, 0));
    assert_eq!(corpus_2005.n_sentences(), 950);
    let (_, in_2006, corpus_2006) = read_file(path, &options(&[], &[2006], NewlineHandling::Space));
    assert_eq!((in_2006.records_kept, in_2006.dropped_year), (0, 1075));
    assert_eq!(
        in_2006.dropped_deleted, 0,
        "the year filter comes before the body filter"
    );
    assert_eq!(corpus_2006.n_sentences(), 0);
    assert_eq!(corpus_2006.vocab().len(), 0);
    let (_, both, _) = read_file(
        path,
        &options(&["reddit.com"], &[2004, 2005], NewlineHandling::Space),
    );
    assert_eq!(both.records_kept, 955);
}

const INLINE: &str = r#"{"created_utc":"1420070400","subreddit":"AskHistorians","body":"First line\nsecond\r\nline\tend. See http://x.org/a_b and www.y.com!","id":"a"}

{"body":"[removed]","subreddit":"askhistorians","created_utc":1420070401}
{"subreddit":"askscience","body":"Other sub","created_utc":1420070402,"extra":{"nested":[1,2]}}
{"body":"[deleted]","created_utc":1420070399,"subreddit":"AskHistorians"}
{"body":"Old\nyear","created_utc":"1420070399","subreddit":"askhistorians"}
"#;

#[test]
fn inline_records_string_timestamps_removed_bodies_urls_and_newlines() {
    let opts = options(&["askhistorians"], &[2015], NewlineHandling::Space);
    let (summary, corpus) = read_str(INLINE, &opts).unwrap();
    assert_eq!(summary.lines, 6);
    assert_eq!(summary.records_read, 5);
    assert_eq!(summary.records_kept, 1);
    assert_eq!(summary.dropped_subreddit, 1);
    assert_eq!(summary.dropped_year, 2);
    assert_eq!(summary.dropped_deleted, 1);
    assert_eq!(
        sentence_words(&corpus),
        [vec!["first", "line", "second", "line", "end", ".", "see", "and"]]
    );

    let glue = options(&["askhistorians"], &[2015], NewlineHandling::Glue);
    let (_, glued) = read_str(INLINE, &glue).unwrap();
    assert_eq!(
        sentence_words(&glued),
        [vec!["first", "linesecondline", "end", ".", "see", "and"]]
    );

    // Without filters every non-deleted body is a sentence; "[removed]" and "[deleted]" are dropped.
    let (all_summary, all) = read_str(INLINE, &options(&[], &[], NewlineHandling::Space)).unwrap();
    assert_eq!((all_summary.records_kept, all_summary.dropped_deleted), (3, 2));
    assert_eq!(sentence_words(&all)[2], ["old", "year"]);
}

#[test]
fn malformed_lines_name_the_line_and_what_was_expected() {
    let opts = options(&[], &[], NewlineHandling::Space);
    let cases = [
        (
            "{\"body\":\"a\",\"subreddit\":\"x\",\"created_utc\":1}\n{\"body\":\"a\",\"subreddit\":\"x\"}\n",
            "line 2: invalid Reddit comment at column 28: missing field `created_utc` (expected a \
             JSON object with string `body`, string `subreddit` and `created_utc` as an integer or \
             a string of digits)",
        ),
        (
            "\n\nnot json\n",
            "line 3: invalid Reddit comment at column 2: expected ident (expected a JSON object with \
             string `body`, string `subreddit` and `created_utc` as an integer or a string of \
             digits)",
        ),
        (
            "{\"body\":\"a\",\"subreddit\":\"x\",\"created_utc\":\"soon\"}\n",
            "line 1: invalid Reddit comment at column 48: invalid value: string \"soon\", expected \
             unix seconds as an integer or a string of digits (expected a JSON object with string \
             `body`, string `subreddit` and `created_utc` as an integer or a string of digits)",
        ),
        (
            "{\"body\":null,\"subreddit\":\"x\",\"created_utc\":1}\n",
            "line 1: invalid Reddit comment at column 12: invalid type: null, expected a string \
             (expected a JSON object with string `body`, string `subreddit` and `created_utc` as \
             an integer or a string of digits)",
        ),
    ];
    for (input, message) in cases {
        let err = read_str(input, &opts).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn corrupt_compressed_dump_is_a_read_error_with_the_line() {
    let mut bytes = std::fs::read(super::data_file("reddit/pushshift_monthly/RC_2005-12.bz2")).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..middle + 64] {
        *b ^= 0x5A;
    }
    let (_, reader) = decompress(std::io::Cursor::new(bytes)).unwrap();
    let mut builder = CorpusBuilder::new(None);
    let err = builder
        .read_reddit(reader, &options(&[], &[], NewlineHandling::Space))
        .unwrap_err();
    // The whole month is one bzip2 block, so the error comes with the first read.
    assert!(matches!(err, CorpusError::Read { line: 1, .. }), "{err:?}");
    assert_eq!(err.to_string(), "cannot read line 1 of the input");
    assert!(std::error::Error::source(&err).is_some());
}
