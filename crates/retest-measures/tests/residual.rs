//! Gonen & Goldberg's residual-bias tests against scikit-learn, numpy and scipy as their code uses
//! them (`data/residual_reference.py`): on a small model whose words carry a gender trace that
//! he − she misses, the candidate words and their bias equal the reference's; on the model with
//! its he − she component removed (the labels staying the original's), 2-means accuracy is
//! within 0.01 of scikit-learn's over ten random states, the SVM's accuracy on the same training
//! words within 0.01 of `SVC`'s, and the neighbour shares and their correlation equal.

use std::collections::BTreeSet;

use retest_measures::{
    Model, ResidualOptions, ResidualWords, most_biased, projection_bias, residual_bias, residual_word,
    svm_accuracy, two_means_accuracy,
};
use retest_rng::SeedPath;
use retest_test_support::{data_file, workspace_dir};

const REFERENCE: &str = include_str!("data/residual_reference.txt");

/// A line of the fixture: its fields after the key.
fn line(key: &str) -> Vec<&'static str> {
    let text = (REFERENCE.lines())
        .find_map(|l| l.strip_prefix(&format!("{key} ")))
        .unwrap_or_else(|| panic!("no line {key}"));
    text.split(' ').collect()
}

fn floats(key: &str) -> Vec<f64> {
    line(key).iter().map(|x| x.parse().unwrap()).collect()
}

fn lipstick(name: &str) -> Vec<String> {
    let text =
        std::fs::read_to_string(data_file(&format!("word_lists/gender_bias_lipstick/{name}"))).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Unit rows less their component along the unit `d`, normalised again.
fn without(raw: &[f32], dim: usize, d: &[f64]) -> Vec<f32> {
    let mut out = Vec::with_capacity(raw.len());
    for row in raw.chunks_exact(dim) {
        let row: Vec<f64> = row.iter().map(|&x| f64::from(x)).collect();
        let norm = row.iter().map(|x| x * x).sum::<f64>().sqrt();
        let unit: Vec<f64> = row.iter().map(|x| x / norm).collect();
        let along: f64 = unit.iter().zip(d).map(|(a, b)| a * b).sum();
        let dropped: Vec<f64> = unit.iter().zip(d).map(|(a, b)| a - along * b).collect();
        let norm = dropped.iter().map(|x| x * x).sum::<f64>().sqrt();
        out.extend(dropped.iter().map(|x| (x / norm) as f32));
    }
    out
}

#[test]
fn the_residual_tests_equal_scikit_learn() {
    let path = workspace_dir().join("crates/retest-measures/tests/data/residual_model.bin");
    let emb = retest_embeddings::read(&path, None).unwrap();
    let (words, dim) = (emb.words(), emb.dim());
    let model = Model::new(words, emb.vectors(), dim).unwrap();
    let sizes: Vec<usize> = line("sizes").iter().map(|x| x.parse().unwrap()).collect();
    let [limit, clustered, classified, trained, neighbours] = sizes[..] else {
        panic!("five sizes")
    };

    let specific: BTreeSet<String> = lipstick("male_word_file.txt")
        .into_iter()
        .chain(lipstick("female_word_file.txt"))
        .collect();
    let candidates: Vec<u32> = (0..limit.min(words.len()) as u32)
        .filter(|&id| residual_word(&words[id as usize]) && !specific.contains(&words[id as usize]))
        .collect();
    let names: Vec<&str> = candidates.iter().map(|&id| words[id as usize].as_str()).collect();
    assert_eq!(names, line("candidates"));
    let id = |w: &str| model.vocab().id(w).unwrap();
    let bias = projection_bias(&model, &candidates, id("he"), id("she")).unwrap();
    for (got, want) in bias.iter().zip(floats("bias")) {
        assert!((got - want).abs() < 1e-9, "bias {got} against {want}");
    }

    // The model tested: without its he − she component.
    let he_she: Vec<f64> = (model.raw_row(id("he")).iter().zip(model.raw_row(id("she"))))
        .map(|(a, b)| f64::from(*a) - f64::from(*b))
        .collect();
    let norm = he_she.iter().map(|x| x * x).sum::<f64>().sqrt();
    let d: Vec<f64> = he_she.iter().map(|x| x / norm).collect();
    let debiased = without(emb.vectors(), dim, &d);
    let tested = Model::new(words, &debiased, dim).unwrap();
    let unit = |ids: &[u32]| -> Vec<Vec<f64>> {
        ids.iter()
            .map(|&w| {
                tested.unit()[w as usize * dim..][..dim]
                    .iter()
                    .map(|&x| f64::from(x))
                    .collect()
            })
            .collect()
    };

    let sklearn = floats("cluster_accuracy");
    let (low, high) = sklearn
        .iter()
        .fold((1.0f64, 0.0f64), |(l, h), &a| (l.min(a), h.max(a)));
    let (masculine, feminine) = most_biased(&candidates, &bias, clustered);
    let points: Vec<Vec<f64>> = unit(&masculine).into_iter().chain(unit(&feminine)).collect();
    let labels: Vec<bool> = (0..points.len()).map(|i| i < masculine.len()).collect();
    for seed in 0..5 {
        let mut rng = SeedPath::new(seed).stream("kmeans");
        let accuracy = two_means_accuracy(&points, &labels, 10, &mut rng);
        assert!(
            (low - 0.01..=high + 0.01).contains(&accuracy),
            "2-means accuracy {accuracy} against scikit-learn's {low}–{high}"
        );
    }

    // The SVM on the reference's training words, tested on the rest.
    let (masculine, feminine) = most_biased(&candidates, &bias, classified);
    let train = |key: &str| -> Vec<u32> { line(key).iter().map(|w| id(w)).collect() };
    let (train_m, train_f) = (train("train_masculine"), train("train_feminine"));
    assert_eq!((train_m.len(), train_f.len()), (trained, trained));
    let rest = |set: &[u32], train: &[u32]| -> Vec<u32> {
        set.iter().copied().filter(|w| !train.contains(w)).collect()
    };
    let (test_m, test_f) = (rest(&masculine, &train_m), rest(&feminine, &train_f));
    let (accuracy, n_tested) = svm_accuracy(
        (&unit(&train_m), &unit(&train_f)),
        (&unit(&test_m), &unit(&test_f)),
    );
    assert_eq!(n_tested, classified - trained);
    let want = floats("svm_accuracy")[0];
    assert!(
        (accuracy - want).abs() <= 0.01,
        "SVM accuracy {accuracy} against SVC's {want}"
    );

    // Every test at once, the classifier's training words drawn from a seed of retest's.
    let targets: Vec<u32> = line("targets").iter().map(|w| id(w)).collect();
    let seed = SeedPath::new(1);
    let options = ResidualOptions {
        clustered,
        classified,
        trained,
        neighbours,
        seed: &seed,
    };
    let words = ResidualWords {
        candidates: &candidates,
        bias: &bias,
        targets: &targets,
    };
    let out = residual_bias(&tested, &words, &options).unwrap();
    assert_eq!(
        (out.n_clustered, out.n_trained, out.n_tested),
        (clustered, trained, classified - trained)
    );
    assert!((low - 0.01..=high + 0.01).contains(&out.cluster_accuracy));
    assert!((0.5..=1.0).contains(&out.svm_accuracy));
    let shares: Vec<f64> = out.neighbours.iter().map(|n| n.masculine_share).collect();
    assert_eq!(shares, floats("shares"));
    let [r, p] = floats("neighbour_r")[..] else {
        panic!("r and p")
    };
    assert!((out.neighbour_correlation.value - r).abs() < 1e-9);
    assert!((out.neighbour_correlation.p_value - p).abs() < 1e-9);
    assert_eq!(
        out,
        residual_bias(&tested, &words, &options).unwrap(),
        "the same seed, the same result"
    );
}
