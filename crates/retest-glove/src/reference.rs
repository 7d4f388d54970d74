//! A plain `f64` transcription of glove.c's training loop, for checking the fast `f32`
//! trainer: same initial draws, same record order, glove.c's memory layout and operation
//! order, no SIMD.

use retest_detmath::Profile;
use retest_rng::SeedPath;
use retest_tune::Tuned;

use crate::error::GloveError;
use crate::kernel::GRAD_CLIP;
use crate::records::Cooccurrences;
use crate::shuffle::shuffle;
use crate::train::{GloveConfig, IterationProgress, TrainedGlove, check_inputs, init_value, weight};

/// [`train`](crate::train)'s semantics computed as glove.c computes them: `f64` parameters and
/// accumulators (initialised to 1, not stored as an excess), a sequential dot product, the step
/// of every component computed into a buffer and applied if the buffer's sequential sum is
/// finite. The initial values and the record order are the same draws as [`train`](crate::train)
/// makes for `seed`, and `ln x`, `f(x)` come from the same deterministic functions (in `f64`).
///
/// It is about as slow as glove.c on one thread (no vectorisation, twice the memory traffic of
/// the `f32` trainer); it exists to measure how far the fast trainer's `f32` arithmetic moves
/// the cost curve and the vectors.
pub fn train_reference(
    cooc: &Cooccurrences,
    vocab_size: usize,
    config: &GloveConfig,
    seed: &SeedPath,
    progress: &mut dyn FnMut(IterationProgress),
) -> Result<TrainedGlove, GloveError> {
    check_inputs(cooc, vocab_size, config)?;
    let dim = config.dim;
    let row = dim + 1;
    let v = vocab_size;
    // glove.c's W: 2V rows of (dim components, bias); rows V.. are the context rows.
    let mut rng = seed.stream("init");
    let mut w: Vec<f64> = (0..2 * v * row).map(|_| init_value(&mut rng, dim)).collect();
    let mut gradsq = vec![1.0f64; 2 * v * row];

    struct Rec {
        i: u32,
        j: u32,
        ln_x: f64,
        weight: f64,
    }
    let mut records: Vec<Rec> = cooc
        .iter()
        .map(|r| Rec {
            i: r.i,
            j: r.j,
            ln_x: Profile::GLOVE.ln(r.x),
            weight: weight(r.x, config),
        })
        .collect();
    shuffle(&mut records, &mut seed.stream("shuffle"));

    let clip = f64::from(GRAD_CLIP);
    let eta = config.eta;
    let n = records.len();
    let mut up1 = vec![0.0f64; dim];
    let mut up2 = vec![0.0f64; dim];
    let mut cost_per_iteration = Vec::with_capacity(config.iterations);
    for iteration in 1..=config.iterations {
        let mut cost = 0.0f64;
        for (done, r) in records.iter().enumerate() {
            let l1 = r.i as usize * row;
            let l2 = (r.j as usize + v) * row;
            let mut diff = 0.0;
            for b in 0..dim {
                diff += w[l1 + b] * w[l2 + b];
            }
            diff += w[l1 + dim] + w[l2 + dim] - r.ln_x;
            let fdiff = r.weight * diff;
            if !(diff.is_finite() && fdiff.is_finite()) {
                continue;
            }
            cost += 0.5 * fdiff * diff;
            let (mut s1, mut s2) = (0.0f64, 0.0f64);
            for b in 0..dim {
                let t1 = (fdiff * w[l2 + b]).max(-clip).min(clip) * eta;
                let t2 = (fdiff * w[l1 + b]).max(-clip).min(clip) * eta;
                up1[b] = t1 / gradsq[l1 + b].sqrt();
                up2[b] = t2 / gradsq[l2 + b].sqrt();
                s1 += up1[b];
                s2 += up2[b];
                gradsq[l1 + b] += t1 * t1;
                gradsq[l2 + b] += t2 * t2;
            }
            if s1.is_finite() && s2.is_finite() {
                for b in 0..dim {
                    w[l1 + b] -= up1[b];
                    w[l2 + b] -= up2[b];
                }
            }
            let step1 = fdiff / gradsq[l1 + dim].sqrt();
            let step2 = fdiff / gradsq[l2 + dim].sqrt();
            w[l1 + dim] -= if step1.is_finite() { step1 } else { 0.0 };
            w[l2 + dim] -= if step2.is_finite() { step2 } else { 0.0 };
            gradsq[l1 + dim] += fdiff * fdiff;
            gradsq[l2 + dim] += fdiff * fdiff;
            if (done + 1) % (1 << 20) == 0 {
                progress(IterationProgress::during(
                    iteration,
                    config.iterations,
                    done + 1,
                    n,
                ));
            }
        }
        let mean = cost / n as f64;
        cost_per_iteration.push(mean);
        progress(IterationProgress::finished(iteration, config.iterations, n, mean));
    }
    let mut vectors = Vec::with_capacity(v * dim);
    for word in 0..v {
        for b in 0..dim {
            vectors.push((w[word * row + b] + w[(word + v) * row + b]) as f32);
        }
    }
    Ok(TrainedGlove {
        dim,
        vectors,
        cost_per_iteration,
        prefetch: Tuned::unmeasured(),
    })
}
