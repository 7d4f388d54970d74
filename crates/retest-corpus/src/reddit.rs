//! The Reddit comment reader: Pushshift / archive.org JSON lines, filtered by subreddit and year,
//! cleaned (deleted comments, URLs, newlines), cut into Unicode (UAX #29) sentences or kept one
//! comment per sentence, and tokenised like plain text (lowercased, or with case kept).

use std::borrow::Cow;
use std::fmt;
use std::io::BufRead;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use unicode_segmentation::UnicodeSegmentation;

use crate::builder::CorpusBuilder;
use crate::error::CorpusError;
use crate::lines::Lines;
use crate::summary::ReadSummary;
use crate::tokenize::{Batch, CaseHandling};

/// What to do with line breaks inside a comment body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NewlineHandling {
    /// A line break becomes a space (the words on either side stay separate words).
    Space,
    /// A line break is deleted, gluing the words on either side together, as the original
    /// study's `get_subreddit.py` did (`re.sub("\n", "", c)`).
    Glue,
}

impl NewlineHandling {
    /// Stable name, as used in tables and specs.
    pub fn as_str(self) -> &'static str {
        match self {
            NewlineHandling::Space => "space",
            NewlineHandling::Glue => "glue",
        }
    }
}

/// What one sentence of the corpus is: training windows never cross a sentence end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SentenceSplitting {
    /// A comment is cut at its Unicode sentence boundaries (UAX #29, see
    /// [`split_reddit_sentences`]), as the original study cut comments into spaCy sentences.
    Split,
    /// A comment is one sentence, however many sentences it holds.
    Comment,
}

impl SentenceSplitting {
    /// Stable name, as used in tables and specs.
    pub fn as_str(self) -> &'static str {
        match self {
            SentenceSplitting::Split => "split",
            SentenceSplitting::Comment => "comment",
        }
    }
}

/// Options of the Reddit reader.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RedditOptions {
    /// Subreddits to keep, matched case-insensitively (`AskHistorians` = `askhistorians`);
    /// empty keeps every subreddit.
    pub subreddits: Vec<String>,
    /// UTC years of `created_utc` to keep; empty keeps every year.
    pub years: Vec<i32>,
    /// What to do with line breaks in comment bodies.
    pub newlines: NewlineHandling,
    /// Whether comments are cut into sentences.
    pub sentences: SentenceSplitting,
    /// Whether tokens are lowercased or keep the case of the comment.
    pub case: CaseHandling,
}

/// The fields of a comment we use; every other key is ignored, in any order.
#[derive(Deserialize)]
struct Comment<'a> {
    #[serde(borrow)]
    body: Cow<'a, str>,
    #[serde(borrow)]
    subreddit: Cow<'a, str>,
    created_utc: UnixSeconds,
}

/// `created_utc`: an integer (Pushshift) or a string of digits (the 2015 archive.org dumps).
struct UnixSeconds(i64);

impl<'de> Deserialize<'de> for UnixSeconds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UnixSeconds, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = UnixSeconds;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("unix seconds as an integer or a string of digits")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<UnixSeconds, E> {
                Ok(UnixSeconds(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<UnixSeconds, E> {
                i64::try_from(v)
                    .map(UnixSeconds)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<UnixSeconds, E> {
                v.trim()
                    .parse()
                    .map(UnixSeconds)
                    .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_any(V)
    }
}

/// The proleptic Gregorian year (UTC) of a unix time in seconds.
///
/// Civil-from-days conversion on 400-year eras of 146,097 days, with years starting on
/// 1 March so that the leap day is the last day of the year.
pub fn utc_year(unix_seconds: i64) -> i64 {
    let days = unix_seconds.div_euclid(86_400);
    // Days since 0000-03-01.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097; // 0..=146_096
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365; // 0..=399
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100); // 0..=365, from 1 March
    let march_based_month = (5 * day_of_year + 2) / 153; // 0 = March .. 11 = February
    let year = year_of_era + era * 400;
    if march_based_month >= 10 { year + 1 } else { year }
}

/// Byte offset where a URL starts in a whitespace-delimited run, if any: the first place where
/// `http://`, `https://` or `www.` (ASCII case-insensitive) begins, either at the start of the
/// run or right after a character that is not a letter or digit (so `[text](http://x.org)` and
/// `"www.x.org"` match, `awww.` does not).
fn url_start(run: &str) -> Option<usize> {
    const PREFIXES: [&[u8]; 3] = [b"http://", b"https://", b"www."];
    let bytes = run.as_bytes();
    let mut previous_is_alphanumeric = false;
    for (at, c) in run.char_indices() {
        if !previous_is_alphanumeric
            && PREFIXES.iter().any(|prefix| {
                bytes.len() - at >= prefix.len() && bytes[at..at + prefix.len()].eq_ignore_ascii_case(prefix)
            })
        {
            return Some(at);
        }
        previous_is_alphanumeric = c.is_alphanumeric();
    }
    None
}

/// Cleans a comment body before tokenisation, appending the result to `out`:
/// 1. `\r` is removed, `\t` becomes a space, `\n` becomes a space ([`NewlineHandling::Space`])
///    or is removed ([`NewlineHandling::Glue`]);
/// 2. URLs are removed: in every whitespace-delimited run, from the first `http://`,
///    `https://` or `www.` (ASCII case-insensitive) that starts the run or follows a
///    character other than a letter or digit, to the end of the run. A run starting with a
///    URL disappears; a Markdown link `[text](http://x.org).` keeps `[text](`.
///
/// The original study removed `http\S+`: the same for `http` links, except that it also cut
/// inside words (`lighttpd` became `ligh`) and kept `www.`-only links.
pub fn clean_reddit_body(body: &str, newlines: NewlineHandling, out: &mut String) {
    let mut flat = String::with_capacity(body.len());
    for c in body.chars() {
        match c {
            '\r' => {}
            '\n' => {
                if newlines == NewlineHandling::Space {
                    flat.push(' ');
                }
            }
            '\t' => flat.push(' '),
            c => flat.push(c),
        }
    }
    let mut rest = flat.as_str();
    while !rest.is_empty() {
        let run_start = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
        out.push_str(&rest[..run_start]);
        rest = &rest[run_start..];
        let run_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let run = &rest[..run_end];
        out.push_str(&run[..url_start(run).unwrap_or(run.len())]);
        rest = &rest[run_end..];
    }
}

/// Cuts a cleaned comment body (the output of [`clean_reddit_body`]) at its sentence boundaries,
/// as the Unicode Standard Annex #29 defines them (`unicode-segmentation`'s
/// `split_sentence_bounds`, Unicode 17.0).
///
/// The pieces, in order, are exactly `text`: nothing is dropped, and the spaces after a
/// sentence end belong to that sentence. In short, a sentence ends after `!` or `?` (and the
/// closing quotes or brackets and spaces after it) unless a `,`/`;`/`:`-like continuation or
/// another terminator follows; and after `.` only when the next letter is not lowercase and the
/// period does not sit between two letters with an uppercase letter after it (`U.S.A`,
/// `end.Next`) or before a digit (`3.14`). So `e.g. The` is cut after `e.g.` while `e.g. the`
/// is not, `... and` is not cut, `Wow!Great` is cut before `Great`, and a line break (once
/// cleaned into a space or deleted) ends nothing by itself, while the Unicode paragraph and
/// line separators U+2029, U+2028 and U+0085 always end a sentence.
pub fn split_reddit_sentences(text: &str) -> impl Iterator<Item = &str> {
    text.split_sentence_bounds()
}

/// Describes a serde_json error without its "at line 1 column N" suffix (the JSON is one line
/// of the file, whose number we report ourselves).
fn json_error_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    format!(
        "invalid Reddit comment at column {}: {message} (expected a JSON object with string \
         `body`, string `subreddit` and `created_utc` as an integer or a string of digits)",
        e.column()
    )
}

struct CommentReader<'o, R> {
    lines: Lines<R>,
    opts: &'o RedditOptions,
    subreddits_lower: Vec<String>,
    cleaned: String,
}

/// Whether `subreddit` is one of `subreddits_lower` (lowercased names; all are wanted when it
/// is empty), case-insensitively.
fn wanted_subreddit(subreddits_lower: &[String], subreddit: &str) -> bool {
    if subreddits_lower.is_empty() {
        return true;
    }
    if subreddit.is_ascii() {
        subreddits_lower.iter().any(|w| w.eq_ignore_ascii_case(subreddit))
    } else {
        let lower = subreddit.to_lowercase();
        subreddits_lower.contains(&lower)
    }
}

impl<R: BufRead> CommentReader<'_, R> {
    fn next_batch(&mut self, max_bytes: usize) -> Result<Option<Batch>, CorpusError> {
        let CommentReader {
            lines,
            opts,
            subreddits_lower,
            cleaned,
        } = self;
        lines.next_batch(max_bytes, |line, counters, batch| match line {
            Some(line) if !line.trim().is_empty() => {
                add_comment(line, opts, subreddits_lower, cleaned, counters, batch)
            }
            _ => Ok(()),
        })
    }
}

/// Adds the comment of the non-blank JSON `line` to `batch`, cleaned into `cleaned`, unless a
/// filter of `opts` drops it; counts it in `counters`, which hold the line's number.
fn add_comment(
    line: &str,
    opts: &RedditOptions,
    subreddits_lower: &[String],
    cleaned: &mut String,
    counters: &mut ReadSummary,
    batch: &mut Batch,
) -> Result<(), CorpusError> {
    counters.records_read += 1;
    let comment: Comment = serde_json::from_str(line).map_err(|e| CorpusError::RedditRecord {
        line: counters.lines,
        message: json_error_message(&e),
    })?;
    if !wanted_subreddit(subreddits_lower, &comment.subreddit) {
        counters.dropped_subreddit += 1;
        return Ok(());
    }
    if !opts.years.is_empty()
        && !opts
            .years
            .iter()
            .any(|&y| i64::from(y) == utc_year(comment.created_utc.0))
    {
        counters.dropped_year += 1;
        return Ok(());
    }
    if comment.body == "[deleted]" || comment.body == "[removed]" {
        counters.dropped_deleted += 1;
        return Ok(());
    }
    counters.records_kept += 1;
    cleaned.clear();
    clean_reddit_body(&comment.body, opts.newlines, cleaned);
    match opts.sentences {
        SentenceSplitting::Comment => batch.push_piece(cleaned, true, *counters),
        SentenceSplitting::Split => {
            for sentence in split_reddit_sentences(cleaned) {
                batch.push_piece(sentence, true, *counters);
            }
        }
    }
    Ok(())
}

impl CorpusBuilder {
    /// Reads Reddit comments as JSON lines (Pushshift `RC_YYYY-MM` dumps or the 2015
    /// archive.org corpus; decompress them with [`crate::decompress`] first).
    ///
    /// Uses the fields `body`, `subreddit` and `created_utc` (an integer or a string of
    /// digits); other keys are ignored, in any order. Filters, in this order (each dropped
    /// comment is counted under the first reason that applies): subreddit
    /// (case-insensitive, if `opts.subreddits` is non-empty), UTC year of `created_utc` (if
    /// `opts.years` is non-empty), body `[deleted]` or `[removed]`. Blank lines are skipped.
    ///
    /// A kept body then goes through these steps, in this order (the original study's order:
    /// `remove_ss`, `remove_url`, then spaCy's sentences and lowercased tokens):
    /// 1. [`clean_reddit_body`]: `\r` removed, `\t` a space, `\n` a space or deleted
    ///    (`opts.newlines`), then URLs removed;
    /// 2. with [`SentenceSplitting::Split`], [`split_reddit_sentences`] cuts the cleaned,
    ///    still-cased text at its UAX #29 sentence boundaries; with
    ///    [`SentenceSplitting::Comment`] the comment is one piece;
    /// 3. each piece is tokenised on its own like plain text (NFKC, lowercase unless
    ///    `opts.case` is [`CaseHandling::Keep`], BERT pre-tokeniser) and is one sentence of the
    ///    corpus; a piece without tokens adds none.
    ///
    /// Why this order: splitting comes after URL removal so that the `.`, `?` and `!` inside a
    /// URL never cut a sentence and leave URL fragments behind (the price: a period written
    /// right after a URL goes with it, and that sentence runs into the next); after newline
    /// handling, so a line break is not a sentence end by itself (with `glue`, `end.\nNext`
    /// becomes `end.Next`, which UAX #29 does not cut); and before lowercasing, because UAX
    /// #29 reads case (a lowercase word after `.` continues the sentence). Splitting changes
    /// where sentences end, and the tokens only in one rare corner: a boundary falls at a space
    /// or right after a terminator or closing quote/bracket, where the pre-tokeniser splits
    /// anyway, except after a closing quote that Unicode counts as a symbol, not punctuation
    /// (`Wow!❞Great` gives `❞` `great`, not `❞great` as a whole comment does).
    ///
    /// Errors: a line that is not a JSON object with those fields (with its line number and
    /// what was expected), invalid UTF-8, or an I/O / decompression error.
    pub fn read_reddit(&mut self, r: impl BufRead, opts: &RedditOptions) -> Result<ReadSummary, CorpusError> {
        let mut reader = CommentReader {
            lines: Lines::new(r),
            opts,
            subreddits_lower: opts.subreddits.iter().map(|s| s.to_lowercase()).collect(),
            cleaned: String::new(),
        };
        self.read_tokenized(opts.case, |max_bytes| reader.next_batch(max_bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_year_at_boundaries() {
        assert_eq!(utc_year(0), 1970);
        assert_eq!(utc_year(-1), 1969);
        assert_eq!(utc_year(1_420_070_399), 2014); // 2014-12-31T23:59:59Z
        assert_eq!(utc_year(1_420_070_400), 2015); // 2015-01-01T00:00:00Z
        assert_eq!(utc_year(951_782_400), 2000); // 2000-02-29
        assert_eq!(utc_year(1_136_073_599), 2005); // 2005-12-31T23:59:59Z
        assert_eq!(utc_year(1_136_073_600), 2006);
        assert_eq!(utc_year(4_107_542_400), 2100); // 2100-03-01 (2100 is not a leap year)
        assert_eq!(utc_year(-62_135_596_800), 1); // 0001-01-01
        assert_eq!(utc_year(-62_135_596_801), 0);
    }

    /// Every year start from 1900 to 2400, against a day count built year by year.
    #[test]
    fn utc_year_matches_year_lengths() {
        let is_leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let days_1970_to = |y: i64| -> i64 {
            let (lo, hi, sign) = if y >= 1970 { (1970, y, 1) } else { (y, 1970, -1) };
            sign * (lo..hi).map(|y| if is_leap(y) { 366 } else { 365 }).sum::<i64>()
        };
        for year in 1900..=2400 {
            let start = days_1970_to(year) * 86_400;
            assert_eq!(utc_year(start), year);
            assert_eq!(utc_year(start - 1), year - 1);
        }
    }

    /// The pieces of a comment are its whole text, in order, none empty; spaces stay with the
    /// sentence before them.
    #[test]
    fn sentence_pieces_are_the_whole_text() {
        for text in [
            "",
            "   ",
            "  Lead. Trail  ",
            "Hi.\u{2029}\u{2029}There.  ",
            "e.g. The U.S.A. is 3.5. x!y?Z \"q.\" (r.) S",
        ] {
            let pieces: Vec<&str> = split_reddit_sentences(text).collect();
            assert_eq!(pieces.concat(), text);
            assert!(pieces.iter().all(|p| !p.is_empty()), "{pieces:?}");
        }
        assert_eq!(split_reddit_sentences("").count(), 0);
        assert_eq!(
            split_reddit_sentences("  Lead. Trail  ").collect::<Vec<_>>(),
            ["  Lead. ", "Trail  "]
        );
        assert_eq!(
            split_reddit_sentences("Hi.\u{2029}\u{2029}There.").collect::<Vec<_>>(),
            ["Hi.\u{2029}", "\u{2029}", "There."]
        );
        assert_eq!(
            (
                SentenceSplitting::Split.as_str(),
                SentenceSplitting::Comment.as_str()
            ),
            ("split", "comment")
        );
    }

    #[test]
    fn cleaning_removes_urls_and_handles_newlines() {
        let mut out = String::new();
        clean_reddit_body(
            "see http://a.b/c and\r\nHTTPS://x.y, www.z.org\tend\nhttp",
            NewlineHandling::Space,
            &mut out,
        );
        assert_eq!(out, "see  and   end http");
        out.clear();
        clean_reddit_body(
            "[text](http://x.org/a). \"www.y.org\" awww. lighttpd:https://z é(www.q)",
            NewlineHandling::Space,
            &mut out,
        );
        assert_eq!(out, "[text]( \" awww. lighttpd: é(");
        out.clear();
        clean_reddit_body("one\ntwo\r\nthree\tfour", NewlineHandling::Glue, &mut out);
        assert_eq!(out, "onetwothree four");
    }
}
