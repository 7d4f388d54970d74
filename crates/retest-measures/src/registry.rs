//! The registry of measures: every bias measure retest computes, with the stable name that
//! tables, pipeline files and the command line use, the label the literature uses (reports and
//! figures), its family and what it is measured against.
//!
//! A measure's **family** decides which study designs apply to it:
//!
//! * [`Family::PerWord`] — one score per (reference, target word) and model (DB/WA, RIPA, NBM):
//!   test-retest reliability per word and per reference, inter-rater reliability across
//!   measures, internal consistency of queries and of the reference ensemble; the signs of the
//!   scores are also read as gender labels (Zhang et al.'s analyses, κ across seeds);
//! * [`Family::SetLevel`] — one value per test or reference and model (WEAT's effect size,
//!   Direct Bias, Bakarov's detectors): spread and ICC across seeds;
//! * [`Family::Categorical`] — an answer word per query and model (the analogy solvers):
//!   agreement across seeds (Fleiss' κ) and answer frequencies.
//!
//! The types that compute a family's scores are each a subset of this registry:
//! [`crate::Rule`] for the per-word rules (every name and label of a rule is its measure's),
//! and the analogy solvers' [`crate::SolverKind`] (`SolverKind::measure`).

use crate::MeasureError;
use crate::names::{name_text, stable_names};

/// What a measure's scores are made of; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    PerWord,
    SetLevel,
    Categorical,
}

stable_names! {
    /// The stable name (`per-word`, `set-level`, `categorical`).
    Family { PerWord => "per-word", SetLevel => "set-level", Categorical => "categorical" }
}

/// What a measure compares a word or a set of words against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reference {
    /// A base pair (m, f), or the pool of neighbours labelled by one.
    BasePair,
    /// A gender direction: a difference vector, or the first principal component of several.
    Direction,
    /// Two attribute sets (A, B), e.g. male and female terms.
    AttributeSets,
    /// An analogy query a : b :: c : ?.
    Query,
}

stable_names! {
    /// The stable name (`base-pair`, `direction`, `attribute-sets`, `query`).
    Reference {
        BasePair => "base-pair",
        Direction => "direction",
        AttributeSets => "attribute-sets",
        Query => "query",
    }
}

/// Every measure retest computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Measure {
    Dbwa,
    Ripa,
    Nbm,
    Weat,
    Rnd,
    Ect,
    Mac,
    Rnsb,
    DirectBias,
    IndirectBias,
    Os,
    Gd,
    ClusterAccuracy,
    SvmAccuracy,
    NeighbourCorrelation,
    CosAdd,
    CosMul,
    CosMulUnshifted,
    Bolukbasi,
}

/// What the registry says about one measure.
struct Entry {
    name: &'static str,
    label: &'static str,
    family: Family,
    reference: Reference,
    summary: &'static str,
}

impl Measure {
    /// Every measure: the per-word rules in Du et al.'s order, the set-level measures (Gonen &
    /// Goldberg's residual-bias tests last), then the analogy solvers in Nissim et al.'s order.
    pub const ALL: [Measure; 19] = [
        Measure::Dbwa,
        Measure::Ripa,
        Measure::Nbm,
        Measure::Weat,
        Measure::Rnd,
        Measure::Ect,
        Measure::Mac,
        Measure::Rnsb,
        Measure::DirectBias,
        Measure::IndirectBias,
        Measure::Os,
        Measure::Gd,
        Measure::ClusterAccuracy,
        Measure::SvmAccuracy,
        Measure::NeighbourCorrelation,
        Measure::CosAdd,
        Measure::CosMul,
        Measure::CosMulUnshifted,
        Measure::Bolukbasi,
    ];

    fn entry(self) -> Entry {
        let entry = |name, label, family, reference, summary| Entry {
            name,
            label,
            family,
            reference,
            summary,
        };
        use Family::{Categorical, PerWord, SetLevel};
        use Reference::{AttributeSets, BasePair, Direction, Query};
        match self {
            Measure::Dbwa => entry(
                "dbwa",
                "DB/WA",
                PerWord,
                BasePair,
                "direct bias / word association: cos(w, m) − cos(w, f) (Bolukbasi et al. 2016; Caliskan et al. 2017)",
            ),
            Measure::Ripa => entry(
                "ripa",
                "RIPA",
                PerWord,
                BasePair,
                "relational inner product association: w · (m − f)/‖m − f‖ (Ethayarajh et al. 2019)",
            ),
            Measure::Nbm => entry(
                "nbm",
                "NBM",
                PerWord,
                BasePair,
                "neighbourhood bias metric: (#masculine − #feminine)/k of the k nearest neighbours (Gonen & Goldberg 2019)",
            ),
            Measure::Weat => entry(
                "weat",
                "WEAT",
                SetLevel,
                AttributeSets,
                "word embedding association test: effect size and permutation p-value of targets X, Y against attributes A, B (Caliskan et al. 2017)",
            ),
            Measure::Rnd => entry(
                "rnd",
                "RND",
                SetLevel,
                AttributeSets,
                "relative norm distance: mean of ‖w − x̄‖ − ‖w − ȳ‖ over attribute words w, x̄ and ȳ the target sets' means (Garg et al. 2018, as WEFE)",
            ),
            Measure::Ect => entry(
                "ect",
                "ECT",
                SetLevel,
                AttributeSets,
                "embedding coherence test: Spearman's ρ of cos(x̄, w) and cos(ȳ, w) over attribute words w (Dev & Phillips 2019, as WEFE)",
            ),
            Measure::Mac => entry(
                "mac",
                "MAC",
                SetLevel,
                AttributeSets,
                "mean average cosine distance of every target word to every attribute set (Manzini et al. 2019, as WEFE)",
            ),
            Measure::Rnsb => entry(
                "rnsb",
                "RNSB",
                SetLevel,
                AttributeSets,
                "relative negative sentiment bias: KL divergence from uniform of the target words' probabilities of the second attribute set under a logistic regression (Sweeney & Najafian 2019, as WEFE)",
            ),
            Measure::DirectBias => entry(
                "direct_bias",
                "Direct Bias",
                SetLevel,
                Direction,
                "mean |cos(w, g)|^c of neutral words along a gender direction g, or mean ‖ŵ_B‖^c on the span B of the first k principal components (Bolukbasi et al. 2016)",
            ),
            Measure::IndirectBias => entry(
                "indirect_bias",
                "indirect bias β",
                SetLevel,
                Direction,
                "the share of cos(w, v) that removing the gender direction takes away: (ŵ · v̂ − cos(w⊥, v⊥))/(ŵ · v̂) (Bolukbasi et al. 2016)",
            ),
            Measure::Os => entry(
                "os",
                "OS",
                SetLevel,
                Direction,
                "occupational stereotypes: mean |cos(o, g)| of occupations along a gender direction (Bakarov 2021, after Bolukbasi et al. 2016)",
            ),
            Measure::Gd => entry(
                "gd",
                "GD",
                SetLevel,
                AttributeSets,
                "gender direction: relative norm distance of occupations to the female and male means (Bakarov 2021, after Garg et al. 2018)",
            ),
            Measure::ClusterAccuracy => entry(
                "cluster_accuracy",
                "2-means accuracy",
                SetLevel,
                Direction,
                "the share of the most masculine and most feminine words by projection on he − she that 2-means clustering puts with their gender (Gonen & Goldberg 2019)",
            ),
            Measure::SvmAccuracy => entry(
                "svm_accuracy",
                "SVM accuracy",
                SetLevel,
                Direction,
                "the accuracy of an RBF SVM telling the most masculine from the most feminine words by projection on he − she, on words it was not trained on (Gonen & Goldberg 2019)",
            ),
            Measure::NeighbourCorrelation => entry(
                "neighbour_r",
                "bias-by-neighbours r",
                SetLevel,
                Direction,
                "Pearson's r of words' projection on he − she with their share of masculine neighbours (Gonen & Goldberg 2019)",
            ),
            Measure::CosAdd => entry(
                "cosadd",
                "3CosAdd",
                Categorical,
                Query,
                "analogy answer maximising cos(d, b) − cos(d, a) + cos(d, c) (Mikolov et al. 2013)",
            ),
            Measure::CosMul => entry(
                "cosmul",
                "3CosMul",
                Categorical,
                Query,
                "analogy answer maximising s(d, b) · s(d, c)/(s(d, a) + ε), s = (1 + cos)/2 (Levy & Goldberg 2014)",
            ),
            Measure::CosMulUnshifted => entry(
                "cosmul_unshifted",
                "3CosMul (unshifted)",
                Categorical,
                Query,
                "analogy answer maximising cos(d, b) · cos(d, c)/(cos(d, a) + ε), as Nissim et al. (2020) print 3CosMul",
            ),
            Measure::Bolukbasi => entry(
                "bolukbasi",
                "Bolukbasi",
                Categorical,
                Query,
                "analogy answer maximising cos(a − c, b − d) among d within distance δ of b (Bolukbasi et al. 2016)",
            ),
        }
    }

    /// The stable name: tables' columns, pipeline files and the command line spell the measure
    /// this way.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// How the literature writes the measure: report labels and figure legends.
    pub fn label(self) -> &'static str {
        self.entry().label
    }

    pub fn family(self) -> Family {
        self.entry().family
    }

    pub fn reference(self) -> Reference {
        self.entry().reference
    }

    /// One line: what the measure computes and where it comes from.
    pub fn summary(self) -> &'static str {
        self.entry().summary
    }

    /// The label of the measure named `name`, or `name` itself when no measure has it.
    pub fn label_of(name: &str) -> &str {
        name.parse::<Measure>().map_or(name, |m| m.label())
    }
}

name_text!(Measure, name, Measure::ALL, |given| {
    MeasureError::UnknownMeasure { given }
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        for (i, m) in Measure::ALL.iter().enumerate() {
            assert_eq!(m.name().parse::<Measure>().unwrap(), *m);
            assert!(
                Measure::ALL[..i]
                    .iter()
                    .all(|o| o.name() != m.name() && o.label() != m.label()),
                "{m} is named twice"
            );
        }
        let expected = Measure::ALL.map(Measure::name).join(", ");
        assert_eq!(
            "weta".parse::<Measure>().unwrap_err().to_string(),
            format!("unknown measure 'weta': expected one of {expected}")
        );
    }

    #[test]
    fn the_rules_are_the_per_word_measures() {
        let per_word: Vec<Measure> = Measure::ALL
            .into_iter()
            .filter(|m| m.family() == Family::PerWord)
            .collect();
        assert_eq!(per_word, crate::Rule::ALL.map(crate::Rule::measure));
        assert_eq!(Measure::label_of("direct_bias"), "Direct Bias");
        assert_eq!(Measure::label_of("pca"), "pca");
    }
}
