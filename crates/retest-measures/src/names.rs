//! Stable names of the crate's switch enums: `as_str`, `Display` writing the name and
//! `FromStr` reading it back, written once for every enum whose values each have one name.

/// `as_str` from a list of `Variant => "name"` (documented by the doc comment given first) and
/// `Display` writing that name; with `option: "<what the switch is>"` also `FromStr` reading it
/// back, an unknown name failing with [`MeasureError::UnknownOption`](crate::MeasureError)
/// that lists the names (see [`name_text`]).
macro_rules! stable_names {
    (
        $(#[$doc:meta])*
        $ty:ident { $variant0:ident => $name0:literal $(, $variant:ident => $name:literal)* $(,)? }
    ) => {
        impl $ty {
            $(#[$doc])*
            pub fn as_str(self) -> &'static str {
                match self {
                    $ty::$variant0 => $name0,
                    $($ty::$variant => $name,)*
                }
            }
        }

        $crate::names::name_text!($ty, as_str, [$ty::$variant0 $(, $ty::$variant)*]);
    };
    (
        $(#[$doc:meta])*
        $ty:ident { $variant0:ident => $name0:literal $(, $variant:ident => $name:literal)* $(,)? }
        option: $option:literal
    ) => {
        $crate::names::stable_names! {
            $(#[$doc])*
            $ty { $variant0 => $name0 $(, $variant => $name)* }
        }

        $crate::names::parse_name!($ty, as_str, [$ty::$variant0 $(, $ty::$variant)*], |given| {
            $crate::MeasureError::UnknownOption {
                option: $option,
                given,
                expected: concat!($name0 $(, ", ", $name)*),
            }
        });
    };
}

/// `Display` writing the name the method `$name` gives a value and, given a closure `$unknown`
/// from the unknown name to the error, `FromStr`: the first value of `$all` with the name
/// given, exactly as written.
macro_rules! name_text {
    ($ty:ident, $name:ident, $all:expr) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.$name())
            }
        }
    };
    ($ty:ident, $name:ident, $all:expr, $unknown:expr) => {
        $crate::names::name_text!($ty, $name, $all);
        $crate::names::parse_name!($ty, $name, $all, $unknown);
    };
}

/// `FromStr` alone, as [`name_text`] implements it.
macro_rules! parse_name {
    ($ty:ident, $name:ident, $all:expr, $unknown:expr) => {
        impl std::str::FromStr for $ty {
            type Err = $crate::MeasureError;

            /// Parses a stable name, exactly as `Display` writes it.
            fn from_str(s: &str) -> Result<$ty, $crate::MeasureError> {
                $all.into_iter()
                    .find(|v| v.$name() == s)
                    .ok_or_else(|| ($unknown)(s.to_owned()))
            }
        }
    };
}

pub(crate) use name_text;
pub(crate) use parse_name;
pub(crate) use stable_names;
