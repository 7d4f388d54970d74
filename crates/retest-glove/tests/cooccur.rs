//! Co-occurrence counting: hand-checked counts, glove.c's semantics, and independence of the
//! memory budget (spilled runs merged = in-memory table, byte for byte).

mod common;

use std::collections::BTreeMap;

use common::{count_in_memory, wiki_valid};
use retest_glove::{
    CooccurConfig, Cooccurrences, MAX_FAN_IN, count_cooccurrences, count_cooccurrences_to_writer,
    write_cooccurrences,
};
use retest_test_support::corpus_from_text;
use retest_test_support::error_line;

fn count(corpus: &retest_corpus::EncodedCorpus, window: usize, memory_bytes: u64) -> Cooccurrences {
    let dir = tempfile::tempdir().unwrap();
    count_cooccurrences(
        &corpus.view(),
        &CooccurConfig { window, memory_bytes },
        dir.path(),
        &mut |_| {},
    )
    .unwrap()
}

fn bytes(c: &Cooccurrences) -> Vec<u8> {
    let mut out = Vec::new();
    write_cooccurrences(c, &mut out).unwrap();
    out
}

#[test]
fn hand_checked_counts_with_weights_symmetry_window_and_sentence_ends() {
    // Line 1: x y z x. Line 2: y x. Window 2.
    //   y@1: x@0 d=1        → X(x,y) += 1
    //   z@2: y@1 d=1, x@0 d=2 → X(y,z) += 1, X(x,z) += 1/2
    //   x@3: z@2 d=1, y@1 d=2 (x@0 is at d=3 > 2) → X(z,x) += 1, X(y,x) += 1/2
    //   line 2, x@1: y@0 d=1 → X(y,x) += 1 (the line-1 x before it is in another sentence)
    // each added to both orders.
    let corpus = corpus_from_text("x y z x\ny x\n", 1);
    let id = |w: &str| corpus.vocab().id(w).unwrap();
    let (x, y, z) = (id("x"), id("y"), id("z"));
    let c = count(&corpus, 2, 1 << 20);
    assert_eq!(c.vocab_size(), 3);
    assert_eq!(c.len(), 6);
    assert_eq!(c.get(x, y), Some(2.5));
    assert_eq!(c.get(y, x), Some(2.5));
    assert_eq!(c.get(y, z), Some(1.0));
    assert_eq!(c.get(z, y), Some(1.0));
    assert_eq!(c.get(x, z), Some(1.5));
    assert_eq!(c.get(z, x), Some(1.5));
    assert_eq!(c.get(x, x), None, "x@0 and x@3 are 3 apart");
    assert_eq!(c.total_weight(), 10.0);
    assert!(
        c.records()
            .windows(2)
            .all(|w| (w[0].i, w[0].j) < (w[1].i, w[1].j))
    );

    // Window 3 reaches x@0 from x@3: the self-pair gets 1/3 from each of the two orders.
    let c3 = count(&corpus, 3, 1 << 20);
    assert_eq!(c3.get(x, x), Some(2.0 / 3.0));
    assert_eq!(c3.get(x, y), Some(2.5));

    // A one-word window sees only neighbours.
    let c1 = count(&corpus, 1, 1 << 20);
    assert_eq!(c1.get(x, z), Some(1.0));
    assert_eq!(c1.get(x, y), Some(2.0));
    assert_eq!(c1.get(y, z), Some(1.0));
}

#[test]
fn rare_words_do_not_count_for_distance() {
    // "rare" is removed by min_count 2 (as glove.c's cooccur skips out-of-vocabulary words
    // before they enter the window), so a and b become neighbours.
    let corpus = corpus_from_text("a rare b\na b\n", 2);
    let (a, b) = (corpus.vocab().id("a").unwrap(), corpus.vocab().id("b").unwrap());
    let c = count(&corpus, 1, 1 << 20);
    assert_eq!(c.get(a, b), Some(2.0));
}

#[test]
fn matches_a_naive_count_and_is_symmetric() {
    let corpus = wiki_valid(Some(30_000));
    let window = 15;
    let mut naive: BTreeMap<(u32, u32), f64> = BTreeMap::new();
    for s in corpus.view().sentences() {
        for p in 0..s.len() {
            for d in 1..=window.min(p) {
                *naive.entry((s[p - d], s[p])).or_default() += 1.0 / d as f64;
                *naive.entry((s[p], s[p - d])).or_default() += 1.0 / d as f64;
            }
        }
    }
    let c = count(&corpus, window, 1 << 26);
    assert_eq!(c.len(), naive.len());
    for (r, (&(i, j), &x)) in c.iter().zip(&naive) {
        assert_eq!((r.i, r.j), (i, j));
        // Exact sums against a running f64 sum: equal to within rounding.
        assert!((r.x - x).abs() <= 1e-12 * x, "({i}, {j}): {} vs naive {x}", r.x);
        assert_eq!(c.get(j, i), Some(r.x), "X must be symmetric");
    }
}

#[test]
fn spilling_and_merging_gives_the_same_bytes_as_counting_in_memory() {
    let corpus = wiki_valid(Some(120_000));
    let in_memory = count_in_memory(&corpus);
    let expected = bytes(&in_memory);

    // 256 KiB: a dense table of 16k cells and a 8k-slot hash table, so that hundreds of runs
    // spill and are merged in several passes of at most MAX_FAN_IN.
    let spill = tempfile::tempdir().unwrap();
    let config = CooccurConfig {
        window: 15,
        memory_bytes: 256 << 10,
    };
    let mut streamed = std::io::Cursor::new(Vec::new());
    let mut reports = Vec::new();
    let stats = count_cooccurrences_to_writer(
        &corpus.view(),
        &config,
        spill.path(),
        &mut |done| reports.push(done),
        &mut streamed,
    )
    .unwrap();
    assert!(
        stats.n_runs > 2 * MAX_FAN_IN,
        "only {} runs spilled",
        stats.n_runs
    );
    assert_eq!(stats.n_records, in_memory.len() as u64);
    assert_eq!(reports.last(), Some(&(corpus.tokens().len() as u64)));
    assert!(
        streamed.get_ref() == &expected,
        "streamed bytes differ from the in-memory table"
    );
    assert_eq!(
        std::fs::read_dir(spill.path()).unwrap().count(),
        0,
        "run files must be removed"
    );

    let spilled = count_cooccurrences(&corpus.view(), &config, spill.path(), &mut |_| {}).unwrap();
    assert!(
        bytes(&spilled) == expected,
        "spilled table differs from the in-memory table"
    );

    // A budget too small for anything is rounded up to a minimum and still exact.
    let tiny = count(&wiki_valid(Some(5_000)), 15, 1);
    assert!(bytes(&tiny) == bytes(&count_in_memory(&wiki_valid(Some(5_000)))));
}

#[test]
fn run_files_do_not_clobber_existing_files() {
    let corpus = wiki_valid(Some(20_000));
    let spill = tempfile::tempdir().unwrap();
    std::fs::write(
        spill.path().join("retest-glove-run-000000.bin"),
        b"someone else's",
    )
    .unwrap();
    let c = count_cooccurrences(
        &corpus.view(),
        &CooccurConfig {
            window: 15,
            memory_bytes: 64 << 10,
        },
        spill.path(),
        &mut |_| {},
    )
    .unwrap();
    assert!(bytes(&c) == bytes(&count_in_memory(&corpus)));
    let left: Vec<_> = std::fs::read_dir(spill.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["retest-glove-run-000000.bin"]);
    assert_eq!(
        std::fs::read(spill.path().join("retest-glove-run-000000.bin")).unwrap(),
        b"someone else's"
    );
}

#[test]
fn invalid_settings_are_errors() {
    let corpus = corpus_from_text("a b c\n", 1);
    let dir = tempfile::tempdir().unwrap();
    let err = count_cooccurrences(
        &corpus.view(),
        &CooccurConfig {
            window: 0,
            memory_bytes: 1 << 20,
        },
        dir.path(),
        &mut |_| {},
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid GloVe configuration: window must be at least 1"
    );

    // An unwritable spill directory surfaces with its path once a run must be written.
    let blocker = dir.path().join("not-a-dir");
    std::fs::write(&blocker, b"").unwrap();
    let big = wiki_valid(Some(20_000));
    let err = count_cooccurrences(
        &big.view(),
        &CooccurConfig {
            window: 15,
            memory_bytes: 64 << 10,
        },
        &blocker,
        &mut |_| {},
    )
    .unwrap_err();
    assert!(
        error_line(&err).starts_with(&format!("co-occurrence spill file {}: ", blocker.display())),
        "{err}"
    );
}

#[test]
fn empty_and_single_word_sentences_have_no_pairs() {
    let corpus = corpus_from_text("a\nb\na\n", 1);
    let c = count(&corpus, 15, 1 << 20);
    assert!(c.is_empty());
    assert_eq!(c.vocab_size(), 2);
}
