//! Finding the task files under a path, in a stable, human order.

use super::ImportError;
use std::cmp::Ordering;
use std::fs;
use std::path::{Path, PathBuf};

/// `path` itself when it is a file (whatever its extension: the user named it), else
/// every `.json` file below it, ordered by folder and then by file name with numbers
/// compared as numbers, so MMInA's `mmina/<domain>/<i>.json` reads 1, 2, ..., 10.
pub fn task_files(path: &Path) -> Result<Vec<PathBuf>, ImportError> {
    let meta = fs::metadata(path).map_err(|e| read_error(path, &e))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    collect(path, &mut files)?;
    files.sort_by(|a, b| natural_path_cmp(a, b));
    Ok(files)
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), ImportError> {
    let entries = fs::read_dir(dir).map_err(|e| read_error(dir, &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| read_error(dir, &e))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| read_error(&path, &e))?;
        // Symlinked folders are not followed, so a link cycle cannot loop forever.
        if kind.is_dir() {
            collect(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        {
            files.push(path);
        }
    }
    Ok(())
}

fn read_error(path: &Path, err: &std::io::Error) -> ImportError {
    ImportError::Read {
        file: path.to_path_buf(),
        message: err.to_string(),
    }
}

/// Compares paths component by component; within a component, runs of digits compare
/// by value. Files sort before subfolders only as their names do (no special casing).
fn natural_path_cmp(a: &Path, b: &Path) -> Ordering {
    let mut ca = a.components();
    let mut cb = b.components();
    loop {
        match (ca.next(), cb.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let ord = natural_cmp(
                    &x.as_os_str().to_string_lossy(),
                    &y.as_os_str().to_string_lossy(),
                );
                if ord != Ordering::Equal {
                    return ord;
                }
            }
        }
    }
}

/// Natural order of two names (also used to list task ids in reports).
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (ka, kb) = (chunks(a), chunks(b));
    ka.cmp(&kb).then_with(|| a.cmp(b))
}

/// Splits a name into text and number chunks; numbers sort before text at the same
/// position (as `Chunk`'s variant order says).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Chunk {
    Number(u128),
    Text(String),
}

fn chunks(s: &str) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let is_digit = c.is_ascii_digit();
        let end = rest
            .find(|ch: char| ch.is_ascii_digit() != is_digit)
            .unwrap_or(rest.len());
        let (run, tail) = rest.split_at(end);
        out.push(match run.parse::<u128>() {
            Ok(n) if is_digit => Chunk::Number(n),
            _ => Chunk::Text(run.to_string()),
        });
        rest = tail;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_by_value() {
        let mut names = vec![
            "10.json", "2.json", "1.json", "b.json", "a10.json", "a9.json",
        ];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            ["1.json", "2.json", "10.json", "a9.json", "a10.json", "b.json"]
        );
    }

    #[test]
    fn folders_then_numeric_files() {
        let mut paths: Vec<PathBuf> = [
            "m/wikipedia/2.json",
            "m/compare/10.json",
            "m/compare/9.json",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        paths.sort_by(|a, b| natural_path_cmp(a, b));
        assert_eq!(
            paths,
            [
                "m/compare/9.json",
                "m/compare/10.json",
                "m/wikipedia/2.json"
            ]
            .iter()
            .map(PathBuf::from)
            .collect::<Vec<_>>()
        );
    }
}
