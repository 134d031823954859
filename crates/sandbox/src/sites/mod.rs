//! The sandbox's sites as one table (`SITES`), plus what several sites share: the
//! city list, data loading and the image route. A new site is a module here and a row
//! in `SITES` (see `docs/sandbox.md`, "Adding a site").

mod cars;
mod currency;
mod events;
mod flights;
mod food;
mod hotels;
mod recipes;
mod shop;
mod travel;
mod videos;
mod wiki;

use super::html;
use super::http::{Req, Resp};
use super::shapes::{self, ImageSpec};
use super::site::{Ctx, SiteDef};
use super::SandboxError;
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// Every site, in port order: the port is the port base + `offset`.
pub static SITES: &[SiteDef] = &[
    wiki::DEF,
    shop::DEF,
    flights::DEF,
    hotels::DEF,
    cars::DEF,
    events::DEF,
    recipes::DEF,
    currency::DEF,
    travel::DEF,
    food::DEF,
    videos::DEF,
];

/// Parses one compiled-in data file, naming the file and the field path on error.
pub(crate) fn load<T: DeserializeOwned>(file: &'static str, text: &str) -> Result<T, SandboxError> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| SandboxError::Data {
        file,
        message: e.to_string(),
    })
}

/// Parses a compiled-in list of pictured records and checks each record's picture spec
/// (`picture` gives the record's name for messages and its spec).
pub(crate) fn load_pictured<T: DeserializeOwned>(
    file: &'static str,
    text: &str,
    picture: fn(&T) -> (&str, &ImageSpec),
) -> Result<Vec<T>, SandboxError> {
    let items: Vec<T> = load(file, text)?;
    check_specs(file, items.iter().map(picture))?;
    Ok(items)
}

/// A city every travel site knows (`crates/sandbox/data/cities.json`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct City {
    pub slug: String,
    pub name: String,
    pub country: String,
    pub airport: String,
    pub airport_name: String,
    pub currency: String,
    pub region: String,
}

pub(crate) fn cities() -> Result<Vec<City>, SandboxError> {
    load("cities.json", include_str!("../../data/cities.json"))
}

/// Finds a city by slug, name or airport code, ignoring case and `-`/space, so
/// `new-york`, `New York`, `new york` and `NYC` all work as typed into a form.
pub(crate) fn find_city<'a>(cities: &'a [City], query: &str) -> Option<&'a City> {
    let norm = |s: &str| s.to_ascii_lowercase().replace(['-', ' ', '_'], "");
    let q = norm(query);
    cities
        .iter()
        .find(|c| norm(&c.slug) == q || norm(&c.name) == q || norm(&c.airport) == q)
}

/// `(slug, name)` options for a city select, with a leading "choose" entry.
pub(crate) fn city_options(cities: &[City]) -> Vec<(String, String)> {
    html::with_any(
        "Choose a city",
        cities.iter().map(|c| (c.slug.clone(), c.name.clone())),
    )
}

/// The slug of the city the request names (`city=`), or `""`: the select's choice.
pub(crate) fn chosen_city<'a>(cities: &'a [City], req: &Req) -> &'a str {
    req.get("city")
        .and_then(|c| find_city(cities, c))
        .map_or("", |c| c.slug.as_str())
}

/// Serves `/img/<name>.png` from a lookup of specs by name; 404 otherwise.
pub(crate) fn image(ctx: &Ctx, file: &str, lookup: impl Fn(&str) -> Option<ImageSpec>) -> Resp {
    image_with(ctx, file, false, lookup)
}

pub(crate) fn image_with(
    ctx: &Ctx,
    file: &str,
    play: bool,
    lookup: impl Fn(&str) -> Option<ImageSpec>,
) -> Resp {
    match file.strip_suffix(".png").and_then(lookup) {
        Some(spec) => Resp::png(shapes::render(&spec, play)),
        None => html::not_found(ctx, &format!("/img/{file}")),
    }
}

/// A spec with its label filled in when the data left it out.
pub(crate) fn labelled(spec: &ImageSpec, label: &str) -> ImageSpec {
    let mut spec = spec.clone();
    if spec.label.is_none() {
        spec.label = Some(label.to_string());
    }
    spec
}

/// Checks a site's image specs at build time, so a typo in a kind or colour name is a
/// start-up error naming the file rather than a magenta picture.
pub(crate) fn check_specs<'a>(
    file: &'static str,
    specs: impl IntoIterator<Item = (&'a str, &'a ImageSpec)>,
) -> Result<(), SandboxError> {
    use super::draw::is_colour;
    for (owner, spec) in specs {
        let colours = [Some(&spec.color), spec.accent.as_ref(), spec.bg.as_ref()];
        let bad_colour = colours.into_iter().flatten().find(|c| !is_colour(c));
        let problem = if !shapes::is_kind(&spec.kind) {
            Some(format!("unknown image kind {:?}", spec.kind))
        } else if spec.bg.as_deref() == Some(spec.color.as_str()) {
            Some(format!(
                "colour {:?} on the same background is invisible",
                spec.color
            ))
        } else {
            bad_colour.map(|c| format!("unknown colour {c:?}"))
        };
        if let Some(problem) = problem {
            return Err(SandboxError::Data {
                file,
                message: format!("{owner}: {problem}"),
            });
        }
    }
    Ok(())
}

/// Finds a record by slug in a list.
pub(crate) fn by_slug<'a, T>(
    items: &'a [T],
    slug: &str,
    key: impl Fn(&T) -> &str,
) -> Option<&'a T> {
    items.iter().find(|x| key(x) == slug)
}

/// Case-insensitive "every word of `query` occurs in `haystack`".
pub(crate) fn matches_words(haystack: &str, query: &str) -> bool {
    let hay = haystack.to_lowercase();
    query
        .to_lowercase()
        .split_whitespace()
        .all(|w| hay.contains(w))
}

/// A 3-state comparison for sorting by f64 without panicking on NaN.
pub(crate) fn cmp_f64(a: f64, b: f64) -> std::cmp::Ordering {
    a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal)
}

/// A short booking reference that depends only on what was booked (deterministic).
pub(crate) fn reference(prefix: &str, parts: &[&str]) -> String {
    let mut n = crate::png::crc32(parts.join("|").as_bytes());
    let alphabet = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut out = prefix.to_string();
    for _ in 0..6 {
        out.push(alphabet[(n % 32) as usize] as char);
        n /= 32;
    }
    out
}

#[cfg(test)]
mod tests;
