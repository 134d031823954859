//! The file name stem of a task's trajectory files. The runner (runner/paths.mjs)
//! implements the same rule; docs/runner.md states it and both test the same examples.
//!
//! Ids contain `/` (`mmina/normal/3`) and may contain anything, so every byte outside
//! `[A-Za-z0-9_-]` is written `~XX` (hex). The result is a plain file name that needs no
//! escaping in a link, cannot climb out of the folder, and two ids never share one.

use std::fmt::Write;

/// Longer stems are cut and given a hash of the whole id, to stay under the 255-byte
/// file-name limit with room for `.json` / `.html` and media suffixes.
const MAX_STEM: usize = 180;
const CUT_AT: usize = 160;

pub fn task_file_stem(id: &str) -> String {
    let mut stem = String::with_capacity(id.len());
    for byte in id.bytes() {
        if byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-' {
            stem.push(char::from(byte));
        } else {
            let _ = write!(stem, "~{byte:02X}");
        }
    }
    if stem.len() > MAX_STEM {
        // The stem is ASCII, so any byte index is a char boundary.
        stem.truncate(CUT_AT);
        let _ = write!(stem, "~{:016x}", fnv1a64(id.as_bytes()));
    }
    stem
}

/// The stem of one attempt's files: the task's stem for the first attempt (so folders
/// written before attempts existed still match), `<stem>.attempt-<k>` for attempt k >= 2.
/// Stems never contain `.`, so no task's stem can equal another's attempt stem.
pub fn attempt_file_stem(id: &str, attempt: u32) -> String {
    let stem = task_file_stem(id);
    if attempt <= 1 {
        stem
    } else {
        format!("{stem}.attempt-{attempt}")
    }
}

/// FNV-1a, 64 bit: tiny, stable across platforms and easy to repeat in JS with BigInt.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    // The same examples are in tests/e2e/runner-paths.test.mjs.
    #[test]
    fn examples_shared_with_the_runner() {
        assert_eq!(task_file_stem("mmina/normal/3"), "mmina~2Fnormal~2F3");
        assert_eq!(task_file_stem("demo/tower-events"), "demo~2Ftower-events");
        assert_eq!(task_file_stem("a b.c~é"), "a~20b~2Ec~7E~C3~A9");
        assert_eq!(task_file_stem("../x"), "~2E~2E~2Fx");
        let long = "x".repeat(300);
        let stem = task_file_stem(&long);
        assert_eq!(stem.len(), CUT_AT + 17);
        assert_eq!(stem, format!("{}~e78ddf9f1ba85555", "x".repeat(160)));
        assert_eq!(fnv1a64(b"hopbench"), 0xaa4d_32b5_f8e0_c136);
        assert_eq!(attempt_file_stem("mmina/normal/3", 1), "mmina~2Fnormal~2F3");
        assert_eq!(
            attempt_file_stem("mmina/normal/3", 2),
            "mmina~2Fnormal~2F3.attempt-2"
        );
    }

    #[test]
    fn distinct_ids_give_distinct_stems() {
        assert_ne!(task_file_stem("a/b"), task_file_stem("a_b"));
        assert_ne!(task_file_stem("a/b"), task_file_stem("a~2Fb"));
    }
}
