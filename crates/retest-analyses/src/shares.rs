//! How many words or base pairs are poorly reliable: the share whose ICC falls below a threshold,
//! as Du et al. (2021, §5.2) compare Google10K with the full vocabulary.

use crate::Scale;
use crate::study::{IccRecord, Raters, Subject};

/// Koo & Li's (2016) bound of poor reliability: an ICC below 0.5.
pub const POOR_RELIABILITY: f64 = 0.5;

/// The share of one group of ICC records (same raters, scale, list and kind of subject) below a
/// threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShareRecord {
    pub raters: Raters,
    pub scale: Scale,
    pub list: usize,
    /// Whether the group rates words (`true`) or base pairs.
    pub words: bool,
    /// Records whose ICC is a number (status `ok`).
    pub n_rated: usize,
    /// Of those, records whose ICC is below the threshold.
    pub n_below: usize,
    /// `n_below / n_rated`; NaN when nothing was rated.
    pub share_below: f64,
    /// Records whose ICC is NaN (degenerate matrices), not in `n_rated`.
    pub n_undefined: usize,
}

/// Groups `records` by (raters, scale, list, kind of subject), in order of first appearance, and
/// counts the ICCs below `threshold` in each.
pub fn low_reliability(records: &[IccRecord], threshold: f64) -> Vec<ShareRecord> {
    let mut shares: Vec<ShareRecord> = Vec::new();
    for r in records {
        let words = matches!(r.subject, Subject::Word(_));
        let same = |s: &&mut ShareRecord| {
            s.raters == r.raters && s.scale == r.scale && s.list == r.list && s.words == words
        };
        let share = match shares.iter_mut().find(same) {
            Some(share) => share,
            None => {
                shares.push(ShareRecord {
                    raters: r.raters,
                    scale: r.scale,
                    list: r.list,
                    words,
                    n_rated: 0,
                    n_below: 0,
                    share_below: f64::NAN,
                    n_undefined: 0,
                });
                shares.last_mut().expect("just pushed")
            }
        };
        if r.result.status.is_ok() {
            share.n_rated += 1;
            share.n_below += usize::from(r.result.value < threshold);
        } else {
            share.n_undefined += 1;
        }
    }
    for s in &mut shares {
        if s.n_rated > 0 {
            s.share_below = s.n_below as f64 / s.n_rated as f64;
        }
    }
    shares
}
