//! A finding of a paper checked against this run: the claim, the paper's and this run's numbers,
//! the verdict and the criterion in one sentence.

/// Whether a finding holds in this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Replicates,
    DoesNotReplicate,
    /// The run could check the finding, but on less evidence than [`Evidence`]'s floors.
    NotEnoughEvidence,
    NotAvailable,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Replicates => "replicates",
            Verdict::DoesNotReplicate => "does not replicate",
            Verdict::NotEnoughEvidence => "not enough evidence",
            Verdict::NotAvailable => "not available",
        }
    }

    pub(crate) fn of(holds: bool) -> Self {
        if holds {
            Verdict::Replicates
        } else {
            Verdict::DoesNotReplicate
        }
    }
}

/// One row of the comparison table.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// What the paper claims, with where.
    pub claim: String,
    /// The paper's number(s).
    pub paper: String,
    /// This run's number(s).
    pub this_run: String,
    pub verdict: Verdict,
    /// One sentence: the criterion and the outcome.
    pub sentence: String,
}

impl Finding {
    pub(crate) fn missing(claim: &str, paper: &str, what: &str) -> Self {
        Finding {
            claim: claim.to_owned(),
            paper: paper.to_owned(),
            this_run: "—".to_owned(),
            verdict: Verdict::NotAvailable,
            sentence: format!("Cannot be checked: {what}."),
        }
    }

    /// A finding this run checked: replicated when `holds`, with the sentence `sentence` gives
    /// for the verdict (`replicates`, `does not replicate`).
    pub(crate) fn judged(
        claim: String,
        paper: String,
        this_run: String,
        holds: bool,
        sentence: impl FnOnce(&str) -> String,
    ) -> Self {
        let verdict = Verdict::of(holds);
        Finding {
            claim,
            paper,
            this_run,
            verdict,
            sentence: sentence(verdict.as_str()),
        }
    }

    /// This finding, or "not enough evidence" when it rests on `have` `what` (`seeds`,
    /// questions) and the floor is more: the verdict is then not claimed, and the
    /// sentence says why.
    pub(crate) fn needing(mut self, what: &str, have: u64, floor: u64) -> Self {
        if have < floor && matches!(self.verdict, Verdict::Replicates | Verdict::DoesNotReplicate) {
            self.verdict = Verdict::NotEnoughEvidence;
            self.sentence = format!(
                "{} That outcome is no verdict: it rests on {have} {what}, fewer than the report's floor of {floor}.",
                self.sentence
            );
        }
        self
    }
}

/// The least evidence a verdict may rest on; a finding checked on less is "not enough evidence".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// Seeds per configuration in this run.
    pub n_seeds: u64,
}

impl Evidence {
    /// Seeds a finding about behaviour across seeds needs: with fewer, a spread, a rank or a
    /// reliability across seeds describes a handful of draws, not a distribution.
    pub const MIN_SEEDS: u64 = 5;
    /// Questions with every word in the vocabulary a finding about analogy accuracy needs (per
    /// seed, on average): with fewer, a difference of accuracies is a difference of a few answers.
    pub const MIN_QUESTIONS: u64 = 100;

    /// `findings`, each "not enough evidence" if this run has fewer than [`Self::MIN_SEEDS`].
    pub(crate) fn judge(self, findings: Vec<Finding>) -> Vec<Finding> {
        (findings.into_iter())
            .map(|f| f.needing("seeds", self.n_seeds, Self::MIN_SEEDS))
            .collect()
    }
}
