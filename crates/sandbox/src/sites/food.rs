//! TableTime (timeout-like food guide): restaurants by city with cuisine and price
//! filters, sorting and pagination, and a page per restaurant.

use super::{
    by_slug, cities, city_options, cmp_f64, find_city, image, labelled, load_pictured, City,
    SandboxError,
};
use crate::html::{self, esc, facet, form, img, page, paginate, select, with_any};
use crate::http::{encode, Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "food",
    name: "TableTime",
    tagline: "where to eat, city by city",
    offset: 9,
    accent: "#a16207",
    nav: &[("Home", "/")],
    routes: &[
        ("/", "pick a city and cuisine"),
        (
            "/restaurants/search?city=<slug>&cuisine=<cuisine>",
            "redirects to /restaurants/<city>?cuisine=",
        ),
        (
            "/restaurants/<city>?cuisine=<cuisine>&price=<1-4>&sort=<rating|price|name>&page=<n>",
            "restaurants in a city",
        ),
        ("/restaurant/<slug>", "a restaurant"),
        ("/img/<slug>.png", "a restaurant's picture"),
    ],
    build,
};

#[derive(Deserialize)]
struct Restaurant {
    slug: String,
    name: String,
    city: String,
    cuisine: String,
    /// 1 ($) to 4 ($$$$).
    price: u32,
    /// Out of 5.
    rating: f64,
    reviews: u32,
    neighbourhood: String,
    address: String,
    hours: String,
    dishes: Vec<String>,
    description: String,
    image: ImageSpec,
}

struct Food {
    places: Vec<Restaurant>,
    cities: Vec<City>,
}

fn build() -> Result<Box<dyn Site>, SandboxError> {
    let places = load_pictured(
        "restaurants.json",
        include_str!("../../data/restaurants.json"),
        |r: &Restaurant| (&r.slug, &r.image),
    )?;
    Ok(Box::new(Food {
        places,
        cities: cities()?,
    }))
}

fn dollars(n: u32) -> String {
    "$".repeat(n.clamp(1, 4) as usize)
}

fn title_case(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

impl Food {
    fn cuisines(&self, city: Option<&str>) -> Vec<(String, String)> {
        let mut all: Vec<&str> = self
            .places
            .iter()
            .filter(|r| city.is_none_or(|c| r.city == c))
            .map(|r| r.cuisine.as_str())
            .collect();
        all.sort_unstable();
        all.dedup();
        all.into_iter()
            .map(|c| (c.to_string(), title_case(c)))
            .collect()
    }

    fn search_form(&self, city: &str, cuisine: &str) -> String {
        let cuisines = with_any("Any cuisine", self.cuisines(None));
        form(
            "/restaurants/search",
            "Restaurant search",
            &[
                select("City", "city", &city_options(&self.cities), city),
                select("Cuisine", "cuisine", &cuisines, cuisine),
            ],
            "Find restaurants",
        )
    }

    fn home(&self, ctx: &Ctx) -> Resp {
        let mut body = format!(
            "<h1>Eat well everywhere</h1>{}<h2>Cities</h2><ul>",
            self.search_form("", "")
        );
        for c in &self.cities {
            let _ = write!(
                body,
                "<li><a href=\"/restaurants/{}\">Best restaurants in {}</a></li>",
                esc(&c.slug),
                esc(&c.name)
            );
        }
        body.push_str("</ul>");
        page(ctx, "", &body)
    }

    fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.get("city").and_then(|c| find_city(&self.cities, c)) {
            Some(c) => Resp::redirect(match req.get("cuisine") {
                Some(cu) => format!("/restaurants/{}?cuisine={}", c.slug, encode(cu)),
                None => format!("/restaurants/{}", c.slug),
            }),
            None => {
                let body = format!(
                    "<h1>Find restaurants</h1>{}<p role=\"alert\">Choose a city.</p>",
                    self.search_form("", req.get("cuisine").unwrap_or(""))
                );
                page(ctx, "Find restaurants", &body)
            }
        }
    }

    fn list(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        let Some(city) = self.cities.iter().find(|c| c.slug == slug) else {
            return html::not_found(ctx, &req.path);
        };
        let mut shown: Vec<&Restaurant> = self
            .places
            .iter()
            .filter(|r| r.city == city.slug)
            .filter(|r| {
                req.get("cuisine")
                    .is_none_or(|c| r.cuisine.eq_ignore_ascii_case(c))
            })
            .filter(|r| req.num("price").is_none_or(|p| r.price == p))
            .collect();
        match req.get("sort") {
            Some("price") => shown.sort_by_key(|r| r.price),
            Some("name") => shown.sort_by(|a, b| a.name.cmp(&b.name)),
            _ => shown.sort_by(|a, b| cmp_f64(b.rating, a.rating)),
        }
        let (items, nav) = paginate(req, &shown, 3);
        let prices: Vec<(String, String)> = (1..=4).map(|p| (p.to_string(), dollars(p))).collect();
        let mut body = format!(
            "<h1>Best restaurants in {}</h1>{}<div class=\"layout\"><aside aria-label=\"Filters\">{}{}{}</aside><section aria-label=\"Restaurants\"><ol class=\"results\">",
            esc(&city.name),
            self.search_form(&city.slug, req.get("cuisine").unwrap_or("")),
            facet(req, "Sort by", "sort", &html::opts(&[("rating", "Top rated"), ("price", "Price"), ("name", "Name")])),
            facet(req, "Cuisine", "cuisine", &self.cuisines(Some(&city.slug))),
            facet(req, "Price", "price", &prices),
        );
        for r in items {
            let _ = write!(
                body,
                "<li class=\"result\">{}<div><h3><a href=\"/restaurant/{}\">{}</a></h3><p>{} · {} · {}</p><p>Rated {:.1} out of 5 ({} reviews)</p></div></li>",
                img(&format!("/img/{}.png", r.slug), &r.name, 150),
                esc(&r.slug), esc(&r.name), title_case(&r.cuisine), dollars(r.price), esc(&r.neighbourhood), r.rating, r.reviews,
            );
        }
        if items.is_empty() {
            body.push_str("<li>No restaurants match these filters.</li>");
        }
        let _ = write!(body, "</ol>{nav}</section></div>");
        page(ctx, &format!("Restaurants in {}", city.name), &body)
    }

    fn restaurant(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        let Some(r) = by_slug(&self.places, slug, |r| &r.slug) else {
            return html::not_found(ctx, &req.path);
        };
        let city = find_city(&self.cities, &r.city);
        let city_name = city.map_or(r.city.as_str(), |c| c.name.as_str());
        let body = format!(
            "<nav aria-label=\"Breadcrumb\"><a href=\"/restaurants/{}\">Restaurants in {}</a></nav><h1>{}</h1><figure>{}</figure><p>{}</p>\
<dl><dt>Cuisine</dt><dd>{}</dd><dt>Price</dt><dd>{}</dd><dt>Rating</dt><dd>{:.1} out of 5 ({} reviews)</dd><dt>Address</dt><dd>{}, {}</dd>\
<dt>Opening hours</dt><dd>{}</dd><dt>Signature dishes</dt><dd>{}</dd></dl><p>{}</p>",
            esc(&r.city), esc(city_name), esc(&r.name), img(&format!("/img/{}.png", r.slug), &r.name, 320), esc(&r.description),
            title_case(&r.cuisine), dollars(r.price), r.rating, r.reviews, esc(&r.address), esc(city_name), esc(&r.hours), esc(&r.dishes.join(", ")),
            ctx.cross("travel", &format!("/destination/{}", r.city), &format!("{city_name} travel guide")),
        );
        page(ctx, &r.name, &body)
    }
}

impl Site for Food {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx),
            ["restaurants", "search"] => self.search(ctx, req),
            ["restaurants", city] => self.list(ctx, req, city),
            ["restaurant", slug] => self.restaurant(ctx, req, slug),
            ["img", file] => image(ctx, file, |s| {
                by_slug(&self.places, s, |r| &r.slug).map(|r| labelled(&r.image, &r.name))
            }),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
