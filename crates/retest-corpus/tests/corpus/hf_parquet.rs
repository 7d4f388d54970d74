//! Hugging Face Parquet exports of WikiText: a file written here with the `parquet` crate's
//! writer, holding real WikiText-103 lines, reads like the same lines as a token file.

use std::fs::File;
use std::io::Read;
use std::sync::Arc;

use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use retest_corpus::{CorpusBuilder, EncodedCorpus, UnkHandling, WikiTextOptions};

use super::open_data;

const RAW_UNK: WikiTextOptions = WikiTextOptions {
    unk: UnkHandling::RawUnk,
};

/// The first `n` lines of WikiText-2 valid (which has `<unk>`), each with its `"\n"`, as the
/// Hugging Face export stores them (blank lines of the file are `" \n"`).
fn wikitext_lines(n: usize) -> Vec<String> {
    let mut text = String::new();
    open_data("wikitext-2/tokens/valid.txt")
        .read_to_string(&mut text)
        .unwrap();
    text.split_inclusive('\n').take(n).map(str::to_owned).collect()
}

/// Writes rows as a Parquet file with an `id` column and an optional string `text` column,
/// `rows_per_group` rows per row group; `None` rows are nulls.
fn write_parquet(rows: &[Option<String>], rows_per_group: usize) -> File {
    let schema = Arc::new(
        parse_message_type("message schema { REQUIRED INT64 id; OPTIONAL BYTE_ARRAY text (UTF8); }").unwrap(),
    );
    let file = tempfile::tempfile().unwrap();
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(file.try_clone().unwrap(), schema, props).unwrap();
    for (g, group) in rows.chunks(rows_per_group).enumerate() {
        let mut row_group = writer.next_row_group().unwrap();
        let ids: Vec<i64> = (0..group.len() as i64)
            .map(|i| (g * rows_per_group) as i64 + i)
            .collect();
        let mut ids_col = row_group.next_column().unwrap().unwrap();
        ids_col
            .typed::<Int64Type>()
            .write_batch(&ids, None, None)
            .unwrap();
        ids_col.close().unwrap();
        let values: Vec<ByteArray> = group
            .iter()
            .flatten()
            .map(|s| ByteArray::from(s.as_str()))
            .collect();
        let defs: Vec<i16> = group.iter().map(|r| i16::from(r.is_some())).collect();
        let mut text_col = row_group.next_column().unwrap().unwrap();
        text_col
            .typed::<ByteArrayType>()
            .write_batch(&values, Some(&defs), None)
            .unwrap();
        text_col.close().unwrap();
        row_group.close().unwrap();
    }
    writer.close().unwrap();
    file
}

fn from_token_file(lines: &[String]) -> EncodedCorpus {
    let mut builder = CorpusBuilder::new(None);
    builder
        .read_wikitext(lines.concat().as_bytes(), &RAW_UNK)
        .unwrap();
    builder.finish(1)
}

#[test]
fn parquet_rows_read_like_token_file_lines() {
    let lines = wikitext_lines(600);
    // Hugging Face stores blank lines as empty strings; add a few nulls, which give nothing.
    let mut rows: Vec<Option<String>> = lines
        .iter()
        .map(|l| {
            Some(if l.trim().is_empty() {
                String::new()
            } else {
                l.clone()
            })
        })
        .collect();
    rows.insert(10, None);
    rows.insert(300, None);
    let file = write_parquet(&rows, 128);
    let mut builder = CorpusBuilder::new(None);
    let summary = builder.read_hf_parquet(file, &RAW_UNK).unwrap();
    let from_parquet = builder.finish(1);
    let expected = from_token_file(&lines);
    assert_eq!(from_parquet, expected);
    assert_eq!(summary.lines, 602);
    assert_eq!(summary.sentences, expected.n_sentences() as u64);
    assert_eq!(summary.records_read, expected.n_sentences() as u64);
    assert!(from_parquet.vocab().id("<raw_unk>").is_some());
    assert!(from_parquet.n_sentences() > 200);
}

#[test]
fn parquet_respects_the_token_limit() {
    let lines = wikitext_lines(200);
    let rows: Vec<Option<String>> = lines.iter().cloned().map(Some).collect();
    let mut builder = CorpusBuilder::new(Some(1000));
    let summary = builder
        .read_hf_parquet(write_parquet(&rows, 50), &RAW_UNK)
        .unwrap();
    assert!(summary.stopped_at_token_limit);
    assert_eq!(summary.tokens, 1000);
    let mut expected = CorpusBuilder::new(Some(1000));
    expected
        .read_wikitext(lines.concat().as_bytes(), &RAW_UNK)
        .unwrap();
    assert_eq!(builder.finish(1), expected.finish(1));
}

/// A Parquet file of the schema `message` with one row: 1 in its first column (`INT32`) and,
/// when `second` is given, that string in its second column.
fn write_one_row(message: &str, second: Option<&str>) -> File {
    let schema = Arc::new(parse_message_type(message).unwrap());
    let file = tempfile::tempfile().unwrap();
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(file.try_clone().unwrap(), schema, props).unwrap();
    let mut row_group = writer.next_row_group().unwrap();
    let mut col = row_group.next_column().unwrap().unwrap();
    col.typed::<Int32Type>().write_batch(&[1], None, None).unwrap();
    col.close().unwrap();
    if let Some(text) = second {
        let mut col = row_group.next_column().unwrap().unwrap();
        col.typed::<ByteArrayType>()
            .write_batch(&[ByteArray::from(text)], None, None)
            .unwrap();
        col.close().unwrap();
    }
    row_group.close().unwrap();
    writer.close().unwrap();
    file
}

#[test]
fn parquet_without_text_column_names_the_columns_found() {
    let file = write_one_row(
        "message schema { REQUIRED INT32 id; REQUIRED BYTE_ARRAY content (UTF8); }",
        Some("x"),
    );
    let err = CorpusBuilder::new(None)
        .read_hf_parquet(file, &RAW_UNK)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "parquet file has no `text` column (expected a Hugging Face WikiText export); columns \
         found: id, content"
    );
}

#[test]
fn parquet_text_column_of_the_wrong_type_and_non_parquet_input_are_errors() {
    let file = write_one_row("message schema { REQUIRED INT32 text; }", None);
    let err = CorpusBuilder::new(None)
        .read_hf_parquet(file, &RAW_UNK)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "parquet column `text` has physical type INT32, expected a string (BYTE_ARRAY) column"
    );

    let err = CorpusBuilder::new(None)
        .read_hf_parquet(open_data("wikitext-2/tokens/valid.txt"), &RAW_UNK)
        .unwrap_err();
    assert_eq!(err.to_string(), "cannot read parquet file");
    assert!(std::error::Error::source(&err).is_some());
}
