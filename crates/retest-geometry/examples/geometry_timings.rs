//! Timings of the geometry kernels on random data, in wall and CPU time, for docs/benchmarks.md.
//!
//! ```text
//! cargo run --release -p retest-geometry --example geometry_timings -- gemm [THREADS]
//! cargo run --release -p retest-geometry --example geometry_timings -- knn V|FILE.fifu [THREADS] [QUERY_ROWS CANDIDATE_COLS] [--dim D] [--kernel auto|f32|bf16] [--write DIR]
//! cargo run --release -p retest-geometry --example geometry_timings -- es V SEEDS [THREADS]
//! ```
//!
//! `knn` times NBM's search (k = 100, dim 300 or `--dim D`, self excluded) over V random unit
//! vectors, or over the L2-normalised vectors of an embedding file (`.fifu`, read with
//! `retest-embeddings`); with `--write DIR` it writes `DIR/vectors.f32` (V × D little-endian f32,
//! row-major), `DIR/ours.u32` (V × 100 neighbour ids) for `bench/faiss_knn.py` and
//! `DIR/ours_sims.f32` (their cosines).
//! `--kernel auto|f32|bf16` sets `KnnParams::kernel` (default `auto`); the ids are the same on
//! every kernel.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::time::Instant;

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, Par};
use retest_geometry::{
    Blocking, Candidates, KnnKernel, KnnParams, Queries, SelfMatch, embedding_stability, normalize_rows,
    top_k_neighbours,
};
use retest_test_support::RandomData;

/// The random data of the geometry tests.
const DATA: RandomData = RandomData::new("retest-geometry-tests");

const DIM: usize = 300;
const K: usize = 100;

/// User + system CPU seconds of this process so far (Linux `/proc/self/stat`, 100 ticks/s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let after = &stat[stat.rfind(')').expect("comm") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

struct Clock {
    wall: Instant,
    cpu: f64,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: cpu_seconds(),
        }
    }
    fn stop(&self) -> (f64, f64) {
        (self.wall.elapsed().as_secs_f64(), cpu_seconds() - self.cpu)
    }
}

fn cpu_features() -> String {
    let mut f = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx512f") {
            f.push("avx512f");
        }
        if is_x86_feature_detected!("avx512bf16") {
            f.push("avx512bf16");
        }
        if is_x86_feature_detected!("avx2") {
            f.push("avx2");
        }
        if is_x86_feature_detected!("fma") {
            f.push("fma");
        }
    }
    f.join(",")
}

fn gemm(threads: usize) {
    let (m, n, k) = (4096, 50_000, DIM);
    let a = Mat::<f32>::from_fn(m, k, |i, j| ((i * 7 + j * 3) % 11) as f32 / 11.0);
    let b = Mat::<f32>::from_fn(k, n, |i, j| ((i * 5 + j * 13) % 17) as f32 / 17.0);
    let mut c = Mat::<f32>::zeros(m, n);
    let par = if threads == 1 {
        Par::Seq
    } else {
        Par::rayon(threads)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    for rep in 0..2 {
        let clock = Clock::start();
        pool.install(|| matmul(c.as_mut(), Accum::Replace, a.as_ref(), b.as_ref(), 1.0, par));
        let (wall, cpu) = clock.stop();
        let flops = 2.0 * (m * n * k) as f64;
        println!(
            "sgemm {m}x{n}x{k} threads {threads} rep {rep}: wall {wall:.3} s ({:.1} GFLOP/s), cpu {cpu:.2} s ({:.1} GFLOP/s per busy core)",
            flops / wall / 1e9,
            flops / cpu / 1e9
        );
    }
    let a64 = Mat::<f64>::from_fn(m, k, |i, j| ((i * 7 + j * 3) % 11) as f64 / 11.0);
    let b64 = Mat::<f64>::from_fn(k, k, |i, j| ((i * 5 + j * 13) % 17) as f64 / 17.0);
    let mut c64 = Mat::<f64>::zeros(m, k);
    let clock = Clock::start();
    for _ in 0..10 {
        matmul(
            c64.as_mut(),
            Accum::Replace,
            a64.as_ref(),
            b64.as_ref(),
            1.0,
            Par::Seq,
        );
    }
    let (wall, cpu) = clock.stop();
    let flops = 10.0 * 2.0 * (m * k * k) as f64;
    println!(
        "dgemm {m}x{k}x{k} x10 sequential: wall {wall:.3} s ({:.1} GFLOP/s), cpu {cpu:.2} s ({:.1} GFLOP/s)",
        flops / wall / 1e9,
        flops / cpu / 1e9
    );
}

fn parse_kernel(name: &str) -> KnnKernel {
    match name {
        "auto" => KnnKernel::Auto,
        "f32" => KnnKernel::F32,
        "bf16" => KnnKernel::Bf16,
        _ => panic!("--kernel auto|f32|bf16, not {name}"),
    }
}

fn knn(args: &[String]) {
    let threads: usize = args.get(1).map_or(2, |s| s.parse().expect("THREADS"));
    let mut blocking = Blocking::AUTO;
    let mut write = None;
    let mut dim = DIM;
    let mut kernel_name = String::from("auto");
    let mut rest = args.iter().skip(2);
    let mut positional = Vec::new();
    while let Some(a) = rest.next() {
        if a == "--write" {
            write = Some(rest.next().expect("--write DIR").clone());
        } else if a == "--dim" {
            dim = rest.next().expect("--dim D").parse().expect("--dim D");
        } else if a == "--kernel" {
            kernel_name = rest.next().expect("--kernel NAME").clone();
        } else {
            positional.push(a.parse::<usize>().expect("QUERY_ROWS CANDIDATE_COLS"));
        }
    }
    if let [qr, cc] = positional[..] {
        blocking = Blocking {
            query_rows: qr,
            candidate_cols: cc,
        };
    }
    let kernel = parse_kernel(&kernel_name);
    let (v, unit) = match args[0].parse::<usize>() {
        Ok(v) => (v, normalize_rows(&DATA.gaussian(v, dim, 2021), dim)),
        Err(_) => {
            let emb = retest_embeddings::read(std::path::Path::new(&args[0]), None).expect("embeddings");
            dim = emb.dim();
            (emb.n_words(), normalize_rows(emb.vectors(), dim))
        }
    };
    let params = KnnParams {
        k: K,
        self_match: SelfMatch::Exclude,
        threads,
        blocking,
        kernel,
    };
    let clock = Clock::start();
    let nn = top_k_neighbours(&unit, dim, Queries::All, Candidates::All, &params).unwrap();
    let (wall, cpu) = clock.stop();
    let full_flops = 2.0 * (v as f64).powi(2) * dim as f64;
    let scale = (250_000.0 / v as f64).powi(2);
    println!(
        "knn V={v} dim={dim} k={K} threads={threads} tile={}x{} cpu=[{}] kernel={} (filter {:?}): wall {wall:.2} s, cpu {cpu:.2} s, \
         rescued rows {}; effective {:.1} GFLOP/s (2·V²·d / wall); extrapolated to V=250k: wall {:.0} s, cpu {:.0} s",
        blocking.query_rows,
        blocking.candidate_cols,
        cpu_features(),
        kernel_name,
        nn.filter,
        nn.rescued_rows,
        full_flops / wall / 1e9,
        wall * scale,
        cpu * scale
    );
    if let Some(t) = nn.filter_timing {
        println!(
            "auto measured ({} timed rows, {} window rows, {:.1} ms): f32 {:.0} ns/row, bf16 {:.0} ns/row \
             (cap {}, rescue share {:.3}, rescue {:.0} ns/row, re-score {:.1} ns/candidate) => {:?}; \
             predicted search of {v} rows on one thread: f32 {:.2} s, bf16 {:.2} s",
            t.timed_rows,
            t.window_rows,
            t.measure_ns / 1e6,
            t.f32_ns_per_row,
            t.bf16_ns_per_row,
            t.bf16_cap,
            t.bf16_rescue_share,
            t.rescue_ns_per_row,
            t.rescore_ns,
            nn.filter,
            t.f32_ns_per_row * v as f64 / 1e9,
            t.bf16_ns_per_row * v as f64 / 1e9,
        );
    }
    if let Some(dir) = write {
        let dir = std::path::Path::new(&dir);
        std::fs::create_dir_all(dir).unwrap();
        let bytes: Vec<u8> = unit.iter().flat_map(|x| x.to_le_bytes()).collect();
        std::fs::write(dir.join("vectors.f32"), bytes).unwrap();
        let bytes: Vec<u8> = nn.ids.iter().flat_map(|x| x.to_le_bytes()).collect();
        std::fs::write(dir.join("ours.u32"), bytes).unwrap();
        let bytes: Vec<u8> = nn.sims.iter().flat_map(|x| x.to_le_bytes()).collect();
        std::fs::write(dir.join("ours_sims.f32"), bytes).unwrap();
        println!("wrote {}/vectors.f32, ours.u32 and ours_sims.f32", dir.display());
    }
}

fn es(args: &[String]) {
    let v: usize = args[0].parse().expect("V");
    let seeds: usize = args[1].parse().expect("SEEDS");
    let threads: usize = args.get(2).map_or(2, |s| s.parse().expect("THREADS"));
    // Seed models: one base embedding plus independent noise per seed, so ES varies by word.
    let base = DATA.gaussian(v, DIM, 7);
    let models: Vec<Vec<f32>> = (0..seeds)
        .map(|s| {
            let noise = DATA.gaussian(v, DIM, 100 + s as u64);
            base.iter().zip(&noise).map(|(b, e)| b + 0.5 * e).collect()
        })
        .collect();
    let refs: Vec<&[f32]> = models.iter().map(Vec::as_slice).collect();
    let clock = Clock::start();
    let es = embedding_stability(&refs, v, DIM, threads).unwrap();
    let (wall, cpu) = clock.stop();
    let pairs = seeds * (seeds - 1) / 2;
    let mean = es.iter().sum::<f64>() / v as f64;
    let pairs32 = 496.0 / pairs as f64;
    let scale = 250_000.0 / v as f64;
    println!(
        "es V={v} dim={DIM} seeds={seeds} ({pairs} pairs) threads={threads}: wall {wall:.2} s, cpu {cpu:.2} s \
         ({:.3} s wall per pair); mean ES {mean:.4}; extrapolated to 32 seeds (496 pairs) at V=250k: wall {:.0} s, cpu {:.0} s",
        wall / pairs as f64,
        wall * pairs32 * scale,
        cpu * pairs32 * scale
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gemm") => gemm(args.get(1).map_or(2, |s| s.parse().expect("THREADS"))),
        Some("knn") => knn(&args[1..]),
        Some("es") => es(&args[1..]),
        _ => eprintln!(
            "usage: geometry_timings gemm [THREADS] | knn V|FILE.fifu [THREADS] [QR CC] [--dim D] [--kernel auto|f32|bf16] [--write DIR] | es V SEEDS [THREADS]"
        ),
    }
}
