//! How a row type states its columns once: the [`Row`] trait, which gives a table's columns
//! (name and type, in file order), pushes a row's values into column builders and reads a row
//! back, and the `table_row!` macro that implements it from a plain struct declaration (field
//! name = column name, field type = column type, field order = column order).

use polars::prelude::{Column, DataFrame, DataType, PolarsError};

/// The type of a column's values; [`ColumnType::as_str`] is how `docs/tables.md` and error
/// messages spell it (Polars' own names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    Str,
    F64,
    U32,
    U64,
}

impl ColumnType {
    /// `str`, `f64`, `u32` or `u64`.
    pub fn as_str(self) -> &'static str {
        match self {
            ColumnType::Str => "str",
            ColumnType::F64 => "f64",
            ColumnType::U32 => "u32",
            ColumnType::U64 => "u64",
        }
    }

    fn dtype(self) -> DataType {
        match self {
            ColumnType::Str => DataType::String,
            ColumnType::F64 => DataType::Float64,
            ColumnType::U32 => DataType::UInt32,
            ColumnType::U64 => DataType::UInt64,
        }
    }
}

/// One column of a table: its name and the type of its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnDef {
    pub name: &'static str,
    pub kind: ColumnType,
}

/// A row of a result table. The row type is the single statement of the table's columns:
/// [`Row::columns`] lists them, [`Row::push`] writes a row's values in that order and
/// [`Row::read`] takes them back in that order; writing (Parquet and CSV), reading and
/// concatenation are generic over it (`Table::from_rows`, `Table::rows`, `Table::concat`).
///
/// Most row types have one layout (`Layout = ()`) and implement the trait through the
/// crate's `table_row!` macro. A row type whose tables come in several shapes names them with
/// its `Layout`: an [`IccRow`](crate::IccRow) table has a `word` column or `male` and `female`
/// columns ([`SubjectKind`](crate::SubjectKind)).
pub trait Row: Sized {
    /// The shapes a table of these rows can have; `()` when there is one.
    type Layout: Copy;

    /// The columns of a table of `layout`, in file order.
    fn columns(layout: Self::Layout) -> Vec<ColumnDef>;

    /// The layout of an existing table with these column names.
    fn layout_of(column_names: &[&str]) -> Self::Layout;

    /// Why `self` cannot be a row of a table of `layout` (completing "row N …"), if it cannot.
    fn misfit(&self, layout: Self::Layout) -> Option<String>;

    /// Pushes one value per column of `layout`, in column order.
    fn push<'a>(&'a self, layout: Self::Layout, out: &mut RowWriter<'a>);

    /// Takes one value per column of `layout`, in column order, and builds the row.
    fn read(layout: Self::Layout, cells: &mut RowReader) -> Self;
}

/// The values of one column: borrowed strings while writing, owned ones while reading.
#[derive(Debug)]
enum Values<S> {
    Str(Vec<S>),
    F64(Vec<f64>),
    U32(Vec<u32>),
    U64(Vec<u64>),
}

impl<S> Values<S> {
    fn kind(&self) -> ColumnType {
        match self {
            Values::Str(_) => ColumnType::Str,
            Values::F64(_) => ColumnType::F64,
            Values::U32(_) => ColumnType::U32,
            Values::U64(_) => ColumnType::U64,
        }
    }
}

/// The columns of one table and the column the next value of a row goes to or comes from.
#[derive(Debug)]
struct Cursor<S> {
    columns: Vec<(ColumnDef, Values<S>)>,
    at: usize,
    /// The first value of the row that did not match its column: a bug in a [`Row`] impl.
    error: Option<String>,
    /// `gave` (writing) or `took` (reading), for the error messages.
    verb: &'static str,
}

impl<S> Cursor<S> {
    fn new(columns: Vec<(ColumnDef, Values<S>)>, verb: &'static str) -> Self {
        Cursor {
            columns,
            at: 0,
            error: None,
            verb,
        }
    }

    /// The next column, if it holds values of type `kind`; records the error otherwise.
    fn next(&mut self, kind: ColumnType) -> Option<&mut Values<S>> {
        let at = self.at;
        self.at += 1;
        let problem = match self.columns.get(at) {
            Some((_, values)) if values.kind() == kind => None,
            Some((def, _)) => Some(format!(
                "column `{}` is {}, the row {} {}",
                def.name,
                def.kind.as_str(),
                self.verb,
                kind.as_str()
            )),
            None => Some(format!(
                "the row {} more than {} values",
                self.verb,
                self.columns.len()
            )),
        };
        match problem {
            None => Some(&mut self.columns[at].1),
            Some(problem) => {
                self.error.get_or_insert(problem);
                None
            }
        }
    }

    /// Ends a row: an error unless it had one value of the right type per column.
    fn end_row(&mut self) -> Result<(), String> {
        if self.error.is_none() && self.at != self.columns.len() {
            self.error = Some(format!(
                "the row {} {} values for {} columns",
                self.verb,
                self.at,
                self.columns.len()
            ));
        }
        self.at = 0;
        self.error.take().map_or(Ok(()), Err)
    }
}

/// Column builders for the rows of one table, filled one row at a time by [`Row::push`].
#[derive(Debug)]
pub struct RowWriter<'a> {
    cursor: Cursor<&'a str>,
}

impl<'a> RowWriter<'a> {
    pub(crate) fn new(columns: &[ColumnDef], n_rows: usize) -> Self {
        let columns = columns
            .iter()
            .map(|&def| {
                let values = match def.kind {
                    ColumnType::Str => Values::Str(Vec::with_capacity(n_rows)),
                    ColumnType::F64 => Values::F64(Vec::with_capacity(n_rows)),
                    ColumnType::U32 => Values::U32(Vec::with_capacity(n_rows)),
                    ColumnType::U64 => Values::U64(Vec::with_capacity(n_rows)),
                };
                (def, values)
            })
            .collect();
        RowWriter {
            cursor: Cursor::new(columns, "gave"),
        }
    }

    pub fn str(&mut self, value: &'a str) {
        if let Some(Values::Str(v)) = self.cursor.next(ColumnType::Str) {
            v.push(value);
        }
    }

    pub fn f64(&mut self, value: f64) {
        if let Some(Values::F64(v)) = self.cursor.next(ColumnType::F64) {
            v.push(value);
        }
    }

    pub fn u32(&mut self, value: u32) {
        if let Some(Values::U32(v)) = self.cursor.next(ColumnType::U32) {
            v.push(value);
        }
    }

    pub fn u64(&mut self, value: u64) {
        if let Some(Values::U64(v)) = self.cursor.next(ColumnType::U64) {
            v.push(value);
        }
    }

    /// Ends a row: an error unless it gave one value of the right type per column.
    pub(crate) fn end_row(&mut self) -> Result<(), String> {
        self.cursor.end_row()
    }

    /// The Polars columns, in order.
    pub(crate) fn finish(self) -> Vec<Column> {
        (self.cursor.columns.into_iter())
            .map(|(def, values)| match values {
                Values::Str(v) => Column::new(def.name.into(), v),
                Values::F64(v) => Column::new(def.name.into(), v),
                Values::U32(v) => Column::new(def.name.into(), v),
                Values::U64(v) => Column::new(def.name.into(), v),
            })
            .collect()
    }
}

/// Why a column of a table does not match the row type, completing "table `x`: …".
fn column_problem(def: &ColumnDef, found: Option<&DataType>) -> Option<String> {
    match found {
        None => Some(format!("no column `{}` ({})", def.name, def.kind.as_str())),
        Some(dtype) if *dtype != def.kind.dtype() => Some(format!(
            "column `{}` is {dtype}, expected {}",
            def.name,
            def.kind.as_str()
        )),
        Some(_) => None,
    }
}

/// The columns of a table, checked against a row type's [`ColumnDef`]s, read back one row at a
/// time by [`Row::read`]. Nulls (which this crate never writes) read as `""`, NaN and 0.
#[derive(Debug)]
pub struct RowReader {
    cursor: Cursor<String>,
    row: usize,
}

impl RowReader {
    /// The values of `columns`, each of which must be in `frame` with its type; the error
    /// completes "table `x`: …".
    pub(crate) fn new(frame: &DataFrame, columns: &[ColumnDef]) -> Result<Self, String> {
        let mut read = Vec::with_capacity(columns.len());
        for def in columns {
            let column = frame.column(def.name).ok();
            if let Some(problem) = column_problem(def, column.map(Column::dtype)) {
                return Err(problem);
            }
            let column = column.expect("checked above");
            let error = |e: PolarsError| e.to_string();
            let values = match def.kind {
                ColumnType::Str => {
                    let strs = column.str().map_err(error)?.iter();
                    Values::Str(strs.map(|v| v.unwrap_or_default().to_owned()).collect())
                }
                ColumnType::F64 => {
                    let floats = column.f64().map_err(error)?.iter();
                    Values::F64(floats.map(|v| v.unwrap_or(f64::NAN)).collect())
                }
                ColumnType::U32 => {
                    let ints = column.u32().map_err(error)?.iter();
                    Values::U32(ints.map(Option::unwrap_or_default).collect())
                }
                ColumnType::U64 => {
                    let ints = column.u64().map_err(error)?.iter();
                    Values::U64(ints.map(Option::unwrap_or_default).collect())
                }
            };
            read.push((*def, values));
        }
        Ok(RowReader {
            cursor: Cursor::new(read, "took"),
            row: 0,
        })
    }

    pub fn str(&mut self) -> String {
        let row = self.row;
        match self.cursor.next(ColumnType::Str) {
            Some(Values::Str(v)) => std::mem::take(&mut v[row]),
            _ => String::new(),
        }
    }

    pub fn f64(&mut self) -> f64 {
        let row = self.row;
        match self.cursor.next(ColumnType::F64) {
            Some(Values::F64(v)) => v[row],
            _ => f64::NAN,
        }
    }

    pub fn u32(&mut self) -> u32 {
        let row = self.row;
        match self.cursor.next(ColumnType::U32) {
            Some(Values::U32(v)) => v[row],
            _ => 0,
        }
    }

    pub fn u64(&mut self) -> u64 {
        let row = self.row;
        match self.cursor.next(ColumnType::U64) {
            Some(Values::U64(v)) => v[row],
            _ => 0,
        }
    }

    /// Ends a row and moves to the next: an error unless the row took one value of the right
    /// type per column.
    pub(crate) fn end_row(&mut self) -> Result<(), String> {
        self.row += 1;
        self.cursor.end_row()
    }
}

/// A field type of a `table_row!` struct: a column type (one column named after the field), or
/// another `table_row!` struct (its columns, in place: [`IccStats`](crate::IccStats) ends
/// several tables).
pub(crate) trait Cell {
    /// Appends the columns of a field called `name`.
    fn defs(name: &'static str, out: &mut Vec<ColumnDef>);
    fn push<'a>(&'a self, out: &mut RowWriter<'a>);
    fn read(cells: &mut RowReader) -> Self;
}

/// Implements [`Cell`] for a type that is one column of type `ColumnType::$kind`, written and
/// read by the [`RowWriter`]/[`RowReader`] method `$method` (`$get` is what is written, from
/// `$cell: &Self`).
macro_rules! one_column_cell {
    ($ty:ty, $kind:ident, $method:ident, |$cell:ident| $get:expr) => {
        impl Cell for $ty {
            fn defs(name: &'static str, out: &mut Vec<ColumnDef>) {
                out.push(ColumnDef {
                    name,
                    kind: ColumnType::$kind,
                });
            }
            fn push<'a>(&'a self, out: &mut RowWriter<'a>) {
                let $cell = self;
                out.$method($get);
            }
            fn read(cells: &mut RowReader) -> Self {
                cells.$method()
            }
        }
    };
}

one_column_cell!(String, Str, str, |cell| cell);
one_column_cell!(f64, F64, f64, |cell| *cell);
one_column_cell!(u32, U32, u32, |cell| *cell);
one_column_cell!(u64, U64, u64, |cell| *cell);

/// Declares a row struct and implements [`Row`] for it with one layout: each field is a column
/// of the same name, the field's type (`String`, `f64`, `u32`, `u64`) is the column's type, and
/// the fields' order is the columns' order; a field whose type is another `table_row!` struct
/// stands for that struct's columns. Attributes and doc comments pass through.
macro_rules! table_row {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
        }

        impl $crate::schema::Row for $name {
            type Layout = ();

            fn columns((): ()) -> Vec<$crate::schema::ColumnDef> {
                let mut columns = Vec::new();
                $( <$ty as $crate::schema::Cell>::defs(stringify!($field), &mut columns); )*
                columns
            }

            fn layout_of(_: &[&str]) {}

            fn misfit(&self, (): ()) -> Option<String> {
                None
            }

            fn push<'a>(&'a self, (): (), out: &mut $crate::schema::RowWriter<'a>) {
                $( $crate::schema::Cell::push(&self.$field, out); )*
            }

            fn read((): (), cells: &mut $crate::schema::RowReader) -> Self {
                $name {
                    $( $field: <$ty as $crate::schema::Cell>::read(cells), )*
                }
            }
        }

        impl $crate::schema::Cell for $name {
            fn defs(_: &'static str, out: &mut Vec<$crate::schema::ColumnDef>) {
                out.extend(<$name as $crate::schema::Row>::columns(()));
            }

            fn push<'a>(&'a self, out: &mut $crate::schema::RowWriter<'a>) {
                $crate::schema::Row::push(self, (), out);
            }

            fn read(cells: &mut $crate::schema::RowReader) -> Self {
                <$name as $crate::schema::Row>::read((), cells)
            }
        }
    };
}

pub(crate) use table_row;
