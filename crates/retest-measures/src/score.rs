//! The bias tensor of one model: every requested rule × base pair × target word, with NBM's
//! neighbour search shared by all pairs.

use rayon::prelude::*;
use retest_geometry::{Blocking, Candidates, KnnKernel, KnnParams, Queries, SelfMatch, top_k_neighbours};

use crate::vectors::{degenerate_pair, dot, dot_f32, unit_difference};
use crate::{MeasureError, Model, NbmPool, NeighbourPool, RipaTarget, Rule};

/// NBM's neighbourhood size in Du et al. (2021) (`bias_measure.py`, default `k = 100`) and in
/// Zhang et al. (2020).
pub const NBM_K_DU2021: usize = 100;

/// How [`score`] computes the rules. There is no `Default`: the pipeline spec resolves every
/// value in one documented place; [`ScoreOptions::paper`] spells out the paper's choices.
#[derive(Debug, Clone, Copy)]
pub struct ScoreOptions<'p> {
    /// RIPA on the raw (paper) or unit (released code) target vector.
    pub ripa_target: RipaTarget,
    /// NBM's neighbourhood size k.
    pub nbm_k: usize,
    /// Where NBM's neighbours come from.
    pub nbm_pool: NeighbourPool<'p>,
    /// Threads for the neighbour search and the scoring loops (the result does not depend on it).
    pub threads: usize,
}

impl ScoreOptions<'static> {
    /// Du, Fang & Nguyen (2021) as the paper describes them: RIPA on raw vectors, NBM with
    /// k = 100 neighbours from the whole vocabulary.
    pub fn paper(threads: usize) -> ScoreOptions<'static> {
        ScoreOptions {
            ripa_target: RipaTarget::Raw,
            nbm_k: NBM_K_DU2021,
            nbm_pool: NeighbourPool::Vocabulary,
            threads,
        }
    }
}

/// A resolved set of measures as a pipeline plan or the command line names them: what the
/// pipeline's measure job and `retest score` both score every model with.
#[derive(Debug, Clone, Copy)]
pub struct Scoring<'r> {
    pub rules: &'r [Rule],
    pub ripa_target: RipaTarget,
    pub nbm_k: usize,
    pub nbm_pool: NbmPool,
    /// With the neutral pool: the gendered words it leaves out besides the base pairs' (the words
    /// of Bolukbasi et al.'s definitional, equalize and gender-specific lists, as Gonen &
    /// Goldberg's and Zhang et al.'s pools leave them out). Unused with the vocabulary.
    pub pool_exclude: &'r [String],
    /// Threads for the neighbour search and the scoring loops (the result does not depend on it).
    pub threads: usize,
}

impl<'r> Scoring<'r> {
    /// These measures over models of the vocabulary `words` (in decreasing frequency order),
    /// with NBM's pool built once: the whole vocabulary less `<unk>` and `<raw_unk>`, or the
    /// neutral pool less every word of `listed_pairs` (all listed base pairs, in vocabulary or
    /// not) and of `pool_exclude`, as [`NeighbourPool::ids_for`] gives.
    pub fn for_vocabulary(self, words: &[String], listed_pairs: &[(String, String)]) -> Scorer<'r> {
        let gendered = (listed_pairs.iter())
            .flat_map(|(m, f)| [m.as_str(), f.as_str()])
            .chain(self.pool_exclude.iter().map(String::as_str));
        Scorer {
            pool_ids: NeighbourPool::ids_for(self.nbm_pool, words, gendered),
            scoring: self,
        }
    }
}

/// A [`Scoring`] with NBM's pool resolved against one vocabulary.
#[derive(Debug, Clone)]
pub struct Scorer<'r> {
    scoring: Scoring<'r>,
    pool_ids: Vec<u32>,
}

impl Scorer<'_> {
    /// The rules scored, in order.
    pub fn rules(&self) -> &[Rule] {
        self.scoring.rules
    }

    /// The threads scoring uses.
    pub fn threads(&self) -> usize {
        self.scoring.threads
    }

    /// Scores `model` (whose vocabulary is the one given to [`Scoring::for_vocabulary`]) with
    /// [`score`]: the base pairs `pair_ids` (in vocabulary) against `targets`.
    ///
    /// # Errors
    ///
    /// As [`score`].
    pub fn score(
        &self,
        model: &Model<'_>,
        pair_ids: &[(u32, u32)],
        targets: &[u32],
    ) -> Result<BiasScores, MeasureError> {
        let s = &self.scoring;
        let opts = ScoreOptions {
            ripa_target: s.ripa_target,
            nbm_k: s.nbm_k,
            nbm_pool: NeighbourPool::of_kind(s.nbm_pool, &self.pool_ids),
            threads: s.threads,
        };
        score(model, pair_ids, targets, s.rules, &opts)
    }
}

/// The bias scores of one model: `rules × pairs × targets`, f32, row-major in that order.
///
/// Stored in f32 (the inputs are f32; every score is computed in f64 and rounded once): a
/// full-vocabulary tensor of 250k targets × 23 pairs × 3 rules is 69 MB per seed.
#[derive(Debug, Clone, PartialEq)]
pub struct BiasScores {
    rules: Vec<Rule>,
    n_pairs: usize,
    n_targets: usize,
    values: Vec<f32>,
    nearest: Option<Vec<f32>>,
    zero_targets: Vec<usize>,
    search: Option<NeighbourSearch>,
}

/// How NBM's neighbour search ran: the filter it used and, when [`KnnKernel::Auto`] chose it by
/// timing both on this CPU, what it measured. It never changes a result.
#[derive(Clone, Debug, PartialEq)]
pub struct NeighbourSearch {
    pub filter: KnnKernel,
    pub timing: Option<retest_geometry::FilterTiming>,
}

impl NeighbourSearch {
    fn of(neighbours: &retest_geometry::Neighbours) -> NeighbourSearch {
        NeighbourSearch {
            filter: neighbours.filter,
            timing: neighbours.filter_timing,
        }
    }
}

impl BiasScores {
    /// How NBM's neighbour search ran; `None` when NBM did not search (not among the rules, or
    /// no target or pair).
    pub fn neighbour_search(&self) -> Option<&NeighbourSearch> {
        self.search.as_ref()
    }

    /// The targets (indexes into the target ids) whose vector is all zeros: they have no
    /// direction, and every score of theirs is NaN.
    pub fn zero_vector_targets(&self) -> &[usize] {
        &self.zero_targets
    }

    /// The cosine of every target's nearest other word in the whole vocabulary, a by-product of
    /// NBM's neighbour search; `None` unless NBM ran with [`NeighbourPool::Vocabulary`].
    pub fn nearest_similarity(&self) -> Option<&[f32]> {
        self.nearest.as_deref()
    }

    /// The rules, in the order of the first axis.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Number of base pairs (second axis).
    pub fn n_pairs(&self) -> usize {
        self.n_pairs
    }

    /// Number of targets (third axis).
    pub fn n_targets(&self) -> usize {
        self.n_targets
    }

    /// All values, `[rule][pair][target]` row-major.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The scores of every target for one rule and pair, or `None` if the rule was not computed.
    pub fn scores(&self, rule: Rule, pair: usize) -> Option<&[f32]> {
        let r = self.rules.iter().position(|&x| x == rule)?;
        let start = (r * self.n_pairs + pair) * self.n_targets;
        Some(&self.values[start..start + self.n_targets])
    }

    /// One score, or `None` if the rule was not computed.
    pub fn get(&self, rule: Rule, pair: usize, target: usize) -> Option<f32> {
        self.scores(rule, pair).map(|s| s[target])
    }
}

/// The bias of every target word against every base pair under every rule, for one model.
///
/// Notation: a base pair is `(m, f)`, masculine then feminine; `x̂ = x/‖x‖₂`; positive scores
/// are masculine (Du, Fang & Nguyen 2021, §3; reference notes §4). All arithmetic is f64 on the
/// f32 vectors, in a fixed order, so scores do not depend on the thread count.
///
/// * **DB/WA** (direct bias, Bolukbasi et al. 2016; word association, Caliskan et al. 2017):
///   `DBWA(w) = cos(w, m) − cos(w, f) = ŵ · (m̂ − f̂)`.
/// * **RIPA** (Ethayarajh, Duvenaud & Hirst 2019): `RIPA(w) = w · (m − f)/‖m − f‖` with the raw
///   `w` ([`RipaTarget::Raw`], the paper) or `ŵ` ([`RipaTarget::Normalized`], Du et al.'s code).
///   Raw RIPA is a dot product with a fixed direction, so it scales with `‖w‖`.
/// * **NBM** (neighbourhood bias metric, Gonen & Goldberg 2019; Zhang et al. 2020):
///   `NBM(w) = (#masc − #fem)/k` over the `k` nearest neighbours of `w` by cosine among the
///   pool (the whole vocabulary by default), `w` itself excluded by identity, where a neighbour
///   `n` is masculine iff `DBWA(n) ≥ 0` for the same pair (a tie at exactly 0 is masculine).
///   Values lie in `{−1, −1 + 2/k, …, 1}`. Du et al.'s code (`bias_measure.batch_nbm_bias`)
///   searches faiss `IndexFlatL2` on unit vectors — the same ranking as cosine — for `k + 1`
///   hits and drops the first, assuming it is the word itself; here the word is removed by its
///   id, which differs only when another word has an identical vector. Neighbours are exact
///   ([`retest_geometry::top_k_neighbours`]: ties by lower word id) and do not depend on the
///   pair, so one search serves all pairs.
///
/// A zero target vector has no direction: it scores NaN under every rule, and
/// [`BiasScores::zero_vector_targets`] lists it.
///
/// # Errors
///
/// A rule listed twice; an id out of range; a degenerate pair (`m = f`, a zero vector, or
/// `m − f = 0`); `nbm_k = 0` or larger than the pool; zero threads.
pub fn score(
    model: &Model<'_>,
    pairs: &[(u32, u32)],
    targets: &[u32],
    rules: &[Rule],
    opts: &ScoreOptions<'_>,
) -> Result<BiasScores, MeasureError> {
    for (i, r) in rules.iter().enumerate() {
        if rules[..i].contains(r) {
            return Err(MeasureError::DuplicateRule { rule: r.as_str() });
        }
    }
    let n = model.n_words();
    let check = |what, id: u32| {
        if (id as usize) < n {
            Ok(())
        } else {
            Err(MeasureError::IdOutOfRange { what, id, n_words: n })
        }
    };
    for &t in targets {
        check("targets", t)?;
    }
    let directions = pairs
        .iter()
        .map(|&(m, f)| {
            check("pairs", m)?;
            check("pairs", f)?;
            PairDirections::new(model, m, f)
        })
        .collect::<Result<Vec<_>, _>>()?;
    if opts.threads == 0 {
        return Err(MeasureError::ThreadPool {
            threads: 0,
            message: "the thread count must be at least 1".into(),
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| MeasureError::ThreadPool {
            threads: opts.threads,
            message: e.to_string(),
        })?;

    let (n_pairs, n_targets) = (pairs.len(), targets.len());
    let mut values = vec![0f32; rules.len() * n_pairs * n_targets];
    let (mut nearest, mut search) = (None, None);
    for (r, rule) in rules.iter().enumerate() {
        let block = &mut values[r * n_pairs * n_targets..(r + 1) * n_pairs * n_targets];
        match rule {
            Rule::Dbwa => pool.install(|| {
                fill(block, n_targets, |p, t| {
                    directions[p].dbwa(model, targets[t]) as f32
                });
            }),
            Rule::Ripa => pool.install(|| {
                fill(block, n_targets, |p, t| {
                    directions[p].ripa(model, targets[t], opts.ripa_target) as f32
                });
            }),
            Rule::Nbm => {
                let (sims, searched) = nbm(model, &directions, targets, opts, &pool, block)?;
                (nearest, search) = (sims, searched);
            }
        }
    }
    let zero_targets: Vec<usize> = (0..n_targets)
        .filter(|&t| model.norm(targets[t]) == 0.0)
        .collect();
    for row in values.chunks_exact_mut(n_targets.max(1)) {
        for &t in &zero_targets {
            row[t] = f32::NAN;
        }
    }
    Ok(BiasScores {
        rules: rules.to_vec(),
        n_pairs,
        n_targets,
        values,
        nearest,
        zero_targets,
        search,
    })
}

/// `block[p · n_targets + t] = f(p, t)`, in parallel over rows of targets.
fn fill(block: &mut [f32], n_targets: usize, f: impl Fn(usize, usize) -> f32 + Sync) {
    if n_targets == 0 {
        return;
    }
    block.par_chunks_mut(n_targets).enumerate().for_each(|(p, row)| {
        row.par_chunks_mut(4096).enumerate().for_each(|(c, chunk)| {
            for (i, v) in chunk.iter_mut().enumerate() {
                *v = f(p, c * 4096 + i);
            }
        })
    });
}

/// NBM for every pair and target from one neighbour search. Returns each target's nearest
/// similarity when the pool is the whole vocabulary, and how the search ran.
fn nbm(
    model: &Model<'_>,
    directions: &[PairDirections],
    targets: &[u32],
    opts: &ScoreOptions<'_>,
    pool: &rayon::ThreadPool,
    block: &mut [f32],
) -> Result<(Option<Vec<f32>>, Option<NeighbourSearch>), MeasureError> {
    let k = opts.nbm_k;
    if k == 0 {
        return Err(MeasureError::BadNbm {
            message: "k must be at least 1".into(),
        });
    }
    if targets.is_empty() || directions.is_empty() {
        return Ok((None, None));
    }
    let n = model.n_words();
    let in_range = |ids: &[u32]| match ids.iter().find(|&&id| id as usize >= n) {
        Some(&id) => Err(MeasureError::IdOutOfRange {
            what: "nbm pool",
            id,
            n_words: n,
        }),
        None => Ok(()),
    };
    // Excluded words are searched for and dropped afterwards: k + |excluded| neighbours over
    // the whole vocabulary keep the symmetric all-words search available.
    let (candidates, excluded) = match opts.nbm_pool {
        NeighbourPool::Vocabulary => (Candidates::All, &[][..]),
        NeighbourPool::VocabularyExcept(ids) => {
            in_range(ids)?;
            (Candidates::All, ids)
        }
        NeighbourPool::Neutral(ids) => {
            in_range(ids)?;
            (Candidates::Ids(ids), &[][..])
        }
    };
    // With the whole vocabulary as the pool and targets covering at least half of it, the
    // symmetric all-words search (n²·d flops) is cheaper than searching the targets (2·T·n·d).
    let all_words = matches!(candidates, Candidates::All) && 2 * targets.len() >= n;
    let queries = if all_words {
        Queries::All
    } else {
        Queries::Ids(targets)
    };
    let row_of = |t: usize| if all_words { targets[t] as usize } else { t };
    let params = KnnParams {
        k: k + excluded.len(),
        self_match: SelfMatch::Exclude,
        threads: opts.threads,
        blocking: Blocking::AUTO,
        kernel: KnnKernel::Auto,
    };
    let neighbours = top_k_neighbours(model.unit(), model.dim(), queries, candidates, &params)?;
    let kept = (!excluded.is_empty()).then(|| Kept::new(&neighbours, excluded, k));
    let ids_of = |q: usize| match &kept {
        Some(kept) => &kept.ids[q * k..(q + 1) * k],
        None => neighbours.ids_of(q),
    };
    let nearest_of = |q: usize| match &kept {
        Some(kept) => kept.nearest[q],
        None => neighbours.sims_of(q)[0],
    };

    // DB/WA of every word that is somebody's neighbour, for every pair: the labels.
    let mut needed = vec![false; n];
    for t in 0..targets.len() {
        for &id in ids_of(row_of(t)) {
            needed[id as usize] = true;
        }
    }
    let n_pairs = directions.len();
    let mut masculine = vec![false; n * n_pairs];
    pool.install(|| {
        masculine
            .par_chunks_mut(n_pairs)
            .enumerate()
            .for_each(|(w, labels)| {
                if needed[w] {
                    for (label, d) in labels.iter_mut().zip(directions) {
                        *label = d.dbwa(model, w as u32) >= 0.0;
                    }
                }
            })
    });
    let n_targets = targets.len();
    pool.install(|| {
        fill(block, n_targets, |p, t| {
            let masc = ids_of(row_of(t))
                .iter()
                .filter(|&&id| masculine[id as usize * n_pairs + p])
                .count();
            let fem = k - masc;
            ((masc as f64 - fem as f64) / k as f64) as f32
        })
    });
    let vocabulary = matches!(
        opts.nbm_pool,
        NeighbourPool::Vocabulary | NeighbourPool::VocabularyExcept(_)
    );
    let nearest = vocabulary.then(|| (0..n_targets).map(|t| nearest_of(row_of(t))).collect());
    Ok((nearest, Some(NeighbourSearch::of(&neighbours))))
}

/// The cosine of each target's nearest other word in the whole vocabulary less `excluded`: what
/// [`BiasScores::nearest_similarity`] gives as a by-product of NBM over the vocabulary, for
/// when NBM does not run or searches another pool.
///
/// # Errors
///
/// A target id out of range, fewer than two words left to search, or zero threads.
pub fn nearest_similarity(
    model: &Model<'_>,
    targets: &[u32],
    excluded: &[u32],
    threads: usize,
) -> Result<Vec<f32>, MeasureError> {
    let params = KnnParams {
        k: 1 + excluded.len(),
        self_match: SelfMatch::Exclude,
        threads,
        blocking: Blocking::AUTO,
        kernel: KnnKernel::Auto,
    };
    let neighbours = top_k_neighbours(
        model.unit(),
        model.dim(),
        Queries::Ids(targets),
        Candidates::All,
        &params,
    )?;
    Ok(Kept::new(&neighbours, excluded, 1).nearest)
}

/// Each query's `k` nearest neighbours once the excluded words are dropped from its list.
struct Kept {
    /// `k` ids per query, best first.
    ids: Vec<u32>,
    /// The cosine of each query's nearest kept neighbour.
    nearest: Vec<f32>,
}

impl Kept {
    fn new(neighbours: &retest_geometry::Neighbours, excluded: &[u32], k: usize) -> Kept {
        let n_queries = neighbours.n_queries();
        let mut ids = Vec::with_capacity(n_queries * k);
        let mut nearest = Vec::with_capacity(n_queries);
        for q in 0..n_queries {
            let mut kept = neighbours
                .ids_of(q)
                .iter()
                .zip(neighbours.sims_of(q))
                .filter(|(id, _)| !excluded.contains(id))
                .take(k);
            let (&first, &sim) = kept.next().expect("k ≥ 1 neighbours survive the exclusion");
            nearest.push(sim);
            ids.push(first);
            ids.extend(kept.map(|(&id, _)| id));
        }
        Kept { ids, nearest }
    }
}

/// RIPA's relation vector `(m − f)/‖m − f‖` of the raw vectors, in f64.
///
/// # Errors
///
/// `m` and `f` with identical vectors.
pub(crate) fn ripa_direction(model: &Model<'_>, m: u32, f: u32) -> Result<Vec<f64>, MeasureError> {
    let (vm, vf) = (model.raw_row(m), model.raw_row(f));
    let diff: Vec<f64> = vm
        .iter()
        .zip(vf)
        .map(|(&a, &b)| f64::from(a) - f64::from(b))
        .collect();
    let norm = dot(&diff, &diff).sqrt();
    if norm == 0.0 {
        return Err(degenerate_pair(
            model,
            m,
            f,
            "the two words have identical vectors",
        ));
    }
    Ok(diff.iter().map(|x| x / norm).collect())
}

/// The two directions of one base pair `(m, f)`, in f64: `m̂ − f̂` (DB/WA) and
/// `(m − f)/‖m − f‖` (RIPA).
#[derive(Debug)]
struct PairDirections {
    unit_diff: Vec<f64>,
    ripa_dir: Vec<f64>,
}

impl PairDirections {
    fn new(model: &Model<'_>, m: u32, f: u32) -> Result<PairDirections, MeasureError> {
        Ok(PairDirections {
            unit_diff: unit_difference(model, m, f)?,
            ripa_dir: ripa_direction(model, m, f)?,
        })
    }

    /// `ŵ · (m̂ − f̂)`, computed as `(w · (m̂ − f̂))/‖w‖` (0 for a zero vector).
    fn dbwa(&self, model: &Model<'_>, w: u32) -> f64 {
        let nw = model.norm(w);
        if nw == 0.0 {
            0.0
        } else {
            dot_f32(model.raw_row(w), &self.unit_diff) / nw
        }
    }

    /// `w · (m − f)/‖m − f‖`, or `ŵ · (m − f)/‖m − f‖` (0 for a zero vector).
    fn ripa(&self, model: &Model<'_>, w: u32, target: RipaTarget) -> f64 {
        let proj = dot_f32(model.raw_row(w), &self.ripa_dir);
        match target {
            RipaTarget::Raw => proj,
            RipaTarget::Normalized => {
                let nw = model.norm(w);
                if nw == 0.0 { 0.0 } else { proj / nw }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neutral_pool_leaves_out_the_pairs_and_the_excluded_words() {
        let words: Vec<String> = ["he", "she", "king", "queen", "nurse", "tree", "<unk>"]
            .map(String::from)
            .to_vec();
        let pairs = [("he".to_owned(), "she".to_owned())];
        let pool = |nbm_pool: NbmPool, pool_exclude: &[String]| {
            let scoring = Scoring {
                rules: &[Rule::Nbm],
                ripa_target: RipaTarget::Raw,
                nbm_k: 1,
                nbm_pool,
                pool_exclude,
                threads: 1,
            };
            scoring.for_vocabulary(&words, &pairs).pool_ids
        };
        let gendered = ["king".to_owned(), "queen".to_owned()];
        assert_eq!(pool(NbmPool::Neutral, &[]), [2, 3, 4, 5]);
        assert_eq!(pool(NbmPool::Neutral, &gendered), [4, 5]);
        // The vocabulary leaves out its placeholders only.
        assert_eq!(pool(NbmPool::Vocabulary, &gendered), [6]);
    }
}
