//! The scoring rules and their switches, with the stable names used in tables and on the command
//! line.

use serde::{Deserialize, Serialize};

use crate::names::{name_text, stable_names};
use crate::{Measure, MeasureError};

/// A rule that scores the gender bias of a target word against one base pair (m, f).
/// Positive scores are masculine. Formulas: [`crate::score`].
///
/// The per-word measures of the registry ([`Measure`], family [`crate::Family::PerWord`]):
/// pipeline specs (serde), the command line ([`FromStr`]) and the tables' `rule` column
/// ([`Rule::as_str`]) all spell a rule as its measure does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Direct bias / word association: `cos(w, m) − cos(w, f)`.
    Dbwa,
    /// Relational inner product association: `w · (m − f)/‖m − f‖`.
    Ripa,
    /// Neighbourhood bias metric: `(#masculine − #feminine)/k` over the k nearest neighbours.
    Nbm,
}

impl Rule {
    /// Every rule, in the order of Du et al. (2021).
    pub const ALL: [Rule; 3] = [Rule::Dbwa, Rule::Ripa, Rule::Nbm];

    /// The rule's entry in the registry of measures, which names and labels it.
    pub fn measure(self) -> Measure {
        match self {
            Rule::Dbwa => Measure::Dbwa,
            Rule::Ripa => Measure::Ripa,
            Rule::Nbm => Measure::Nbm,
        }
    }

    /// The stable name: the `rule` column of every table and the CLI spelling
    /// ([`Measure::name`]).
    pub fn as_str(self) -> &'static str {
        self.measure().name()
    }

    /// How the literature writes the rule: report labels and figure legends
    /// ([`Measure::label`]).
    pub fn label(self) -> &'static str {
        self.measure().label()
    }
}

name_text!(Rule, as_str, Rule::ALL, |given| MeasureError::UnknownRule {
    given
});

/// Which target vector RIPA projects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RipaTarget {
    /// The raw vector `w`, as Ethayarajh et al. (2019), Zhang et al. (2020) and WEFE define RIPA,
    /// and as the paper states (the default).
    Raw,
    /// The unit vector `ŵ`, as Du et al.'s released code computes it (`bias_measure.batch_ripa_bias`).
    Normalized,
}

stable_names! {
    /// The stable name (`raw`, `normalized`), as in the pipeline spec's `ripa_target`.
    RipaTarget { Raw => "raw", Normalized => "normalized" }
    option: "RIPA target"
}

/// Which words NBM takes neighbours from (the tag of a [`NeighbourPool`], for tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NbmPool {
    /// The whole model vocabulary, as Du et al. (2021) (the default).
    Vocabulary,
    /// A gender-neutral pool, as Gonen & Goldberg (2019) and Zhang et al. (2020).
    Neutral,
}

stable_names! {
    /// The stable name (`vocabulary`, `neutral`), as in the pipeline spec's `nbm_pool`.
    NbmPool { Vocabulary => "vocabulary", Neutral => "neutral" }
    option: "NBM pool"
}

/// The words NBM takes neighbours from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NeighbourPool<'p> {
    /// Every word of the model.
    Vocabulary,
    /// Every word of the model but these ids: the placeholder tokens `<unk>` and `<raw_unk>`,
    /// which Du et al.'s code removes from every model it loads (see [`crate::placeholder_ids`]).
    VocabularyExcept(&'p [u32]),
    /// Only these word ids (order and repeats do not matter); see [`crate::neutral_pool`].
    Neutral(&'p [u32]),
}

impl<'p> NeighbourPool<'p> {
    /// The pool of kind `kind` over ids from [`NeighbourPool::ids_for`].
    pub fn of_kind(kind: NbmPool, ids: &'p [u32]) -> NeighbourPool<'p> {
        match kind {
            NbmPool::Vocabulary => NeighbourPool::VocabularyExcept(ids),
            NbmPool::Neutral => NeighbourPool::Neutral(ids),
        }
    }

    /// The ids a pool of kind `kind` needs over the vocabulary `words` (in decreasing frequency
    /// order): the placeholder words to leave out of the whole vocabulary, or the members of the
    /// neutral pool, which leaves out the `gendered` words ([`crate::neutral_pool`]).
    pub fn ids_for<'g>(
        kind: NbmPool,
        words: &[String],
        gendered: impl IntoIterator<Item = &'g str>,
    ) -> Vec<u32> {
        match kind {
            NbmPool::Vocabulary => crate::placeholder_ids(words),
            NbmPool::Neutral => crate::neutral_pool(words, gendered, crate::NEUTRAL_POOL_MOST_FREQUENT),
        }
    }

    /// The tag of this pool.
    pub fn kind(&self) -> NbmPool {
        match self {
            NeighbourPool::Vocabulary | NeighbourPool::VocabularyExcept(_) => NbmPool::Vocabulary,
            NeighbourPool::Neutral(_) => NbmPool::Neutral,
        }
    }
}
