//! Every command's `move` event has the same keys (`rochade track`,
//! `play` and `online` with `--json`). Included with `#[path]`.
#![allow(dead_code)]

/// Fails unless `event` is a `move` event with exactly the keys every
/// command writes.
pub fn assert_move_keys(event: &serde_json::Value) {
    let mut keys: Vec<&str> = event
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {event}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    let mut expected = rochade::cli::output::MOVE_KEYS.to_vec();
    expected.sort_unstable();
    assert_eq!(keys, expected, "{event}");
    assert_eq!(event["event"], "move");
}
