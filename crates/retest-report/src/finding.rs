//! A finding of a paper checked against this run: the claim, the paper's and this run's numbers,
//! the verdict and the criterion in one sentence.

/// Whether a finding holds in this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Replicates,
    DoesNotReplicate,
    NotAvailable,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Replicates => "replicates",
            Verdict::DoesNotReplicate => "does not replicate",
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
}
