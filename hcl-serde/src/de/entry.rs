//! The entry points: `from_str`, `from_slice`, `from_reader`, `from_path`,
//! their JSON-syntax and `_with` (context) forms, and `from_value`; each
//! builds a [`Deserializer`] (several files: `files.rs`).

use super::{Deserializer, Options, Syntax, ValueDeserializer};
use crate::error::{Error, Result};
use crate::eval::Context;
use crate::Value;
use serde::de::{self, DeserializeOwned};

/// Deserializes an instance of `T` from HCL text, without a context.
///
/// Strings without escapes are borrowed from `s`, so `&str` and
/// `Cow<str>` fields work. Expressions over literals are evaluated
/// (`1 + 2`, `"a${"b"}"`); a reference to a variable or function is an
/// evaluation error (use [`from_str_with`] to provide them).
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Service<'a> {
///     #[serde(rename = "$label")]
///     name: &'a str,
///     port: u16,
/// }
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Config<'a> {
///     #[serde(borrow)]
///     service: Vec<Service<'a>>,
/// }
///
/// let text = r#"
/// service "web" {
///   port = 8000 + 80
/// }
/// "#;
/// let config: Config = hcl::from_str(text)?;
/// assert_eq!(config.service, [Service { name: "web", port: 8080 }]);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A syntax error if `s` is not HCL, an evaluation error if an expression
/// the target reads cannot be evaluated, a data error if the data does not
/// fit `T`. Every error has the line and column it points at.
pub fn from_str<'de, T: de::Deserialize<'de>>(s: &'de str) -> Result<T> {
    T::deserialize(Deserializer::from_str(s))
}

/// Deserializes an instance of `T` from HCL text, evaluating expressions
/// with the variables and functions of `ctx`.
///
/// ```
/// use std::collections::BTreeMap;
///
/// let mut ctx = hcl::Context::new();
/// ctx.declare_var("env", "prod");
/// let map: BTreeMap<String, String> = hcl::from_str_with("name = \"api-${env}\"\n", &ctx)?;
/// assert_eq!(map["name"], "api-prod");
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_str`].
pub fn from_str_with<'de, T: de::Deserialize<'de>>(s: &'de str, ctx: &Context) -> Result<T> {
    T::deserialize(Deserializer::from_str(s).with_context(ctx))
}

/// Deserializes an instance of `T` from HCL text given as bytes.
///
/// ```
/// let port: std::collections::HashMap<String, u16> = hcl::from_slice(b"port = 8080\n")?;
/// assert_eq!(port["port"], 8080);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_str`]; invalid UTF-8 outside comments is a syntax error.
pub fn from_slice<'de, T: de::Deserialize<'de>>(v: &'de [u8]) -> Result<T> {
    T::deserialize(Deserializer::from_slice(v))
}

/// [`from_slice`] with a [`Context`].
///
/// # Errors
///
/// As [`from_slice`].
pub fn from_slice_with<'de, T: de::Deserialize<'de>>(v: &'de [u8], ctx: &Context) -> Result<T> {
    T::deserialize(Deserializer::from_slice(v).with_context(ctx))
}

/// Deserializes an instance of `T` from text in HCL's JSON syntax, without
/// a context: strings are literal text (no `${` processing).
///
/// A property is read as the target asks: a field that reads blocks (a
/// struct with `$label`, `Vec<T>` of structs, maps keyed by label) reads
/// the JSON spec's block forms, any other field an attribute.
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Service {
///     #[serde(rename = "$label")]
///     name: String,
///     port: u16,
/// }
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Config {
///     service: Vec<Service>,
/// }
///
/// let text = r#"{"service": {"web": {"port": 8080}, "api": {"port": 9090}}}"#;
/// let config: Config = hcl::from_json_str(text)?;
/// assert_eq!(config.service[1], Service { name: "api".into(), port: 9090 });
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_str`]; JSON syntax errors (trailing commas, comments...) are
/// syntax errors with their line and column.
pub fn from_json_str<'de, T: de::Deserialize<'de>>(s: &'de str) -> Result<T> {
    T::deserialize(Deserializer::from_str(s).with_syntax(Syntax::Json))
}

/// [`from_json_str`] with a [`Context`]: strings are templates, evaluated
/// with its variables and functions when the target reads them.
///
/// ```
/// let mut ctx = hcl::Context::new();
/// ctx.declare_var("env", "prod");
/// let v: hcl::Value = hcl::from_json_str_with(r#"{"name": "api-${env}"}"#, &ctx)?;
/// assert_eq!(v["name"], "api-prod");
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_json_str`], and evaluation errors pointing into the string.
pub fn from_json_str_with<'de, T: de::Deserialize<'de>>(s: &'de str, ctx: &Context) -> Result<T> {
    T::deserialize(
        Deserializer::from_str(s)
            .with_syntax(Syntax::Json)
            .with_context(ctx),
    )
}

/// [`from_json_str`] for bytes (which must be UTF-8).
///
/// # Errors
///
/// As [`from_json_str`]; invalid UTF-8 is a syntax error.
pub fn from_json_slice<'de, T: de::Deserialize<'de>>(v: &'de [u8]) -> Result<T> {
    T::deserialize(Deserializer::from_slice(v).with_syntax(Syntax::Json))
}

/// [`from_json_slice`] with a [`Context`].
///
/// # Errors
///
/// As [`from_json_slice`].
pub fn from_json_slice_with<'de, T: de::Deserialize<'de>>(
    v: &'de [u8],
    ctx: &Context,
) -> Result<T> {
    T::deserialize(
        Deserializer::from_slice(v)
            .with_syntax(Syntax::Json)
            .with_context(ctx),
    )
}

/// Reads the file at `path` and deserializes it, in the syntax its name
/// implies ([`Syntax::from_path`]: `*.json` is JSON, anything else
/// native), as the reference's `hclsimple` does. Errors name the file.
///
/// ```no_run
/// let config: hcl::Value = hcl::from_path("main.tf.json", None)?;
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A data error if the file cannot be read, otherwise as [`from_slice`]
/// or [`from_json_slice`].
pub fn from_path<T: DeserializeOwned>(
    path: impl AsRef<std::path::Path>,
    ctx: Option<&Context>,
) -> Result<T> {
    from_path_with_options(path, ctx, &Options::default())
}

/// [`from_path`] with [`Options`] (a larger input limit, a depth limit).
///
/// # Errors
///
/// As [`from_path`].
pub fn from_path_with_options<T: DeserializeOwned>(
    path: impl AsRef<std::path::Path>,
    ctx: Option<&Context>,
    options: &Options,
) -> Result<T> {
    let path = path.as_ref();
    let bytes =
        std::fs::read(path).map_err(|e| Error::io(e).with_file(path.display().to_string()))?;
    let de = Deserializer::from_slice(&bytes)
        .with_options(options)
        .with_syntax(Syntax::from_path(path))
        .with_file_name(path.display().to_string());
    match ctx {
        Some(ctx) => T::deserialize(de.with_context(ctx)),
        None => T::deserialize(de),
    }
}

/// Deserializes an instance of `T` from an I/O stream of HCL text, read
/// to the end first (HCL cannot be deserialized before its end is seen).
///
/// The stream is read no further than the default input limit
/// ([`ParseOptions::DEFAULT_MAX_INPUT_LEN`](hcl_grammar::ParseOptions::DEFAULT_MAX_INPUT_LEN), 8 MiB) plus one byte: a longer
/// stream is a syntax error ("input too large") without being read whole.
/// For a larger limit, use [`from_reader_with_options`].
///
/// ```
/// let input = std::io::Cursor::new("enabled = true\n");
/// let v: hcl::Value = hcl::from_reader(input)?;
/// assert_eq!(v.get("enabled"), Some(&hcl::Value::Bool(true)));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A data error if reading fails, otherwise as [`from_slice`].
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    from_reader_with_options(reader, None, &Options::default())
}

/// [`from_reader`] with a [`Context`].
///
/// # Errors
///
/// As [`from_reader`].
pub fn from_reader_with<R: std::io::Read, T: DeserializeOwned>(
    reader: R,
    ctx: &Context,
) -> Result<T> {
    from_reader_with_options(reader, Some(ctx), &Options::default())
}

/// [`from_reader`] with an optional [`Context`] and [`Options`]: the
/// stream is read no further than the options' input limit plus one byte.
///
/// ```
/// let options = hcl::de::Options::new().with_max_input_len(32 << 20);
/// let input = std::io::Cursor::new("enabled = true\n");
/// let v: hcl::Value = hcl::de::from_reader_with_options(input, None, &options)?;
/// assert_eq!(v["enabled"], true);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_reader`].
pub fn from_reader_with_options<R: std::io::Read, T: DeserializeOwned>(
    reader: R,
    ctx: Option<&Context>,
    options: &Options,
) -> Result<T> {
    use std::io::Read as _;
    let limit = options.max_input_len;
    let mut buf = Vec::new();
    reader
        .take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(Error::io)?;
    let de = Deserializer::from_slice(&buf).with_options(options);
    match ctx {
        Some(ctx) => T::deserialize(de.with_context(ctx)),
        None => T::deserialize(de),
    }
}

/// Deserializes an instance of `T` from a [`Value`], with HCL's
/// conversions (`"8080"` into `u16`, `15` into `String`).
///
/// ```
/// let v = hcl::Value::from(vec!["1", "2"]);
/// let ports: Vec<u16> = hcl::from_value(v)?;
/// assert_eq!(ports, [1, 2]);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A data error if the value does not fit `T`.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T> {
    T::deserialize(ValueDeserializer::new(value))
}
