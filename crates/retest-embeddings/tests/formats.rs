//! Write → read round trips of every format, format detection, the exact bytes of the gensim /
//! word2vec.c layouts, and the error messages for malformed files.

use std::path::{Path, PathBuf};

use retest_embeddings::{
    Embeddings, EmbeddingsError, Format, describe, detect_format, read, shape, toml, write,
};
use retest_test_support::assert_names_round_trip;

/// Awkward but valid content: non-ASCII words (one with a no-break space), a zero vector,
/// negative, tiny, huge and subnormal values.
fn sample() -> Embeddings {
    let words = ["the", "naïve", "Zoë", "zero", "a\u{a0}b", "</s>"]
        .map(String::from)
        .to_vec();
    let vectors = vec![
        0.1,
        -0.2,
        0.3,
        1.0, //
        1e-30,
        3.5e20,
        -7.25,
        0.0, //
        -0.123_456_79,
        0.987_654_3,
        1.0 / 3.0,
        2.0f32.sqrt(), //
        0.0,
        0.0,
        0.0,
        0.0, //
        f32::MIN_POSITIVE / 8.0,
        -1e-7,
        12345.678,
        -0.0, //
        f32::MAX,
        f32::MIN,
        f32::EPSILON,
        1.0,
    ];
    Embeddings::new(words, 4, vectors).unwrap()
}

/// [`sample`] without its last row, whose norm is beyond `f32::MAX` (finalfusion cannot store it).
fn fifu_sample() -> Embeddings {
    let (mut words, dim, mut vectors, _) = sample().into_parts();
    words.pop();
    vectors.truncate(words.len() * dim);
    Embeddings::new(words, dim, vectors).unwrap()
}

fn metadata() -> toml::Table {
    toml::toml! {
        seed = 17
        deterministic = true
        corpus_sha256 = "0416c306b99430382a61b68f60ef71834ebf4ef9975ec0691976b89311d5a0db"
        [training]
        algorithm = "sgns"
        dim = 300
        alpha = 0.025
        window = 5
        sample = 1e-3
        epochs = [1, 2, 3]
        [training.nested]
        note = "ünïcode \"quoted\""
    }
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn write_bytes(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The error and its sources joined with `: `, as the CLI prints them.
fn error_text(result: Result<Embeddings, EmbeddingsError>) -> String {
    let err = result.expect_err("reading should fail");
    std::iter::successors(Some(&err as &dyn std::error::Error), |e| e.source())
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ")
}

#[test]
fn text_and_binary_round_trips_are_exact() {
    let dir = tmp();
    let emb = sample().with_metadata(Some(metadata()));
    for format in [Format::Word2VecText, Format::Word2VecBinary, Format::GloveText] {
        let path = dir.path().join(format!("emb.{format}"));
        write(&path, &emb, format).unwrap();
        let back = read(&path, Some(format)).unwrap();
        assert_eq!(back.words(), emb.words(), "{format}");
        assert_eq!(back.dim(), emb.dim(), "{format}");
        let same_bits = back
            .vectors()
            .iter()
            .zip(emb.vectors())
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same_bits, "{format}: {:?} != {:?}", back.vectors(), emb.vectors());
        assert_eq!(back.metadata(), None, "{format} has no place for metadata");
        assert_eq!(read(&path, None).unwrap(), back, "{format}: detection");
    }
}

#[test]
fn fifu_round_trip_is_within_rounding_and_keeps_metadata_exactly() {
    let dir = tmp();
    let path = dir.path().join("emb.fifu");
    let emb = fifu_sample().with_metadata(Some(metadata()));
    write(&path, &emb, Format::Fifu).unwrap();
    let back = read(&path, Some(Format::Fifu)).unwrap();
    assert_eq!(back.words(), emb.words());
    assert_eq!(back.dim(), emb.dim());
    assert_eq!(back.metadata(), Some(&metadata()));
    for (row, (a, b)) in emb.rows().zip(back.rows()).enumerate() {
        // Per row, relative to the row's largest value: normalising and unnormalising rounds twice.
        let scale = a.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() <= 1e-6 * scale, "row {row}: {x} came back as {y}");
        }
    }
    assert!(back.row(3).iter().all(|&x| x == 0.0), "a zero vector stays zero");
    assert_eq!(read(&path, None).unwrap(), back, "detection");
}

#[test]
fn fifu_refuses_norms_beyond_f32() {
    let dir = tmp();
    let path = dir.path().join("big.fifu");
    let emb = Embeddings::new(vec!["big".into()], 2, vec![f32::MAX, f32::MAX]).unwrap();
    assert_eq!(
        write(&path, &emb, Format::Fifu).unwrap_err().to_string(),
        format!(
            "{}: the norm of `big` (row 0) is 4.812e38, beyond f32: finalfusion stores norms as f32",
            path.display()
        )
    );
    assert!(!path.exists());
}

#[test]
fn fifu_without_metadata_and_empty_vocabulary() {
    let dir = tmp();
    let path = dir.path().join("empty.fifu");
    let empty = Embeddings::new(Vec::new(), 3, Vec::new()).unwrap();
    write(&path, &empty, Format::Fifu).unwrap();
    assert_eq!(read(&path, None).unwrap(), empty);
    let w2v = dir.path().join("empty.txt");
    write(&w2v, &empty, Format::Word2VecText).unwrap();
    assert_eq!(std::fs::read_to_string(&w2v).unwrap(), "0 3\n");
    assert_eq!(read(&w2v, None).unwrap(), empty);
}

/// finalfusion itself sees unit vectors and the norms, as its readers and tools expect.
#[test]
fn fifu_is_readable_by_finalfusion_as_normalised_rows_and_norms() {
    use finalfusion::io::ReadEmbeddings;
    use finalfusion::storage::NdArray;
    use finalfusion::vocab::SimpleVocab;
    let dir = tmp();
    let path = dir.path().join("emb.fifu");
    let emb = Embeddings::new(vec!["a".into(), "b".into()], 2, vec![3.0, 4.0, 0.0, -2.0]).unwrap();
    write(&path, &emb, Format::Fifu).unwrap();
    let mut reader = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
    let ff: finalfusion::embeddings::Embeddings<SimpleVocab, NdArray> =
        finalfusion::embeddings::Embeddings::read_embeddings(&mut reader).unwrap();
    let a = ff.embedding("a").unwrap();
    assert_eq!(a.as_slice().unwrap(), &[0.6, 0.8]);
    let norms = ff.norms().unwrap();
    assert_eq!(norms.as_slice().unwrap(), &[5.0, 2.0]);
    assert_eq!(
        ff.embedding_with_norm("b").unwrap().into_unnormalized().to_vec(),
        vec![0.0, -2.0]
    );
}

#[test]
fn word2vec_text_is_gensim_layout() {
    let dir = tmp();
    let emb = Embeddings::new(
        vec!["king".into(), "queen".into()],
        3,
        vec![1.0, -0.5, 0.25, 0.1, 2.0, -3.0],
    )
    .unwrap();
    let path = dir.path().join("w2v.txt");
    write(&path, &emb, Format::Word2VecText).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "2 3\nking 1 -0.5 0.25\nqueen 0.1 2 -3\n"
    );
    let glove = dir.path().join("glove.txt");
    write(&glove, &emb, Format::GloveText).unwrap();
    assert_eq!(
        std::fs::read_to_string(&glove).unwrap(),
        "king 1 -0.5 0.25\nqueen 0.1 2 -3\n"
    );
}

#[test]
fn word2vec_binary_is_word2vec_c_layout() {
    let dir = tmp();
    let emb = Embeddings::new(vec!["king".into(), "ü".into()], 2, vec![1.0, -0.5, 0.25, 2.0]).unwrap();
    let path = dir.path().join("w2v.bin");
    write(&path, &emb, Format::Word2VecBinary).unwrap();
    let mut expected = b"2 2\nking ".to_vec();
    for v in [1.0f32, -0.5] {
        expected.extend(v.to_le_bytes());
    }
    expected.extend("\nü ".as_bytes());
    for v in [0.25f32, 2.0] {
        expected.extend(v.to_le_bytes());
    }
    expected.push(b'\n');
    assert_eq!(std::fs::read(&path).unwrap(), expected);
}

/// gensim's `save_word2vec_format(binary=True)` writes no `\n` after a vector.
#[test]
fn word2vec_binary_without_newlines_as_gensim_writes_it() {
    let dir = tmp();
    let mut bytes = b"2 2\nking ".to_vec();
    for v in [1.0f32, -0.5] {
        bytes.extend(v.to_le_bytes());
    }
    bytes.extend(b"queen ");
    // A value whose first byte is `\n` (0x0a) must not be taken for a separator.
    let tricky = f32::from_le_bytes([0x0a, 0, 0x80, 0x3f]);
    for v in [tricky, 2.0] {
        bytes.extend(v.to_le_bytes());
    }
    let path = write_bytes(dir.path(), "gensim.bin", &bytes);
    assert_eq!(detect_format(&path).unwrap(), Format::Word2VecBinary);
    let emb = read(&path, None).unwrap();
    assert_eq!(emb.words(), ["king", "queen"]);
    assert_eq!(emb.row(1), &[tricky, 2.0]);
}

#[test]
fn text_readers_accept_word2vec_c_trailing_spaces_and_crlf() {
    let dir = tmp();
    let path = write_bytes(dir.path(), "w2v.txt", b"2 2\r\n</s> 0.5 0.25 \r\nthe -1 2 \n\n");
    let emb = read(&path, None).unwrap();
    assert_eq!(emb.words(), ["</s>", "the"]);
    assert_eq!(emb.vectors(), &[0.5, 0.25, -1.0, 2.0]);
}

#[test]
fn detection_of_every_format() {
    let dir = tmp();
    let emb = fifu_sample();
    for format in Format::ALL {
        let path = dir.path().join(format!("emb-{format}"));
        write(&path, &emb, format).unwrap();
        assert_eq!(detect_format(&path).unwrap(), format);
    }
    let garbage = write_bytes(dir.path(), "garbage", b"hello world\n");
    assert_eq!(
        detect_format(&garbage).unwrap_err().to_string(),
        format!(
            "{}: cannot tell the embedding format: the first line is neither a word2vec header \
             `<n_words> <dim>` nor a GloVe line `<word> <numbers…>`; pass the format explicitly \
             (`--format`, for `embeddings export` `--input-format`)",
            garbage.display()
        )
    );
    let empty = write_bytes(dir.path(), "empty", b"");
    assert_eq!(
        detect_format(&empty).unwrap_err().to_string(),
        format!(
            "{}: cannot tell the embedding format: the file is empty; pass the format explicitly \
             (`--format`, for `embeddings export` `--input-format`)",
            empty.display()
        )
    );
}

#[test]
fn format_names() {
    assert_names_round_trip(
        &Format::ALL,
        Format::as_str,
        "word2vec",
        "unknown embedding format `word2vec`: expected one of fifu, word2vec-text, word2vec-binary, glove-text",
    );
}

#[test]
fn malformed_text_lines_name_file_line_and_expectation() {
    let dir = tmp();
    let cases: [(&str, Format, &str); 9] = [
        (
            "2 3\nthe 1 2 3\nof 1 2\n",
            Format::Word2VecText,
            "3: expected the word followed by 3 values (the header's dimension), found `of` followed by 2",
        ),
        (
            "2 3\nthe 1 2 3\nof 1 x 3\n",
            Format::Word2VecText,
            "3: value 2 of word `of` is `x`, not a number",
        ),
        (
            "two 3\nthe 1 2 3\n",
            Format::Word2VecText,
            "1: expected the word2vec header `<n_words> <dim>` (two integers, 0 < dim ≤ 1048576), found `two 3` \
             (read as word2vec-text, as asked; its content looks like glove-text)",
        ),
        (
            "3 2\nthe 1 2\nof 3 4\n",
            Format::Word2VecText,
            "3: the header announces 3 words, but the file ends after 2",
        ),
        (
            "1 2\nthe 1 2\nof 3 4\n",
            Format::Word2VecText,
            "3: the header announces 1 word, but the file has more lines",
        ),
        (
            "the 1 2\nof 3 4 5\n",
            Format::GloveText,
            "2: expected the word followed by 2 values (as on the first line), found `of` followed by 3",
        ),
        (
            "the 1 2\nof 3 4\nthe 5 6\n",
            Format::GloveText,
            "3: duplicate word `the` (first on line 1): every word must be unique",
        ),
        (
            "the 1 NaN\n",
            Format::GloveText,
            "1: value 2 of word `the` is NaN: values must be finite",
        ),
        (
            "",
            Format::GloveText,
            "1: the file is empty; expected at least one line `<word> <values…>`",
        ),
    ];
    for (i, (content, format, expected)) in cases.into_iter().enumerate() {
        let path = write_bytes(dir.path(), &format!("case{i}.txt"), content.as_bytes());
        assert_eq!(
            error_text(read(&path, Some(format))),
            format!("{}:{expected}", path.display())
        );
    }
    // Latin-1 text: its records are not UTF-8 text, which detection takes for binary records.
    let path = write_bytes(dir.path(), "latin1.txt", b"1 1\ncaf\xe9 1\n");
    assert_eq!(
        error_text(read(&path, Some(Format::Word2VecText))),
        format!(
            "{}:2: line is not valid UTF-8 (invalid utf-8 sequence of 1 bytes from index 3) (read as \
             word2vec-text, as asked; its content looks like word2vec-binary)",
            path.display()
        )
    );
}

#[test]
fn malformed_binary_records_name_file_record_and_offset() {
    let dir = tmp();
    let mut bytes = b"2 2\nking ".to_vec();
    bytes.extend(1.0f32.to_le_bytes());
    bytes.extend(2.0f32.to_le_bytes());
    bytes.extend(b"\nqueen ");
    bytes.extend(1.0f32.to_le_bytes());
    let path = write_bytes(dir.path(), "truncated.bin", &bytes);
    assert_eq!(
        error_text(read(&path, Some(Format::Word2VecBinary))),
        format!(
            "{}: word 2 (byte offset 18): unexpected end of file inside the 2 little-endian f32 values of `queen`",
            path.display()
        )
    );
    let mut bytes = b"1 1\nking ".to_vec();
    bytes.extend(1.0f32.to_le_bytes());
    bytes.extend(b"\nextra");
    let path = write_bytes(dir.path(), "extra.bin", &bytes);
    assert_eq!(
        error_text(read(&path, Some(Format::Word2VecBinary))),
        format!(
            "{}: word 2 (byte offset 14): unexpected data after the 1 words the header announces",
            path.display()
        )
    );
}

#[test]
fn duplicate_words_are_errors_never_panics() {
    let err = Embeddings::new(vec!["a".into(), "b".into(), "a".into()], 1, vec![1.0, 2.0, 3.0]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "duplicate word `a` at rows 0 and 2: every word must be unique"
    );

    let dir = tmp();
    let mut bytes = b"2 1\nsame ".to_vec();
    bytes.extend(1.0f32.to_le_bytes());
    bytes.extend(b"\nsame ");
    bytes.extend(2.0f32.to_le_bytes());
    let path = write_bytes(dir.path(), "dup.bin", &bytes);
    assert_eq!(
        error_text(read(&path, None)),
        format!(
            "{}: duplicate word `same` at rows 0 and 1: every word must be unique",
            path.display()
        )
    );

    // A .fifu with a duplicate word (finalfusion's SimpleVocab would panic): write `ab`, `cd`,
    // then patch the second word into the first.
    let path = dir.path().join("dup.fifu");
    let emb = Embeddings::new(vec!["ab".into(), "cd".into()], 1, vec![1.0, 2.0]).unwrap();
    write(&path, &emb, Format::Fifu).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.windows(2).position(|w| w == b"cd").unwrap();
    bytes[at..at + 2].copy_from_slice(b"ab");
    std::fs::write(&path, bytes).unwrap();
    assert_eq!(
        error_text(read(&path, None)),
        format!(
            "{}: duplicate word `ab` in the vocabulary (rows 0 and 1): every word must be unique",
            path.display()
        )
    );
}

#[test]
fn truncated_fifu_is_an_error() {
    let dir = tmp();
    let path = dir.path().join("emb.fifu");
    write(&path, &fifu_sample(), Format::Fifu).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let message = error_text(read(&path, None));
    assert!(
        message.starts_with(&format!("{}: truncated file: the NdNorms chunk", path.display())),
        "{message}"
    );
}

#[test]
fn invalid_embeddings_are_rejected() {
    let cases: [(Vec<String>, usize, Vec<f32>, &str); 5] = [
        (
            vec!["a b".into()],
            1,
            vec![1.0],
            "word at row 0 (\"a b\") contains ASCII whitespace, which no embedding text format can represent",
        ),
        (vec!["".into()], 1, vec![1.0], "word at row 0 (\"\") is empty"),
        (
            vec!["a".into()],
            2,
            vec![1.0],
            "embedding matrix has 1 values, but 1 words × 2 dimensions need 2",
        ),
        (
            vec!["a".into()],
            0,
            vec![],
            "embedding dimension is 0: a word vector needs at least one value",
        ),
        (
            vec!["a".into()],
            2,
            vec![1.0, f32::INFINITY],
            "word `a` (row 0) has the non-finite value inf in dimension 1",
        ),
    ];
    for (words, dim, vectors, expected) in cases {
        assert_eq!(
            Embeddings::new(words, dim, vectors).unwrap_err().to_string(),
            expected
        );
    }
}

#[test]
fn lookup_and_accessors() {
    let emb = sample();
    assert_eq!(emb.n_words(), 6);
    assert_eq!(emb.index("naïve"), Some(1));
    assert_eq!(emb.index("Naïve"), None, "lookup is case-sensitive");
    assert_eq!(emb.get("zero"), Some(&[0.0f32; 4][..]));
    assert_eq!(emb.word(5), "</s>");
    assert_eq!(emb.norms()[3], 0.0);
    assert_eq!(emb.norms()[0], (0.01f64 + 0.04 + 0.09 + 1.0).sqrt() as f32);
}

#[test]
fn write_is_atomic_and_replaces_existing_files() {
    let dir = tmp();
    let path = dir.path().join("emb.txt");
    std::fs::write(&path, "old content").unwrap();
    write(&path, &sample(), Format::Word2VecText).unwrap();
    assert_eq!(read(&path, None).unwrap(), sample());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["emb.txt"], "no temporary file is left behind");
    let missing = dir.path().join("no-such-folder").join("emb.txt");
    let err = write(&missing, &sample(), Format::Word2VecText).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&dir.path().join("no-such-folder").display().to_string()),
        "{err}"
    );
}

#[test]
fn describe_shows_shape_and_metadata() {
    let emb = Embeddings::new(vec!["a".into(), "b".into()], 2, vec![0.0; 4])
        .unwrap()
        .with_metadata(Some(toml::toml! { seed = 3 [training] algorithm = "sgns" }));
    assert_eq!(
        describe(&emb),
        "vocabulary: 2 words\ndimension: 2\nfirst words: a b\nmetadata:\n  seed = 3\n\n  [training]\n  algorithm = \"sgns\"\n"
    );
}

#[test]
fn a_write_removes_what_a_killed_write_of_the_same_file_left() {
    let dir = tmp();
    let stale = write_bytes(dir.path(), ".seed-00.fifu.aB3xYz.tmp", b"half a file");
    let kept = [
        write_bytes(dir.path(), ".seed-01.fifu.aB3xYz.tmp", b"another file's"),
        write_bytes(
            dir.path(),
            ".seed-00.fifu.user-notes.tmp",
            b"not a temporary of ours",
        ),
        write_bytes(dir.path(), ".seed-00.fifu.tmp", b"nor this"),
    ];
    let path = dir.path().join("seed-00.fifu");
    write(&path, &fifu_sample(), Format::Fifu).unwrap();
    assert!(!stale.exists(), "the stale temporary is gone");
    for other in &kept {
        assert!(other.exists(), "{} is not touched", other.display());
    }
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
}

#[test]
fn a_file_name_names_its_formats() {
    let of = |name: &str| Format::by_extension(Path::new(name));
    assert_eq!(of("seed-00.fifu"), [Format::Fifu]);
    assert_eq!(of("GoogleNews.bin"), [Format::Word2VecBinary]);
    assert_eq!(of("wiki.en.vec"), [Format::Word2VecText]);
    assert_eq!(of("glove.6B.50d.txt"), [Format::Word2VecText, Format::GloveText]);
    assert_eq!(of("vectors.npy"), []);
    assert_eq!(of("vectors"), []);
    for format in Format::ALL {
        for extension in format.extensions() {
            assert!(
                of(&format!("x.{extension}")).contains(&format),
                "{format}: .{extension}"
            );
        }
    }
}

#[test]
fn shape_reads_words_and_dimension_from_the_header_of_every_format() {
    let dir = tmp();
    let emb = fifu_sample();
    for format in Format::ALL {
        let path = dir.path().join(format!("emb.{format}"));
        write(&path, &emb, format).unwrap();
        assert_eq!(shape(&path, Some(format)).unwrap(), (5, 4), "{format}");
        assert_eq!(shape(&path, None).unwrap(), (5, 4), "{format}: detection");
    }
    // A header alone gives the shape; a file without one says which it lacks.
    let header_only = write_bytes(dir.path(), "h.txt", b"1000 300\n");
    assert_eq!(
        shape(&header_only, Some(Format::Word2VecText)).unwrap(),
        (1000, 300)
    );
    let glove = write_bytes(dir.path(), "g.txt", b"a 1 2\nb 3 4\n\nc 5 6\n");
    assert_eq!(shape(&glove, Some(Format::GloveText)).unwrap(), (3, 2));
    let error = shape(&glove, Some(Format::Word2VecText)).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "{}:1: expected the word2vec header `<n_words> <dim>` (0 < dim ≤ 1048576)",
            glove.display()
        )
    );
}
