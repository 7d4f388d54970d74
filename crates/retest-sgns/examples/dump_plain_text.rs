//! Tokenises running text with `retest-corpus`' plain-text reader and writes it back as a
//! whitespace-tokenised file, one paragraph per line, so that other tools (gensim, word2vec.c)
//! train on exactly the tokens `retest` sees:
//! `cargo run --release -p retest-sgns --example dump_plain_text -- IN[.xz|.bz2|.zst|.gz] OUT.txt [MAX_TOKENS]`.

#![allow(clippy::print_stderr)]

use std::io::{BufWriter, Write};

use retest_corpus::{CaseHandling, CorpusBuilder, PlainTextOptions, decompress};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, rest @ ..] = &args[..] else {
        return Err("usage: dump_plain_text IN OUT [MAX_TOKENS]".into());
    };
    let max_tokens: Option<u64> = rest.first().map(|s| s.parse()).transpose()?;
    let (_, reader) = decompress(std::fs::File::open(input)?)?;
    let mut builder = CorpusBuilder::new(max_tokens);
    builder.read_plain_text(
        reader,
        &PlainTextOptions {
            case: CaseHandling::Lower,
        },
    )?;
    // min_count 1 keeps every token: the reader's output, unfiltered.
    let corpus = builder.finish(1);
    let words = corpus.vocab().words();
    let mut out = BufWriter::new(std::fs::File::create(output)?);
    for sentence in corpus.sentences() {
        let mut first = true;
        for &id in sentence {
            if !first {
                out.write_all(b" ")?;
            }
            first = false;
            out.write_all(words[id as usize].as_bytes())?;
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    eprintln!(
        "{} tokens, {} sentences, {} distinct words written to {output}",
        corpus.stats().tokens,
        corpus.n_sentences(),
        words.len()
    );
    Ok(())
}
