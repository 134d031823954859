//! Wander Guides (nomadicmatt-like travel guide): destinations by region, a guide per
//! city with budget, tips and attractions, attraction pages, and search. Each guide
//! links to the encyclopedia and to the booking sites for that city.

use super::{
    check_specs, cities, find_city, image, labelled, load, matches_words, City, SandboxError,
};
use crate::html::{self, esc, facet, img, opts, page, paginate, search_box};
use crate::http::{Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "travel",
    name: "Wander Guides",
    tagline: "honest city guides for independent travellers",
    offset: 8,
    accent: "#0e7490",
    nav: &[("Home", "/"), ("Destinations", "/destinations")],
    routes: &[
        ("/", "home with search"),
        (
            "/destinations?region=<asia|oceania|europe|north-america>&page=<n>",
            "destinations",
        ),
        ("/destination/<city>", "a city guide"),
        ("/destination/<city>/<attraction>", "an attraction"),
        ("/search?q=<words>", "search guides and attractions"),
        ("/img/<city>.png, /img/<city>/<attraction>.png", "pictures"),
    ],
    build,
};

const REGIONS: &[(&str, &str)] = &[
    ("asia", "Asia"),
    ("oceania", "Oceania"),
    ("europe", "Europe"),
    ("north-america", "North America"),
];

#[derive(Deserialize)]
struct Guide {
    city: String,
    headline: String,
    /// Typical daily spend in USD for a mid-range traveller.
    budget: u32,
    best_time: String,
    language: String,
    intro: String,
    tips: Vec<String>,
    attractions: Vec<Attraction>,
}

#[derive(Deserialize)]
struct Attraction {
    slug: String,
    name: String,
    kind: String,
    /// Entry in USD; 0 is free.
    price: u32,
    hours: String,
    visit: String,
    text: String,
    image: ImageSpec,
    /// The encyclopedia article, when there is one.
    #[serde(default)]
    wiki: Option<String>,
}

struct Travel {
    guides: Vec<Guide>,
    cities: Vec<City>,
}

fn build() -> Result<Box<dyn Site>, SandboxError> {
    let guides: Vec<Guide> = load("travel.json", include_str!("../../data/travel.json"))?;
    check_specs(
        "travel.json",
        guides
            .iter()
            .flat_map(|g| g.attractions.iter().map(|a| (a.slug.as_str(), &a.image))),
    )?;
    Ok(Box::new(Travel {
        guides,
        cities: cities()?,
    }))
}

fn price_text(usd: u32) -> String {
    if usd == 0 {
        "Free".to_string()
    } else {
        format!("${usd}")
    }
}

fn region_name(slug: &str) -> &str {
    REGIONS
        .iter()
        .find(|(k, _)| *k == slug)
        .map_or(slug, |(_, n)| n)
}

impl Travel {
    fn city(&self, slug: &str) -> Option<&City> {
        find_city(&self.cities, slug)
    }

    fn guide(&self, slug: &str) -> Option<(&Guide, &City)> {
        let g = self.guides.iter().find(|g| g.city == slug)?;
        Some((g, self.city(&g.city)?))
    }

    /// The city's cover picture: a skyline in a colour per region.
    fn cover(&self, slug: &str) -> Option<ImageSpec> {
        let (_, c) = self.guide(slug)?;
        let colour = match c.region.as_str() {
            "asia" => "red",
            "europe" => "navy",
            "oceania" => "teal",
            _ => "gray",
        };
        Some(ImageSpec {
            kind: "skyline".into(),
            color: colour.into(),
            accent: Some("yellow".into()),
            bg: Some("sky".into()),
            label: Some(c.name.clone()),
        })
    }

    fn card(&self, g: &Guide, c: &City) -> String {
        format!(
            "<li>{}<h3><a href=\"/destination/{}\">{}, {}</a></h3><p>{}</p><p>About ${} a day</p></li>",
            img(&format!("/img/{}.png", c.slug), &c.name, 200),
            esc(&c.slug), esc(&c.name), esc(&c.country), esc(&g.headline), g.budget,
        )
    }

    fn search_form(q: &str) -> String {
        search_box(
            "/search",
            "Search guides",
            "Search destinations and sights",
            "q",
            q,
        )
    }

    fn home(&self, ctx: &Ctx) -> Resp {
        let mut body = format!("<h1>Where to next?</h1>{}", Self::search_form(""));
        for (region, name) in REGIONS {
            let _ = write!(
                body,
                "<h2><a href=\"/destinations?region={region}\">{name}</a></h2><ul class=\"cards\">"
            );
            for (g, c) in self
                .guides
                .iter()
                .filter_map(|g| self.guide(&g.city))
                .filter(|(_, c)| c.region == *region)
            {
                body.push_str(&self.card(g, c));
            }
            body.push_str("</ul>");
        }
        page(ctx, "", &body)
    }

    fn destinations(&self, ctx: &Ctx, req: &Req) -> Resp {
        let shown: Vec<(&Guide, &City)> = self
            .guides
            .iter()
            .filter_map(|g| self.guide(&g.city))
            .filter(|(_, c)| req.get("region").is_none_or(|r| c.region == r))
            .collect();
        let (items, nav) = paginate(req, &shown, 4);
        let title = req
            .get("region")
            .map_or("All destinations".to_string(), |r| {
                format!("Destinations in {}", region_name(r))
            });
        let mut body = format!("<h1>{}</h1><div class=\"layout\"><aside aria-label=\"Filters\">{}</aside><section><ul class=\"cards\">", esc(&title), facet(req, "Region", "region", &opts(REGIONS)));
        for (g, c) in items {
            body.push_str(&self.card(g, c));
        }
        let _ = write!(body, "</ul>{nav}</section></div>");
        page(ctx, &title, &body)
    }

    fn destination(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        let Some((g, c)) = self.guide(slug) else {
            return html::not_found(ctx, &req.path);
        };
        let mut body = format!(
            "<article><h1>{} travel guide</h1><p>{}</p><figure>{}</figure><p>{}</p><dl><dt>Country</dt><dd>{}</dd><dt>Best time to visit</dt><dd>{}</dd>\
<dt>Daily budget</dt><dd>about ${} per day</dd><dt>Language</dt><dd>{}</dd><dt>Currency</dt><dd>{}</dd><dt>Airport</dt><dd>{} ({})</dd></dl>\
<h2>Top attractions</h2><ul class=\"results\">",
            esc(&c.name), esc(&g.headline), img(&format!("/img/{}.png", c.slug), &c.name, 320), esc(&g.intro), esc(&c.country), esc(&g.best_time),
            g.budget, esc(&g.language), esc(&c.currency), esc(&c.airport_name), esc(&c.airport),
        );
        for a in &g.attractions {
            let _ = write!(
                body,
                "<li class=\"result\">{}<div><h3><a href=\"/destination/{}/{}\">{}</a></h3><p>{} · {} · allow {}</p></div></li>",
                img(&format!("/img/{}/{}.png", c.slug, a.slug), &a.name, 120),
                esc(&c.slug), esc(&a.slug), esc(&a.name), esc(&a.kind), price_text(a.price), esc(&a.visit),
            );
        }
        body.push_str("</ul><h2>Tips</h2><ul>");
        for t in &g.tips {
            let _ = write!(body, "<li>{}</li>", esc(t));
        }
        let links = [
            ctx.cross(
                "wiki",
                &format!("/wiki/{}", c.name.replace(' ', "_")),
                &format!("{} in the encyclopedia", c.name),
            ),
            ctx.cross(
                "flights",
                &format!("/?to={}", c.airport),
                &format!("Flights to {}", c.name),
            ),
            ctx.cross(
                "hotels",
                &format!("/hotels/search?city={}", c.slug),
                &format!("Hotels in {}", c.name),
            ),
            ctx.cross(
                "food",
                &format!("/restaurants/{}", c.slug),
                &format!("Where to eat in {}", c.name),
            ),
            ctx.cross(
                "events",
                &format!("/events/{}", c.slug),
                &format!("Events in {}", c.name),
            ),
            ctx.cross(
                "currency",
                &format!("/convert?amount={}&from=USD&to={}", g.budget, c.currency),
                &format!("Daily budget in {}", c.currency),
            ),
        ];
        let _ = write!(
            body,
            "</ul><h2>Plan your trip</h2><ul><li>{}</li></ul></article>",
            links.join("</li><li>")
        );
        page(ctx, &format!("{} travel guide", c.name), &body)
    }

    fn attraction(&self, ctx: &Ctx, req: &Req, city: &str, slug: &str) -> Resp {
        let Some((g, c)) = self.guide(city) else {
            return html::not_found(ctx, &req.path);
        };
        let Some(a) = g.attractions.iter().find(|a| a.slug == slug) else {
            return html::not_found(ctx, &req.path);
        };
        let wiki = a.wiki.as_ref().map_or(String::new(), |w| {
            format!(
                "<p>{}</p>",
                ctx.cross(
                    "wiki",
                    &format!("/wiki/{w}"),
                    &format!("{} in the encyclopedia", a.name)
                )
            )
        });
        let body = format!(
            "<nav aria-label=\"Breadcrumb\"><a href=\"/destination/{}\">{} guide</a></nav><h1>{}</h1><figure>{}</figure><p>{}</p>\
<dl><dt>Type</dt><dd>{}</dd><dt>Entry</dt><dd class=\"price\">{}</dd><dt>Opening hours</dt><dd>{}</dd><dt>Time needed</dt><dd>{}</dd></dl>{wiki}",
            esc(&c.slug), esc(&c.name), esc(&a.name), img(&format!("/img/{}/{}.png", c.slug, a.slug), &a.name, 320), esc(&a.text),
            esc(&a.kind), price_text(a.price), esc(&a.hours), esc(&a.visit),
        );
        page(ctx, &format!("{} – {}", a.name, c.name), &body)
    }

    fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        let q = req.get("q").unwrap_or("");
        let mut body = format!(
            "<h1>Search results for \"{}\"</h1>{}<ul class=\"results\">",
            esc(q),
            Self::search_form(q)
        );
        let mut n = 0;
        for (g, c) in self.guides.iter().filter_map(|g| self.guide(&g.city)) {
            if !q.is_empty()
                && matches_words(
                    &format!("{} {} {} {}", c.name, c.country, g.headline, g.intro),
                    q,
                )
            {
                n += 1;
                let _ = write!(
                    body,
                    "<li><a href=\"/destination/{}\">{} travel guide</a>: {}</li>",
                    esc(&c.slug),
                    esc(&c.name),
                    esc(&g.headline)
                );
            }
            for a in g.attractions.iter().filter(|a| {
                !q.is_empty() && matches_words(&format!("{} {} {}", a.name, a.kind, a.text), q)
            }) {
                n += 1;
                let _ = write!(
                    body,
                    "<li><a href=\"/destination/{}/{}\">{}</a> in {}</li>",
                    esc(&c.slug),
                    esc(&a.slug),
                    esc(&a.name),
                    esc(&c.name)
                );
            }
        }
        if n == 0 {
            body.push_str("<li>Nothing found.</li>");
        }
        body.push_str("</ul>");
        page(ctx, "Search", &body)
    }

    fn attraction_image(&self, city: &str, file: &str) -> Option<ImageSpec> {
        let (g, _) = self.guide(city)?;
        g.attractions
            .iter()
            .find(|a| a.slug == file)
            .map(|a| labelled(&a.image, &a.name))
    }
}

impl Site for Travel {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx),
            ["destinations"] => self.destinations(ctx, req),
            ["destination", city] => self.destination(ctx, req, city),
            ["destination", city, slug] => self.attraction(ctx, req, city, slug),
            ["search"] => self.search(ctx, req),
            ["img", file] => image(ctx, file, |s| self.cover(s)),
            ["img", city, file] => image(ctx, file, |s| self.attraction_image(city, s)),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
