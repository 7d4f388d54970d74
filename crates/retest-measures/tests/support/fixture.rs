//! The fixtures the Python reference scripts write (`data/*_reference.txt`): a `shape` line,
//! one `word` line per vector (float32 values written as their exact f64 repr), then
//! `key value...` lines.

use std::collections::BTreeMap;

use retest_measures::Model;

/// The fixture: its words and vectors, and every other line as `key → values`.
pub struct Fixture {
    words: Vec<String>,
    raw: Vec<f32>,
    dim: usize,
    values: BTreeMap<String, Vec<String>>,
}

impl Fixture {
    pub fn parse(text: &str) -> Fixture {
        let mut words = Vec::new();
        let mut raw = Vec::new();
        let mut dim = 0;
        let mut values = BTreeMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let mut tokens = line.split_whitespace();
            let key = tokens.next().unwrap();
            match key {
                "shape" => dim = tokens.nth(1).unwrap().parse().unwrap(),
                "word" => {
                    words.push(tokens.next().unwrap().to_string());
                    // float32 values written as their exact f64 repr: the cast is exact.
                    raw.extend(tokens.map(|t| t.parse::<f64>().unwrap() as f32));
                }
                _ => {
                    values.insert(key.to_string(), tokens.map(String::from).collect());
                }
            }
        }
        assert_eq!(raw.len(), words.len() * dim);
        Fixture {
            words,
            raw,
            dim,
            values,
        }
    }

    pub fn model(&self) -> Model<'_> {
        Model::new(&self.words, &self.raw, self.dim).unwrap()
    }

    pub fn tokens(&self, key: &str) -> &[String] {
        self.values
            .get(key)
            .unwrap_or_else(|| panic!("fixture has no {key}"))
    }

    pub fn floats(&self, key: &str) -> Vec<f64> {
        self.tokens(key).iter().map(|t| t.parse().unwrap()).collect()
    }

    pub fn float(&self, key: &str) -> f64 {
        let v = self.floats(key);
        assert_eq!(v.len(), 1, "{key}");
        v[0]
    }

    pub fn ids(&self, key: &str) -> Vec<u32> {
        self.tokens(key).iter().map(|t| t.parse().unwrap()).collect()
    }

    pub fn names(&self, prefix: &str) -> Vec<String> {
        let mut names: Vec<String> = self
            .values
            .keys()
            .filter_map(|k| k.strip_prefix(prefix))
            .map(|rest| rest.split('.').next().unwrap().to_string())
            .collect();
        names.dedup();
        names
    }
}

/// `got` and `want` have the same length and differ by at most 1e-9 at each place.
pub fn assert_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-9, "{what}[{i}]: {g} vs {w}");
    }
}
