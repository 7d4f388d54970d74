//! Plain text (the Gutenberg corpus, xz-compressed): lowercasing or keeping case, punctuation
//! splitting, paragraphs as sentences, the token limit and independence from the thread count.

use std::io::Read;

use retest_corpus::{CaseHandling, Compression, CorpusBuilder, EncodedCorpus, PlainTextOptions, decompress};

use super::{corpus_bytes, open_data, sentence_words};

const GUTENBERG: &str = "corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz";

const LOWER: PlainTextOptions = PlainTextOptions {
    case: CaseHandling::Lower,
};

fn prepare_in_pool(threads: usize, max_tokens: u64) -> EncodedCorpus {
    prepare_with(&LOWER, threads, max_tokens)
}

fn prepare_with(opts: &PlainTextOptions, threads: usize, max_tokens: u64) -> EncodedCorpus {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let (compression, reader) = decompress(open_data(GUTENBERG)).unwrap();
        assert_eq!(compression, Compression::Xz);
        let mut builder = CorpusBuilder::new(Some(max_tokens));
        let summary = builder.read_plain_text(reader, opts).unwrap();
        assert!(summary.stopped_at_token_limit);
        assert_eq!(summary.tokens, max_tokens);
        builder.finish(1)
    })
}

#[test]
fn gutenberg_is_lowercased_split_at_punctuation_and_cut_at_the_limit() {
    let corpus = prepare_in_pool(2, 200_000);
    assert_eq!(corpus.tokens().len(), 200_000);
    assert!(corpus.stats().stopped_at_token_limit);
    let sentences = sentence_words(&corpus);
    // The file starts with "\nLINCOLN LETTERS\n\nBy Abraham Lincoln\n\nPublished by The
    // Bibilophile Society\n\n\n\n\nNOTE\n\n".
    assert_eq!(sentences[0], ["lincoln", "letters"]);
    assert_eq!(sentences[1], ["by", "abraham", "lincoln"]);
    assert_eq!(sentences[2], ["published", "by", "the", "bibilophile", "society"]);
    assert_eq!(sentences[3], ["note"]);
    // A hard-wrapped paragraph is one sentence, "Attorney-General," split at punctuation.
    let promptness = sentences
        .iter()
        .find(|s| s.starts_with(&["the", "promptness"]))
        .unwrap();
    assert_eq!(promptness.len(), 78);
    let at = promptness.iter().position(|&w| w == "attorney").unwrap();
    assert_eq!(promptness[at..at + 4], ["attorney", "-", "general", ","]);
    assert_eq!(promptness.last(), Some(&"."));

    let vocab = corpus.vocab();
    assert!(vocab.id("world").is_some());
    assert!(vocab.id("world.").is_none());
    assert!(vocab.id("The").is_none() && vocab.id("the").is_some());
    for word in vocab.words() {
        assert_eq!(**word, word.to_lowercase(), "not lowercased");
        assert!(!word.chars().any(char::is_whitespace), "{word:?}");
        // The BERT pre-tokeniser isolates every punctuation character.
        if word.chars().count() > 1 {
            assert!(!word.chars().any(|c| c.is_ascii_punctuation()), "{word:?}");
        }
    }
}

/// `case: keep` reads the same sentences and tokens, as written: the book's title in capitals,
/// names capitalised, and `The` beside `the`.
#[test]
fn gutenberg_keeps_case_when_asked() {
    let kept = prepare_with(
        &PlainTextOptions {
            case: CaseHandling::Keep,
        },
        2,
        200_000,
    );
    let lowered = prepare_in_pool(2, 200_000);
    let sentences = sentence_words(&kept);
    assert_eq!(sentences[0], ["LINCOLN", "LETTERS"]);
    assert_eq!(sentences[1], ["By", "Abraham", "Lincoln"]);
    assert_eq!(sentences[2], ["Published", "by", "The", "Bibilophile", "Society"]);
    assert_eq!(sentences[3], ["NOTE"]);
    let lowercased: Vec<Vec<String>> = sentences
        .iter()
        .map(|s| s.iter().map(|w| w.to_lowercase()).collect())
        .collect();
    assert_eq!(lowercased, sentence_words(&lowered));
    let vocab = kept.vocab();
    for word in ["The", "the", "LINCOLN", "Lincoln"] {
        assert!(vocab.id(word).is_some(), "{word}");
    }
    assert!(vocab.len() > lowered.vocab().len());
}

#[test]
fn gutenberg_paragraphs_are_sentences() {
    // The first book is 5,717 bytes (index.tsv); paragraphs counted with
    // xz -dc gutenberg_lahiri_150M.txt.xz | head -c 5717 | awk 'BEGIN{RS=""} END{print NR}'  ->  32
    let (_, reader) = decompress(open_data(GUTENBERG)).unwrap();
    let mut builder = CorpusBuilder::new(None);
    let summary = builder
        .read_plain_text(std::io::BufReader::new(reader.take(5717)), &LOWER)
        .unwrap();
    assert_eq!(summary.records_read, 32);
    assert_eq!(summary.sentences, 32);
    assert_eq!(summary.bytes, 5717);
    assert!(!summary.stopped_at_token_limit);
    // `wc -w` gives 1,065 whitespace tokens; punctuation splitting adds more.
    assert!(summary.tokens > 1065);
    assert_eq!(builder.finish(1).n_sentences(), 32);
}

#[test]
fn gutenberg_result_does_not_depend_on_the_thread_count() {
    let one = prepare_in_pool(1, 200_000);
    let two = prepare_in_pool(2, 200_000);
    assert_eq!(one, two);
    assert_eq!(corpus_bytes(&one), corpus_bytes(&two));
}
