//! Corpus preparation on the data mirror's real files.

use std::path::{Path, PathBuf};

use retest_data::{
    CORPUS_FILE, DataError, LockFile, PrepareOutcome, Resolver, STATS_FILE, VOCAB_FILE, prepare_corpus,
};
use retest_spec::{CaseHandling, CorpusRecipe, ReaderSpec, SentenceSplitting};
use retest_test_support::{data_dir, write_file};

fn project_recipe(name: &str) -> CorpusRecipe {
    CorpusRecipe::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../corpora/{name}.yaml")))
        .unwrap()
}

/// A Reddit recipe `name` in `work` whose one source, `file` there, is the first half of the
/// mirror's December 2005 dump; the recipe and the source's path.
fn half_reddit_dump(work: &Path, name: &str, file: &str) -> (CorpusRecipe, PathBuf) {
    let bytes = std::fs::read(data_dir().join("reddit/pushshift_monthly/RC_2005-12.bz2")).unwrap();
    let source = write_file(work, file, &bytes[..bytes.len() / 2]);
    let text =
        format!("name: {name}\nreader: {{format: reddit}}\nsources:\n  - {{file: {file}, path: {file}}}\n");
    let recipe = CorpusRecipe::load(&write_file(work, &format!("{name}.yaml"), text)).unwrap();
    (recipe, source)
}

fn resolver(work: &Path) -> Resolver {
    Resolver::new(
        Some(data_dir()),
        work.join("cache"),
        LockFile::load(&work.join("lock")).unwrap(),
        true,
    )
}

#[test]
fn wikitext_valid_prepares_byte_identically_and_is_reused() {
    let work = tempfile::tempdir().unwrap();
    let recipe = project_recipe("wikitext-103-valid");
    let (first, outcome) =
        prepare_corpus(&recipe, &mut resolver(work.path()), &work.path().join("a"), false).unwrap();
    assert_eq!(outcome, PrepareOutcome::Prepared);
    // 213,886 whitespace tokens in the file (MANIFEST.md), all read.
    assert_eq!(first.stats.stats.raw_tokens, 213_886);
    let (second, _) =
        prepare_corpus(&recipe, &mut resolver(work.path()), &work.path().join("b"), false).unwrap();
    for file in [CORPUS_FILE, VOCAB_FILE, STATS_FILE] {
        assert_eq!(
            std::fs::read(first.dir.join(file)).unwrap(),
            std::fs::read(second.dir.join(file)).unwrap(),
            "{file}"
        );
    }
    assert_eq!(
        first.dir.file_name(),
        second.dir.file_name(),
        "same content, same key"
    );
    // The key of a non-Reddit recipe did not change when the Reddit reader gained options:
    // python3 -c 'import hashlib,json; print(hashlib.sha256(json.dumps({"max_tokens": None,
    //   "min_count": 5, "reader": {"format": "wikitext", "unk": "raw-unk"}, "sources":
    //   [["wiki.valid.tokens", "9aee9f52d6e77de6c7751fc5e7c44287db3ec0eaf15477098acc6b93c1c4250b"]],
    //   "version": 1}, separators=(",", ":")).encode()).hexdigest()[:16])'
    assert_eq!(
        first.dir.file_name().unwrap(),
        "wikitext-103-valid-5362d9ab13ffd5c1"
    );
    let (_, again) =
        prepare_corpus(&recipe, &mut resolver(work.path()), &work.path().join("a"), false).unwrap();
    assert_eq!(again, PrepareOutcome::AlreadyPrepared);
    // A different min_count is a different corpus.
    let mut other = recipe.clone();
    other.min_count = 2;
    let (third, _) =
        prepare_corpus(&other, &mut resolver(work.path()), &work.path().join("a"), false).unwrap();
    assert_ne!(third.dir, first.dir);
}

#[test]
fn reddit_dump_prepares_through_zstd() {
    let work = tempfile::tempdir().unwrap();
    let (prepared, _) = prepare_corpus(
        &project_recipe("reddit-2005-12"),
        &mut resolver(work.path()),
        work.path(),
        false,
    )
    .unwrap();
    let read = prepared.stats.sources[0].read.as_ref().unwrap();
    assert_eq!(prepared.stats.sources[0].compression, "zstd");
    assert_eq!(read.records_read, 1_075);
    assert!(prepared.stats.stats.tokens > 10_000);
}

/// The recipe's reader cuts comments into sentences by default; `sentences: comment` is
/// another corpus (another key, prepared anew, never the other's folder) with the same tokens
/// and fewer sentences.
#[test]
fn reddit_sentence_splitting_is_part_of_the_key() {
    let work = tempfile::tempdir().unwrap();
    let split = project_recipe("reddit-2005-12");
    let mut comment = split.clone();
    match &mut comment.reader {
        ReaderSpec::Reddit { sentences, .. } => {
            assert_eq!(*sentences, SentenceSplitting::Split, "the default");
            *sentences = SentenceSplitting::Comment;
        }
        other => panic!("a reddit reader: {other:?}"),
    }
    let (by_sentence, outcome) =
        prepare_corpus(&split, &mut resolver(work.path()), work.path(), false).unwrap();
    assert_eq!(outcome, PrepareOutcome::Prepared);
    let (by_comment, outcome) =
        prepare_corpus(&comment, &mut resolver(work.path()), work.path(), false).unwrap();
    assert_eq!(
        outcome,
        PrepareOutcome::Prepared,
        "a changed option never reuses a corpus"
    );
    assert_ne!(by_sentence.dir, by_comment.dir);
    assert_ne!(by_sentence.stats.key, by_comment.stats.key);
    assert_eq!(by_sentence.stats.reader["sentences"], "split");
    assert_eq!(by_comment.stats.reader["sentences"], "comment");
    let (s, c) = (&by_sentence.stats.stats, &by_comment.stats.stats);
    assert_eq!(
        (s.raw_tokens, s.tokens, s.types),
        (c.raw_tokens, c.tokens, c.types)
    );
    // 950 comments with tokens (the corpus tests), cut into more sentences.
    assert_eq!(c.raw_sentences, 950);
    assert!(s.raw_sentences > c.raw_sentences);
    for (recipe, prepared) in [(&split, &by_sentence), (&comment, &by_comment)] {
        let (again, outcome) =
            prepare_corpus(recipe, &mut resolver(work.path()), work.path(), false).unwrap();
        assert_eq!(
            (outcome, &again.dir),
            (PrepareOutcome::AlreadyPrepared, &prepared.dir)
        );
    }
}

/// `case: keep` is another corpus too: its own folder, the same tokens and sentences, more
/// words (`The` beside `the`), and its stats name the option.
#[test]
fn reddit_case_is_part_of_the_key() {
    let work = tempfile::tempdir().unwrap();
    let lower = project_recipe("reddit-2005-12");
    let mut keep = lower.clone();
    match &mut keep.reader {
        ReaderSpec::Reddit { case, .. } => *case = CaseHandling::Keep,
        other => panic!("a reddit reader: {other:?}"),
    }
    let (lowered, _) = prepare_corpus(&lower, &mut resolver(work.path()), work.path(), false).unwrap();
    let (kept, outcome) = prepare_corpus(&keep, &mut resolver(work.path()), work.path(), false).unwrap();
    assert_eq!(outcome, PrepareOutcome::Prepared, "never the lowercased folder");
    assert_ne!(kept.dir, lowered.dir);
    assert_eq!(lowered.stats.reader["case"], "lower");
    assert_eq!(kept.stats.reader["case"], "keep");
    let (l, k) = (&lowered.stats.stats, &kept.stats.stats);
    assert_eq!((l.raw_tokens, l.raw_sentences), (k.raw_tokens, k.raw_sentences));
    assert!(k.raw_types > l.raw_types);
    let vocab = std::fs::read_to_string(kept.vocab_path()).unwrap();
    let words: Vec<&str> = vocab.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert!(words.contains(&"The") && words.contains(&"the"));
    let vocab = std::fs::read_to_string(lowered.vocab_path()).unwrap();
    assert!(vocab.lines().all(|l| l == l.to_lowercase()));
}

#[test]
fn corrupt_compressed_file_fails_with_its_path_and_keeps_finished_work() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    // A finished corpus first.
    let (done, _) = prepare_corpus(
        &project_recipe("wikitext-103-valid"),
        &mut resolver(work.path()),
        &out,
        false,
    )
    .unwrap();
    // Then a bzip2 file cut in the middle.
    let (recipe, broken) = half_reddit_dump(work.path(), "broken", "broken.bz2");
    let error = prepare_corpus(&recipe, &mut resolver(work.path()), &out, false).unwrap_err();
    assert!(
        matches!(error, DataError::Corpus { .. } | DataError::Io { .. }),
        "{error:?}"
    );
    assert!(
        error.to_string().starts_with(&broken.display().to_string()),
        "{error}"
    );
    assert!(
        done.dir.join(STATS_FILE).is_file(),
        "the finished corpus is still there"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "no partial folder is left behind: {leftovers:?}"
    );
}

/// A corpus without a token names the fields that emptied it: `min_count`, and `max_tokens`
/// when only a slice was read.
#[test]
fn empty_corpus_is_an_error() {
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("tiny.txt"), " = Title = \n a b c a b a \n").unwrap();
    let cases = [
        (
            "min_count: 5",
            "corpus `tiny`: nothing to train on: no word of its sources occurs at least 5 times (min_count)",
        ),
        (
            "min_count: 2\nmax_tokens: 2",
            "corpus `tiny`: nothing to train on: no word of its first 2 tokens (max_tokens) occurs at \
             least 2 times (min_count)",
        ),
    ];
    for (fields, expected) in cases {
        std::fs::write(
            work.path().join("tiny.yaml"),
            format!(
                "name: tiny\nreader: {{format: wikitext}}\n{fields}\nsources:\n  - {{file: tiny.txt, path: tiny.txt}}\n"
            ),
        )
        .unwrap();
        let recipe = CorpusRecipe::load(&work.path().join("tiny.yaml")).unwrap();
        let error = prepare_corpus(&recipe, &mut resolver(work.path()), work.path(), false).unwrap_err();
        assert_eq!(error.to_string(), expected);
    }
}

/// A source without a published checksum: a truncated copy fails to read and leaves the lock
/// file untouched, so the good copy that replaces it is prepared, and only then recorded.
#[test]
fn a_checksum_is_recorded_only_once_its_file_has_been_read() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let lock = work.path().join("checksums.lock");
    let (recipe, copy) = half_reddit_dump(work.path(), "dump", "RC_2005-12.bz2");
    let good = std::fs::read(data_dir().join("reddit/pushshift_monthly/RC_2005-12.bz2")).unwrap();
    let resolver = |lock: &Path| {
        Resolver::new(
            None,
            work.path().join("cache"),
            LockFile::load(lock).unwrap(),
            true,
        )
    };

    let error = prepare_corpus(&recipe, &mut resolver(&lock), &out, false).unwrap_err();
    assert!(
        matches!(error, DataError::Corpus { .. } | DataError::Io { .. }),
        "{error:?}"
    );
    assert!(!lock.exists(), "the truncated copy's checksum was recorded");

    std::fs::write(&copy, &good).unwrap();
    let (prepared, outcome) = prepare_corpus(&recipe, &mut resolver(&lock), &out, false).unwrap();
    assert_eq!(outcome, PrepareOutcome::Prepared);
    let sha = retest_data::sha256_file(&copy).unwrap();
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        format!(
            "# SHA-256 of files whose recipe or declaration names none, recorded on first use (retest).\n\
             {sha}  dump/RC_2005-12.bz2\n"
        )
    );
    // Recorded, the checksum finds the prepared corpus without reading the source.
    let found = retest_data::find_prepared(&recipe, &LockFile::load(&lock).unwrap(), &out).unwrap();
    assert_eq!(found.map(|p| p.dir), Some(prepared.dir));
}

/// A corpus found prepared under a key whose checksum the lock file lost (or never got) has it
/// recorded: its source was read when it was prepared.
#[test]
fn a_corpus_found_prepared_records_its_checksum() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    std::fs::write(
        work.path().join("valid.yaml"),
        "name: valid\nreader: {format: wikitext}\nsources:\n  - {file: wiki.valid.tokens}\n",
    )
    .unwrap();
    let recipe = CorpusRecipe::load(&work.path().join("valid.yaml")).unwrap();
    prepare_corpus(&recipe, &mut resolver(work.path()), &out, false).unwrap();
    let lock = work.path().join("lock");
    let recorded = std::fs::read_to_string(&lock).unwrap();
    std::fs::remove_file(&lock).unwrap();
    let (_, outcome) = prepare_corpus(&recipe, &mut resolver(work.path()), &out, false).unwrap();
    assert_eq!(outcome, PrepareOutcome::AlreadyPrepared);
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), recorded);
}

/// A preparation killed before its rename leaves `.tmp-<name>-XXXXXX/`; those folders, and no
/// other entry, are what `stale_preparations` names. `prepared_dirs` names the finished ones.
#[test]
fn stale_preparations_are_the_temporary_folders_only() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path();
    let (prepared, _) = prepare_corpus(
        &project_recipe("wikitext-103-valid"),
        &mut resolver(out),
        out,
        false,
    )
    .unwrap();
    for dir in [
        ".tmp-wikitext-103-valid-aB3xY9",
        ".tmp-gutenberg-Q1w2E3",
        ".tmp-notes",
        "tmp-x-aB3xY9",
    ] {
        std::fs::create_dir(out.join(dir)).unwrap();
    }
    std::fs::write(out.join(".tmp-gutenberg-zZ9zZ9"), "a file, not a folder").unwrap();
    std::fs::create_dir(out.join("wikitext-103-valid-0123456789abcdeg")).unwrap();
    assert_eq!(
        retest_data::stale_preparations(out),
        [
            out.join(".tmp-gutenberg-Q1w2E3"),
            out.join(".tmp-wikitext-103-valid-aB3xY9")
        ]
    );
    assert_eq!(retest_data::prepared_dirs(out), [prepared.dir]);
}

#[test]
fn two_processes_preparing_one_corpus_at_once_keep_the_folder_the_first_published() {
    let work = tempfile::tempdir().unwrap();
    let mut recipe = project_recipe("wikitext-103-valid");
    recipe.max_tokens = Some(20_000);
    for round in 0..20 {
        let out_root = work.path().join(format!("corpora-{round}"));
        // Each preparer, once it has a prepared folder, writes into it as counting would; a
        // later preparation must not remove the folder under it.
        let prepare = |who: &str| {
            let (prepared, _) = prepare_corpus(&recipe, &mut resolver(work.path()), &out_root, false)
                .unwrap_or_else(|e| panic!("round {round}, {who}: {e}"));
            std::fs::write(prepared.dir.join(format!("counted-by-{who}")), who)
                .unwrap_or_else(|e| panic!("round {round}, {who}: {e}"));
            prepared
        };
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| prepare("a"));
            let b = s.spawn(|| prepare("b"));
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(a.dir, b.dir);
        assert_eq!(a.stats.key, b.stats.key);
        for file in [
            CORPUS_FILE,
            VOCAB_FILE,
            STATS_FILE,
            "counted-by-a",
            "counted-by-b",
        ] {
            assert!(a.dir.join(file).is_file(), "round {round}: {file} missing");
        }
        // Nothing is left but the one folder.
        let entries: Vec<_> = std::fs::read_dir(&out_root)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(entries.len(), 1, "round {round}: {entries:?}");
    }
}
