//! HomeCook Recipes (allrecipes-like): search with cuisine and time filters, sorting,
//! pagination, and recipe pages with a picture, ingredient quantities and steps.

use super::{by_slug, cmp_f64, image, labelled, load_pictured, matches_words, SandboxError};
use crate::html::{
    self, bound_input, esc, facet, form, img, opts, page, paginate, select, with_any,
};
use crate::http::{encode, Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "recipes",
    name: "HomeCook Recipes",
    tagline: "tested recipes from home cooks",
    offset: 6,
    accent: "#15803d",
    nav: &[("Home", "/"), ("All recipes", "/recipes/search")],
    routes: &[
        ("/", "home with search and cuisines"),
        ("/recipes/search?q=<words>&cuisine=<cuisine>&max_time=<minutes>&sort=<rating|time|title>&page=<n>", "recipe search"),
        ("/recipe/<slug>", "a recipe"),
        ("/img/<slug>.png", "a recipe's picture"),
    ],
    build,
};

const CUISINES: &[(&str, &str)] = &[
    ("american", "American"),
    ("australian", "Australian"),
    ("british", "British"),
    ("french", "French"),
    ("italian", "Italian"),
    ("japanese", "Japanese"),
    ("korean", "Korean"),
    ("spanish", "Spanish"),
    ("thai", "Thai"),
];

#[derive(Deserialize)]
struct Recipe {
    slug: String,
    title: String,
    cuisine: String,
    /// Total minutes.
    time: u32,
    servings: u32,
    difficulty: String,
    rating: f64,
    reviews: u32,
    author: String,
    description: String,
    ingredients: Vec<Ingredient>,
    steps: Vec<String>,
    image: ImageSpec,
}

#[derive(Deserialize)]
struct Ingredient {
    qty: f64,
    unit: String,
    item: String,
}

impl Ingredient {
    /// `4 eggs`, `2 tbsp dashi stock`, `0.5 cup rice`.
    fn text(&self) -> String {
        let qty = if self.qty.fract() == 0.0 {
            format!("{}", self.qty as i64)
        } else {
            format!("{}", self.qty)
        };
        if self.unit.is_empty() {
            format!("{qty} {}", self.item)
        } else {
            format!("{qty} {} {}", self.unit, self.item)
        }
    }
}

struct Recipes(Vec<Recipe>);

fn build() -> Result<Box<dyn Site>, SandboxError> {
    Ok(Box::new(Recipes(load_pictured(
        "recipes.json",
        include_str!("../../data/recipes.json"),
        |r: &Recipe| (&r.slug, &r.image),
    )?)))
}

fn cuisine_name(slug: &str) -> &str {
    CUISINES
        .iter()
        .find(|(k, _)| *k == slug)
        .map_or(slug, |(_, n)| n)
}

impl Recipes {
    fn search_form(req: &Req) -> String {
        let cuisines = with_any("Any cuisine", opts(CUISINES));
        form(
            "/recipes/search",
            "Recipe search",
            &[
                bound_input(req, "Search recipes", "q", "search", ""),
                select(
                    "Cuisine",
                    "cuisine",
                    &cuisines,
                    req.get("cuisine").unwrap_or(""),
                ),
            ],
            "Search",
        )
    }

    fn card(r: &Recipe) -> String {
        format!(
            "<li class=\"result\">{}<div><h3><a href=\"/recipe/{}\">{}</a></h3><p>{} · {} minutes · {}</p><p>Rating {} ({} reviews)</p></div></li>",
            img(&format!("/img/{}.png", r.slug), &r.title, 150),
            esc(&r.slug), esc(&r.title), cuisine_name(&r.cuisine), r.time, esc(&r.difficulty), html::stars(r.rating), r.reviews,
        )
    }

    fn home(&self, ctx: &Ctx, req: &Req) -> Resp {
        let mut body = format!(
            "<h1>What are you cooking today?</h1>{}<h2>Cuisines</h2><ul>",
            Self::search_form(req)
        );
        for (slug, name) in CUISINES {
            let n = self.0.iter().filter(|r| r.cuisine == *slug).count();
            let _ = write!(
                body,
                "<li><a href=\"/recipes/search?cuisine={slug}\">{name}</a> ({n})</li>"
            );
        }
        body.push_str("</ul><h2>Quick dinners</h2><ul class=\"results\">");
        for r in self.0.iter().filter(|r| r.time <= 20) {
            body.push_str(&Self::card(r));
        }
        body.push_str("</ul>");
        page(ctx, "", &body)
    }

    fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        let q = req.get("q").unwrap_or("");
        let mut shown: Vec<&Recipe> = self
            .0
            .iter()
            .filter(|r| {
                let items: Vec<&str> = r.ingredients.iter().map(|i| i.item.as_str()).collect();
                matches_words(
                    &format!(
                        "{} {} {} {}",
                        r.title,
                        r.description,
                        r.cuisine,
                        items.join(" ")
                    ),
                    q,
                )
            })
            .filter(|r| {
                req.get("cuisine")
                    .is_none_or(|c| r.cuisine.eq_ignore_ascii_case(c))
            })
            .filter(|r| req.num("max_time").is_none_or(|m| r.time <= m))
            .collect();
        match req.get("sort") {
            Some("rating") => shown.sort_by(|a, b| cmp_f64(b.rating, a.rating)),
            Some("time") => shown.sort_by_key(|r| r.time),
            Some("title") => shown.sort_by(|a, b| a.title.cmp(&b.title)),
            _ => {}
        }
        let (items, nav) = paginate(req, &shown, 5);
        let title = if q.is_empty() {
            "Recipes".to_string()
        } else {
            format!("Recipes for \"{q}\"")
        };
        let mut body = format!(
            "<h1>{}</h1>{}<div class=\"layout\"><aside aria-label=\"Filters\">{}{}{}</aside><section aria-label=\"Recipes\"><ul class=\"results\">",
            esc(&title),
            Self::search_form(req),
            facet(req, "Sort by", "sort", &opts(&[("rating", "Top rated"), ("time", "Quickest"), ("title", "A to Z")])),
            facet(req, "Cuisine", "cuisine", &opts(CUISINES)),
            facet(req, "Ready in", "max_time", &opts(&[("20", "20 minutes or less"), ("45", "45 minutes or less"), ("90", "90 minutes or less")])),
        );
        for r in items {
            body.push_str(&Self::card(r));
        }
        if items.is_empty() {
            body.push_str("<li>No recipes found.</li>");
        }
        let _ = write!(body, "</ul>{nav}</section></div>");
        page(ctx, &title, &body)
    }

    fn recipe(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        let Some(r) = by_slug(&self.0, slug, |r| &r.slug) else {
            return html::not_found(ctx, &req.path);
        };
        let mut body = format!(
            "<article><h1>{}</h1><p>By {} · {} · Rating {} ({} reviews)</p><figure>{}</figure><p>{}</p>\
<dl><dt>Total time</dt><dd>{} minutes</dd><dt>Servings</dt><dd>{}</dd><dt>Difficulty</dt><dd>{}</dd></dl><h2>Ingredients</h2><ul>",
            esc(&r.title), esc(&r.author), cuisine_name(&r.cuisine), html::stars(r.rating), r.reviews,
            img(&format!("/img/{}.png", r.slug), &r.title, 320), esc(&r.description), r.time, r.servings, esc(&r.difficulty),
        );
        for i in &r.ingredients {
            let _ = write!(body, "<li>{}</li>", esc(&i.text()));
        }
        body.push_str("</ul><h2>Method</h2><ol>");
        for s in &r.steps {
            let _ = write!(body, "<li>{}</li>", esc(s));
        }
        let _ = write!(
            body,
            "</ol><p>{}</p><p><a href=\"/recipes/search?cuisine={}\">More {} recipes</a></p></article>",
            ctx.cross("videos", &format!("/results?search_query={}", encode(&r.title)), &format!("Watch: {}", r.title)),
            esc(&r.cuisine),
            cuisine_name(&r.cuisine),
        );
        page(ctx, &r.title, &body)
    }
}

impl Site for Recipes {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx, req),
            ["recipes", "search"] => self.search(ctx, req),
            ["recipe", slug] => self.recipe(ctx, req, slug),
            ["img", file] => image(ctx, file, |s| {
                by_slug(&self.0, s, |r| &r.slug).map(|r| labelled(&r.image, &r.title))
            }),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
