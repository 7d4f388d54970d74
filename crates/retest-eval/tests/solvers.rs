//! The analogy solvers and the pair generator against independent computations: gensim's
//! `most_similar` / `most_similar_cosmul` on a small real embedding (fixture written by
//! `tests/data/analogy_reference.py`), a brute-force f64 score vector for every solver and both
//! constraints, Bolukbasi's two readings of δ, pair generation against a brute-force double loop,
//! and today's 3CosAdd accuracy reproduced on the same embedding.
//!
//! The embedding `tests/data/analogy_wt103_3000.w2v.txt` was made with
//!
//! ```text
//! retest sgns --input $RETEST_DATA_DIR/wikitext-103/wiki.valid.tokens --output /tmp/wt103.fifu \
//!     --dim 50 --epochs 10 --min-count 5
//! retest embeddings export /tmp/wt103.fifu --format word2vec-text --output /tmp/wt103.w2v.txt
//! ```
//!
//! and cut to its first (most frequent) 3,000 rows, the header changed to `3000 50`.

use std::path::PathBuf;

use retest_embeddings::Embeddings;
use retest_eval::{EvalOptions, evaluate_analogies_with, google_accuracy, read_analogies};
use retest_measures::{
    AnalogySpace, Answer, Constraint, DeltaBound, GeneratedPair, PairOptions, Query, SolveError, Solver,
    generate_pairs, rank_among, score_all, score_all_among, solve, solve_among,
};
use retest_test_support::{RandomData, data_file, embeddings};
use rustc_hash::FxHashMap;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn small_model() -> Embeddings {
    retest_embeddings::read(&data("analogy_wt103_3000.w2v.txt"), None).unwrap()
}

const COSMUL: Solver = Solver::CosMul {
    epsilon: Solver::COSMUL_EPSILON,
};
const BOLUKBASI: Solver = Solver::Bolukbasi {
    delta: Solver::BOLUKBASI_DELTA,
    bound: DeltaBound::Distance,
};

fn row_of(emb: &Embeddings) -> FxHashMap<&str, u32> {
    emb.words()
        .iter()
        .enumerate()
        .map(|(i, w)| (w.as_str(), i as u32))
        .collect()
}

fn dot(x: &[f64], y: &[f32]) -> f64 {
    x.iter().zip(y).map(|(&a, &b)| a * f64::from(b)).sum()
}

fn to_f64(x: &[f32]) -> Vec<f64> {
    x.iter().map(|&v| f64::from(v)).collect()
}

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

#[test]
fn constrained_top_ten_equals_gensims_most_similar_and_most_similar_cosmul() {
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string(data("analogy_reference.json")).unwrap()).unwrap();
    let emb = small_model();
    assert_eq!(emb.n_words(), fixture["n_words"].as_u64().unwrap() as usize);
    let rows = row_of(&emb);
    let space = AnalogySpace::new(&emb, None).unwrap();
    let fixture_queries = fixture["queries"].as_array().unwrap();
    assert!(fixture_queries.len() >= 300, "{}", fixture_queries.len());
    let queries: Vec<Query> = fixture_queries
        .iter()
        .map(|q| Query {
            a: rows[q["a"].as_str().unwrap()],
            b: rows[q["b"].as_str().unwrap()],
            c: rows[q["c"].as_str().unwrap()],
        })
        .collect();
    let add = solve(&space, &queries, Solver::CosAdd, Constraint::Constrained, 10).unwrap();
    let mul = solve(&space, &queries, COSMUL, Constraint::Constrained, 10).unwrap();
    let mut max_diff = 0.0f64;
    for (((fq, q), add), mul) in fixture_queries.iter().zip(&queries).zip(&add).zip(&mul) {
        // gensim's most_similar scores against the unit vector of b̂ + ĉ − â.
        let [a, b, c] = [q.a, q.b, q.c].map(|r| to_f64(space.row(r)));
        let sum: Vec<f64> = (0..space.dim()).map(|j| b[j] + c[j] - a[j]).collect();
        let scale = norm(&sum);
        for (name, ours, theirs, scale) in [
            ("cosadd", add, &fq["cosadd"], scale),
            ("cosmul", mul, &fq["cosmul"], 1.0),
        ] {
            let theirs: Vec<(&str, f64)> = theirs
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p[0].as_str().unwrap(), p[1].as_f64().unwrap()))
                .collect();
            let words: Vec<&str> = ours.iter().map(|a| emb.word(a.row as usize)).collect();
            let expected: Vec<&str> = theirs.iter().map(|p| p.0).collect();
            assert_eq!(words, expected, "{name} {fq}");
            for (answer, (_, score)) in ours.iter().zip(&theirs) {
                let diff = (answer.score / scale - score).abs();
                max_diff = max_diff.max(diff);
                assert!(diff < 1e-5, "{name} {fq}: {} vs {score}", answer.score / scale);
            }
        }
    }
    assert!(max_diff > 0.0 && max_diff < 1e-5, "{max_diff}");
}

/// The unshifted 3CosMul of Nissim et al.'s Eq. 2 against a numpy transcription in f64
/// (`tests/data/cosmul_unshifted_reference.py`): the top ten of every fixture query, constrained
/// and unconstrained. Its quotient magnifies the f32 GEMM's error where cos(D, A) is near −ε,
/// so scores are compared relative to their size, and an answer may trade places with one
/// whose score is within that tolerance.
#[test]
fn unshifted_cosmul_equals_a_numpy_transcription_of_nissims_equation() {
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string(data("cosmul_unshifted_reference.json")).unwrap())
            .unwrap();
    let emb = small_model();
    let rows = row_of(&emb);
    let space = AnalogySpace::new(&emb, None).unwrap();
    let fixture_queries = fixture["queries"].as_array().unwrap();
    assert!(fixture_queries.len() >= 300, "{}", fixture_queries.len());
    let queries: Vec<Query> = (fixture_queries.iter())
        .map(|q| Query {
            a: rows[q["a"].as_str().unwrap()],
            b: rows[q["b"].as_str().unwrap()],
            c: rows[q["c"].as_str().unwrap()],
        })
        .collect();
    let solver = Solver::CosMulUnshifted {
        epsilon: fixture["epsilon"].as_f64().unwrap(),
    };
    let (mut compared, mut swapped, mut max_rel) = (0, 0, 0.0f64);
    for constraint in Constraint::BOTH {
        let answers = solve(&space, &queries, solver, constraint, 10).unwrap();
        for (fq, ours) in fixture_queries.iter().zip(&answers) {
            let theirs: Vec<(&str, f64)> = (fq[constraint.as_str()].as_array().unwrap().iter())
                .map(|p| (p[0].as_str().unwrap(), p[1].as_f64().unwrap()))
                .collect();
            assert_eq!(ours.len(), theirs.len());
            for (k, (answer, &(word, score))) in ours.iter().zip(&theirs).enumerate() {
                let tol = 1e-4 * score.abs().max(1.0);
                let rel = (answer.score - score).abs() / score.abs().max(1.0);
                max_rel = max_rel.max(rel);
                let what = format!("{} {} rank {k}", fq["a"], constraint.as_str());
                assert!(rel < 1e-4, "{what}: {} vs {score}", answer.score);
                if emb.word(answer.row as usize) != word {
                    let near = theirs
                        .iter()
                        .any(|&(w, s)| w == emb.word(answer.row as usize) && (s - score).abs() < tol);
                    assert!(
                        near,
                        "{what}: {} instead of {word}",
                        emb.word(answer.row as usize)
                    );
                    swapped += 1;
                }
                compared += 1;
            }
        }
    }
    assert!(
        compared >= 6000 && swapped * 100 <= compared,
        "{swapped} of {compared} swapped"
    );
    assert!(max_rel > 0.0 && max_rel < 1e-4, "{max_rel}");
}

/// Answers among the first rows only (gensim's `restrict_vocab`): the query words may lie
/// beyond them; the answers are the arg-sort of the full scores cut to those rows, and the
/// scores those of `score_all` on every row.
#[test]
fn answers_among_the_first_rows_take_query_words_from_anywhere() {
    let emb = small_model();
    let space = AnalogySpace::new(&emb, None).unwrap();
    let candidates = 1000;
    let queries: Vec<Query> = (0..40u32)
        .map(|i| Query {
            a: 2999 - i * 7,
            b: 1500 + i * 11,
            c: i * 23,
        })
        .collect();
    for solver in [
        Solver::CosAdd,
        COSMUL,
        Solver::CosMulUnshifted { epsilon: 1e-6 },
        BOLUKBASI,
    ] {
        let all = score_all(&space, &queries, solver).unwrap();
        let among = score_all_among(&space, &queries, solver, candidates).unwrap();
        for (all, among) in all.iter().zip(&among) {
            assert_eq!(among.len(), candidates);
            assert!(
                all[..candidates]
                    .iter()
                    .zip(among)
                    .all(|(x, y)| x.to_bits() == y.to_bits())
            );
        }
        for constraint in Constraint::BOTH {
            let answers = solve_among(&space, &queries, solver, constraint, 5, candidates).unwrap();
            for ((q, ours), all) in queries.iter().zip(&answers).zip(&all) {
                let expected: Vec<u32> = argsort(&all[..candidates])
                    .into_iter()
                    .filter(|r| constraint == Constraint::Unconstrained || ![q.a, q.b, q.c].contains(r))
                    .take(5)
                    .collect();
                let rows: Vec<u32> = ours.iter().map(|a| a.row).collect();
                assert_eq!(rows, expected, "{} {q:?}", solver.as_str());
            }
        }
    }
    for n in [0, 3001] {
        let error = solve_among(&space, &queries, Solver::CosAdd, Constraint::Constrained, 5, n).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("answers among {n} rows asked for, the space has 3000")
        );
    }
}

/// Every candidate's score in f64 from the unit rows, by the formulas of the documentation.
fn brute_force_scores(space: &AnalogySpace, q: &Query, solver: Solver) -> Vec<f64> {
    let [a, b, c] = [q.a, q.b, q.c].map(|r| to_f64(space.row(r)));
    (0..space.n_rows() as u32)
        .map(|r| {
            let d = space.row(r);
            let (ca, cb, cc) = (dot(&a, d), dot(&b, d), dot(&c, d));
            match solver {
                Solver::CosAdd => cb - ca + cc,
                Solver::CosMul { epsilon } => {
                    let s = |x: f64| (1.0 + x) / 2.0;
                    s(cb) * s(cc) / (s(ca) + epsilon)
                }
                Solver::CosMulUnshifted { epsilon } => cb * cc / (ca + epsilon),
                Solver::Bolukbasi { delta, bound } => {
                    let ac: Vec<f64> = (0..a.len()).map(|j| a[j] - c[j]).collect();
                    let bd: Vec<f64> = (0..a.len()).map(|j| b[j] - f64::from(d[j])).collect();
                    let dist = norm(&bd);
                    let within = match bound {
                        DeltaBound::Distance => dist <= delta,
                        DeltaBound::SquaredDistance => dist * dist <= delta,
                    };
                    if within && dist > 0.0 && norm(&ac) > 0.0 {
                        ac.iter().zip(&bd).map(|(x, y)| x * y).sum::<f64>() / (norm(&ac) * dist)
                    } else {
                        0.0
                    }
                }
            }
        })
        .collect()
}

/// Rows by descending score, ties to the lower row.
fn argsort(scores: &[f64]) -> Vec<u32> {
    let mut rows: Vec<u32> = (0..scores.len() as u32).collect();
    rows.sort_by(|&i, &j| scores[j as usize].total_cmp(&scores[i as usize]).then(i.cmp(&j)));
    rows
}

/// `ours` is `expected` up to swaps of rows whose reference scores are within `tol` (f32
/// rounding in the GEMM), and its scores are within `tol` of the reference.
fn assert_ranked(ours: &[Answer], expected: &[u32], scores: &[f64], tol: f64, what: &str) {
    assert_eq!(ours.len(), expected.len(), "{what}");
    for (k, (answer, &row)) in ours.iter().zip(expected).enumerate() {
        let reference = scores[row as usize];
        assert!(
            answer.row == row || (scores[answer.row as usize] - reference).abs() < tol,
            "{what}: rank {k}: row {} ({}) instead of {row} ({reference})",
            answer.row,
            scores[answer.row as usize]
        );
        assert!((answer.score - reference).abs() < tol, "{what}: rank {k}");
    }
}

#[test]
fn answers_are_the_arg_sort_of_the_full_score_vector() {
    let emb = small_model();
    let space = AnalogySpace::new(&emb, Some(2500)).unwrap();
    let rows = row_of(&emb);
    let mut queries: Vec<Query> = [
        ("man", "king", "woman"),
        ("man", "doctor", "woman"),
        ("he", "his", "she"),
        ("France", "Paris", "Germany"),
        ("good", "better", "bad"),
    ]
    .iter()
    .filter_map(|&(a, b, c)| {
        Some(Query {
            a: *rows.get(a)?,
            b: *rows.get(b)?,
            c: *rows.get(c)?,
        })
    })
    .collect();
    assert!(queries.len() >= 3, "{queries:?}");
    // Random queries too, and more than one block of queries.
    for i in 0..300u32 {
        queries.push(Query {
            a: (i * 7) % 2500,
            b: (i * 13 + 5) % 2500,
            c: (i * 31 + 11) % 2500,
        });
    }
    let solvers = [
        Solver::CosAdd,
        COSMUL,
        BOLUKBASI,
        Solver::Bolukbasi {
            delta: 0.9,
            bound: DeltaBound::SquaredDistance,
        },
        Solver::Bolukbasi {
            delta: 1.2,
            bound: DeltaBound::Distance,
        },
    ];
    for solver in solvers {
        let all = score_all(&space, &queries, solver).unwrap();
        for constraint in Constraint::BOTH {
            let answers = solve(&space, &queries, solver, constraint, 10).unwrap();
            for ((q, ours), all) in queries.iter().zip(&answers).zip(&all) {
                // score_all gives the very scores solve ranks, and rank_among their ranks.
                let excluded = match constraint {
                    Constraint::Constrained => vec![q.a, q.b, q.c],
                    Constraint::Unconstrained => Vec::new(),
                };
                for (k, answer) in ours.iter().enumerate() {
                    assert_eq!(all[answer.row as usize].to_bits(), answer.score.to_bits());
                    assert_eq!(rank_among(all, answer.row, &excluded), Some(k as u32 + 1));
                }
                if constraint == Constraint::Constrained {
                    assert_eq!(rank_among(all, q.b, &excluded), None);
                }
                let scores = brute_force_scores(&space, q, solver);
                let expected: Vec<u32> = argsort(&scores)
                    .into_iter()
                    .filter(|r| constraint == Constraint::Unconstrained || ![q.a, q.b, q.c].contains(r))
                    .take(10)
                    .collect();
                let what = format!("{} {} {q:?}", solver.as_str(), constraint.as_str());
                assert_ranked(ours, &expected, &scores, 1e-5, &what);
            }
        }
    }
}

/// 3,000 words of dimension 8 around 3 centres, components rounded to multiples of 1/4, so
/// that most pairs are within δ = 1 of each other. Only the first 600 words are drawn; every
/// later word repeats one of them, exactly (equal scores) or with one component moved by four
/// f32 steps (scores equal up to the last bits). The last word is zero.
fn near_ties() -> Embeddings {
    let (n, n_drawn, dim, n_centres) = (3000, 600, 8, 3);
    let data = RandomData::new("retest-eval-near-ties");
    let centres = data.gaussian(n_centres, dim, 1);
    let noise = data.gaussian(n_drawn, dim, 2);
    let mut vectors: Vec<f32> = (0..n_drawn * dim)
        .map(|k| {
            let (i, j) = (k / dim, k % dim);
            let x = 2.0 * centres[(i % n_centres) * dim + j] + 0.7 * noise[k];
            (x * 4.0).round() / 4.0
        })
        .collect();
    for i in n_drawn..n {
        let source = (i * 7919) % n_drawn;
        let mut row: Vec<f32> = vectors[source * dim..(source + 1) * dim].to_vec();
        if i % 2 == 1 {
            row[i % dim] = f32::from_bits(row[i % dim].to_bits() + 4);
        }
        vectors.extend(row);
    }
    vectors[(n - 1) * dim..].fill(0.0);
    let words = (0..n).map(|i| format!("w{i}")).collect();
    Embeddings::new(words, dim, vectors).unwrap()
}

#[test]
fn bolukbasi_top_ten_is_the_top_ten_of_every_exact_score_among_near_ties() {
    let emb = near_ties();
    let space = AnalogySpace::new(&emb, None).unwrap();
    let n = space.n_rows() as u32;
    let mut queries: Vec<Query> = (0..300u32)
        .map(|i| Query {
            a: (i * 7 + 3) % n,
            b: (i * 11 + 1) % n,
            c: (i * 13 + 2) % n,
        })
        .collect();
    // â = ĉ (every score 0), b̂ = 0, and b with exact and one-step copies.
    queries.extend([
        Query { a: 4, b: 9, c: 4 },
        Query { a: 4, b: n - 1, c: 5 },
        Query { a: 3, b: 7, c: 8 },
        Query { a: 1, b: 0, c: 2 },
    ]);
    let solvers = [
        (1.0, DeltaBound::Distance),
        (0.7, DeltaBound::Distance),
        (1.3, DeltaBound::Distance),
    ]
    .into_iter()
    .chain([
        (1.0, DeltaBound::SquaredDistance),
        (0.7, DeltaBound::SquaredDistance),
    ])
    .map(|(delta, bound)| Solver::Bolukbasi { delta, bound });
    for solver in solvers {
        let all = score_all(&space, &queries, solver).unwrap();
        // Many candidates are within δ (a non-zero score), and top lists hold ties.
        let within = all.iter().flatten().filter(|&&s| s != 0.0).count();
        assert!(within > all.len() * space.n_rows() / 4, "{solver:?}: {within}");
        let (mut ties, mut near) = (0, 0);
        for constraint in Constraint::BOTH {
            let answers = solve(&space, &queries, solver, constraint, 10).unwrap();
            for ((q, ours), all) in queries.iter().zip(&answers).zip(&all) {
                let excluded = match constraint {
                    Constraint::Constrained => vec![q.a, q.b, q.c],
                    Constraint::Unconstrained => Vec::new(),
                };
                let expected: Vec<(u32, u64)> = argsort(all)
                    .into_iter()
                    .filter(|r| !excluded.contains(r))
                    .take(10)
                    .map(|r| (r, all[r as usize].to_bits()))
                    .collect();
                let ours: Vec<(u32, u64)> = ours.iter().map(|a| (a.row, a.score.to_bits())).collect();
                assert_eq!(ours, expected, "{solver:?} {} {q:?}", constraint.as_str());
                for w in expected.windows(2) {
                    let (x, y) = (f64::from_bits(w[0].1), f64::from_bits(w[1].1));
                    ties += usize::from(x == y && x != 0.0);
                    near += usize::from(x != y && x - y < 1e-6);
                }
                for (k, &(row, _)) in ours.iter().enumerate() {
                    assert_eq!(rank_among(all, row, &excluded), Some(k as u32 + 1));
                }
            }
        }
        assert!(
            ties > 100 && near > 100,
            "{solver:?}: {ties} ties, {near} near-ties"
        );
    }
}

#[test]
fn the_two_readings_of_delta_differ_as_documented() {
    // b = (1, 0, 0); d1 at distance 0.8 (squared 0.64), d2 at distance 0.95 (squared 0.9025);
    // a − c points so that cos(a − c, b − d) > 0 for both.
    let angle = |dist: f64| 2.0 * (dist / 2.0).asin();
    let at = |dist: f64| {
        let t = angle(dist);
        [t.cos() as f32, t.sin() as f32, 0.0]
    };
    let emb = embeddings(&[
        ("b", [1.0, 0.0, 0.0]),
        ("d1", at(0.8)),
        ("d2", at(0.95)),
        ("a", [0.0, 0.0, 1.0]),
        ("c", [0.0, 1.0, 0.2]),
    ]);
    let space = AnalogySpace::new(&emb, None).unwrap();
    let q = [Query { a: 3, b: 0, c: 4 }];
    let answers = |delta, bound| {
        let solver = Solver::Bolukbasi { delta, bound };
        let top = solve(&space, &q, solver, Constraint::Constrained, 2).unwrap();
        let scores = brute_force_scores(&space, &q[0], solver);
        top[0]
            .iter()
            .map(|a| {
                assert!((a.score - scores[a.row as usize]).abs() < 1e-12);
                (a.row, a.score > 0.0)
            })
            .collect::<Vec<_>>()
    };
    // δ = 0.7: ‖b − d‖ ≤ 0.7 holds for neither; ‖b − d‖² ≤ 0.7 holds for d1 only.
    assert_eq!(answers(0.7, DeltaBound::Distance), [(1, false), (2, false)]);
    assert_eq!(answers(0.7, DeltaBound::SquaredDistance), [(1, true), (2, false)]);
    // δ = 1: the readings agree, both in.
    assert_eq!(
        answers(1.0, DeltaBound::Distance),
        answers(1.0, DeltaBound::SquaredDistance)
    );
}

#[test]
fn unconstrained_3cosadd_returns_b_where_constrained_cannot() {
    // Nissim et al.'s point: man : doctor :: woman : ? answers doctor once D = B is allowed.
    // With q = doctor + woman − man = (−0.4, 0.8, 1): doctor 1.0, nurse ≈ 0.80, woman 0.40.
    let emb = embeddings(&[
        ("man", [1.0, 0.0, 0.0]),
        ("woman", [0.6, 0.8, 0.0]),
        ("doctor", [0.0, 0.0, 1.0]),
        ("nurse", [0.5, 0.2, 0.84]),
    ]);
    let space = AnalogySpace::new(&emb, None).unwrap();
    let q = [Query { a: 0, b: 2, c: 1 }];
    let top = |constraint| -> Vec<u32> {
        solve(&space, &q, Solver::CosAdd, constraint, 1).unwrap()[0]
            .iter()
            .map(|a| a.row)
            .collect()
    };
    assert_eq!(top(Constraint::Unconstrained), [2]);
    assert_eq!(top(Constraint::Constrained), [3]);
}

#[test]
fn cosadd_constrained_reproduces_todays_google_accuracy() {
    let emb = small_model();
    let set = read_analogies(&data_file("benchmarks/gensim/questions-words.txt")).unwrap();
    let options = EvalOptions::GENSIM;
    let accuracies = google_accuracy(&emb, &set, &options, &[Solver::CosAdd, COSMUL, BOLUKBASI]).unwrap();
    let names: Vec<(&str, &str)> = accuracies
        .iter()
        .map(|a| (a.solver.as_str(), a.constraint.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("cosadd", "constrained"),
            ("cosadd", "unconstrained"),
            ("cosmul", "constrained"),
            ("cosmul", "unconstrained"),
            ("bolukbasi", "constrained"),
            ("bolukbasi", "unconstrained"),
        ]
    );
    let today = evaluate_analogies_with(&emb, &set, &options);
    assert_eq!(accuracies[0].result, today);
    // The counts `evaluate_analogies` gave on this embedding before the solvers existed
    // (section, correct, attempted), all 14 sections, 19,544 questions.
    let before: Vec<(&str, usize, usize)> = TODAY.to_vec();
    let now: Vec<(&str, usize, usize)> = today
        .sections
        .iter()
        .map(|s| (s.name.as_str(), s.correct, s.attempted))
        .collect();
    assert_eq!(now, before);
    assert_eq!((today.correct, today.attempted, today.skipped), (9, 393, 19_151));
    // Every (solver, constraint) attempts the same questions.
    for a in &accuracies {
        assert_eq!(
            (a.result.attempted, a.result.skipped),
            (today.attempted, today.skipped)
        );
        assert!(a.result.macro_accuracy().is_finite());
    }
}

/// `evaluate_analogies_with(small_model, questions-words, GENSIM)` per section, recorded from
/// the implementation that preceded the solvers.
const TODAY: [(&str, usize, usize); 14] = [
    ("capital-common-countries", 0, 6),
    ("capital-world", 0, 2),
    ("currency", 0, 0),
    ("city-in-state", 0, 7),
    ("family", 4, 30),
    ("gram1-adjective-to-adverb", 0, 12),
    ("gram2-opposite", 0, 6),
    ("gram3-comparative", 0, 56),
    ("gram4-superlative", 0, 20),
    ("gram5-present-participle", 1, 42),
    ("gram6-nationality-adjective", 3, 86),
    ("gram7-past-tense", 1, 72),
    ("gram8-plural", 0, 42),
    ("gram9-plural-verbs", 0, 12),
];

#[test]
fn macro_accuracy_is_the_mean_over_sections_with_questions() {
    let emb = embeddings(&[
        ("man", [1.0, 0.0, 0.0]),
        ("woman", [0.0, 1.0, 0.0]),
        ("king", [2.0, 0.0, 2.0]),
        ("queen", [0.0, 3.0, 3.0]),
        ("apple", [0.3, 0.2, -1.0]),
    ]);
    let set = retest_eval::AnalogySet {
        sections: vec![
            retest_eval::AnalogySection {
                name: "one".into(),
                questions: vec![["man", "king", "woman", "queen"].map(String::from)],
            },
            retest_eval::AnalogySection {
                name: "two".into(),
                questions: vec![
                    ["man", "king", "woman", "queen"].map(String::from),
                    ["man", "woman", "king", "apple"].map(String::from),
                    ["man", "woman", "king", "zebra"].map(String::from),
                ],
            },
            retest_eval::AnalogySection {
                name: "empty".into(),
                questions: vec![["zebra", "king", "woman", "queen"].map(String::from)],
            },
        ],
    };
    let result = &google_accuracy(&emb, &set, &EvalOptions::GENSIM, &[Solver::CosAdd]).unwrap()[0].result;
    // Micro 2/3; macro (1/1 + 1/2)/2, the empty section left out.
    assert_eq!((result.correct, result.attempted, result.skipped), (2, 3, 2));
    assert_eq!(result.macro_accuracy(), 0.75);
}

/// Clustered random unit-ish vectors: `n` words around `n / 8` centres, so many pairs are close.
fn clustered(n: usize, dim: usize, seed: u64) -> Embeddings {
    let data = RandomData::new("retest-eval-pairs");
    let centres = data.gaussian(n / 8, dim, seed);
    let noise = data.gaussian(n, dim, seed + 1);
    let mut vectors = Vec::with_capacity(n * dim);
    for i in 0..n {
        let centre = &centres[(i % (n / 8)) * dim..(i % (n / 8) + 1) * dim];
        for j in 0..dim {
            vectors.push(centre[j] + 0.6 * noise[i * dim + j]);
        }
    }
    // Two exact duplicates: their distance is 0, never a pair.
    let first: Vec<f32> = vectors[..dim].to_vec();
    vectors[(n - 1) * dim..].copy_from_slice(&first);
    let words = (0..n).map(|i| format!("w{i}")).collect();
    Embeddings::new(words, dim, vectors).unwrap()
}

/// The pairs by a double loop over every (i, j), i < j, in f64 from the unit rows.
fn brute_force_pairs(space: &AnalogySpace, seed: (u32, u32), options: &PairOptions) -> Vec<GeneratedPair> {
    let g: Vec<f64> = (0..space.dim())
        .map(|j| f64::from(space.row(seed.0)[j]) - f64::from(space.row(seed.1)[j]))
        .collect();
    let mut all = Vec::new();
    for i in 0..space.n_rows() as u32 {
        for j in i + 1..space.n_rows() as u32 {
            let diff: Vec<f64> = (0..space.dim())
                .map(|k| f64::from(space.row(i)[k]) - f64::from(space.row(j)[k]))
                .collect();
            let dist = norm(&diff);
            let within = match options.bound {
                DeltaBound::Distance => dist <= options.delta,
                DeltaBound::SquaredDistance => dist * dist <= options.delta,
            };
            if !within || dist == 0.0 {
                continue;
            }
            let cos = g.iter().zip(&diff).map(|(a, b)| a * b).sum::<f64>() / (norm(&g) * dist);
            if cos == 0.0 {
                continue;
            }
            let (x, y) = if cos > 0.0 { (i, j) } else { (j, i) };
            all.push(GeneratedPair {
                x,
                y,
                score: cos.abs(),
                distance: dist,
            });
        }
    }
    all.sort_by(|p, q| {
        q.score
            .total_cmp(&p.score)
            .then(p.x.cmp(&q.x))
            .then(p.y.cmp(&q.y))
    });
    let mut used = vec![false; space.n_rows()];
    let mut pairs = Vec::new();
    for p in all {
        if !used[p.x as usize] && !used[p.y as usize] && pairs.len() < options.n_pairs {
            used[p.x as usize] = true;
            used[p.y as usize] = true;
            pairs.push(p);
        }
    }
    pairs
}

/// `generate_pairs` on `space` (seed words 5 and 9): the pairs of [`brute_force_pairs`], in its
/// order, with the same scores and distances, and the same on one thread as on the pool.
fn generated_pairs_checked(space: &AnalogySpace, options: &PairOptions) -> Vec<GeneratedPair> {
    let expected = brute_force_pairs(space, (5, 9), options);
    let ours = generate_pairs(space, (5, 9), options).unwrap();
    assert_eq!(ours.len(), expected.len(), "{options:?}");
    for (k, (p, q)) in ours.iter().zip(&expected).enumerate() {
        assert_eq!((p.x, p.y), (q.x, q.y), "{options:?}: pair {k}");
        assert!((p.score - q.score).abs() < 1e-12 && (p.distance - q.distance).abs() < 1e-12);
    }
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(
        one.install(|| generate_pairs(space, (5, 9), options)).unwrap(),
        ours
    );
    ours
}

/// Pair options from a table row `(delta, bound, n_pairs)`.
fn pair_options((delta, bound, n_pairs): (f64, DeltaBound, usize)) -> PairOptions {
    PairOptions {
        delta,
        bound,
        n_pairs,
    }
}

#[test]
fn generated_pairs_equal_a_brute_force_double_loop() {
    // 2,100 words: three tiles of the Gram matrix per side.
    let emb = clustered(2100, 12, 3);
    let space = AnalogySpace::new(&emb, None).unwrap();
    for options in [
        (1.0, DeltaBound::Distance, 500),
        (0.8, DeltaBound::SquaredDistance, 500),
        (0.8, DeltaBound::Distance, 40),
        (1.3, DeltaBound::Distance, 2000),
    ]
    .map(pair_options)
    {
        let ours = generated_pairs_checked(&space, &options);
        assert!(!ours.is_empty());
        // Each word in at most one pair.
        let mut words: Vec<u32> = ours.iter().flat_map(|p| [p.x, p.y]).collect();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), 2 * ours.len());
    }
    // A small restriction: only the first 300 words pair.
    let restricted = AnalogySpace::new(&emb, Some(300)).unwrap();
    let options = pair_options((1.0, DeltaBound::Distance, 500));
    let pairs = generate_pairs(&restricted, (5, 9), &options).unwrap();
    assert!(pairs.iter().all(|p| p.x < 300 && p.y < 300));
    assert_eq!(pairs, brute_force_pairs(&restricted, (5, 9), &options));
}

/// `n` vectors in a narrow cone: a common unit direction plus noise of deviation `spread` per
/// coordinate, so most pairs are close; the last repeats the first.
fn cone(n: usize, dim: usize, spread: f32, seed: u64) -> Embeddings {
    let noise = RandomData::new("retest-eval-pairs-cone").gaussian(n, dim, seed);
    let axis = 1.0 / (dim as f32).sqrt();
    let mut vectors: Vec<f32> = noise.iter().map(|&z| axis + spread * z).collect();
    let first: Vec<f32> = vectors[..dim].to_vec();
    vectors[(n - 1) * dim..].copy_from_slice(&first);
    let words = (0..n).map(|i| format!("w{i}")).collect();
    Embeddings::new(words, dim, vectors).unwrap()
}

#[test]
fn generated_pairs_equal_a_brute_force_double_loop_when_most_pairs_are_close() {
    // 2,100 words in a cone: most of the 2.2 million pairs are within δ, far more than the
    // candidates a tile keeps, so most are only bounded, never scored exactly.
    let emb = cone(2100, 12, 0.2, 4);
    let space = AnalogySpace::new(&emb, None).unwrap();
    let n = space.n_rows() as u32;
    for options in [
        (1.0, DeltaBound::Distance, 100),
        (1.0, DeltaBound::Distance, 500),
        (0.8, DeltaBound::SquaredDistance, 100),
        (0.8, DeltaBound::SquaredDistance, 1000),
    ]
    .map(pair_options)
    {
        let (delta, bound, n_pairs) = (options.delta, options.bound, options.n_pairs);
        let within = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .filter(|&(i, j)| {
                let d2: f64 = (0..space.dim())
                    .map(|k| (f64::from(space.row(i)[k]) - f64::from(space.row(j)[k])).powi(2))
                    .sum();
                match bound {
                    DeltaBound::Distance => d2.sqrt() <= delta,
                    DeltaBound::SquaredDistance => d2 <= delta,
                }
            })
            .count();
        let all = (n as usize) * (n as usize - 1) / 2;
        assert!(within > all / 2, "{options:?}: {within} of {all} pairs within δ");
        let ours = generated_pairs_checked(&space, &options);
        assert_eq!(ours.len(), n_pairs, "{options:?}");
    }
}

#[test]
fn bad_input_is_refused_with_one_line() {
    let emb = embeddings(&[("a", [1.0, 0.0]), ("b", [0.0, 1.0]), ("c", [1.0, 1.0])]);
    let space = AnalogySpace::new(&emb, Some(2)).unwrap();
    let q = [Query { a: 0, b: 1, c: 2 }];
    let message = |e: SolveError| e.to_string();
    assert_eq!(
        message(solve(&space, &q, Solver::CosAdd, Constraint::Constrained, 0).unwrap_err()),
        "top_n must be at least 1"
    );
    assert_eq!(
        message(solve(&space, &q, Solver::CosAdd, Constraint::Constrained, 1).unwrap_err()),
        "query 0: row 2 is not among the 2 rows searched"
    );
    let q = [Query { a: 0, b: 1, c: 1 }];
    let bad_delta = Solver::Bolukbasi {
        delta: -0.5,
        bound: DeltaBound::Distance,
    };
    assert_eq!(
        message(solve(&space, &q, bad_delta, Constraint::Constrained, 1).unwrap_err()),
        "Bolukbasi's delta must be a finite number > 0, found -0.5"
    );
    let bad_epsilon = Solver::CosMul { epsilon: 0.0 };
    assert_eq!(
        message(solve(&space, &q, bad_epsilon, Constraint::Constrained, 1).unwrap_err()),
        "3CosMul's epsilon must be a finite number > 0, found 0"
    );
    assert_eq!(
        message(AnalogySpace::new(&emb, Some(4)).unwrap_err()),
        "restrict_vocab 4 is larger than the vocabulary (3 words)"
    );
    assert_eq!(
        message(AnalogySpace::new(&emb, Some(0)).unwrap_err()),
        "restrict_vocab must be at least 1"
    );
    let options = pair_options((1.0, DeltaBound::Distance, 0));
    assert_eq!(
        message(generate_pairs(&space, (0, 1), &options).unwrap_err()),
        "n_pairs must be at least 1"
    );
    let options = PairOptions {
        n_pairs: 5,
        ..options
    };
    assert_eq!(
        message(generate_pairs(&space, (0, 2), &options).unwrap_err()),
        "seed row 2 is not among the 2 rows searched"
    );
    let options = PairOptions {
        delta: f64::NAN,
        ..options
    };
    assert_eq!(
        message(generate_pairs(&space, (0, 1), &options).unwrap_err()),
        "Bolukbasi's delta must be a finite number > 0, found NaN"
    );
}
