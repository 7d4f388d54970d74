//! The one policy for the files and folders a user names as a command's output (`--out`,
//! `--output`): `retest score`, `weat`, `direct-bias`, `analogies` and `base-pairs`,
//! `retest sgns` and `glove`, `retest embeddings export` and `retest report --out`. Each command
//! checks its output before any work, so a refusal costs nothing.
//!
//! 1. **Never an input.** An output that is one of the command's inputs — the same path, or the
//!    same file through another one (a symbolic or hard link, `./`, `..`) — is refused, with
//!    `--force` too.
//! 2. **The format follows the name.** A table is `.parquet` or `.csv`; an embedding file is
//!    `.fifu`, `.txt` or `.vec` (word2vec text), `.bin` (word2vec binary) or `.txt` (GloVe text),
//!    where `--format` chooses between the two text formats of `.txt` and, when given, must agree
//!    with the name. Any other name is refused with the accepted ones.
//! 3. **What is there stays unless it is of the same kind.** A table replaces an empty file or
//!    a table of its own format (Parquet for `.parquet`; for `.csv` text whose first line is a
//!    header of two or more column names, letters, digits and `_`), anything else only with
//!    `--force`. An embedding file replaces nothing but an empty file
//!    without `--force` (a model and its training metadata may be hours of work). `retest base-pairs` writes a
//!    new folder; the report goes into a new or empty folder or one holding an earlier report.
//!    A folder is never replaced by a file.
//! 4. **A link is not followed.** An output written atomically replaces the path it is given,
//!    so a symbolic link there would become a file and its target keep its old content: an
//!    output that is a link is refused, with `--force` too; name the file it points to.

use std::fmt;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};
use retest_embeddings::Format;
use retest_tables::TableFormat;

/// Whether a command may replace an existing output that the policy keeps otherwise
/// (`--force`). Inputs and folders are never replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overwrite {
    /// Keep a file of another kind (for embeddings: any file) and stop with an error.
    Refuse,
    /// Replace it.
    Force,
}

impl Overwrite {
    /// [`Overwrite::Force`] when `--force` was given.
    pub fn forced(force: bool) -> Overwrite {
        if force {
            Overwrite::Force
        } else {
            Overwrite::Refuse
        }
    }
}

/// Refuses `out` (given as `flag`) when it is one of `inputs`: the same path, or the same file
/// through another path.
///
/// # Errors
///
/// `out` is one of the inputs.
pub(crate) fn refuse_input(flag: &str, out: &Path, inputs: &[&Path]) -> Result<()> {
    if let Some(input) = inputs.iter().find(|input| same_file(input, out)) {
        bail!(
            "{flag} {}: that is the input file {}; choose another output file",
            out.display(),
            input.display()
        );
    }
    Ok(())
}

/// Refuses an output path that is a symbolic link (policy 4), with `--force` too.
///
/// # Errors
///
/// `out` is a symbolic link.
fn refuse_link(flag: &str, out: &Path) -> Result<()> {
    if out.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
        bail!(
            "{flag} {}: that is a symbolic link, which the output would replace (not its target); name \
             the file itself",
            out.display()
        );
    }
    Ok(())
}

/// Checks the table file `out` (`--out`) of a command reading `inputs`, and returns its format.
///
/// # Errors
///
/// `out` is an input, a link or a folder, its name ends in neither `.parquet` nor `.csv`, or it
/// is a file that may not hold a table of that format and `overwrite` is [`Overwrite::Refuse`].
pub(crate) fn table_file(out: &Path, inputs: &[&Path], overwrite: Overwrite) -> Result<TableFormat> {
    refuse_input("--out", out, inputs)?;
    refuse_link("--out", out)?;
    let existing = Existing::at(out).context(out.display().to_string())?;
    if existing == Existing::Folder {
        bail!(
            "--out {}: that is a folder; name a file ending in .parquet or .csv",
            out.display()
        );
    }
    let Some(format) = TableFormat::from_path(out) else {
        bail!(
            "--out {}: the format follows the file name: end it in .parquet or .csv",
            out.display()
        );
    };
    if let Existing::File(content) = existing
        && overwrite == Overwrite::Refuse
        && !content.may_be_table(format)
    {
        bail!(
            "--out {}: the file there holds {content}, not a {format} table; pass --force to replace it",
            out.display()
        );
    }
    Ok(format)
}

/// Checks the embedding file `out` (`--output`) of a command reading `inputs`, and returns the
/// format to write: `format` when given (it must agree with the name), else the one the name
/// ends in.
///
/// # Errors
///
/// `out` is an input or a folder; the name ends in no extension of `format`, or, without
/// `format`, in no embedding extension or in `.txt` (word2vec or GloVe text); a file is there
/// and `overwrite` is [`Overwrite::Refuse`].
pub(crate) fn embedding_file(
    out: &Path,
    inputs: &[&Path],
    format: Option<Format>,
    overwrite: Overwrite,
) -> Result<Format> {
    refuse_input("--output", out, inputs)?;
    refuse_link("--output", out)?;
    let existing = Existing::at(out).context(out.display().to_string())?;
    if existing == Existing::Folder {
        bail!(
            "--output {}: that is a folder; name the embedding file",
            out.display()
        );
    }
    let named = Format::by_extension(out);
    let format = match (format, named.as_slice()) {
        (Some(format), named) if named.contains(&format) => format,
        (Some(format), _) => bail!(
            "--output {}: --format {format} needs a file name ending in {}",
            out.display(),
            extensions(format)
        ),
        (None, [format]) => *format,
        (None, []) => bail!(
            "--output {}: the format follows the file name: end it in {}",
            out.display(),
            Format::ALL
                .iter()
                .map(|f| format!("{} ({f})", extensions(*f)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (None, several) => bail!(
            "--output {}: a .{} file may be {}; pass --format",
            out.display(),
            out.extension().unwrap_or_default().to_string_lossy(),
            several
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    };
    if let Existing::File(content) = existing
        && content != Content::Empty
        && overwrite == Overwrite::Refuse
    {
        bail!(
            "--output {}: the file exists (it holds {content}); pass --force to replace it",
            out.display()
        );
    }
    Ok(format)
}

/// Checks the folder `out` (`--out`) that a command creates with its tables in it: nothing may
/// be there yet.
///
/// # Errors
///
/// Something is at `out` (a file, a folder or a link).
pub(crate) fn new_folder(out: &Path) -> Result<()> {
    if out.symlink_metadata().is_ok() {
        bail!(
            "--out {}: it exists; name a new folder (the tables are written into it)",
            out.display()
        );
    }
    Ok(())
}

/// Checks the report folder `out` (`retest report --out`) of a report read from `tables`: a new
/// folder, an empty one, or one holding an earlier report (its files are replaced).
///
/// # Errors
///
/// `out` is the tables folder, a file, or a folder holding other files and no report.
pub fn report_folder(out: &Path, tables: &Path) -> Result<()> {
    if same_file(out, tables) {
        bail!(
            "--out {}: that is the tables folder {}; write the report into another folder",
            out.display(),
            tables.display()
        );
    }
    match Existing::at(out).context(out.display().to_string())? {
        Existing::Missing => Ok(()),
        Existing::File(_) => bail!(
            "--out {}: that is a file; name a folder for the report",
            out.display()
        ),
        Existing::Folder => {
            let mut entries =
                std::fs::read_dir(out).with_context(|| format!("cannot read {}", out.display()))?;
            if entries.next().is_none() || retest_report::holds_report(out) {
                Ok(())
            } else {
                bail!(
                    "--out {}: the folder holds other files and no report; name a new or empty folder",
                    out.display()
                )
            }
        }
    }
}

/// Whether `a` and `b` name the same file: the same path, or (on Unix) the same device and
/// inode, which sees through links and `..`; elsewhere the same canonical path.
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
    }
}

/// `.a or .b` for a format's extensions.
fn extensions(format: Format) -> String {
    format
        .extensions()
        .iter()
        .map(|e| format!(".{e}"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// What is at an output path now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Existing {
    /// Nothing.
    Missing,
    Folder,
    File(Content),
}

/// What an existing file holds, told from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Content {
    Empty,
    Parquet,
    Embeddings(Format),
    /// Text whose first line is a CSV header of two or more column names.
    CsvTable,
    /// Other text (notes, YAML, prose).
    Text,
    Binary,
}

/// Whether `head` starts with a CSV header line: two or more comma-separated names of letters,
/// digits and `_` (as every table retest writes begins).
fn csv_header(head: &[u8]) -> bool {
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let fields: Vec<&[u8]> = line.split(|&b| b == b',').collect();
    fields.len() >= 2
        && (fields.iter()).all(|f| !f.is_empty() && f.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// How many bytes tell a file's content.
const HEAD_BYTES: u64 = 1 << 16;

impl Existing {
    /// What is at `path`, following links.
    fn at(path: &Path) -> std::io::Result<Existing> {
        let metadata = match std::fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Existing::Missing),
            Err(e) => return Err(e),
        };
        if metadata.is_dir() {
            return Ok(Existing::Folder);
        }
        let mut head = Vec::new();
        std::fs::File::open(path)?
            .take(HEAD_BYTES)
            .read_to_end(&mut head)?;
        let content = if head.is_empty() {
            Content::Empty
        } else if TableFormat::Parquet.may_hold(&head) {
            Content::Parquet
        } else if let Ok(format) = retest_embeddings::detect_format(path) {
            Content::Embeddings(format)
        } else if TableFormat::Csv.may_hold(&head) {
            if csv_header(&head) {
                Content::CsvTable
            } else {
                Content::Text
            }
        } else {
            Content::Binary
        };
        Ok(Existing::File(content))
    }
}

impl Content {
    /// Whether a table in `format` may replace this content without `--force`.
    fn may_be_table(self, format: TableFormat) -> bool {
        match self {
            Content::Empty => true,
            Content::Parquet => format == TableFormat::Parquet,
            Content::CsvTable => format == TableFormat::Csv,
            Content::Embeddings(_) | Content::Text | Content::Binary => false,
        }
    }
}

impl fmt::Display for Content {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Content::Empty => f.write_str("nothing"),
            Content::Parquet => f.write_str("a Parquet file"),
            Content::Embeddings(format) => write!(f, "{format} embeddings"),
            Content::CsvTable => f.write_str("a CSV table"),
            Content::Text => f.write_str("text"),
            Content::Binary => f.write_str("binary data"),
        }
    }
}

#[cfg(test)]
mod tests;
