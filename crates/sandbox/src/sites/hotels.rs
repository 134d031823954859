//! StayFinder (trip.com hotels-like): search by city and dates, filter by stars, price
//! and amenity, sort, page through results; a hotel page with the stay's total and a
//! reservation confirmation.

use super::{
    chosen_city, cities, city_options, cmp_f64, find_city, image, labelled, load_pictured,
    reference, City, SandboxError,
};
use crate::date::{span, Date};
use crate::html::{
    self, bound_input, esc, facet, form, img, input, money, opts, page, paginate, select,
};
use crate::http::{Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "hotels",
    name: "StayFinder",
    tagline: "hotels in ten cities",
    offset: 3,
    accent: "#7c3aed",
    nav: &[("Find a hotel", "/")],
    routes: &[
        ("/", "the search form"),
        ("/hotels/search?city=<slug>&checkin=YYYY-MM-DD&checkout=YYYY-MM-DD&guests=<n>&stars=<2-5>&max_price=<usd>&amenity=<name>&sort=<price|rating|stars>&page=<n>", "hotels in a city"),
        ("/hotel/<slug>?checkin=&checkout=&guests=", "a hotel"),
        ("/hotel/<slug>/reserve?checkin=&checkout=&guests=&name=", "reservation confirmation"),
        ("/img/<slug>.png", "a hotel's picture"),
    ],
    build,
};

#[derive(Deserialize)]
struct Hotel {
    slug: String,
    name: String,
    city: String,
    neighbourhood: String,
    stars: u32,
    /// Guest score out of 10.
    rating: f64,
    reviews: u32,
    /// USD per night.
    price: u32,
    amenities: Vec<String>,
    checkin: String,
    checkout: String,
    description: String,
    image: ImageSpec,
}

struct Hotels {
    hotels: Vec<Hotel>,
    cities: Vec<City>,
}

fn build() -> Result<Box<dyn Site>, SandboxError> {
    Ok(Box::new(Hotels {
        hotels: load_pictured(
            "hotels.json",
            include_str!("../../data/hotels.json"),
            |h: &Hotel| (&h.slug, &h.image),
        )?,
        cities: cities()?,
    }))
}

/// The stay part of a query string (`checkin=..&checkout=..&guests=..`), for links.
fn stay_query(req: &Req) -> String {
    ["checkin", "checkout", "guests"]
        .iter()
        .filter_map(|k| {
            req.get(k)
                .map(|v| format!("{k}={}", crate::http::encode(v)))
        })
        .collect::<Vec<_>>()
        .join("&")
}

impl Hotels {
    fn search_form(&self, req: &Req) -> String {
        let city = chosen_city(&self.cities, req);
        form(
            "/hotels/search",
            "Hotel search",
            &[
                select("Destination", "city", &city_options(&self.cities), city),
                bound_input(req, "Check-in", "checkin", "date", ""),
                bound_input(req, "Check-out", "checkout", "date", ""),
                bound_input(req, "Guests", "guests", "number", "2"),
            ],
            "Search hotels",
        )
    }

    fn home(&self, ctx: &Ctx, req: &Req) -> Resp {
        let mut body = format!(
            "<h1>Find your stay</h1>{}<h2>Popular destinations</h2><ul>",
            self.search_form(req)
        );
        for c in &self.cities {
            let n = self.hotels.iter().filter(|h| h.city == c.slug).count();
            let _ = write!(
                body,
                "<li><a href=\"/hotels/search?city={}\">Hotels in {}</a> ({n})</li>",
                esc(&c.slug),
                esc(&c.name)
            );
        }
        body.push_str("</ul>");
        page(ctx, "", &body)
    }

    fn row(h: &Hotel, nights: Option<i64>, stay: &str) -> String {
        let total = nights.map_or(String::new(), |n| {
            format!(
                " · ${} for {n} night{}",
                money(f64::from(h.price) * n as f64, 0),
                if n == 1 { "" } else { "s" }
            )
        });
        let q = if stay.is_empty() {
            String::new()
        } else {
            format!("?{stay}")
        };
        format!(
            "<li class=\"result\">{}<div><h3><a href=\"/hotel/{}{}\">{}</a></h3><p>{} stars · {} · Guest rating {:.1}/10 ({} reviews)</p>\
<p class=\"price\">${} per night{total}</p><p>{}</p></div></li>",
            img(&format!("/img/{}.png", h.slug), &h.name, 150),
            esc(&h.slug), esc(&q), esc(&h.name), h.stars, esc(&h.neighbourhood), h.rating, h.reviews,
            h.price, esc(&h.amenities.join(", ")),
        )
    }

    fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        let mut body = format!("<h1>Hotel search</h1>{}", self.search_form(req));
        let Some(city) = req.get("city").and_then(|c| find_city(&self.cities, c)) else {
            body.push_str("<p role=\"alert\">Choose a destination to see hotels.</p>");
            return page(ctx, "Hotel search", &body);
        };
        let nights = span(req.get("checkin"), req.get("checkout"));
        let in_city: Vec<&Hotel> = self.hotels.iter().filter(|h| h.city == city.slug).collect();
        let mut amenities: Vec<&str> = in_city
            .iter()
            .flat_map(|h| h.amenities.iter().map(String::as_str))
            .collect();
        amenities.sort_unstable();
        amenities.dedup();
        let mut shown: Vec<&Hotel> = in_city
            .iter()
            .copied()
            .filter(|h| req.num("stars").is_none_or(|s| h.stars == s))
            .filter(|h| req.num("max_price").is_none_or(|m| h.price <= m))
            .filter(|h| {
                req.get("amenity")
                    .is_none_or(|a| h.amenities.iter().any(|x| x.eq_ignore_ascii_case(a)))
            })
            .collect();
        match req.get("sort") {
            Some("price") => shown.sort_by_key(|h| h.price),
            Some("rating") => shown.sort_by(|a, b| cmp_f64(b.rating, a.rating)),
            Some("stars") => shown.sort_by_key(|h| std::cmp::Reverse(h.stars)),
            _ => {}
        }
        let (items, nav) = paginate(req, &shown, 5);
        let amenity_opts: Vec<(String, String)> = amenities
            .iter()
            .map(|a| (a.to_string(), a.to_string()))
            .collect();
        let dates = match (nights, req.get("checkin").and_then(Date::parse)) {
            (Some(n), Some(d)) => format!(
                " from {} for {n} night{}",
                d.pretty(),
                if n == 1 { "" } else { "s" }
            ),
            _ => " (add dates to see the total price)".to_string(),
        };
        let _ = write!(
            body,
            "<h2>Hotels in {}{dates}</h2><div class=\"layout\"><aside aria-label=\"Filters\">{}{}{}{}</aside><section aria-label=\"Hotels\"><ul class=\"results\">",
            esc(&city.name),
            facet(req, "Sort by", "sort", &opts(&[("price", "Lowest price"), ("rating", "Guest rating"), ("stars", "Stars")])),
            facet(req, "Stars", "stars", &opts(&[("5", "5 stars"), ("4", "4 stars"), ("3", "3 stars"), ("2", "2 stars")])),
            facet(req, "Price per night", "max_price", &opts(&[("150", "Up to $150"), ("200", "Up to $200"), ("250", "Up to $250")])),
            facet(req, "Amenities", "amenity", &amenity_opts),
        );
        let stay = stay_query(req);
        for h in items {
            body.push_str(&Self::row(h, nights, &stay));
        }
        if items.is_empty() {
            body.push_str("<li>No hotels match these filters.</li>");
        }
        let _ = write!(body, "</ul>{nav}</section></div>");
        page(ctx, &format!("Hotels in {}", city.name), &body)
    }

    fn hotel(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        let Some(h) = self.hotels.iter().find(|h| h.slug == slug) else {
            return html::not_found(ctx, &req.path);
        };
        let city = find_city(&self.cities, &h.city);
        let city_name = city.map_or(h.city.as_str(), |c| c.name.as_str());
        let nights = span(req.get("checkin"), req.get("checkout"));
        let mut body = format!(
            "<h1>{}</h1><p>{} stars · {}, {}</p><figure>{}</figure><dl><dt>Guest rating</dt><dd>{:.1}/10 from {} reviews</dd>\
<dt>Price</dt><dd class=\"price\">${} per night</dd><dt>Check-in</dt><dd>from {}</dd><dt>Check-out</dt><dd>until {}</dd>\
<dt>Amenities</dt><dd>{}</dd></dl><p>{}</p>",
            esc(&h.name), h.stars, esc(&h.neighbourhood), esc(city_name), img(&format!("/img/{}.png", h.slug), &h.name, 320),
            h.rating, h.reviews, h.price, esc(&h.checkin), esc(&h.checkout), esc(&h.amenities.join(", ")), esc(&h.description),
        );
        match nights {
            Some(n) => {
                let _ = write!(
                    body,
                    "<section aria-label=\"Your stay\"><h2>Your stay</h2><p>{n} night{} for {} guest(s): <span class=\"price\">${}</span> in total.</p>\
<form method=\"get\" action=\"/hotel/{}/reserve\" aria-label=\"Reserve\">{}{}{}{}<button type=\"submit\">Reserve</button></form></section>",
                    if n == 1 { "" } else { "s" }, req.num("guests").unwrap_or(2), money(f64::from(h.price) * n as f64, 0), esc(&h.slug),
                    hidden("checkin", req.get("checkin")), hidden("checkout", req.get("checkout")), hidden("guests", req.get("guests")),
                    input("Guest name", "name", "text", ""),
                );
            }
            None => {
                let _ = write!(
                    body,
                    "<form class=\"search\" method=\"get\" action=\"/hotel/{}\" aria-label=\"Check availability\">{}{}{}<button type=\"submit\">Check availability</button></form>",
                    esc(&h.slug), input("Check-in", "checkin", "date", ""), input("Check-out", "checkout", "date", ""), input("Guests", "guests", "number", "2"),
                );
            }
        }
        if let Some(c) = city {
            let _ = write!(
                body,
                "<h2>Around {}</h2><ul><li>{}</li><li>{}</li><li>{}</li><li><a href=\"/hotels/search?city={}\">More hotels in {}</a></li></ul>",
                esc(&c.name),
                ctx.cross("events", &format!("/events/{}", c.slug), &format!("Events in {}", c.name)),
                ctx.cross("food", &format!("/restaurants/{}", c.slug), &format!("Restaurants in {}", c.name)),
                ctx.cross("cars", &format!("/cars/search?city={}", c.slug), &format!("Car hire in {}", c.name)),
                esc(&c.slug), esc(&c.name),
            );
        }
        page(ctx, &h.name, &body)
    }

    fn reserve(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        let Some(h) = self.hotels.iter().find(|h| h.slug == slug) else {
            return html::not_found(ctx, &req.path);
        };
        let (Some(n), Some(d)) = (
            span(req.get("checkin"), req.get("checkout")),
            req.get("checkin").and_then(Date::parse),
        ) else {
            let body = format!("<h1>Reservation</h1><p role=\"alert\">Choose check-in and check-out dates first.</p><p><a href=\"/hotel/{}\">Back to {}</a></p>", esc(&h.slug), esc(&h.name));
            return page(ctx, "Reservation", &body).with_status(400);
        };
        let name = req.get("name").unwrap_or("Guest");
        let code = reference("SF", &[&h.slug, &d.iso(), &n.to_string(), name]);
        let body = format!(
            "<h1>Reservation confirmed</h1><p role=\"status\">Confirmation number <strong>{code}</strong> for {}.</p>\
<p>{}: {n} night{} from {}, {} guest(s). Total <span class=\"price\">${}</span>.</p>",
            esc(name), esc(&h.name), if n == 1 { "" } else { "s" }, d.pretty(), req.num("guests").unwrap_or(2), money(f64::from(h.price) * n as f64, 0),
        );
        page(ctx, "Reservation confirmed", &body)
    }
}

fn hidden(name: &str, value: Option<&str>) -> String {
    format!(
        "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
        esc(value.unwrap_or(""))
    )
}

impl Site for Hotels {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx, req),
            ["hotels", "search"] => self.search(ctx, req),
            ["hotel", slug] => self.hotel(ctx, req, slug),
            ["hotel", slug, "reserve"] => self.reserve(ctx, req, slug),
            ["img", file] => image(ctx, file, |s| {
                self.hotels
                    .iter()
                    .find(|h| h.slug == s)
                    .map(|h| labelled(&h.image, &h.name))
            }),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
