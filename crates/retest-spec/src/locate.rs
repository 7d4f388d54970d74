//! Maps a field path (`sgns.window`, `corpora[1].recipe`) to its line and column in a YAML text.
//!
//! serde_yaml reports positions for syntax and type errors only; checks that run after
//! deserialisation (a window of 0, an unknown corpus) use this index to point at the offending
//! line.

use std::collections::{BTreeMap, BTreeSet};

use yaml_rust2::Event;
use yaml_rust2::parser::{MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// A position in a YAML text: 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Where every node of a YAML document starts, by field path, and where a key repeats.
#[derive(Debug, Default)]
pub struct PathIndex {
    positions: BTreeMap<String, Position>,
    /// The second occurrence of each key given twice in one mapping, by field path.
    repeated_keys: BTreeMap<String, Position>,
}

impl PathIndex {
    /// Indexes `text`; a text that does not parse gives an empty index (serde_yaml reports
    /// the syntax error itself).
    pub fn new(text: &str) -> Self {
        let mut builder = Builder::default();
        let mut parser = Parser::new_from_str(text);
        if parser.load(&mut builder, false).is_err() {
            return PathIndex::default();
        }
        PathIndex {
            positions: builder.positions,
            repeated_keys: builder.repeated_keys,
        }
    }

    /// Where the key at `path` is given a second time in its mapping, if it is.
    pub fn repeated_key(&self, path: &str) -> Option<Position> {
        self.repeated_keys.get(path).copied()
    }

    /// The position of the node at `path`, or of its nearest ancestor that exists
    /// (a missing field is reported at the mapping that should hold it).
    pub fn find(&self, path: &str) -> Option<Position> {
        let mut path = path;
        loop {
            if let Some(position) = self.positions.get(path) {
                return Some(*position);
            }
            let cut = path.rfind(['.', '['])?;
            path = &path[..cut];
        }
    }
}

enum Frame {
    Mapping {
        path: String,
        pending_key: Option<String>,
    },
    Sequence {
        path: String,
        next_index: usize,
    },
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    positions: BTreeMap<String, Position>,
    /// Every key seen, by field path, to find the ones given twice.
    keys: BTreeSet<String>,
    repeated_keys: BTreeMap<String, Position>,
}

/// The field path of `key` in the mapping at `path`.
fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

impl Builder {
    /// The path of the node that starts now, or `None` when the event is a mapping key.
    fn next_path(&mut self) -> Option<String> {
        match self.stack.last_mut() {
            None => Some(String::new()),
            Some(Frame::Sequence { path, next_index }) => {
                let child = format!("{path}[{next_index}]");
                *next_index += 1;
                Some(child)
            }
            Some(Frame::Mapping { path, pending_key }) => pending_key.take().map(|key| child(path, &key)),
        }
    }

    fn record(&mut self, path: &str, mark: Marker) {
        self.positions.entry(path.to_owned()).or_insert(position(mark));
    }

    /// Notes a key of the mapping at `path`; a key met before in the same mapping is repeated.
    fn record_key(&mut self, path: &str, key: &str, mark: Marker) {
        let key_path = child(path, key);
        if !self.keys.insert(key_path.clone()) {
            self.repeated_keys.entry(key_path).or_insert(position(mark));
        }
    }
}

fn position(mark: Marker) -> Position {
    Position {
        line: mark.line(),
        column: mark.col() + 1,
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        match event {
            Event::Scalar(value, ..) => match self.next_path() {
                Some(path) => self.record(&path, mark),
                None => {
                    if let Some(Frame::Mapping { path, pending_key }) = self.stack.last_mut() {
                        let path = path.clone();
                        *pending_key = Some(value.clone());
                        self.record_key(&path, &value, mark);
                    }
                }
            },
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                // A collection used as a mapping key has no field path; index it under "?".
                let path = self.next_path().unwrap_or_else(|| "?".to_owned());
                self.record(&path, mark);
                self.stack.push(match event {
                    Event::MappingStart(..) => Frame::Mapping {
                        path,
                        pending_key: None,
                    },
                    _ => Frame::Sequence { path, next_index: 0 },
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
            }
            Event::Alias(_) => {
                if let Some(path) = self.next_path() {
                    self.record(&path, mark);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "name: smoke\nsgns:\n  dim: 50\n  window: 0\ncorpora:\n  - recipe: a\n  - recipe: b\n    min_count: 2\n";

    #[test]
    fn finds_nested_fields_and_sequence_items() {
        let index = PathIndex::new(TEXT);
        assert_eq!(index.find("name"), Some(Position { line: 1, column: 7 }));
        assert_eq!(index.find("sgns.window").map(|p| p.line), Some(4));
        assert_eq!(index.find("corpora[1].recipe").map(|p| p.line), Some(7));
        assert_eq!(index.find("corpora[1].min_count").map(|p| p.line), Some(8));
    }

    #[test]
    fn a_key_given_twice_is_found_at_its_second_line() {
        let index = PathIndex::new("name: a\nsgns:\n  dim: 5\n  dim: 6\nname: b\n");
        assert_eq!(
            index.repeated_key("sgns.dim"),
            Some(Position { line: 4, column: 3 })
        );
        assert_eq!(index.repeated_key("name"), Some(Position { line: 5, column: 1 }));
        assert_eq!(index.repeated_key("sgns"), None);
    }

    #[test]
    fn missing_field_falls_back_to_its_parent() {
        let index = PathIndex::new(TEXT);
        assert_eq!(index.find("sgns.negative").map(|p| p.line), Some(3));
        assert_eq!(index.find("corpora[1].sources").map(|p| p.line), Some(7));
    }
}
