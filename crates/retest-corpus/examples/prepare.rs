//! Prepares one corpus file end to end and reports the time it took:
//! `cargo run --release -p retest-corpus --example prepare -- <wikitext|plain|reddit|reddit-comment|parquet> <file> [min_count]`
//! (`reddit` cuts comments into sentences, `reddit-comment` keeps one comment per sentence).
//! Prints the read summary and corpus statistics as JSON, then the wall time and MB/s.

#![allow(clippy::print_stdout)]

use std::time::Instant;

use retest_corpus::{
    CaseHandling, CorpusBuilder, NewlineHandling, PlainTextOptions, RedditOptions, SentenceSplitting,
    UnkHandling, WikiTextOptions, decompress,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, path, rest @ ..] = &args[..] else {
        return Err(
            "usage: prepare <wikitext|plain|reddit|reddit-comment|parquet> <file> [min_count]".into(),
        );
    };
    let min_count: u64 = rest.first().map(|s| s.parse()).transpose()?.unwrap_or(5);
    let started = Instant::now();
    let file = std::fs::File::open(path)?;
    let mut builder = CorpusBuilder::new(None);
    let wikitext = WikiTextOptions {
        unk: UnkHandling::Keep,
    };
    let (compression, summary) = if kind == "parquet" {
        ("parquet", builder.read_hf_parquet(file, &wikitext)?)
    } else {
        let (compression, reader) = decompress(file)?;
        let summary = match kind.as_str() {
            "wikitext" => builder.read_wikitext(reader, &wikitext)?,
            "plain" => builder.read_plain_text(
                reader,
                &PlainTextOptions {
                    case: CaseHandling::Lower,
                },
            )?,
            "reddit" | "reddit-comment" => builder.read_reddit(
                reader,
                &RedditOptions {
                    subreddits: Vec::new(),
                    years: Vec::new(),
                    newlines: NewlineHandling::Space,
                    sentences: if kind == "reddit" {
                        SentenceSplitting::Split
                    } else {
                        SentenceSplitting::Comment
                    },
                    case: CaseHandling::Lower,
                },
            )?,
            other => return Err(format!("unknown input kind {other:?}").into()),
        };
        (compression.as_str(), summary)
    };
    let read_done = started.elapsed();
    let corpus = builder.finish(min_count);
    let mut binary = Vec::new();
    corpus.write_binary(&mut binary)?;
    let total = started.elapsed();
    println!("compression: {compression}");
    println!("summary: {}", serde_json::to_string_pretty(&summary)?);
    println!("stats: {}", serde_json::to_string_pretty(corpus.stats())?);
    println!(
        "rayon threads: {}, read {:.2} s, total {:.2} s, {:.1} MB/s of decompressed input, \
         binary {} bytes",
        rayon::current_num_threads(),
        read_done.as_secs_f64(),
        total.as_secs_f64(),
        summary.bytes as f64 / 1e6 / total.as_secs_f64(),
        binary.len()
    );
    Ok(())
}
