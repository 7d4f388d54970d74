//! The Hugging Face Parquet reader for WikiText (`Salesforce/wikitext` exports): the `text`
//! column, one WikiText line per row, tokenised like a WikiText token file.

use std::fs::File;

use parquet::basic::Type as PhysicalType;
use parquet::column::reader::ColumnReader;
use parquet::data_type::ByteArray;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;

use crate::builder::CorpusBuilder;
use crate::error::CorpusError;
use crate::summary::ReadSummary;
use crate::wikitext::WikiTextOptions;

/// Rows decoded per call into the Parquet column reader.
const ROWS_PER_READ: usize = 4096;

impl CorpusBuilder {
    /// Reads a Hugging Face Parquet export of WikiText: the string column `text`, where each row
    /// is one line of the token file (usually ending in `"\n"`). Rows are tokenised exactly as
    /// [`CorpusBuilder::read_wikitext`] tokenises lines; empty, blank and null rows give no
    /// sentence. Other columns are ignored.
    ///
    /// `lines` and `records_read` in the summary count rows and non-blank rows.
    ///
    /// Errors: no top-level `text` column (naming the columns found), a `text` column that is
    /// not a string column, a value that is not UTF-8 (with its row), or a Parquet error.
    pub fn read_hf_parquet(
        &mut self,
        file: File,
        opts: &WikiTextOptions,
    ) -> Result<ReadSummary, CorpusError> {
        let start = self.mark();
        let mut summary = ReadSummary::default();
        let parquet_error = |row_group| move |source| CorpusError::Parquet { row_group, source };
        let reader = SerializedFileReader::new(file).map_err(parquet_error(None))?;
        let schema = reader.metadata().file_metadata().schema_descr();
        let column = (0..schema.num_columns())
            .find(|&i| schema.column(i).path().parts() == ["text"])
            .ok_or_else(|| CorpusError::MissingTextColumn {
                found: (0..schema.num_columns())
                    .map(|i| schema.column(i).path().string())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let descr = schema.column(column);
        if descr.physical_type() != PhysicalType::BYTE_ARRAY {
            return Err(CorpusError::TextColumnType {
                found: descr.physical_type().to_string(),
            });
        }
        let max_def_level = descr.max_def_level();

        let mut values: Vec<ByteArray> = Vec::with_capacity(ROWS_PER_READ);
        let mut def_levels: Vec<i16> = Vec::with_capacity(ROWS_PER_READ);
        'groups: for group in 0..reader.num_row_groups() {
            let row_group = reader.get_row_group(group).map_err(parquet_error(Some(group)))?;
            let ColumnReader::ByteArrayColumnReader(mut column_reader) = row_group
                .get_column_reader(column)
                .map_err(parquet_error(Some(group)))?
            else {
                unreachable!("the physical type was checked to be BYTE_ARRAY");
            };
            loop {
                values.clear();
                def_levels.clear();
                let (rows, _, _) = column_reader
                    .read_records(ROWS_PER_READ, Some(&mut def_levels), None, &mut values)
                    .map_err(parquet_error(Some(group)))?;
                if rows == 0 {
                    break;
                }
                let mut next_value = values.iter();
                for row in 0..rows {
                    if self.is_full() {
                        break 'groups;
                    }
                    summary.lines += 1;
                    let present = max_def_level == 0 || def_levels.get(row) == Some(&max_def_level);
                    if !present {
                        continue;
                    }
                    let value = next_value.next().expect("one value per non-null row");
                    summary.bytes += value.len() as u64;
                    let text = std::str::from_utf8(value.data())
                        .map_err(|_| CorpusError::ParquetUtf8 { row: summary.lines })?;
                    self.push_whitespace_record(text, opts.unk, &mut summary);
                }
            }
        }
        summary.stopped_at_token_limit = self.is_full();
        self.fill_summary(&mut summary, start);
        Ok(summary)
    }
}
