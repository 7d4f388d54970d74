//! Criteria of validity: a value per word that a bias measure should track. Garg et al.'s (2018)
//! census shares of women per occupation and year (as the logit of the share), their MTurk
//! stereotype ratings, or one's own `word,value` CSV.

use anyhow::{Context, Result, bail, ensure};

/// A value per word, with the words the criterion had to leave out and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Criterion {
    /// How tables name it: `census-1900`, `mturk`, or a file's stem.
    pub name: String,
    /// The words, in the file's order, each once.
    pub words: Vec<String>,
    pub values: Vec<f64>,
    /// Words left out: `word (reason)`.
    pub left_out: Vec<String>,
}

impl Criterion {
    /// The line that names the words left out without a value, when there are any.
    pub fn left_out_line(&self) -> Option<String> {
        (!self.left_out.is_empty()).then(|| {
            format!(
                "criterion {}: {} of {} words left out, without a finite value: {}",
                self.name,
                self.left_out.len(),
                self.words.len() + self.left_out.len(),
                self.left_out.join(", ")
            )
        })
    }
}

/// The census criterion of `year` (the latest in the file when `None`) from Garg et al.'s
/// `occupation_percentages_gender_occ1950.csv` (`Census year,Occupation,Total Weight,Female,
/// Male`): each occupation's logit of the share of women, `ln(p / (1 − p))`. An occupation whose
/// share is 0 or 1 has no finite logit and is left out; `file` names the file in errors.
///
/// # Errors
///
/// A line without five fields, a year or share that is not a number, a share outside [0, 1],
/// no line of `year`, or an occupation twice in one year.
pub fn census(text: &str, file: &str, year: Option<u32>) -> Result<Criterion> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let place = || format!("{file}: line {}", i + 1);
        let fields: Vec<&str> = line.split(',').collect();
        let [y, occupation, _, female, _] = fields[..] else {
            bail!(
                "{}: expected 5 comma-separated fields (Census year,Occupation,Total Weight,Female,Male), found {}",
                place(),
                fields.len()
            );
        };
        let y: u32 = y
            .trim()
            .parse()
            .with_context(|| format!("{}: the year `{y}` is not a whole number", place()))?;
        let share: f64 = female
            .trim()
            .parse()
            .with_context(|| format!("{}: the share of women `{female}` is not a number", place()))?;
        ensure!(
            (0.0..=1.0).contains(&share),
            "{}: the share of women {share} is outside [0, 1]",
            place()
        );
        rows.push((y, occupation.trim().to_owned(), share, i + 1));
    }
    let years: std::collections::BTreeSet<u32> = rows.iter().map(|r| r.0).collect();
    let Some(year) = year.or(years.last().copied()) else {
        bail!("{file}: no census line");
    };
    if !years.contains(&year) {
        bail!(
            "{file}: no census line of {year} (the years are {})",
            years.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        );
    }
    let mut criterion = Criterion {
        name: format!("census-{year}"),
        words: Vec::new(),
        values: Vec::new(),
        left_out: Vec::new(),
    };
    let mut seen = std::collections::BTreeSet::new();
    for (_, occupation, share, line) in rows.into_iter().filter(|r| r.0 == year) {
        ensure!(
            seen.insert(occupation.clone()),
            "{file}: line {line}: `{occupation}` appears twice in {year}"
        );
        if share == 0.0 || share == 1.0 {
            criterion
                .left_out
                .push(format!("{occupation} (share of women {share})"));
            continue;
        }
        criterion.words.push(occupation);
        criterion.values.push((share / (1.0 - share)).ln());
    }
    ensure!(
        !criterion.words.is_empty(),
        "{file}: no occupation of {year} has a share of women strictly between 0 and 1 (a finite logit)"
    );
    Ok(criterion)
}

/// A criterion of one value per word from a CSV of `word,value` lines (a first line whose value
/// is not a number is a header, as in Garg et al.'s `mturk_stereotypes.csv`), named `name`.
///
/// # Errors
///
/// A line without two fields, a value that is not a finite number, a word twice, or no word.
pub fn word_values(text: &str, file: &str, name: &str) -> Result<Criterion> {
    let mut criterion = Criterion {
        name: name.to_owned(),
        words: Vec::new(),
        values: Vec::new(),
        left_out: Vec::new(),
    };
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let place = || format!("{file}: line {}", i + 1);
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [word, value] = fields[..] else {
            bail!(
                "{}: expected `word,value`, found {} fields",
                place(),
                fields.len()
            );
        };
        let value: f64 = match value.parse() {
            Ok(v) => v,
            Err(_) if i == 0 => continue,
            Err(_) => bail!("{}: the value `{value}` is not a number", place()),
        };
        ensure!(value.is_finite(), "{}: the value {value} is not finite", place());
        ensure!(
            !criterion.words.iter().any(|w| w == word),
            "{}: `{word}` appears twice",
            place()
        );
        criterion.words.push(word.to_owned());
        criterion.values.push(value);
    }
    ensure!(!criterion.words.is_empty(), "{file}: no `word,value` line");
    Ok(criterion)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CENSUS: &str = "Census year,Occupation,Total Weight,Female,Male\n\
                          1900,nurse,10,0.9,0.1\n1900,engineer,10,0.0,1.0\n1910,nurse,10,0.8,0.2\n\
                          1900,clerk,10,0.25,0.75\n";

    #[test]
    fn the_census_criterion_is_the_logit_of_the_share_of_women_in_a_year() {
        let c = census(CENSUS, "c.csv", Some(1900)).unwrap();
        assert_eq!(c.name, "census-1900");
        assert_eq!(c.words, ["nurse", "clerk"]);
        assert!((c.values[0] - 9f64.ln()).abs() < 1e-15);
        assert!((c.values[1] - (1.0f64 / 3.0).ln()).abs() < 1e-15);
        assert_eq!(c.left_out, ["engineer (share of women 0)"]);
        assert_eq!(
            c.left_out_line().unwrap(),
            "criterion census-1900: 1 of 3 words left out, without a finite value: engineer (share of women 0)"
        );
        // The latest year by default.
        let latest = census(CENSUS, "c.csv", None).unwrap();
        assert_eq!((latest.name.as_str(), latest.words.len()), ("census-1910", 1));
        assert_eq!(latest.left_out_line(), None);
        assert_eq!(
            census(CENSUS, "c.csv", Some(2000)).unwrap_err().to_string(),
            "c.csv: no census line of 2000 (the years are 1900, 1910)"
        );
        assert_eq!(
            census("h\n1900,nurse,1,1.5,0\n", "c.csv", None)
                .unwrap_err()
                .to_string(),
            "c.csv: line 2: the share of women 1.5 is outside [0, 1]"
        );
    }

    #[test]
    fn a_word_values_file_may_have_a_header_and_refuses_a_word_twice() {
        let c = word_values("occupation,score\nnurse,3.5\nsolicitor,1.5\n", "m.csv", "mturk").unwrap();
        assert_eq!(
            (c.words, c.values),
            (vec!["nurse".to_owned(), "solicitor".to_owned()], vec![3.5, 1.5])
        );
        assert_eq!(
            word_values("nurse,1\nnurse,2\n", "m.csv", "m")
                .unwrap_err()
                .to_string(),
            "m.csv: line 2: `nurse` appears twice"
        );
        assert_eq!(
            word_values("nurse,1\nclerk,x\n", "m.csv", "m")
                .unwrap_err()
                .to_string(),
            "m.csv: line 2: the value `x` is not a number"
        );
    }
}
