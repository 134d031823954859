//! Similarity of a task to past records: BM25 of the intents' words, scaled by the
//! query's score against itself to lie in 0..1, plus the overlap of their sites.
//!
//! Speed matters (a pool may hold every run ever made, and the extension searches it
//! in wasm before each run), so words are hashed while the text is scanned, without
//! allocating, and only the query's words are counted: one pass over each intent, a
//! one probe of a small table per word. `hopbench bench-memory` prints the figure.

use std::sync::OnceLock;

use super::record::MemoryRecord;
use super::select::MemoryQuery;

/// The intent carries the task; the sites separate tasks whose words agree.
const INTENT_WEIGHT: f64 = 0.75;
const SITES_WEIGHT: f64 = 0.25;
/// The usual BM25 constants: how fast repeated words saturate, how much length counts.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Words too common in task intents to tell tasks apart.
const STOPWORDS: &[&str] = &[
    "about", "after", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from",
    "have", "here", "how", "in", "is", "it", "its", "me", "my", "of", "on", "or", "that", "the",
    "then", "there", "this", "to", "was", "what", "when", "which", "with", "you", "your",
];

/// The FNV prime: spreads a word's bits over the whole hash. A collision only makes two words
/// count as one, which changes a score slightly.
const MIX: u64 = 0x0000_0100_0000_01b3;

#[cfg(test)]
pub(super) fn stopwords() -> &'static [&'static str] {
    STOPWORDS
}

fn stopword_hashes() -> &'static [u64] {
    static HASHES: OnceLock<Vec<u64>> = OnceLock::new();
    HASHES.get_or_init(|| {
        let mut hashes: Vec<u64> = STOPWORDS.iter().map(|w| hash_word(w)).collect();
        hashes.sort_unstable();
        hashes
    })
}

/// Per byte: 0 for a separator, else the byte to hash (ASCII folded to lower case).
const BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = if byte.is_ascii_alphanumeric() || byte >= 0x80 {
            byte.to_ascii_lowercase()
        } else {
            0
        };
        b += 1;
    }
    table
};

/// The hashes of the words of a text: runs of ASCII letters and digits (folded to
/// lower case) and of non-ASCII bytes (compared as written), two bytes or more.
/// Stopwords are left in: only the query drops them (see [`words`]), so they never
/// match and only count towards an intent's length, as in BM25 they should.
///
/// An iterator with forced inlining rather than a callback: the crate is built with
/// `opt-level = "z"` for the wasm, which inlines little, and the scan is the whole
/// cost of a search.
struct Words<'t> {
    bytes: &'t [u8],
    at: usize,
}

impl<'t> Words<'t> {
    fn new(text: &'t str) -> Words<'t> {
        Words {
            bytes: text.as_bytes(),
            at: 0,
        }
    }
}

impl Iterator for Words<'_> {
    type Item = u64;

    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        // Rotate and xor per byte (two one-cycle operations), one multiply per word.
        let mut hash = 0u64;
        let mut len = 0u32;
        while let Some(&byte) = self.bytes.get(self.at) {
            self.at += 1;
            let class = BYTE_CLASS[byte as usize];
            if class != 0 {
                hash = hash.rotate_left(7) ^ u64::from(class);
                len += 1;
            } else if len >= 2 {
                return Some(finish(hash, len));
            } else {
                hash = 0;
                len = 0;
            }
        }
        (len >= 2).then(|| finish(hash, len))
    }
}

#[inline(always)]
fn finish(hash: u64, len: u32) -> u64 {
    let hash = (hash ^ (u64::from(len) << 56)).wrapping_mul(MIX);
    hash ^ (hash >> 29)
}

/// The hash [`Words`] gives a word.
fn hash_word(word: &str) -> u64 {
    Words::new(word).last().unwrap_or_default()
}

fn is_stopword(hash: u64) -> bool {
    stopword_hashes().binary_search(&hash).is_ok()
}

/// The query's words in a small open-addressing table (a quarter full at most), so
/// looking a word up is one or two probes.
struct QueryTable {
    /// (word hash, its index in the query's sorted words), `u32::MAX` for empty.
    slots: Vec<(u64, u32)>,
    mask: usize,
}

impl QueryTable {
    fn new(words: &[u64]) -> QueryTable {
        let size = (words.len() * 4).next_power_of_two().max(8);
        let mut slots = vec![(0, u32::MAX); size];
        let mask = size - 1;
        for (at, &w) in words.iter().enumerate() {
            let mut slot = (w as usize) & mask;
            while slots[slot].1 != u32::MAX {
                slot = (slot + 1) & mask;
            }
            slots[slot] = (w, at as u32);
        }
        QueryTable { slots, mask }
    }

    #[inline(always)]
    fn find(&self, word: u64) -> Option<usize> {
        let mut slot = (word as usize) & self.mask;
        // `get` rather than indexing: at opt-level "z" an index is a call.
        while let Some(&(w, at)) = self.slots.get(slot) {
            if at == u32::MAX {
                return None;
            }
            if w == word {
                return Some(at as usize);
            }
            slot = (slot + 1) & self.mask;
        }
        None
    }
}

/// The distinct words of `text` but stopwords, hashed and sorted (the modular agent's
/// candidate ranking compares words the same way).
pub fn words(text: &str) -> Vec<u64> {
    let mut out: Vec<u64> = Words::new(text).filter(|w| !is_stopword(*w)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The pool, scanned once for one query: which of the query's words each record's
/// intent has (a bit set), how long each intent is, and how many intents have each
/// query word.
pub struct SimilarityIndex<'a> {
    pool: &'a [MemoryRecord],
    query: MemoryQuery,
    query_words: Vec<u64>,
    query_len: usize,
    /// `blocks` u64 per record.
    matches: Vec<u64>,
    blocks: usize,
    lengths: Vec<u32>,
    df: Vec<u32>,
}

impl<'a> SimilarityIndex<'a> {
    pub fn build(pool: &'a [MemoryRecord], query: &MemoryQuery) -> SimilarityIndex<'a> {
        let query_words = words(&query.intent);
        let query_len = Words::new(&query.intent).count();
        let blocks = query_words.len().div_ceil(64).max(1);
        let mut matches = vec![0u64; pool.len() * blocks];
        let mut lengths = Vec::with_capacity(pool.len());
        let mut df = vec![0u32; query_words.len()];
        let table = QueryTable::new(&query_words);
        for (i, record) in pool.iter().enumerate() {
            let bits = &mut matches[i * blocks..(i + 1) * blocks];
            let mut len = 0u32;
            for w in Words::new(&record.intent) {
                len += 1;
                if let Some(at) = table.find(w) {
                    bits[at / 64] |= 1 << (at % 64);
                }
            }
            for (at, count) in df.iter_mut().enumerate() {
                *count += u32::from(bits[at / 64] & (1 << (at % 64)) != 0);
            }
            lengths.push(len);
        }
        SimilarityIndex {
            pool,
            query: query.clone(),
            query_words,
            query_len,
            matches,
            blocks,
            lengths,
            df,
        }
    }

    /// The `k` best records as (index into the pool, score in 0..1), best first; ties
    /// go to the later (more recent) record. Records of the query's own task and
    /// records with nothing in common (score 0) are left out.
    pub fn rank(&self, k: usize) -> Vec<(usize, f64)> {
        let n = self.pool.len() as f64;
        let idf: Vec<f64> = self
            .df
            .iter()
            .map(|&df| {
                let df = f64::from(df);
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            })
            .collect();
        let total: f64 = self.lengths.iter().map(|&l| f64::from(l)).sum();
        let average = if self.pool.is_empty() {
            1.0
        } else {
            (total / n).max(1.0)
        };
        let weight = |len: f64| (K1 + 1.0) / (1.0 + K1 * (1.0 - B + B * len / average));
        // The query against itself: the most a record can score, so scores fall in 0..1
        // and can be added to the sites' overlap.
        let best = idf.iter().sum::<f64>() * weight(self.query_len as f64);
        let mut scored: Vec<(usize, f64)> = Vec::new();
        for (index, record) in self.pool.iter().enumerate() {
            if record.task_id == self.query.task_id {
                continue;
            }
            let bits = &self.matches[index * self.blocks..(index + 1) * self.blocks];
            let mut sum = 0.0;
            for (b, block) in bits.iter().enumerate() {
                let mut rest = *block;
                while rest != 0 {
                    let at = b * 64 + rest.trailing_zeros() as usize;
                    sum += idf[at];
                    rest &= rest - 1;
                }
            }
            let intent = if best > 0.0 {
                (sum * weight(f64::from(self.lengths[index])) / best).min(1.0)
            } else {
                0.0
            };
            let score =
                INTENT_WEIGHT * intent + SITES_WEIGHT * jaccard(&self.query.sites, &record.sites);
            if score > 0.0 {
                scored.push((index, score));
            }
        }
        let better = |a: &(usize, f64), b: &(usize, f64)| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0));
        if scored.len() > k {
            scored.select_nth_unstable_by(k, better);
            scored.truncate(k);
        }
        scored.sort_by(better);
        scored
    }

    /// How many distinct words the query has (for tests and the benchmark's output).
    pub fn query_words(&self) -> usize {
        self.query_words.len()
    }
}

fn jaccard(a: &[String], b: &[String]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let common = a.iter().filter(|s| b.contains(s)).count();
    let union = a.len() + b.len() - common;
    common as f64 / union as f64
}
