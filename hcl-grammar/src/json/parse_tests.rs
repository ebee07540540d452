//! The parser's own checks: the word-at-a-time string scan and the
//! integers' fast path against their plain forms.

use super::{plain_run, valid_number, HIGHS};

/// The integers' fast path accepts and rejects what the general check
/// of a number's run does.
#[test]
fn integers_as_the_general_check() {
    for text in [
        "0",
        "-0",
        "7",
        "-7",
        "10",
        "01",
        "-01",
        "00",
        "-",
        "--1",
        "1-",
        "1.5",
        "1e5",
        "0.0",
        "0e1",
        "123456789012345678901234567890",
        "1+",
        "-1.0e-5",
        "0-",
        "0.",
        ".5",
    ] {
        let input = format!("[{text}, {text}]");
        let parsed = crate::json::parse_json(&input, &Default::default()).is_ok();
        assert_eq!(parsed, valid_number(text.as_bytes()), "{text}");
    }
}

/// The word-at-a-time scan stops where a byte-at-a-time one does.
#[test]
fn plain_run_is_the_naive_scan() {
    let naive = |b: &[u8]| {
        b.iter()
            .position(|&c| c < 0x20 || c == b'"' || c == b'\\')
            .unwrap_or(b.len())
    };
    let stops: [&[u8]; 7] = [
        b"\"",
        b"\\",
        b"\x00",
        b"\x1f",
        b"\n",
        "é".as_bytes(),
        b"\x7f",
    ];
    for len in 0..20 {
        for at in 0..=len {
            for stop in stops {
                let mut text: Vec<u8> = "aé ~".bytes().cycle().take(len).collect();
                text.splice(at..at, stop.iter().copied());
                let (n, seen) = plain_run(&text);
                assert_eq!(n, naive(&text), "{text:?}");
                if !text.get(..n).is_some_and(<[u8]>::is_ascii) {
                    assert_ne!(seen & HIGHS, 0, "{text:?}");
                }
            }
        }
    }
    let all: Vec<u8> = (0..=255u8).rev().collect();
    let mut rest = all.as_slice();
    while let Some((_, tail)) = rest.split_first() {
        let (n, seen) = plain_run(rest);
        assert_eq!(n, naive(rest));
        assert_eq!(
            seen & HIGHS != 0,
            !rest.get(..n).is_some_and(<[u8]>::is_ascii)
        );
        rest = tail;
    }
}

/// A document parsed with a thread's spare buffers (left by documents
/// and errors before it, small and large, deep and shallow) is the one
/// a fresh thread parses.
#[test]
fn spare_buffers_change_nothing() {
    let big = format!(
        "{{{}\"z\": [\"\\u00e9\"]}}",
        (0..400)
            .map(|i| format!("\"k{i}\": [{i}, \"v\\n{i}\"], "))
            .collect::<String>()
    );
    let texts = [
        r#"{"a": [1, {"b": "x\ny"}], "c": "d\u00e9"}"#.to_owned(),
        r#"[[[[[[1, 2], 3]]]], {"k": {"l": {"m": {"n": {"o": "\"p\""}}}}}]"#.to_owned(),
        big,
        r#"{"a": [1, 2,]}"#.to_owned(),
        r#"{"a": "b\"#.to_owned(),
        r#"{"é": "\ud83d\ude00", "e": 1.5e3}"#.to_owned(),
        "{}".to_owned(),
        r#"{"x": "plain"}"#.to_owned(),
    ];
    let parse = |t: &str| format!("{:?}", super::parse_json(t, &Default::default()));
    let fresh: Vec<String> = texts
        .iter()
        .map(|t| {
            let t = t.clone();
            std::thread::spawn(move || parse(&t))
                .join()
                .unwrap_or_default()
        })
        .collect();
    // Every order of two: the first leaves its buffers to the second.
    for (i, a) in texts.iter().enumerate() {
        for (b, want) in texts.iter().zip(&fresh) {
            let _ = parse(a);
            assert_eq!(&parse(b), want, "{b} after {i}");
        }
    }
    // A document still alive when the next is parsed, then both dropped.
    let (a, b) = (&texts[..1], &texts[1..2]);
    let first = a
        .iter()
        .map(|t| super::parse_json(t, &Default::default()))
        .collect::<Vec<_>>();
    assert_eq!(
        b.iter().map(|t| parse(t)).collect::<Vec<_>>(),
        fresh.get(1..2).unwrap_or_default()
    );
    drop(first);
    assert_eq!(
        a.iter().map(|t| parse(t)).collect::<Vec<_>>(),
        fresh.get(..1).unwrap_or_default()
    );
}
