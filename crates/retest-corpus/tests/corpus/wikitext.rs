//! WikiText token files: counts, vocabulary order, `<unk>` handling and `min_count` on the
//! real WikiText-103 / WikiText-2 validation sets.

use std::io::BufReader;

use retest_corpus::{Compression, CorpusBuilder, UnkHandling, WikiTextOptions, decompress};

use super::open_data;

const WT103_VALID: &str = "wikitext-103/wiki.valid.tokens";
const WT2_VALID: &str = "wikitext-2/tokens/valid.txt";

fn prepare(path: &str, unk: UnkHandling, min_count: u64) -> retest_corpus::EncodedCorpus {
    let (compression, reader) = decompress(open_data(path)).unwrap();
    assert_eq!(compression, Compression::None);
    let mut builder = CorpusBuilder::new(None);
    builder.read_wikitext(reader, &WikiTextOptions { unk }).unwrap();
    builder.finish(min_count)
}

#[test]
fn wikitext_103_valid_counts_tokens_lines_and_types() {
    let mut builder = CorpusBuilder::new(None);
    let summary = builder
        .read_wikitext(
            BufReader::new(open_data(WT103_VALID)),
            &WikiTextOptions {
                unk: UnkHandling::Keep,
            },
        )
        .unwrap();
    // LC_ALL=C awk '{n+=NF} NF>0{s++} END{print NR, n, s}' wiki.valid.tokens  ->  3760 213886 2461
    assert_eq!(summary.lines, 3760);
    assert_eq!(summary.tokens, 213_886);
    assert_eq!(summary.sentences, 2461);
    assert_eq!(summary.records_read, 2461);
    assert_eq!(summary.bytes, 1_142_309);
    let corpus = builder.finish(1);
    let stats = corpus.stats();
    // python3 -c "print(len(set(open('wiki.valid.tokens','rb').read().split())))"  ->  18890
    assert_eq!((stats.raw_types, stats.types), (18_890, 18_890));
    assert_eq!(
        (stats.tokens, stats.oov_tokens, stats.sentences),
        (213_886, 0, 2461)
    );
    assert_eq!(corpus.tokens().len(), 213_886);
    assert_eq!(corpus.vocab().total_count(), 213_886);
    // The first line with text is the heading ` = Homarus gammarus = `, kept as tokens.
    assert_eq!(
        super::sentence_words(&corpus)[0],
        ["=", "Homarus", "gammarus", "="]
    );
}

#[test]
fn wikitext_vocab_is_count_descending_with_ties_in_byte_order() {
    let corpus = prepare(WT103_VALID, UnkHandling::Keep, 1);
    let vocab = corpus.vocab();
    // tr -s ' \t' '\n\n' < wiki.valid.tokens | grep -v '^$' | LC_ALL=C sort | uniq -c
    //   | awk '{print $2"\t"$1}' | LC_ALL=C sort -t$'\t' -k2,2nr -k1,1 | head -12
    let top: Vec<(&str, u64)> = vocab.iter().take(12).collect();
    assert_eq!(
        top,
        [
            ("the", 12639),
            (",", 10079),
            (".", 7770),
            ("of", 5916),
            ("and", 5334),
            ("in", 4261),
            ("to", 4131),
            ("a", 3439),
            ("=", 2924),
            ("\"", 2568),
            ("was", 2324),
            ("The", 2078),
        ]
    );
    // Same pipeline, lines 187-188: a tie at 100 broken by bytes ('U' < 's').
    assert_eq!(vocab.id("U.S."), Some(186));
    assert_eq!(vocab.id("such"), Some(187));
    assert_eq!((vocab.count(186), vocab.count(187)), (100, 100));
    // The whole order is a total order: count descending, then bytes ascending.
    for pair in vocab.words().windows(2).zip(vocab.counts().windows(2)) {
        let ((a, b), (ca, cb)) = ((&pair.0[0], &pair.0[1]), (pair.1[0], pair.1[1]));
        assert!(
            ca > cb || (ca == cb && a.as_bytes() < b.as_bytes()),
            "{a:?} {ca} before {b:?} {cb}"
        );
    }
    // Case and WikiText's markers are kept.
    for word in ["The", "@-@", "@,@", "@.@", "Homarus"] {
        assert!(vocab.id(word).is_some(), "{word}");
    }
}

#[test]
fn raw_unk_maps_unk_on_wikitext_2() {
    let keep = prepare(WT2_VALID, UnkHandling::Keep, 1);
    let raw = prepare(WT2_VALID, UnkHandling::RawUnk, 1);
    // LC_ALL=C awk '{for(i=1;i<=NF;i++) if($i=="<unk>") u++} END{print u}' valid.txt  ->  11718
    let unk = keep.vocab().id("<unk>").unwrap();
    assert_eq!((unk, keep.vocab().count(unk)), (1, 11_718));
    assert_eq!(keep.vocab().id("<raw_unk>"), None);
    assert_eq!(raw.vocab().id("<unk>"), None);
    let raw_unk = raw.vocab().id("<raw_unk>").unwrap();
    assert_eq!((raw_unk, raw.vocab().count(raw_unk)), (1, 11_718));
    // Nothing else changes: same ids, same token stream.
    assert_eq!(keep.tokens(), raw.tokens());
    assert_eq!(keep.vocab().len(), raw.vocab().len());
    // sort -u of the whitespace tokens  ->  13776 types
    assert_eq!(keep.vocab().len(), 13_776);
}

#[test]
fn min_count_removes_tokens_and_reports_the_oov_share() {
    let corpus = prepare(WT103_VALID, UnkHandling::Keep, 5);
    let stats = corpus.stats();
    // awk -F'\t' '$2>=5{t++; n+=$2} $2<5{o+=$2} END{print t, n, o}' vocab.tsv (from the pipeline
    // above)  ->  4987 190646 23240
    assert_eq!(stats.types, 4987);
    assert_eq!(stats.tokens, 190_646);
    assert_eq!(stats.oov_tokens, 23_240);
    assert_eq!(stats.oov_types, 18_890 - 4987);
    assert_eq!(stats.raw_tokens, 213_886);
    assert_eq!(stats.oov_share, 23_240.0 / 213_886.0);
    assert!((stats.oov_share - 0.108_656).abs() < 1e-6);
    // Lines with at least one word of count >= 5 (awk over vocab.tsv and the file)  ->  2459
    assert_eq!((stats.raw_sentences, stats.sentences), (2461, 2459));
    assert_eq!(corpus.tokens().len(), 190_646);
    assert!(corpus.vocab().counts().iter().all(|&c| c >= 5));
    assert!(corpus.sentences().all(|s| !s.is_empty()));
    assert_eq!(stats.min_count, 5);
}
