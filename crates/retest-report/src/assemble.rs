//! Putting the report together: which figures, which tables and which sentences, all from the
//! run's rows, in a fixed order.

use retest_tables::{AlphaRow, CoverageRow, IccRow};

use crate::compare;
use crate::data::{ConfigRow, configs_of, list_label};
use crate::document::Block;
use crate::finding::{Evidence, Finding, Verdict};
use crate::input::{ReportMeta, RunTables};
use crate::page::{NamedFigure, TITLE, config_label, row_cells};
use crate::{
    analogies, base_pairs, debias, exclusions, reliability, residual, set_level, subspace, validity,
    variants, word_effects,
};

/// Everything the report writes.
pub struct Assembled {
    pub figures: Vec<NamedFigure>,
    pub blocks: Vec<Block>,
    pub findings: Vec<Finding>,
}

/// The tables of Du et al.'s analyses, empty where the run did not write them.
struct DuTables<'a> {
    trw: &'a [IccRow],
    trp: &'a [IccRow],
    irw: &'a [IccRow],
    irp: &'a [IccRow],
    alpha: &'a [AlphaRow],
}

impl<'a> DuTables<'a> {
    fn of(tables: &'a RunTables) -> Self {
        DuTables {
            trw: tables.rules.test_retest_words.as_deref().unwrap_or_default(),
            trp: tables.rules.test_retest_pairs.as_deref().unwrap_or_default(),
            irw: tables.rules.inter_rater_words.as_deref().unwrap_or_default(),
            irp: tables.rules.inter_rater_pairs.as_deref().unwrap_or_default(),
            alpha: tables.rules.internal_consistency.as_deref().unwrap_or_default(),
        }
    }
}

/// Du et al.'s findings checked on this run, in the comparison table's order.
fn du_findings(tables: &RunTables, meta: &ReportMeta, du: &DuTables) -> Vec<Finding> {
    let DuTables {
        trw,
        trp,
        irw,
        irp,
        alpha,
    } = *du;
    let mut findings = vec![
        compare::test_retest_high(trw, "words"),
        compare::test_retest_high(trp, "base pairs"),
        compare::full_list_lowest(trw),
        compare::inter_rater_low(irw, "words"),
        compare::inter_rater_low(irp, "base pairs"),
        compare::alpha_queries(alpha),
        compare::alpha_base_pairs(alpha),
        compare::pair_variation(trp),
        compare::singular_vs_plural(trp, true),
        compare::singular_vs_plural(irp, false),
        compare::pair_reliability_correlation(trp, irp),
        compare::rule_correlations(tables.rules.rule_correlations.as_deref()),
        compare::poor_share_full_vs_google10k(tables.rules.low_reliability.as_deref()),
    ];
    findings.extend(compare::regression_directions(tables.rules.regression.as_deref()));
    if !meta.variants.is_empty() {
        findings.push(compare::variant_trends(trw, &meta.variants));
    }
    if !meta.debiased.is_empty() {
        findings.push(debias::direct_bias_removed(
            tables.set_level.directions.as_deref(),
            &meta.debiased,
        ));
        findings.push(debias::bias_recoverable(
            tables.residual.as_deref(),
            &meta.debiased,
        ));
    }
    if tables.subspace.seeds.is_some() {
        findings.push(subspace::first_component_dominates(
            tables.subspace.seeds.as_deref(),
            &meta.debiased,
        ));
    }
    if tables.validity.is_some() {
        findings.push(validity::bias_tracks_criterion(
            tables.validity.as_deref(),
            &meta.debiased,
        ));
    }

    findings
}

/// A list is flagged when fewer than this share of its entries are in a corpus's vocabulary.
const LOW_COVERAGE: f64 = 0.5;

/// The lists with low coverage, as `list (corpus): n of N`, or `none`.
fn low_coverage(coverage: Option<&[CoverageRow]>) -> String {
    let mut low: Vec<String> = Vec::new();
    for c in coverage.into_iter().flatten() {
        let line = format!(
            "{} ({}): {} of {}",
            list_label(&c.list),
            c.corpus,
            c.n_in_vocabulary,
            c.n_listed
        );
        let is_low = c.n_listed > 0 && f64::from(c.n_in_vocabulary) < LOW_COVERAGE * f64::from(c.n_listed);
        // A list read as two kinds (target words and a query) is named once.
        if is_low && !low.contains(&line) {
            low.push(line);
        }
    }
    if low.is_empty() {
        "none".to_owned()
    } else {
        low.join("; ")
    }
}

/// The run at a glance: what was measured, on how much, with which build.
fn run_summary(
    tables: &RunTables,
    meta: &ReportMeta,
    evidence: Evidence,
    configs: &[(String, String)],
) -> Block {
    let lookup = |pairs: &[(String, u64)], name: &str| pairs.iter().find(|(n, _)| n == name).map(|p| p.1);
    let mut corpora: Vec<&str> = configs.iter().map(|(c, _)| c.as_str()).collect();
    corpora.dedup();
    let corpus_cells: Vec<String> = (corpora.iter())
        .map(
            |&c| match (lookup(&meta.corpus_tokens, c), lookup(&meta.corpus_words, c)) {
                (Some(tokens), Some(words)) => {
                    format!("{c}: {} tokens, {} words", thousands(tokens), thousands(words))
                }
                _ => c.to_owned(),
            },
        )
        .collect();
    let config_cells: Vec<String> = (configs.iter())
        .map(|(c, a)| match meta.dims.iter().find(|(m, _)| m == a) {
            Some((_, dim)) => format!("{} (dim {dim})", config_label(c, a)),
            None => config_label(c, a),
        })
        .collect();
    let build = match &meta.commit {
        Some(commit) => format!("{} (commit {commit})", env!("CARGO_PKG_VERSION")),
        None => env!("CARGO_PKG_VERSION").to_owned(),
    };
    let row = |what: &str, value: String| vec![what.to_owned(), value];
    let mut rows = vec![
        row("pipeline", format!("`{}`", meta.pipeline)),
        row("seeds per configuration", evidence.n_seeds.to_string()),
        row("corpora", corpus_cells.join("; ")),
        row("configurations", config_cells.join("; ")),
        row(
            &format!(
                "lists with under {:.0} % of their entries in vocabulary",
                100.0 * LOW_COVERAGE
            ),
            low_coverage(tables.coverage.as_deref()),
        ),
        row("retest", build),
    ];
    if !meta.model_files.is_empty() {
        rows.insert(4, row("model files", model_files_cell(meta)));
    }
    Block::Table {
        header: row_cells(&["run", ""]),
        rows,
    }
}

/// Each model read from files: its file count, first and last file, and shared vocabulary.
fn model_files_cell(meta: &ReportMeta) -> String {
    (meta.model_files.iter())
        .map(|m| {
            let files = match (m.files.first(), m.files.last()) {
                (Some(first), Some(last)) if m.files.len() > 1 => format!("`{first}` … `{last}`"),
                (Some(first), _) => format!("`{first}`"),
                _ => String::new(),
            };
            format!(
                "{}: {} files ({files}), {} words in every file",
                m.name,
                m.files.len(),
                thousands(m.shared_words)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `n` with a comma between groups of three digits.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// The title, the run's summary, the contents and the paragraph naming the pipeline and its
/// configurations.
fn intro_blocks(
    tables: &RunTables,
    meta: &ReportMeta,
    evidence: Evidence,
    du: &DuTables,
    blocks: &mut Vec<Block>,
) {
    let DuTables { trw, trp, .. } = *du;
    let configs = configs_of(trw.iter().chain(trp).map(ConfigRow::config));
    blocks.push(Block::Heading(1, format!("{}{}", TITLE, meta.pipeline)));
    blocks.push(run_summary(tables, meta, evidence, &configs));
    blocks.push(Block::Contents);
    blocks.push(Block::Paragraph(format!(
        "Reliability of word-embedding gender-bias measures for pipeline `{}`, compared with Du, Fang & Nguyen \
         (2021), *Assessing the reliability of word embedding gender bias measures*. Configurations (corpus · \
         algorithm): {}. Figures follow the paper's figures 2–5; each is also available as PNG beside the SVG.",
        meta.pipeline,
        if configs.is_empty() {
            "none".to_owned()
        } else {
            configs.iter().map(|(c, a)| config_label(c, a)).collect::<Vec<_>>().join(", ")
        }
    )));
}

/// The comparison with the paper: how many findings replicate, the table, each criterion.
fn comparison_blocks(findings: &[Finding], evidence: Evidence, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading(2, "Comparison with the paper".into()));
    let count = |verdict: Verdict| findings.iter().filter(|f| f.verdict == verdict).count();
    let n_rep = count(Verdict::Replicates);
    let n_judged = n_rep + count(Verdict::DoesNotReplicate);
    blocks.push(Block::Paragraph(format!(
        "{n_rep} of {n_judged} findings judged replicate in this run ({} not enough evidence, {} could not be \
         checked). This run has {} seeds per configuration; a verdict needs at least {} (and a finding on \
         analogy accuracy at least {} questions per seed with every word in the vocabulary). The criterion of each is stated below the \
         table; the paper's numbers for figures are read off its plots.",
        count(Verdict::NotEnoughEvidence),
        count(Verdict::NotAvailable),
        evidence.n_seeds,
        Evidence::MIN_SEEDS,
        Evidence::MIN_QUESTIONS,
    )));
    blocks.push(Block::Table {
        header: row_cells(&["#", "finding (paper)", "paper", "this run", "verdict"]),
        rows: findings
            .iter()
            .enumerate()
            .map(|(i, f)| {
                vec![
                    (i + 1).to_string(),
                    f.claim.clone(),
                    f.paper.clone(),
                    f.this_run.clone(),
                    f.verdict.as_str().to_owned(),
                ]
            })
            .collect(),
    });
    for (i, f) in findings.iter().enumerate() {
        blocks.push(Block::Paragraph(format!(
            "**{}. {}.** {}",
            i + 1,
            f.claim,
            f.sentence
        )));
    }
}

/// The seeds per configuration of the run, from whichever tables it wrote: the raters of its
/// test-retest ICCs, else the seeds numbered in its per-seed tables.
fn evidence_of(tables: &RunTables) -> Evidence {
    let raters = (tables.rules.test_retest_words.iter().flatten()).map(|r| u64::from(r.stats.n_raters));
    let numbered = (tables.analogies.accuracy.iter().flatten().map(|r| r.seed))
        .chain(tables.set_level.weat.iter().flatten().map(|r| r.seed))
        .chain(tables.base_pairs.summary.iter().flatten().map(|r| r.seed))
        .map(|seed| u64::from(seed) + 1);
    Evidence {
        n_seeds: raters.chain(numbered).max().unwrap_or(0),
    }
}

/// The figures, blocks and findings of a report.
pub fn assemble(tables: &RunTables, meta: &ReportMeta) -> Assembled {
    let du = DuTables::of(tables);
    let evidence = evidence_of(tables);
    let findings = evidence.judge(du_findings(tables, meta, &du));
    let mut figures = Vec::new();
    let mut blocks = Vec::new();
    intro_blocks(tables, meta, evidence, &du, &mut blocks);
    comparison_blocks(&findings, evidence, &mut blocks);
    if !meta.variants.is_empty() {
        variants::variant_blocks(du.trw, du.irw, du.alpha, &meta.variants, &mut blocks);
    }
    if !meta.debiased.is_empty() {
        debias::blocks(
            &tables.set_level,
            (du.trw, du.irw, du.alpha),
            &meta.debiased,
            &mut blocks,
        );
    }
    reliability::test_retest_blocks(du.trw, du.trp, &mut blocks, &mut figures);
    reliability::inter_rater_blocks(du.irw, du.irp, &mut blocks, &mut figures);
    reliability::alpha_blocks(du.alpha, &mut blocks, &mut figures);
    reliability::pair_blocks(du.trp, du.irp, &mut blocks, &mut figures);
    set_level::blocks(&tables.set_level, meta, evidence, &mut blocks, &mut figures);
    analogies::blocks(&tables.analogies, evidence, &mut blocks);
    base_pairs::blocks(&tables.base_pairs, evidence, &mut blocks, &mut figures);
    residual::blocks(tables.residual.as_deref(), &mut blocks);
    subspace::blocks(&tables.subspace, &mut blocks);
    validity::blocks(tables.validity.as_deref(), &mut blocks);
    word_effects::blocks(&tables.rules, &mut blocks);
    exclusions::blocks(tables, &mut blocks);
    Assembled {
        figures,
        blocks,
        findings,
    }
}
