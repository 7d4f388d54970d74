//! The two file formats of a table, chosen by the file's name, and how to tell them by content.

use std::fmt;
use std::path::Path;

/// A table file format. A table file's name ends in the format's [`TableFormat::extension`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// zstd-compressed Parquet (`.parquet`).
    Parquet,
    /// Comma-separated values with a header line (`.csv`).
    Csv,
}

impl TableFormat {
    /// Every format, in a fixed order.
    pub const ALL: [TableFormat; 2] = [TableFormat::Parquet, TableFormat::Csv];

    /// The format a file name ends in: `.parquet` or `.csv`, else `None`.
    pub fn from_path(path: &Path) -> Option<TableFormat> {
        let extension = path.extension()?;
        TableFormat::ALL.into_iter().find(|f| extension == f.extension())
    }

    /// The file name extension, without the dot: `parquet` or `csv`.
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Parquet => "parquet",
            TableFormat::Csv => "csv",
        }
    }

    /// Whether a file starting with `head` (its first bytes, up to 64 KiB or so) may hold a
    /// table of this format: Parquet starts with the magic `PAR1`; CSV is text (UTF-8 with no
    /// NUL byte, a character cut at the end of `head` allowed). An empty file may hold either.
    /// A text file that is not CSV (word2vec or GloVe text, say) passes for CSV here: telling
    /// those apart is the caller's part.
    pub fn may_hold(self, head: &[u8]) -> bool {
        if head.is_empty() {
            return true;
        }
        match self {
            TableFormat::Parquet => head.starts_with(PARQUET_MAGIC),
            TableFormat::Csv => is_text(head),
        }
    }
}

impl fmt::Display for TableFormat {
    /// `Parquet` or `CSV`, as a message names the format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableFormat::Parquet => "Parquet",
            TableFormat::Csv => "CSV",
        })
    }
}

/// The first four bytes of every Parquet file.
const PARQUET_MAGIC: &[u8] = b"PAR1";

/// UTF-8 without NUL bytes, allowing the last character to be cut off.
fn is_text(head: &[u8]) -> bool {
    if head.contains(&0) {
        return false;
    }
    match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_follows_the_extension() {
        let of = |name: &str| TableFormat::from_path(Path::new(name));
        assert_eq!(of("out/scores.parquet"), Some(TableFormat::Parquet));
        assert_eq!(of("scores.csv"), Some(TableFormat::Csv));
        assert_eq!(of("scores.txt"), None);
        assert_eq!(of("scores.CSV"), None);
        assert_eq!(of("scores"), None);
        assert_eq!(of("scores.csv.gz"), None);
    }

    #[test]
    fn content_tells_parquet_from_text() {
        assert!(TableFormat::Parquet.may_hold(b"PAR1\x15\x04"));
        assert!(!TableFormat::Parquet.may_hold(b"a,b\n1,2\n"));
        assert!(TableFormat::Csv.may_hold(b"a,b\n1,2\n"));
        assert!(TableFormat::Csv.may_hold("word,naïve".as_bytes()));
        // A character cut by the end of the head is still text; a broken one is not.
        assert!(TableFormat::Csv.may_hold(&"é".as_bytes()[..1]));
        assert!(!TableFormat::Csv.may_hold(b"\xff\xfeabc"));
        assert!(!TableFormat::Csv.may_hold(b"PAR1\x00\x15"));
        assert!(!TableFormat::Csv.may_hold(b"FiFu\x01\x00\x00\x00"));
        for format in TableFormat::ALL {
            assert!(format.may_hold(b""), "{format}: an empty file");
        }
    }
}
