//! Unit tests of the builder: interning, sentence bounds, the token limit, `finish`, and the
//! batching of the tokenising readers (with tiny batches and pieces).

use super::*;
use crate::plain::PlainTextOptions;
use crate::tokenize::CaseHandling;
use crate::wikitext::{UnkHandling, WikiTextOptions};

const KEEP: WikiTextOptions = WikiTextOptions {
    unk: UnkHandling::Keep,
};

fn words(corpus: &EncodedCorpus) -> Vec<&str> {
    corpus.vocab().iter().map(|(w, _)| w).collect()
}

fn sentence_words(corpus: &EncodedCorpus) -> Vec<Vec<&str>> {
    corpus
        .sentences()
        .map(|s| s.iter().map(|&id| corpus.vocab().word(id)).collect())
        .collect()
}

#[test]
fn wikitext_lines_become_sentences_and_vocab_is_ordered() {
    let text = " b a\n \n\t\n c b a a\r\n<unk> z\n";
    let mut builder = CorpusBuilder::new(None);
    let summary = builder.read_wikitext(text.as_bytes(), &KEEP).unwrap();
    assert_eq!(summary.lines, 5);
    assert_eq!(summary.records_read, 3);
    assert_eq!(summary.sentences, 3);
    assert_eq!(summary.tokens, 8);
    assert_eq!(summary.bytes, text.len() as u64);
    assert!(!summary.stopped_at_token_limit);
    let corpus = builder.finish(1);
    // a:3, b:2, then the count-1 words in byte order: "<" < "c" < "z".
    assert_eq!(words(&corpus), ["a", "b", "<unk>", "c", "z"]);
    assert_eq!(corpus.vocab().counts(), [3, 2, 1, 1, 1]);
    assert_eq!(
        sentence_words(&corpus),
        [vec!["b", "a"], vec!["c", "b", "a", "a"], vec!["<unk>", "z"]]
    );
}

#[test]
fn raw_unk_renames_only_the_exact_token() {
    let mut builder = CorpusBuilder::new(None);
    builder
        .read_wikitext(
            " <unk> <unk>s <UNK> <unk>\n".as_bytes(),
            &WikiTextOptions {
                unk: UnkHandling::RawUnk,
            },
        )
        .unwrap();
    let corpus = builder.finish(0);
    assert_eq!(words(&corpus), ["<raw_unk>", "<UNK>", "<unk>s"]);
    assert_eq!(corpus.vocab().id("<unk>"), None);
}

#[test]
fn min_count_removes_tokens_and_emptied_sentences() {
    let text = "a a b\nc d\na b\n";
    let mut builder = CorpusBuilder::new(None);
    builder.read_wikitext(text.as_bytes(), &KEEP).unwrap();
    let corpus = builder.finish(2);
    assert_eq!(words(&corpus), ["a", "b"]);
    assert_eq!(sentence_words(&corpus), [vec!["a", "a", "b"], vec!["a", "b"]]);
    assert_eq!(corpus.sentence_ends(), [3, 5]);
    let stats = corpus.stats();
    assert_eq!((stats.raw_tokens, stats.tokens, stats.oov_tokens), (7, 5, 2));
    assert_eq!((stats.raw_types, stats.types, stats.oov_types), (4, 2, 2));
    assert_eq!((stats.raw_sentences, stats.sentences), (3, 2));
    assert_eq!(stats.oov_share, 2.0 / 7.0);
}

#[test]
fn token_limit_cuts_the_sentence_and_stops_reading() {
    let text = "a b c\nd e f\ng h\n";
    let mut builder = CorpusBuilder::new(Some(4));
    let summary = builder.read_wikitext(text.as_bytes(), &KEEP).unwrap();
    assert!(summary.stopped_at_token_limit);
    assert_eq!((summary.lines, summary.tokens, summary.sentences), (2, 4, 2));
    assert!(builder.is_full());
    let again = builder.read_wikitext("x y\n".as_bytes(), &KEEP).unwrap();
    assert_eq!((again.lines, again.tokens), (0, 0));
    assert!(again.stopped_at_token_limit);
    let corpus = builder.finish(1);
    assert_eq!(sentence_words(&corpus), [vec!["a", "b", "c"], vec!["d"]]);
    assert!(corpus.stats().stopped_at_token_limit);
    assert_eq!(corpus.stats().max_tokens, Some(4));
}

#[test]
fn invalid_utf8_names_the_line() {
    let mut builder = CorpusBuilder::new(None);
    let err = builder.read_wikitext(&b" ok\n \xffbad\n"[..], &KEEP).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2: invalid UTF-8 at byte 1 of the line (expected UTF-8 text; convert the file, \
         e.g. with iconv)"
    );
}

/// A few paragraphs of prose with punctuation, odd whitespace and non-ASCII text.
fn prose() -> String {
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(&format!(
            "Paragraph {i} says: \"Hello, World.\" It's the ﬁrst\nline; Ⅻ café  CAFÉ\u{a0}end.\n"
        ));
        if i % 3 == 0 {
            text.push_str("  a second line of the same paragraph (really).\n");
        }
        text.push_str(if i % 2 == 0 { "\n" } else { " \t \n\n" });
    }
    text
}

fn read_prose(
    case: CaseHandling,
    threads: usize,
    batch_bytes: usize,
    max_piece_bytes: usize,
    max: Option<u64>,
) -> (EncodedCorpus, ReadSummary) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut builder = CorpusBuilder::new(max);
        builder.batch_bytes = batch_bytes;
        builder.max_piece_bytes = max_piece_bytes;
        let text = prose();
        let summary = builder
            .read_plain_text(text.as_bytes(), &PlainTextOptions { case })
            .unwrap();
        (builder.finish(1), summary)
    })
}

#[test]
fn plain_text_paragraphs_are_sentences() {
    let (corpus, summary) = read_prose(CaseHandling::Lower, 1, usize::MAX, usize::MAX, None);
    assert_eq!(summary.records_read, 40);
    assert_eq!(summary.sentences, 40);
    assert_eq!(corpus.n_sentences(), 40);
    let first: Vec<&str> = sentence_words(&corpus)[0].clone();
    assert_eq!(
        first,
        "paragraph 0 says : \" hello , world . \" it ' s the first line ; xii café café end . a \
         second line of the same paragraph ( really ) ."
            .split(' ')
            .collect::<Vec<_>>()
    );
}

/// With `case: keep` the text is cut into the same sentences and tokens, each as written (after
/// NFKC): lowercasing every kept token gives the lowercased corpus.
#[test]
fn plain_text_keeps_case_when_asked() {
    let (kept, kept_summary) = read_prose(CaseHandling::Keep, 1, usize::MAX, usize::MAX, None);
    let (lowered, lowered_summary) = read_prose(CaseHandling::Lower, 1, usize::MAX, usize::MAX, None);
    assert_eq!(kept_summary, lowered_summary);
    let kept_sentences = sentence_words(&kept);
    assert_eq!(
        kept_sentences[0][..22],
        "Paragraph 0 says : \" Hello , World . \" It ' s the first line ; XII café CAFÉ end ."
            .split(' ')
            .collect::<Vec<_>>()
    );
    let lowercased: Vec<Vec<String>> = kept_sentences
        .iter()
        .map(|s| s.iter().map(|w| w.to_lowercase()).collect())
        .collect();
    assert_eq!(lowercased, sentence_words(&lowered));
    // `Paragraph` and `paragraph`, `CAFÉ` and `café` are two words each; `Hello` replaces
    // `hello` and so on.
    assert_eq!(kept.vocab().len(), lowered.vocab().len() + 2);
    // Threads and batching do not change a cased read either.
    let (cut, _) = read_prose(CaseHandling::Keep, 2, 200, 30, None);
    assert_eq!(cut, kept);
}

#[test]
fn batching_pieces_and_threads_do_not_change_the_result() {
    let (reference, reference_summary) = read_prose(CaseHandling::Lower, 1, usize::MAX, usize::MAX, None);
    for (threads, batch_bytes, max_piece_bytes) in
        [(2, usize::MAX, usize::MAX), (1, 200, 30), (2, 200, 30), (2, 1, 1)]
    {
        let (corpus, summary) = read_prose(CaseHandling::Lower, threads, batch_bytes, max_piece_bytes, None);
        assert_eq!(
            corpus, reference,
            "threads {threads}, batch {batch_bytes}, piece {max_piece_bytes}"
        );
        assert_eq!(summary, reference_summary);
    }
}

#[test]
fn token_limit_in_tokenised_reader_reports_what_was_consumed() {
    // Paragraph 0 has 33 tokens and 3 lines + 1 blank; paragraph 1 starts on line 5.
    for (threads, batch_bytes) in [(1, usize::MAX), (2, 100), (2, 300), (2, 1)] {
        let (corpus, summary) = read_prose(CaseHandling::Lower, threads, batch_bytes, usize::MAX, Some(40));
        assert!(summary.stopped_at_token_limit);
        assert_eq!(summary.tokens, 40);
        assert_eq!(summary.sentences, 2);
        assert_eq!(summary.records_read, 2, "batch {batch_bytes}");
        assert_eq!(summary.lines, 7, "batch {batch_bytes}");
        assert_eq!(corpus.tokens().len(), 40);
        assert_eq!(corpus.sentence(1).len(), 7);
    }
}
