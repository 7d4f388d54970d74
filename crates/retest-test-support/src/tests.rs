//! The mirror lookup's messages, the random data's laws and the embeddings builder.

use super::*;

fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let payload = std::panic::catch_unwind(f).unwrap_err();
    payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_else(|| payload.downcast_ref::<&str>().unwrap().to_string())
}

#[test]
fn a_folder_without_a_manifest_is_not_a_mirror() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_owned();
    let message = panic_message(move || {
        mirror_at(Some(path));
    });
    assert_eq!(
        message,
        format!(
            "data mirror not found: {} has no MANIFEST.md; set RETEST_DATA_DIR to the mirror \
             folder (shared/data)",
            dir.path().display()
        )
    );
}

#[test]
fn a_missing_file_names_the_file_the_mirror_and_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("MANIFEST.md"), "").unwrap();
    std::fs::create_dir(dir.path().join("wikitext-103")).unwrap();
    std::fs::write(dir.path().join("wikitext-103/wiki.valid.tokens"), "a b\n").unwrap();
    let mirror = mirror_at(Some(dir.path().to_owned()));
    assert_eq!(
        file_in(&mirror, "wikitext-103/wiki.valid.tokens"),
        dir.path().join("wikitext-103/wiki.valid.tokens")
    );
    let message = panic_message(|| {
        file_in(&mirror, "wikitext-103/wiki.test.tokens");
    });
    assert_eq!(
        message,
        format!(
            "wikitext-103/wiki.test.tokens is missing from the data mirror {} (see its \
             MANIFEST.md; set RETEST_DATA_DIR to another mirror if needed)",
            dir.path().display()
        )
    );
}

#[test]
fn the_workspace_holds_the_corpus_recipes() {
    assert!(workspace_dir().join("corpora").is_dir());
    assert!(workspace_dir().join("Cargo.toml").is_file());
}

#[test]
fn gaussian_values_are_reproducible_per_label_and_seed() {
    let a = RandomData::new("a");
    assert_eq!(a.gaussian(5, 3, 1), a.gaussian(5, 3, 1));
    assert_ne!(a.gaussian(5, 3, 1), a.gaussian(5, 3, 2));
    assert_ne!(a.gaussian(5, 3, 1), RandomData::new("b").gaussian(5, 3, 1));
    let many = a.gaussian(20_001, 1, 3);
    assert_eq!(many.len(), 20_001);
    let mean = many.iter().map(|&x| f64::from(x)).sum::<f64>() / many.len() as f64;
    let var = many.iter().map(|&x| (f64::from(x) - mean).powi(2)).sum::<f64>() / many.len() as f64;
    assert!(
        mean.abs() < 0.03 && (var - 1.0).abs() < 0.05,
        "mean {mean}, var {var}"
    );
}

#[test]
fn random_orthogonal_matrices_are_orthogonal_and_rotate_preserves_norms() {
    let dim = 6;
    let q = RandomData::new("t").random_orthogonal(dim, 4);
    for i in 0..dim {
        for j in 0..dim {
            let d: f64 = (0..dim).map(|c| q[i * dim + c] * q[j * dim + c]).sum();
            let want = if i == j { 1.0 } else { 0.0 };
            assert!((d - want).abs() < 1e-12, "({i}, {j}): {d}");
        }
    }
    let x = [3.0f32, 4.0, 0.0, 0.0, 0.0, 12.0];
    let y = rotate(&x, &q, dim);
    let norm = y.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
    assert!((norm - 13.0).abs() < 1e-5, "{norm}");
}

#[test]
fn embeddings_from_rows() {
    let emb = embeddings(&[("he", [1.0, 0.0]), ("she", [0.0, 2.0])]);
    let (words, dim, vectors, _) = emb.into_parts();
    assert_eq!(words, ["he", "she"]);
    assert_eq!(dim, 2);
    assert_eq!(vectors, [1.0, 0.0, 0.0, 2.0]);
}

#[test]
fn duplicate_words_are_refused_with_embeddings_message() {
    let message = panic_message(|| {
        embeddings(&[("a", [1.0]), ("a", [2.0])]);
    });
    let expected = Embeddings::new(vec!["a".into(), "a".into()], 1, vec![1.0, 2.0])
        .unwrap_err()
        .to_string();
    assert_eq!(message, format!("test embeddings: {expected}"));
}
