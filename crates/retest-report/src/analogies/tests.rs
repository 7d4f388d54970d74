//! Tests of the analogy section on small hand-built rows.

use super::*;

fn answer(seed: u32, query: &str, solver: &str, constraint: &str, rank: u32, word: &str) -> AnalogyAnswerRow {
    AnalogyAnswerRow {
        corpus: "c".into(),
        algorithm: "sgns".into(),
        seed,
        query: query.into(),
        solver: solver.into(),
        constraint: constraint.into(),
        rank,
        answer: word.into(),
        score: 0.0,
    }
}

#[test]
fn answer_lists_count_seeds_and_inputs_are_recognised() {
    let rows = [
        answer(0, "man:doctor::woman", "cosadd", "unconstrained", 1, "doctor"),
        answer(0, "man:doctor::woman", "cosadd", "unconstrained", 2, "nurse"),
        answer(1, "man:doctor::woman", "cosadd", "unconstrained", 1, "nurse"),
        answer(1, "man:doctor::woman", "cosadd", "unconstrained", 2, "doctor"),
        answer(2, "man:doctor::woman", "cosadd", "unconstrained", 1, "doctor"),
    ];
    let refs: Vec<&AnalogyAnswerRow> = rows.iter().collect();
    assert_eq!(listed_answers(&refs), "doctor (3), nurse (2)");
    let top1 = rows.iter().filter(|r| r.rank == 1).map(|r| r.answer.as_str());
    assert_eq!(counts(top1), [("doctor", 2), ("nurse", 1)]);
    assert_eq!(pretty("man:doctor::woman"), "man : doctor :: woman : ?");
    assert!(is_input(&rows[0]) && !is_input(&rows[2]));
    assert_eq!(input_share(&rows, "cosadd"), (2.0 / 3.0, 3));
}
