//! Unit tests that need crate internals: the SIMD paths and the prefetch distances against each
//! other.

use retest_rng::SeedPath;
use retest_test_support::corpus_from_text;

use retest_tune::Warmup;

use crate::train::train_tuned;
use crate::{CooccurConfig, GloveConfig, Prefetch, SimdPath, Speed, count_cooccurrences, train_with};

fn small_cooc() -> crate::Cooccurrences {
    let text = "a b c d e f a b c a b a\nb c d e f g h b c d\nh g f e d c b a\na a b b c c d d e e\n";
    let corpus = corpus_from_text(text, 1);
    let dir = tempfile::tempdir().unwrap();
    count_cooccurrences(
        &corpus.view(),
        &CooccurConfig {
            window: 4,
            memory_bytes: 1 << 16,
        },
        dir.path(),
        &mut |_| {},
    )
    .unwrap()
}

#[test]
fn every_simd_path_gives_the_same_bits() {
    let cooc = small_cooc();
    // 37 is not a multiple of the 16-lane block: the padding must stay inert.
    let config = GloveConfig {
        dim: 37,
        x_max: 2.0,
        alpha: 0.75,
        eta: 0.05,
        iterations: 5,
    };
    let seed = SeedPath::new(3).with("glove");
    let runs: Vec<_> = SimdPath::available()
        .into_iter()
        .map(|isa| {
            (
                isa,
                train_with(
                    &cooc,
                    cooc.vocab_size(),
                    &config,
                    &seed,
                    &mut |_| {},
                    Speed::on(isa),
                )
                .unwrap(),
            )
        })
        .collect();
    assert!(
        runs.len() >= 2,
        "this test needs a CPU with at least AVX2 to compare two paths"
    );
    for (isa, run) in &runs[1..] {
        let same = run
            .vectors
            .iter()
            .zip(&runs[0].1.vectors)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same, "{isa:?} differs from the portable path");
        assert_eq!(run.cost_per_iteration, runs[0].1.cost_per_iteration);
    }
}

#[test]
fn every_prefetch_distance_and_the_warm_up_give_the_same_bits() {
    let cooc = small_cooc();
    let config = GloveConfig {
        dim: 20,
        x_max: 2.0,
        alpha: 0.75,
        eta: 0.05,
        iterations: 3,
    };
    let seed = SeedPath::new(5).with("glove");
    let path = SimdPath::detect();
    let run = |prefetch| {
        train_tuned(
            &cooc,
            cooc.vocab_size(),
            &config,
            &seed,
            &mut |_| {},
            path,
            prefetch,
        )
        .unwrap()
    };
    // Chunks of 5 records cut the table (not a multiple of 5 records) across iterations' ends.
    assert_ne!(cooc.len() % 5, 0, "{} records", cooc.len());
    let warmed = run(Warmup::new(&Prefetch::CANDIDATES, 2, 5));
    assert!(
        warmed.prefetch.chosen.is_some(),
        "the warm-up finished: {}",
        warmed.prefetch
    );
    assert_eq!(warmed.prefetch.ns_per_unit.len(), Prefetch::CANDIDATES.len());
    for fixed in Prefetch::CANDIDATES {
        let r = run(Warmup::fixed(fixed));
        let same = r
            .vectors
            .iter()
            .zip(&warmed.vectors)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same, "prefetch {fixed} differs from the warmed-up run");
        let bits = |c: &[f64]| c.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&r.cost_per_iteration),
            bits(&warmed.cost_per_iteration),
            "{fixed}"
        );
        assert_eq!(r.prefetch.chosen, None);
    }
}
