//! Reading the result rows: which values are usable, what was excluded and why, the display
//! order and labels of lists, rules, queries and pairs.

use std::collections::{BTreeMap, BTreeSet};

use retest_measures::Rule;
use retest_tables::{AlphaRow, IccRow, Subject};

/// The lists in the order of the paper's figures; other lists follow alphabetically.
const LIST_ORDER: [&str; 5] = ["occ16", "occ18", "adj", "google10k", "full"];
/// The queries in the order of the paper's Fig. 4; other queries follow alphabetically.
const QUERY_ORDER: [&str; 6] = ["career", "family", "math", "arts", "science", "arts_2"];

/// `items` value of an α row over query words (one α per query).
pub const ITEMS_QUERY_WORDS: &str = "query_words";
/// `items` value of an α row over base pairs (the base-pair ensemble).
pub const ITEMS_BASE_PAIRS: &str = "base_pairs";

/// The value of an ICC row if it is usable: status `ok` and finite.
pub fn icc_value(row: &IccRow) -> Option<f64> {
    (row.stats.status == "ok" && row.stats.icc.is_finite()).then_some(row.stats.icc)
}

/// The value of an α row if it is usable: status `ok` and finite.
pub fn alpha_value(row: &AlphaRow) -> Option<f64> {
    (row.status == "ok" && row.alpha.is_finite()).then_some(row.alpha)
}

/// Why a row was left out: its status, or `non_finite` for an `ok` row holding NaN or ±∞.
fn exclusion_reason(status: &str) -> String {
    if status == "ok" {
        "non_finite".to_owned()
    } else {
        status.to_owned()
    }
}

/// Rows of one table: how many were used and how many were excluded, by reason.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exclusions {
    pub n_rows: usize,
    pub n_used: usize,
    pub by_reason: BTreeMap<String, usize>,
}

impl Exclusions {
    pub fn of_icc(rows: &[IccRow]) -> Self {
        Exclusions::of_rows(rows, icc_value, |row| row.stats.status.as_str())
    }

    pub fn of_alpha(rows: &[AlphaRow]) -> Self {
        Exclusions::of_rows(rows, alpha_value, |row| row.status.as_str())
    }

    /// A row is used when `value` gives it a value, else excluded for its `status`.
    fn of_rows<R>(rows: &[R], value: fn(&R) -> Option<f64>, status: fn(&R) -> &str) -> Self {
        let mut e = Exclusions {
            n_rows: rows.len(),
            ..Exclusions::default()
        };
        for row in rows {
            match value(row) {
                Some(_) => e.n_used += 1,
                None => *e.by_reason.entry(exclusion_reason(status(row))).or_default() += 1,
            }
        }
        e
    }

    pub fn n_excluded(&self) -> usize {
        self.n_rows - self.n_used
    }

    /// `none`, or `12 (zero_variance 10, too_few_subjects 2)`.
    pub fn describe(&self) -> String {
        if self.n_excluded() == 0 {
            return "none".to_owned();
        }
        let reasons: Vec<String> = self.by_reason.iter().map(|(r, n)| format!("{r} {n}")).collect();
        format!("{} ({})", self.n_excluded(), reasons.join(", "))
    }
}

/// Sorts names by a preferred order, then the rest alphabetically; duplicates removed.
fn ordered<'a>(names: impl IntoIterator<Item = &'a str>, preferred: &[&str]) -> Vec<String> {
    let set: BTreeSet<&str> = names.into_iter().collect();
    let mut out: Vec<String> = preferred
        .iter()
        .filter(|p| set.contains(**p))
        .map(|p| (*p).to_owned())
        .collect();
    out.extend(
        set.iter()
            .filter(|n| !preferred.contains(n))
            .map(|n| (*n).to_owned()),
    );
    out
}

pub fn lists_of<'a>(rows: impl IntoIterator<Item = &'a IccRow>) -> Vec<String> {
    ordered(rows.into_iter().map(|r| r.list.as_str()), &LIST_ORDER)
}

pub fn rules_of<'a>(rules: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    ordered(rules, &Rule::ALL.map(Rule::as_str))
}

pub fn queries_of<'a>(queries: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    ordered(queries, &QUERY_ORDER)
}

/// Sorted, de-duplicated names.
pub fn sorted_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    ordered(names, &[])
}

/// The (corpus, algorithm) configurations of a run, sorted.
pub fn configs_of<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<(String, String)> {
    let set: BTreeSet<(&str, &str)> = rows.into_iter().collect();
    set.into_iter()
        .map(|(c, a)| (c.to_owned(), a.to_owned()))
        .collect()
}

/// How a list is named in the paper.
pub fn list_label(list: &str) -> String {
    match list {
        "occ16" => "OCC16".to_owned(),
        "occ18" => "OCC18".to_owned(),
        "adj" => "ADJ".to_owned(),
        "google10k" => "Google10K".to_owned(),
        "full" => "Full".to_owned(),
        other => other.to_owned(),
    }
}

/// How a rule is named in the paper; inter-rater rater sets (`dbwa+ripa+nbm`) label each rule.
pub fn rule_label(rule: &str) -> String {
    if rule.contains('+') {
        return rule.split('+').map(rule_label).collect::<Vec<_>>().join(" + ");
    }
    rule.parse::<Rule>()
        .map_or_else(|_| rule.to_owned(), |r| r.label().to_owned())
}

/// How an algorithm is named in the paper (a debiased model: `SGNS + hard debiasing`).
pub fn algorithm_label(algorithm: &str) -> String {
    match algorithm {
        "sgns" => "SGNS".to_owned(),
        "glove" => "GloVe".to_owned(),
        "cbow" => "CBOW".to_owned(),
        // A debiased model (`sgns+hard`).
        other => match other.split_once('+') {
            Some((model, method)) => format!("{} + {method} debiasing", algorithm_label(model)),
            None => other.to_owned(),
        },
    }
}

/// A base pair as `male–female`.
pub fn pair_label(male: &str, female: &str) -> String {
    format!("{male}–{female}")
}

/// The base pairs of per-pair rows in order of first appearance (the order of the base-pair
/// list), de-duplicated.
pub fn pairs_of<'a>(rows: impl IntoIterator<Item = &'a IccRow>) -> Vec<(String, String)> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for row in rows {
        if let Subject::Pair { male, female } = &row.subject
            && seen.insert((male.as_str(), female.as_str()))
        {
            out.push((male.clone(), female.clone()));
        }
    }
    out
}

/// Usable per-word values with each (corpus, algorithm, rule, scale, word) counted once: a
/// word's per-word ICC does not depend on the list, and per-word rows repeat it for every list
/// that holds the word.
pub fn unique_word_values<'a>(rows: impl IntoIterator<Item = &'a IccRow>) -> Vec<f64> {
    let mut seen: BTreeMap<(&str, &str, &str, &str, &str), f64> = BTreeMap::new();
    for row in rows {
        if let (Subject::Word(word), Some(v)) = (&row.subject, icc_value(row)) {
            seen.entry((&row.corpus, &row.algorithm, &row.rule, &row.scale, word))
                .or_insert(v);
        }
    }
    seen.into_values().collect()
}

/// Usable values of the rows.
pub fn icc_values<'a>(rows: impl IntoIterator<Item = &'a IccRow>) -> Vec<f64> {
    rows.into_iter().filter_map(icc_value).collect()
}

/// Whether `plural` is the plural of `singular` by the regular `-s`/`-es` ending or the `man`→`men`
/// change (`man`/`men`, `woman`/`women`).
fn is_plural_of(plural: &str, singular: &str) -> bool {
    if plural == singular {
        return false;
    }
    if plural.strip_suffix('s').is_some_and(|s| s == singular)
        || plural.strip_suffix("es").is_some_and(|s| s == singular)
    {
        return true;
    }
    singular
        .strip_suffix("man")
        .is_some_and(|stem| plural == format!("{stem}men"))
}

/// The (singular, plural) base pairs among `pairs`: a pair whose both words are plurals of
/// another pair's words (`boys–girls` of `boy–girl`, `men–women` of `man–woman`).
pub fn singular_plural_pairs(pairs: &[(String, String)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, (m, f)) in pairs.iter().enumerate() {
        for (j, (pm, pf)) in pairs.iter().enumerate() {
            if is_plural_of(pm, m) && is_plural_of(pf, f) {
                out.push((i, j));
            }
        }
    }
    out
}

/// A row of one configuration: a corpus and an algorithm.
pub(crate) trait ConfigRow {
    /// The row's (corpus, algorithm).
    fn config(&self) -> (&str, &str);
}

/// Implements [`ConfigRow`] for row types with `corpus` and `algorithm` columns.
macro_rules! config_rows {
    ($($row:ident),* $(,)?) => {
        $(impl ConfigRow for retest_tables::$row {
            fn config(&self) -> (&str, &str) {
                (&self.corpus, &self.algorithm)
            }
        })*
    };
}

config_rows!(
    AgreementRow,
    ResidualReliabilityRow,
    SubspaceReliabilityRow,
    ValidityReliabilityRow,
    AnalogyAccuracyRow,
    AnalogyAnswerRow,
    AnalogyPairRow,
    AnalogyReliabilityRow,
    AnalogyReportedRow,
    AnalogySweepRow,
    AnalogyZhangRow,
    BasePairAgreementRow,
    BasePairBaselineRow,
    BasePairCorrelationRow,
    BasePairDirectionRow,
    BasePairExampleRow,
    BasePairFlipRow,
    BasePairKappaRow,
    BasePairSeedsRow,
    BasePairSummaryRow,
    BasePairVarianceRow,
    IccRow,
    SeedSpreadRow,
);

/// The rows of one configuration (corpus, algorithm).
pub(crate) fn of_config<'a, R: ConfigRow>(
    rows: &'a [R],
    config: &'a (String, String),
) -> impl Iterator<Item = &'a R> {
    rows.iter()
        .filter(move |r| r.config() == (config.0.as_str(), config.1.as_str()))
}

/// Values in order of first appearance, once each.
pub(crate) fn distinct<T: PartialEq>(values: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for value in values {
        if !out.contains(&value) {
            out.push(value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_the_papers_then_alphabetical() {
        assert_eq!(
            ordered(["full", "zeta", "occ16", "google10k", "alpha"], &LIST_ORDER),
            ["occ16", "google10k", "full", "alpha", "zeta"]
        );
        assert_eq!(rules_of(["nbm", "dbwa", "ripa"]), ["dbwa", "ripa", "nbm"]);
    }

    #[test]
    fn plural_pairs_of_the_du2021_list() {
        let pairs: Vec<(String, String)> = [
            ("boy", "girl"),
            ("boys", "girls"),
            ("he", "she"),
            ("his", "her"),
            ("his", "hers"),
            ("man", "woman"),
            ("men", "women"),
            ("male", "female"),
            ("males", "females"),
            ("nephew", "niece"),
            ("nephews", "nieces"),
        ]
        .iter()
        .map(|(m, f)| ((*m).to_owned(), (*f).to_owned()))
        .collect();
        assert_eq!(
            singular_plural_pairs(&pairs),
            vec![(0, 1), (5, 6), (7, 8), (9, 10)]
        );
    }

    #[test]
    fn labels() {
        assert_eq!(rule_label("dbwa+ripa+nbm"), "DB/WA + RIPA + NBM");
        assert_eq!(list_label("google10k"), "Google10K");
    }
}
