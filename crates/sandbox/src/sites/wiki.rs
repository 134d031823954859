//! Kiwi Reader (a Kiwix-like offline encyclopedia): articles on cities, landmarks,
//! animals and foods with an infobox image, links between articles, full-text search
//! and category lists. City articles link out to the travel sites.

use super::{
    by_slug, cities, find_city, image, labelled, load_pictured, matches_words, City, SandboxError,
};
use crate::html::{self, esc, img, page, paginate, search_box};
use crate::http::{encode, Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "wiki",
    name: "Kiwi Reader",
    tagline: "the offline encyclopedia",
    offset: 0,
    accent: "#36454f",
    nav: &[
        ("Main page", "/"),
        ("Cities", "/category/city"),
        ("Landmarks", "/category/landmark"),
        ("Animals", "/category/animal"),
        ("Food", "/category/food"),
    ],
    routes: &[
        ("/", "main page with search"),
        (
            "/wiki/<Title_with_underscores>",
            "an article, e.g. /wiki/Tokyo_Tower",
        ),
        ("/search?q=<words>&page=<n>", "full-text search"),
        (
            "/category/<city|landmark|animal|food|country>?page=<n>",
            "articles of one kind",
        ),
        ("/img/<Title>.png", "an article's infobox image"),
    ],
    build,
};

const PER_PAGE: usize = 5;
const KINDS: &[(&str, &str)] = &[
    ("city", "Cities"),
    ("landmark", "Landmarks"),
    ("animal", "Animals"),
    ("food", "Food"),
    ("country", "Countries"),
];

#[derive(Deserialize)]
struct Article {
    slug: String,
    title: String,
    kind: String,
    summary: String,
    infobox: Vec<(String, String)>,
    sections: Vec<Section>,
    image: ImageSpec,
    /// The city this article is about or in (links to the travel sites).
    #[serde(default)]
    city: Option<String>,
    /// Words to search recipes or videos for (foods and animals).
    #[serde(default)]
    search: Option<String>,
}

#[derive(Deserialize)]
struct Section {
    heading: String,
    text: String,
}

struct Wiki {
    articles: Vec<Article>,
    cities: Vec<City>,
}

fn build() -> Result<Box<dyn Site>, SandboxError> {
    Ok(Box::new(Wiki {
        articles: load_pictured(
            "wiki.json",
            include_str!("../../data/wiki.json"),
            |a: &Article| (&a.slug, &a.image),
        )?,
        cities: cities()?,
    }))
}

/// Renders `[[Slug]]` and `[[Slug|text]]` as article links; the rest is escaped text.
fn wikitext(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("[[") {
        out.push_str(&esc(&rest[..start]));
        let after = &rest[start + 2..];
        let Some(end) = after.find("]]") else {
            out.push_str(&esc(&rest[start..]));
            return out;
        };
        let inner = &after[..end];
        let (slug, label) = inner.split_once('|').unwrap_or((inner, inner));
        let label = label.replace('_', " ");
        let _ = write!(out, "<a href=\"/wiki/{}\">{}</a>", esc(slug), esc(&label));
        rest = &after[end + 2..];
    }
    out.push_str(&esc(rest));
    out
}

fn plain(text: &str) -> String {
    let mut s = text.replace("[[", "").replace("]]", "");
    // "[[Slug|label]]" leaves "Slug|label": keep the label.
    while let Some(bar) = s.find('|') {
        let start = s[..bar].rfind(' ').map_or(0, |i| i + 1);
        s.replace_range(start..=bar, "");
    }
    s
}

impl Wiki {
    fn result_item(a: &Article) -> String {
        format!(
            "<li class=\"result\">{}<div><h3><a href=\"/wiki/{}\">{}</a></h3><p>{}</p></div></li>",
            img(&format!("/img/{}.png", a.slug), &a.title, 90),
            esc(&a.slug),
            esc(&a.title),
            esc(&plain(&a.summary))
        )
    }

    fn search_form(q: &str) -> String {
        search_box(
            "/search",
            "Search the encyclopedia",
            "Search articles",
            "q",
            q,
        )
    }

    fn home(&self, ctx: &Ctx) -> Resp {
        let mut body = format!(
            "<h1>Welcome to Kiwi Reader</h1><p>{} articles, readable offline.</p>{}",
            self.articles.len(),
            Self::search_form("")
        );
        if let Some(a) = by_slug(&self.articles, "Tokyo_Tower", |a| &a.slug) {
            let _ = write!(
                body,
                "<section><h2>Featured article</h2><ul class=\"results\">{}</ul></section>",
                Self::result_item(a)
            );
        }
        body.push_str("<section><h2>Browse by category</h2><ul>");
        for (kind, label) in KINDS {
            let n = self.articles.iter().filter(|a| a.kind == *kind).count();
            let _ = write!(
                body,
                "<li><a href=\"/category/{kind}\">{label}</a> ({n} articles)</li>"
            );
        }
        body.push_str("</ul></section>");
        page(ctx, "", &body)
    }

    fn list(ctx: &Ctx, req: &Req, title: &str, intro: &str, found: &[&Article]) -> Resp {
        let (items, nav) = paginate(req, found, PER_PAGE);
        let mut body = format!("<h1>{}</h1>{intro}<ul class=\"results\">", esc(title));
        for a in items {
            body.push_str(&Self::result_item(a));
        }
        if items.is_empty() {
            body.push_str("<li>No articles found.</li>");
        }
        let _ = write!(body, "</ul>{nav}");
        page(ctx, title, &body)
    }

    fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        let q = req.get("q").unwrap_or("");
        // Title matches first, then text matches, each in data order.
        let text = |a: &Article| {
            let secs: Vec<&str> = a.sections.iter().map(|s| s.text.as_str()).collect();
            format!("{} {} {}", a.title, a.summary, secs.join(" "))
        };
        let mut found: Vec<&Article> = self
            .articles
            .iter()
            .filter(|a| !q.is_empty() && matches_words(&a.title, q))
            .collect();
        found.extend(self.articles.iter().filter(|a| {
            !q.is_empty() && !matches_words(&a.title, q) && matches_words(&plain(&text(a)), q)
        }));
        let intro = Self::search_form(q);
        Self::list(
            ctx,
            req,
            &format!("Search results for \"{q}\""),
            &intro,
            &found,
        )
    }

    fn category(&self, ctx: &Ctx, req: &Req, kind: &str) -> Resp {
        let Some((_, label)) = KINDS.iter().find(|(k, _)| *k == kind) else {
            return html::not_found(ctx, &req.path);
        };
        let found: Vec<&Article> = self.articles.iter().filter(|a| a.kind == kind).collect();
        Self::list(ctx, req, label, "", &found)
    }

    fn elsewhere(&self, ctx: &Ctx, a: &Article) -> String {
        let mut links = Vec::new();
        if let Some(city) = a.city.as_deref().and_then(|c| find_city(&self.cities, c)) {
            let (slug, name) = (&city.slug, &city.name);
            if a.kind != "city" {
                links.push(format!(
                    "<a href=\"/wiki/{}\">{} (article)</a>",
                    esc(&name.replace(' ', "_")),
                    esc(name)
                ));
            }
            links.push(ctx.cross(
                "travel",
                &format!("/destination/{slug}"),
                &format!("Travel guide to {name}"),
            ));
            if a.kind == "city" {
                links.push(ctx.cross(
                    "flights",
                    &format!("/?to={}", city.airport),
                    &format!("Flights to {name} ({})", city.airport),
                ));
                links.push(ctx.cross(
                    "hotels",
                    &format!("/hotels/search?city={slug}"),
                    &format!("Hotels in {name}"),
                ));
                links.push(ctx.cross(
                    "cars",
                    &format!("/cars/search?city={slug}"),
                    &format!("Car hire in {name}"),
                ));
                links.push(ctx.cross(
                    "events",
                    &format!("/events/{slug}"),
                    &format!("Events in {name}"),
                ));
                links.push(ctx.cross(
                    "food",
                    &format!("/restaurants/{slug}"),
                    &format!("Restaurants in {name}"),
                ));
                links.push(ctx.cross(
                    "currency",
                    &format!("/currency/{}", city.currency),
                    &format!("Exchange rates for the {}", city.currency),
                ));
            }
        }
        if let Some(words) = &a.search {
            if a.kind == "food" {
                links.push(ctx.cross(
                    "recipes",
                    &format!("/recipes/search?q={}", encode(words)),
                    &format!("Recipes: {words}"),
                ));
            }
            links.push(ctx.cross(
                "videos",
                &format!("/results?search_query={}", encode(words)),
                &format!("Videos: {words}"),
            ));
        }
        if links.is_empty() {
            return String::new();
        }
        format!(
            "<section><h2>Elsewhere</h2><ul><li>{}</li></ul></section>",
            links.join("</li><li>")
        )
    }

    fn article(&self, ctx: &Ctx, slug: &str) -> Resp {
        let Some(a) = self
            .articles
            .iter()
            .find(|a| a.slug.eq_ignore_ascii_case(slug))
        else {
            let body = format!(
                "<h1>No article \"{}\"</h1><p>Try a search instead.</p>{}",
                esc(&slug.replace('_', " ")),
                Self::search_form(&slug.replace('_', " "))
            );
            return page(ctx, "Article not found", &body).with_status(404);
        };
        let mut infobox = format!(
            "<aside class=\"infobox\" aria-label=\"Infobox\"><figure>{}<figcaption>{}</figcaption></figure><table><tbody>",
            img(&format!("/img/{}.png", a.slug), &a.title, 240),
            esc(&a.title)
        );
        for (k, v) in &a.infobox {
            let _ = write!(
                infobox,
                "<tr><th scope=\"row\">{}</th><td>{}</td></tr>",
                esc(k),
                esc(v)
            );
        }
        infobox.push_str("</tbody></table></aside>");
        let mut body = format!(
            "<article><h1>{}</h1>{infobox}<p>{}</p>",
            esc(&a.title),
            wikitext(&a.summary)
        );
        for s in &a.sections {
            let _ = write!(
                body,
                "<h2>{}</h2><p>{}</p>",
                esc(&s.heading),
                wikitext(&s.text)
            );
        }
        body.push_str(&self.elsewhere(ctx, a));
        let label = KINDS
            .iter()
            .find(|(k, _)| *k == a.kind)
            .map_or("Other", |(_, l)| l);
        let _ = write!(
            body,
            "<p>Category: <a href=\"/category/{}\">{label}</a></p></article>",
            esc(&a.kind)
        );
        page(ctx, &a.title, &body)
    }

    fn image_spec(&self, slug: &str) -> Option<ImageSpec> {
        by_slug(&self.articles, slug, |a| &a.slug).map(|a| labelled(&a.image, &a.title))
    }
}

impl Site for Wiki {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx),
            ["wiki", slug] => self.article(ctx, slug),
            ["search"] => self.search(ctx, req),
            ["category", kind] => self.category(ctx, req, kind),
            ["img", file] => image(ctx, file, |s| self.image_spec(s)),
            _ => html::not_found(ctx, &req.path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wikitext_links_and_escapes() {
        assert_eq!(
            wikitext("See [[Tokyo_Tower|the tower]] & [[Paris]]."),
            "See <a href=\"/wiki/Tokyo_Tower\">the tower</a> &amp; <a href=\"/wiki/Paris\">Paris</a>."
        );
        assert_eq!(
            plain("the [[Tokyo_Tower|red tower]] in [[Tokyo]]"),
            "the red tower in Tokyo"
        );
    }
}
