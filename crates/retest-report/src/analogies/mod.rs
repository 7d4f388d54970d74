//! The report's analogy section (Nissim, van Noord & van der Goot 2020, across seeds): Google
//! accuracy per solver and constraint (their Table 1) with across-seed intervals, the bias
//! queries' answers as lists with how many seeds give each (Tables 2 and 3), the sweep over
//! vocabulary sizes and thresholds (Table 4), the generated pairs most stable across seeds, the
//! seeds' agreement on top-1 answers, and the paper's claims as findings with criteria.

use std::collections::BTreeMap;

use retest_measures::{Measure, SolverKind};
use retest_tables::{
    AnalogyAccuracyRow, AnalogyAnswerRow, AnalogyPairRow, AnalogyReliabilityRow, AnalogyReportedRow,
    AnalogySweepRow, AnalogyZhangRow,
};

use crate::data::{ConfigRow, algorithm_label, configs_of, distinct, of_config};
use crate::document::Block;
use crate::finding::{Evidence, Finding, Verdict};
use crate::input::AnalogyTables;
use crate::numbers::f2;
use crate::page::{push_findings, row_cells};
use crate::stats::{quantile_sorted, sorted};

/// The solvers in Nissim et al.'s order, with their labels.
fn solvers() -> [(&'static str, &'static str); 4] {
    SolverKind::ALL.map(|k| (k.as_str(), k.measure().label()))
}
/// Answers listed per query, solver and constraint.
const LISTED: usize = 5;

type Config = (String, String);

/// `mean [2.5 %, 97.5 %]` of values across seeds.
fn interval(values: &[f64]) -> String {
    if values.is_empty() {
        return "—".to_owned();
    }
    let s = sorted(values);
    let mean = s.iter().sum::<f64>() / s.len() as f64;
    format!(
        "{} [{}, {}]",
        f2(mean),
        f2(quantile_sorted(&s, 0.025)),
        f2(quantile_sorted(&s, 0.975))
    )
}

/// Table 1: micro and macro accuracy per configuration, solver and constraint across seeds.
fn accuracy_table(rows: &[AnalogyAccuracyRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        for (solver, label) in solvers() {
            let values = |constraint: &str, section: &str| -> Vec<f64> {
                of_config(rows, config)
                    .filter(|r| r.solver == solver && r.constraint == constraint && r.section == section)
                    .map(|r| r.accuracy)
                    .filter(|v| v.is_finite())
                    .collect()
            };
            if values("constrained", "micro").is_empty() {
                continue;
            }
            body.push(vec![
                config.0.clone(),
                algorithm_label(&config.1),
                label.to_owned(),
                interval(&values("constrained", "micro")),
                interval(&values("unconstrained", "micro")),
                interval(&values("constrained", "macro")),
                interval(&values("unconstrained", "macro")),
            ]);
        }
    }
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "solver",
            "micro",
            "micro, unconstrained",
            "macro",
            "macro, unconstrained",
        ]),
        rows: body,
    }
}

/// The words most often among a query's first [`LISTED`] answers across seeds, with the number
/// of seeds (ties: the better summed rank first).
fn listed_answers(answers: &[&AnalogyAnswerRow]) -> String {
    let mut counts: BTreeMap<&str, (usize, u32)> = BTreeMap::new();
    for a in answers.iter().filter(|a| a.rank as usize <= LISTED) {
        let entry = counts.entry(a.answer.as_str()).or_default();
        entry.0 += 1;
        entry.1 += a.rank;
    }
    let mut words: Vec<(&str, (usize, u32))> = counts.into_iter().collect();
    words.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)).then(a.0.cmp(b.0)));
    words
        .iter()
        .take(LISTED)
        .map(|(w, (n, _))| format!("{w} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each word with how often it occurs (one per seed), most frequent first.
fn counts<'a>(words: impl Iterator<Item = &'a str>) -> Vec<(&'a str, usize)> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for w in words {
        *counts.entry(w).or_default() += 1;
    }
    let mut words: Vec<(&str, usize)> = counts.into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    words
}

/// Tables 2 and 3: per query and solver, the answers most often in the top five (seeds giving
/// each), constrained and unconstrained, and the top-1 answers with their seeds.
fn query_table(answers: &[AnalogyAnswerRow], config: &Config) -> Block {
    let own: Vec<&AnalogyAnswerRow> = of_config(answers, config).collect();
    let n_seeds = own.iter().map(|r| r.seed + 1).max().unwrap_or(0);
    let mut queries: Vec<&str> = Vec::new();
    for r in &own {
        if !queries.contains(&r.query.as_str()) {
            queries.push(&r.query);
        }
    }
    let mut body = Vec::new();
    for query in queries {
        for (solver, label) in solvers() {
            let of = |constraint: &str| -> Vec<&AnalogyAnswerRow> {
                (own.iter().copied())
                    .filter(|r| r.query == query && r.solver == solver && r.constraint == constraint)
                    .collect()
            };
            let (constrained, unconstrained) = (of("constrained"), of("unconstrained"));
            if constrained.is_empty() {
                continue;
            }
            let top1 = |rows: &[&AnalogyAnswerRow]| {
                (counts(rows.iter().filter(|r| r.rank == 1).map(|r| r.answer.as_str())).iter())
                    .take(3)
                    .map(|(w, n)| format!("{w} {n}/{n_seeds}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            body.push(vec![
                pretty(query),
                label.to_owned(),
                top1(&constrained),
                listed_answers(&constrained),
                top1(&unconstrained),
                listed_answers(&unconstrained),
            ]);
        }
    }
    Block::Table {
        header: row_cells(&[
            "query",
            "solver",
            "top-1 (seeds)",
            "top 5 (seeds)",
            "top-1 unconstrained (seeds)",
            "top 5 unconstrained (seeds)",
        ]),
        rows: body,
    }
}

/// Where the answers papers report rank across seeds: median [lowest, highest] per
/// configuration, query and solver, constrained and unconstrained.
fn reported_table(rows: &[AnalogyReportedRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<&AnalogyReportedRow> = of_config(rows, config).collect();
        let keys = distinct(
            own.iter()
                .map(|r| (r.query.as_str(), r.reported.as_str(), r.solver.as_str())),
        );
        for (query, reported, solver) in keys {
            let ranks = |constraint: &str| -> String {
                let r: Vec<f64> = (own.iter())
                    .filter(|r| {
                        r.query == query
                            && r.solver == solver
                            && r.constraint == constraint
                            && r.status == "ok"
                    })
                    .map(|r| f64::from(r.rank))
                    .collect();
                if r.is_empty() {
                    return "—".to_owned();
                }
                let s = sorted(&r);
                format!("{} [{}, {}]", quantile_sorted(&s, 0.5), s[0], s[s.len() - 1])
            };
            body.push(vec![
                config.0.clone(),
                algorithm_label(&config.1),
                pretty(query),
                reported.to_owned(),
                Measure::label_of(solver).to_owned(),
                ranks("constrained"),
                ranks("unconstrained"),
            ]);
        }
    }
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "query",
            "reported",
            "solver",
            "rank: median [lowest, highest]",
            "unconstrained",
        ]),
        rows: body,
    }
}

/// Table 4: the modal answer of every (size, δ) cell across seeds, with its number of seeds.
fn sweep_table(rows: &[AnalogySweepRow], config: &Config) -> Option<Block> {
    let own: Vec<&AnalogySweepRow> = of_config(rows, config).collect();
    if own.is_empty() {
        return None;
    }
    let n_seeds = own.iter().map(|r| r.seed + 1).max().unwrap_or(0);
    let mut deltas: Vec<f64> = own.iter().map(|r| r.delta).collect();
    deltas.sort_by(f64::total_cmp);
    deltas.dedup();
    let mut sizes: Vec<u32> = own.iter().map(|r| r.restrict_vocab).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let body = sizes
        .iter()
        .map(|&n| {
            let mut cells = vec![n.to_string()];
            cells.extend(deltas.iter().map(|&d| {
                let cell = (own.iter())
                    .filter(|r| r.restrict_vocab == n && r.delta == d && r.status == "ok")
                    .map(|r| r.answer.as_str());
                match counts(cell).first() {
                    Some((w, k)) => format!("{w} ({k}/{n_seeds})"),
                    None => "—".to_owned(),
                }
            }));
            cells
        })
        .collect();
    let mut header = vec![format!("{} · words searched", pretty(&own[0].query))];
    header.extend(deltas.iter().map(|d| format!("δ = {d}")));
    Some(Block::Table { header, rows: body })
}

/// The generated pairs found on the most seeds.
fn pair_table(rows: &[AnalogyPairRow], config: &Config) -> Option<Block> {
    let own: Vec<&AnalogyPairRow> = of_config(rows, config).collect();
    if own.is_empty() {
        return None;
    }
    let n_seeds = own.iter().map(|r| r.seed + 1).max().unwrap_or(0);
    let mut counts: BTreeMap<(&str, &str), (usize, u32)> = BTreeMap::new();
    for r in &own {
        let entry = counts.entry((r.x.as_str(), r.y.as_str())).or_default();
        entry.0 += 1;
        entry.1 += r.rank;
    }
    let mut pairs: Vec<_> = counts.into_iter().collect();
    pairs.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)).then(a.0.cmp(&b.0)));
    Some(Block::Paragraph(format!(
        "{} · {}: the generated pairs found on most seeds (of {n_seeds}): {}.",
        config.0,
        algorithm_label(&config.1),
        pairs
            .iter()
            .take(15)
            .map(|((x, y), (n, _))| format!("{x} : {y} ({n})"))
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

/// The section of the Google set Zhang et al. single out (pluralisation).
const PLURAL: &str = "gram8-plural";

/// The shares of Zhang et al.'s test solved across seeds, of one section.
fn zhang_shares<'a>(
    rows: &'a [AnalogyZhangRow],
    direction: &'a str,
    section: &'a str,
) -> impl Iterator<Item = &'a AnalogyZhangRow> {
    rows.iter()
        .filter(move |r| r.direction == direction && r.section == section)
}

/// Zhang et al.'s §7 per configuration, direction and constraint: the share solved overall and
/// in `gram8-plural`, and the mean cosine of the pairs' words, across seeds.
fn zhang_table(rows: &[AnalogyZhangRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<AnalogyZhangRow> = of_config(rows, config).cloned().collect();
        for direction in ["text", "code"] {
            for constraint in ["constrained", "unconstrained"] {
                let values = |section: &str, value: fn(&AnalogyZhangRow) -> f64| -> Vec<f64> {
                    zhang_shares(&own, direction, section)
                        .filter(|r| r.constraint == constraint && r.total > 0)
                        .map(value)
                        .collect()
                };
                let shares = |section: &str| values(section, |r| r.share);
                if shares("all").is_empty() {
                    continue;
                }
                body.push(vec![
                    config.0.clone(),
                    algorithm_label(&config.1),
                    if direction == "text" {
                        "man : x :: woman : ?"
                    } else {
                        "woman : x :: man : ?"
                    }
                    .to_owned(),
                    constraint.to_owned(),
                    interval(&shares("all")),
                    interval(&shares(PLURAL)),
                    interval(&values("all", |r| r.mean_cosine)),
                ]);
            }
        }
    }
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "query",
            "constraint",
            "solved, all pairs",
            "solved, gram8-plural",
            "mean cos(x, y)",
        ]),
        rows: body,
    }
}

/// Fleiss' κ of the top-1 answers and the pairs' overlap, per configuration.
fn reliability_table(rows: &[AnalogyReliabilityRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        for r in of_config(rows, config) {
            body.push(vec![
                config.0.clone(),
                algorithm_label(&config.1),
                r.measure.clone(),
                r.solver.clone(),
                r.constraint.clone(),
                if r.status == "ok" {
                    f2(r.value)
                } else {
                    r.status.clone()
                },
                r.n_subjects.to_string(),
            ]);
        }
    }
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "measure",
            "solver",
            "constraint",
            "value",
            "subjects",
        ]),
        rows: body,
    }
}

/// The words of a query label `a:b::c`.
fn query_words(query: &str) -> [&str; 3] {
    let (a, rest) = query.split_once(':').unwrap_or_default();
    let (b, c) = rest.split_once("::").unwrap_or_default();
    [a, b, c]
}

/// `a : b :: c : ?`.
fn pretty(query: &str) -> String {
    let [a, b, c] = query_words(query);
    format!("{a} : {b} :: {c} : ?")
}

/// Whether a top-1 answer is one of its query's words.
fn is_input(row: &AnalogyAnswerRow) -> bool {
    query_words(&row.query).contains(&row.answer.as_str())
}

/// The share of (configuration, seed, query) whose unconstrained top-1 answer of `solver` is an
/// input word, with the number of answers.
fn input_share(answers: &[AnalogyAnswerRow], solver: &str) -> (f64, usize) {
    let top1: Vec<&AnalogyAnswerRow> = (answers.iter())
        .filter(|r| r.solver == solver && r.constraint == "unconstrained" && r.rank == 1)
        .collect();
    let inputs = top1.iter().filter(|r| is_input(r)).count();
    (inputs as f64 / top1.len() as f64, top1.len())
}

/// Nissim et al.'s claims, checked on this run.
fn findings(tables: &AnalogyTables) -> Vec<Finding> {
    vec![
        input_answers(tables),
        cosmul_drop(tables),
        sweep_answers(tables),
        zhang_plural(tables),
    ]
}

/// Nissim et al. §4.1: unconstrained, 3CosAdd returns an input word.
fn input_answers(tables: &AnalogyTables) -> Finding {
    let claim = "Unconstrained, 3CosAdd returns an input word for most bias queries (§4.1, Table 2)";
    let paper = "3 of 3 queries return B";
    match &tables.answers {
        Some(a) if !a.is_empty() => {
            let (share, n) = input_share(a, "cosadd");
            Finding {
                claim: claim.to_owned(),
                paper: paper.to_owned(),
                this_run: format!("{:.0} % of {n} top-1 answers", 100.0 * share),
                verdict: if share > 0.5 {
                    Verdict::Replicates
                } else {
                    Verdict::DoesNotReplicate
                },
                sentence: format!(
                    "Replicates when more than half of the unconstrained 3CosAdd top-1 answers (every query, seed and \
                     configuration) are A, B or C; {:.0} % are.",
                    100.0 * share
                ),
            }
        }
        _ => Finding::missing(claim, paper, "no analogy answers in this run"),
    }
}

/// Nissim et al. Table 1: 3CosMul loses less accuracy than 3CosAdd without the constraint.
fn cosmul_drop(tables: &AnalogyTables) -> Finding {
    let claim = "3CosMul loses less accuracy than 3CosAdd when unconstrained (Table 1)";
    let paper = "0.74 → 0.21 vs 0.75 → 0.47 (micro)";
    let drop = |rows: &[AnalogyAccuracyRow], solver: &str| -> f64 {
        let mean = |constraint: &str| {
            let v: Vec<f64> = (rows.iter())
                .filter(|r| r.solver == solver && r.constraint == constraint && r.section == "micro")
                .map(|r| r.accuracy)
                .filter(|v| v.is_finite())
                .collect();
            v.iter().sum::<f64>() / v.len() as f64
        };
        mean("constrained") - mean("unconstrained")
    };
    match &tables.accuracy {
        Some(rows)
            if rows.iter().any(|r| r.solver == "cosmul") && rows.iter().any(|r| r.solver == "cosadd") =>
        {
            let (add, mul) = (drop(rows, "cosadd"), drop(rows, "cosmul"));
            let micro: Vec<u64> = (rows.iter())
                .filter(|r| r.section == "micro")
                .map(|r| u64::from(r.total))
                .collect();
            let asked = micro.iter().sum::<u64>() / (micro.len() as u64).max(1);
            Finding {
                claim: claim.to_owned(),
                paper: paper.to_owned(),
                this_run: format!("drop {} vs {}", f2(add), f2(mul)),
                verdict: if mul < add {
                    Verdict::Replicates
                } else {
                    Verdict::DoesNotReplicate
                },
                sentence: format!(
                    "Replicates when the mean micro accuracy over seeds and configurations falls less for 3CosMul than \
                     for 3CosAdd without the constraint: {} against {}, on {asked} questions per seed with every word in the vocabulary.",
                    f2(mul),
                    f2(add)
                ),
            }
            .needing("questions per seed with every word in the vocabulary", asked, Evidence::MIN_QUESTIONS)
        }
        _ => Finding::missing(
            claim,
            paper,
            "no Google accuracy of 3CosAdd and 3CosMul in this run",
        ),
    }
}

/// Nissim et al. Table 4: Bolukbasi et al.'s answer changes with the vocabulary size and δ.
fn sweep_answers(tables: &AnalogyTables) -> Finding {
    let claim = "Bolukbasi et al.'s answer depends on the vocabulary size and δ (Table 4)";
    let paper = "8 different answers over 7 sizes × 5 δ";
    match &tables.sweep {
        Some(rows) if rows.iter().any(|r| r.status == "ok") => {
            // Per configuration, the distinct answers of seed 0's grid; the most of any.
            let configs = configs_of(rows.iter().map(ConfigRow::config));
            let distinct = (configs.iter())
                .map(|config| {
                    let mut words: Vec<&str> = of_config(rows, config)
                        .filter(|r| r.seed == 0 && r.status == "ok")
                        .map(|r| r.answer.as_str())
                        .collect();
                    words.sort_unstable();
                    words.dedup();
                    words.len()
                })
                .max()
                .unwrap_or(0);
            Finding {
                claim: claim.to_owned(),
                paper: paper.to_owned(),
                this_run: format!("{distinct} different answers (seed 0, most of any configuration)"),
                verdict: if distinct >= 2 {
                    Verdict::Replicates
                } else {
                    Verdict::DoesNotReplicate
                },
                sentence: format!(
                    "Replicates when one seed's grid of sizes × δ gives at least two different answers; the most \
                     varied configuration gives {distinct}."
                ),
            }
        }
        _ => Finding::missing(
            claim,
            paper,
            "no sweep in this run (a query word out of vocabulary?)",
        ),
    }
}

/// Zhang et al. §7: man : x :: woman : ? is solved mostly in the plural section.
fn zhang_plural(tables: &AnalogyTables) -> Finding {
    let claim = "man : x :: woman : ? mostly returns a word similar to x: pluralisation is solved far more often \
                 than the rest (Zhang et al. 2020, §7)";
    let paper = "22 % solved, 76 % in gram8-plural";
    match &tables.zhang {
        Some(rows) if rows.iter().any(|r| r.section == PLURAL) => {
            let mean = |section: &str| {
                let v: Vec<f64> = zhang_shares(rows, "text", section)
                    .filter(|r| r.constraint == "constrained" && r.total > 0)
                    .map(|r| r.share)
                    .collect();
                v.iter().sum::<f64>() / v.len() as f64
            };
            let (all, plural) = (mean("all"), mean(PLURAL));
            Finding {
                claim: claim.to_owned(),
                paper: paper.to_owned(),
                this_run: format!(
                    "{:.0} % solved, {:.0} % in gram8-plural",
                    100.0 * all,
                    100.0 * plural
                ),
                verdict: if plural > all {
                    Verdict::Replicates
                } else {
                    Verdict::DoesNotReplicate
                },
                sentence: format!(
                    "Replicates when the constrained 3CosAdd answer of man : x :: woman : ? is y more often in gram8-plural \
                     than over all pairs (mean over seeds and configurations): {:.0} % against {:.0} %.",
                    100.0 * plural,
                    100.0 * all
                ),
            }
        }
        _ => Finding::missing(claim, paper, "no Zhang et al. test in this run"),
    }
}

/// The section, when the run wrote analogy tables.
pub(crate) fn blocks(tables: &AnalogyTables, evidence: Evidence, blocks: &mut Vec<Block>) {
    let Some(answers) = &tables.answers else {
        return;
    };
    let configs = configs_of(answers.iter().map(ConfigRow::config));
    blocks.push(Block::Heading(
        2,
        "Analogies across seeds (Nissim et al. 2020)".into(),
    ));
    blocks.push(Block::Paragraph(
        "Each seed answers every query with 3CosAdd, 3CosMul and Bolukbasi et al.'s formula, constrained (the \
         answer may not be a query word, as word2vec, gensim and debiaswe answer) and unconstrained. Nissim et al. \
         report one embedding; here every answer comes with the number of seeds that give it."
            .into(),
    ));
    push_findings("finding (Nissim et al. 2020)", findings(tables), evidence, blocks);
    if let Some(accuracy) = tables.accuracy.as_ref().filter(|a| !a.is_empty()) {
        blocks.push(Block::Heading(3, "Google analogy accuracy (Table 1)".into()));
        blocks.push(Block::Paragraph(
            "Mean [2.5 %, 97.5 %] across seeds; micro over every question asked, macro the mean over sections.".into(),
        ));
        blocks.push(accuracy_table(accuracy, &configs));
    }
    blocks.push(Block::Heading(3, "Bias queries (Tables 2 and 3)".into()));
    blocks.push(Block::Paragraph(format!(
        "Per query and solver: the top-1 answers with the number of seeds that give each, and the words most often \
         among the first {LISTED} answers (seeds with the word there)."
    )));
    for config in &configs {
        blocks.push(Block::Paragraph(format!(
            "{} · {}:",
            config.0,
            algorithm_label(&config.1)
        )));
        blocks.push(query_table(answers, config));
    }
    if let Some(reported) = tables.reported.as_ref().filter(|r| !r.is_empty()) {
        blocks.push(Block::Paragraph(
            "Where the answer the literature reports ranks among every candidate, across seeds (1 = the top answer):"
                .into(),
        ));
        blocks.push(reported_table(reported, &configs));
    }
    if let Some(sweep) = &tables.sweep {
        let grids: Vec<(String, Block)> = (configs.iter())
            .filter_map(|c| {
                Some((
                    format!("{} · {}", c.0, algorithm_label(&c.1)),
                    sweep_table(sweep, c)?,
                ))
            })
            .collect();
        if !grids.is_empty() {
            blocks.push(Block::Heading(
                3,
                "Vocabulary size and threshold (Table 4)".into(),
            ));
            blocks.push(Block::Paragraph(
                "Bolukbasi et al.'s formula, unconstrained: the answer most seeds give in each cell (seeds giving it)."
                    .into(),
            ));
            for (label, grid) in grids {
                blocks.push(Block::Paragraph(format!("{label}:")));
                blocks.push(grid);
            }
        }
    }
    if let Some(zhang) = tables.zhang.as_ref().filter(|z| !z.is_empty()) {
        blocks.push(Block::Heading(
            3,
            "Analogies that return a similar word (Zhang et al. 2020, §7)".into(),
        ));
        blocks.push(Block::Paragraph(
            "3CosAdd on man : x :: woman : ? for the word pairs (x, y) of the Google set outside `family` (550 in the \
             file; those whose words are in vocabulary) as the paper writes it, and woman : x :: man : ? (x + man − woman, as its code computes it): the share of pairs \
             answered with y, and the mean cosine of the pairs' two words (the paper: 0.62), mean [2.5 %, 97.5 %] \
             across seeds. Pairs of similar words are answered with y for the similarity alone."
                .into(),
        ));
        blocks.push(zhang_table(zhang, &configs));
    }
    if let Some(pairs) = &tables.pairs {
        let lists: Vec<Block> = configs.iter().filter_map(|c| pair_table(pairs, c)).collect();
        if !lists.is_empty() {
            blocks.push(Block::Heading(3, "Generated pairs (Bolukbasi et al.)".into()));
            blocks.extend(lists);
        }
    }
    if let Some(reliability) = &tables.reliability {
        blocks.push(Block::Heading(3, "Agreement across seeds".into()));
        blocks.push(Block::Paragraph(
            "`top1_kappa`: Fleiss' κ of the top-1 answers (subjects = queries, raters = seeds); \
             `section_accuracy_icc`: test-retest ICC(2,1) of the Google sections' accuracies; `pair_jaccard` and \
             `pairs_in_half_of_seeds`: how far the generated pairs of two seeds overlap."
                .into(),
        ));
        blocks.push(reliability_table(reliability, &configs));
    }
}

#[cfg(test)]
mod tests;
