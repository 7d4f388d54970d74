//! Stable names of the crate's switch enums: `as_str`, `Display` writing the name and
//! `FromStr` reading it back, written once for every enum whose values each have one name.

/// `as_str` from a list of `Variant => "name"` (documented by the doc comment given first),
/// `Display` writing that name and, with `parse: <error for an unknown name>`, `FromStr`
/// reading it back (see [`name_text`]).
macro_rules! stable_names {
    (
        $(#[$doc:meta])*
        $ty:ident { $($variant:ident => $name:literal),+ $(,)? }
        $(parse: $unknown:expr)?
    ) => {
        impl $ty {
            $(#[$doc])*
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        $crate::names::name_text!($ty, as_str, [$($ty::$variant),+] $(, $unknown)?);
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
pub(crate) use stable_names;
