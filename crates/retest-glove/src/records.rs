//! The merged co-occurrence table: records `(i, j, X_ij)` sorted by `(i, j)`.

use crate::error::GloveError;

/// One non-zero co-occurrence: word `i` (row), context word `j` (column) and the weighted count
/// `x = X_ij = Σ 1/d` over the occurrences of `j` within the window of `i` at distance `d`.
///
/// The layout (`#[repr(C)]`, 16 bytes) matches glove.c's `CREC` except that ids start at 0.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct CoocRecord {
    /// Row word id (vocabulary rank, 0 = most frequent).
    pub i: u32,
    /// Column (context) word id.
    pub j: u32,
    /// Weighted count, finite and `> 0`.
    pub x: f64,
}

/// A co-occurrence table: every non-zero `X_ij` once, sorted by `(i, j)`, over a vocabulary of
/// [`Self::vocab_size`] words. Symmetric windows make it symmetric (`X_ij = X_ji`, both stored),
/// as glove.c's `cooccur -symmetric 1` output.
///
/// Built by [`count_cooccurrences`](crate::count_cooccurrences) or read back with
/// [`read_cooccurrences`](crate::read_cooccurrences); computed once per corpus and shared by
/// every seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Cooccurrences {
    vocab_size: usize,
    records: Vec<CoocRecord>,
}

impl Cooccurrences {
    /// A table from records, checked: ids below `vocab_size`, `(i, j)` strictly increasing,
    /// weights finite and positive.
    pub fn new(vocab_size: usize, records: Vec<CoocRecord>) -> Result<Cooccurrences, GloveError> {
        check_records(vocab_size, &records)?;
        Ok(Cooccurrences { vocab_size, records })
    }

    /// A table from records the caller guarantees to be valid (the counter's own output).
    pub(crate) fn from_valid(vocab_size: usize, records: Vec<CoocRecord>) -> Cooccurrences {
        debug_assert!(check_records(vocab_size, &records).is_ok());
        Cooccurrences { vocab_size, records }
    }

    /// Vocabulary size of the corpus the table was counted on (every id is below it).
    pub fn vocab_size(&self) -> usize {
        self.vocab_size
    }

    /// Number of non-zero records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the table has no record.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The records, sorted by `(i, j)`.
    pub fn records(&self) -> &[CoocRecord] {
        &self.records
    }

    /// The records, sorted by `(i, j)`.
    pub fn iter(&self) -> std::slice::Iter<'_, CoocRecord> {
        self.records.iter()
    }

    /// `Σ X_ij` over all records, summed in record order.
    pub fn total_weight(&self) -> f64 {
        self.records.iter().map(|r| r.x).sum()
    }

    /// The record of `(i, j)`, if non-zero (binary search).
    pub fn get(&self, i: u32, j: u32) -> Option<f64> {
        self.records
            .binary_search_by(|r| (r.i, r.j).cmp(&(i, j)))
            .ok()
            .map(|k| self.records[k].x)
    }

    /// The records, by value.
    pub fn into_records(self) -> Vec<CoocRecord> {
        self.records
    }
}

impl<'a> IntoIterator for &'a Cooccurrences {
    type Item = &'a CoocRecord;
    type IntoIter = std::slice::Iter<'a, CoocRecord>;
    fn into_iter(self) -> Self::IntoIter {
        self.records.iter()
    }
}

fn check_records(vocab_size: usize, records: &[CoocRecord]) -> Result<(), GloveError> {
    let mut previous = None;
    for (index, r) in records.iter().enumerate() {
        check_record(index as u64, r, vocab_size, previous)?;
        previous = Some((r.i, r.j));
    }
    Ok(())
}

/// Checks one record against the table invariants, given the previous record's `(i, j)`.
pub(crate) fn check_record(
    index: u64,
    r: &CoocRecord,
    vocab_size: usize,
    previous: Option<(u32, u32)>,
) -> Result<(), GloveError> {
    let reason = if r.i as usize >= vocab_size || r.j as usize >= vocab_size {
        Some("word id not below the vocabulary size")
    } else if previous.is_some_and(|p| p >= (r.i, r.j)) {
        Some("records are not strictly increasing in (i, j)")
    } else if !(r.x.is_finite() && r.x > 0.0) {
        Some("weight is not finite and positive")
    } else {
        None
    };
    match reason {
        None => Ok(()),
        Some(reason) => Err(GloveError::InvalidRecord {
            index,
            i: r.i,
            j: r.j,
            x: r.x,
            reason,
        }),
    }
}
