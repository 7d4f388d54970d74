//! The stable names of an enum's values: each parses back to its value and is what the value
//! displays as; an unknown name is refused with a message listing the known ones.

use std::fmt::{Debug, Display};
use std::str::FromStr;

/// Checks that each of `all` parses back from `name(value)` and displays as that name, and that
/// `unknown` is refused with exactly `message`.
///
/// # Panics
/// On the first value or message that differs, naming it.
pub fn assert_names_round_trip<T>(all: &[T], name: fn(T) -> &'static str, unknown: &str, message: &str)
where
    T: Copy + Debug + Display + FromStr + PartialEq,
    T::Err: Display,
{
    for &value in all {
        let parsed = name(value).parse::<T>();
        assert!(
            parsed.as_ref().is_ok_and(|p| *p == value),
            "`{}` does not parse back to {value:?}",
            name(value)
        );
        assert_eq!(
            value.to_string(),
            name(value),
            "{value:?} displays as another name"
        );
    }
    match unknown.parse::<T>() {
        Ok(value) => panic!("`{unknown}` parsed as {value:?}"),
        Err(e) => assert_eq!(e.to_string(), message),
    }
}
