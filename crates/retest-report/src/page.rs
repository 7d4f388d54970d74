//! The parts every section of the report is built from: the report's title, a table's header
//! cells, a figure with its caption, the note under every box plot, a configuration's label, a
//! paper's findings as a table, and the cells of a measure's spread and ICC across seeds.

use crate::data::algorithm_label;
use crate::document::Block;
use crate::figures::BoxFigure;
use crate::finding::{Evidence, Finding};
use crate::numbers::f2;
use retest_tables::{IccStats, SeedSpreadRow, SpreadStats};

/// The report's title before the pipeline's name: the first heading of `report.md` and the
/// title of `index.html`.
pub(crate) const TITLE: &str = "retest report: ";

/// A figure with its file stem.
pub struct NamedFigure {
    pub stem: String,
    pub figure: BoxFigure,
}

pub(crate) const BOX_NOTE: &str = "Boxes span the first to third quartile (Hyndman–Fan type 7, as R's default), the \
black line is the median, whiskers reach the most extreme value within 1.5 × IQR of the box, and dots \
are the values beyond the whiskers.";

pub(crate) fn config_label(corpus: &str, algorithm: &str) -> String {
    format!("{corpus} · {}", algorithm_label(algorithm))
}

pub(crate) fn row_cells(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| (*c).to_owned()).collect()
}

/// Adds a figure and its caption (with a note when values fall below the axis).
pub(crate) fn push_figure(
    blocks: &mut Vec<Block>,
    figures: &mut Vec<NamedFigure>,
    stem: &str,
    figure: BoxFigure,
    caption: String,
) {
    let clip = if figure.clips() {
        " Values below −1 are drawn at the lower edge."
    } else {
        ""
    };
    blocks.push(Block::Figure {
        stem: stem.into(),
        caption: format!("{caption}{clip}"),
    });
    figures.push(NamedFigure {
        stem: stem.into(),
        figure,
    });
}

/// A paper's findings as a table (claim, paper, this run, verdict) followed by each one's
/// criterion, under `title` (`finding (Bakarov 2021)`), each judged against `evidence`.
pub(crate) fn push_findings(
    title: &str,
    findings: Vec<Finding>,
    evidence: Evidence,
    blocks: &mut Vec<Block>,
) {
    let findings = evidence.judge(findings);
    blocks.push(Block::Table {
        header: row_cells(&[title, "paper", "this run", "verdict"]),
        rows: findings
            .iter()
            .map(|f| {
                vec![
                    f.claim.clone(),
                    f.paper.clone(),
                    f.this_run.clone(),
                    f.verdict.as_str().to_owned(),
                ]
            })
            .collect(),
    });
    for f in findings {
        blocks.push(Block::Paragraph(format!("**{}.** {}", f.claim, f.sentence)));
    }
}

/// `mean [low, high]` of a spread across seeds.
pub(crate) fn interval(s: &SpreadStats) -> String {
    format!("{} [{}, {}]", f2(s.mean), f2(s.low), f2(s.high))
}

/// [`interval`], or `undefined` when no seed has a value.
pub(crate) fn spread_cell(s: &SpreadStats) -> String {
    if s.n_seeds > 0 {
        interval(s)
    } else {
        "undefined".to_owned()
    }
}

/// The spread row of (configuration, measure, subject), if any.
pub(crate) fn spread<'a>(
    rows: &'a [SeedSpreadRow],
    (corpus, algorithm): (&str, &str),
    measure: &str,
    subject: &str,
) -> Option<&'a SeedSpreadRow> {
    rows.iter().find(|r| {
        r.corpus == corpus && r.algorithm == algorithm && r.measure == measure && r.subject == subject
    })
}

/// An ICC cell: the value with its number of subjects, or its status.
pub(crate) fn icc_cell(stats: &IccStats) -> String {
    if stats.status == "ok" && stats.icc.is_finite() {
        format!("{} (n = {})", f2(stats.icc), stats.n_subjects)
    } else {
        stats.status.clone()
    }
}
