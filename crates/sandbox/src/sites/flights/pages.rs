//! SkyHop's pages: search form, results, flight detail, booking, reference lists.

use super::{Flight, Flights};
use crate::html::{
    self, bound_input, esc, facet, form, img, input, money, opts, page, paginate, select,
};
use crate::http::{Req, Resp};
use crate::site::Ctx;
use crate::sites::reference;
use std::fmt::Write as _;

impl Flights {
    fn airport_options(&self) -> Vec<(String, String)> {
        std::iter::once((String::new(), "Choose an airport".to_string()))
            .chain(
                self.cities
                    .iter()
                    .map(|c| (c.airport.clone(), format!("{} ({})", c.name, c.airport))),
            )
            .collect()
    }

    fn search_form(&self, req: &Req) -> String {
        let from = req
            .get("from")
            .and_then(|c| self.city_of(c))
            .map_or("", |c| c.airport.as_str());
        let to = req
            .get("to")
            .and_then(|c| self.city_of(c))
            .map_or("", |c| c.airport.as_str());
        form(
            "/flights/search",
            "Flight search",
            &[
                select("From", "from", &self.airport_options(), from),
                select("To", "to", &self.airport_options(), to),
                bound_input(req, "Departure date", "date", "date", ""),
                bound_input(req, "Passengers", "passengers", "number", "1"),
            ],
            "Search flights",
        )
    }

    pub(super) fn home(&self, ctx: &Ctx, req: &Req) -> Resp {
        let body = format!(
            "<h1>Find cheap flights</h1>{}<p>Flights can be booked from {} to {}. One-way fares per passenger in US dollars.</p>\
<h2>Popular routes</h2><ul><li><a href=\"/flights/search?from=TYO&amp;to=SFO&amp;date=2026-12-01\">Tokyo to San Francisco</a></li>\
<li><a href=\"/flights/search?from=LON&amp;to=PAR&amp;date=2026-12-01\">London to Paris</a></li>\
<li><a href=\"/flights/search?from=NYC&amp;to=ROM&amp;date=2026-12-01\">New York to Rome</a></li></ul>",
            self.search_form(req),
            esc(&self.data.bookable_from),
            esc(&self.data.bookable_to)
        );
        page(ctx, "", &body)
    }

    fn row(&self, f: &Flight, date: &str, passengers: u32) -> String {
        format!(
            "<li class=\"result\">{}<div><h3>{} {}</h3><p>Departs {} · Arrives {} · {} · {}</p><p class=\"price\">${} per passenger</p>\
<p><a href=\"/flights/{}?date={}&amp;passengers={passengers}\">View flight {}</a></p></div></li>",
            img(&format!("/img/{}.png", f.id), &format!("{} aircraft", self.airline_name(&f.airline)), 120),
            esc(self.airline_name(&f.airline)),
            esc(&f.id),
            esc(&f.dep),
            esc(&f.arrival()),
            esc(&f.duration_text()),
            esc(&f.stops_text()),
            money(f64::from(f.price), 0),
            esc(&f.id),
            esc(date),
            esc(&f.id),
        )
    }

    pub(super) fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        let mut body = format!("<h1>Flight search</h1>{}", self.search_form(req));
        let from = req.get("from").and_then(|c| self.city_of(c));
        let to = req.get("to").and_then(|c| self.city_of(c));
        let date = self.bookable(req.get("date"));
        let (Some(from), Some(to), Some(date)) = (from, to, date) else {
            let _ = write!(
                body,
                "<p role=\"alert\">Choose a departure airport, a different arrival airport and a date from {} to {}.</p>",
                esc(&self.data.bookable_from),
                esc(&self.data.bookable_to)
            );
            return page(ctx, "Flight search", &body);
        };
        let passengers = req.num("passengers").unwrap_or(1).clamp(1, 9);
        let route: Vec<&Flight> = self
            .data
            .flights
            .iter()
            .filter(|f| f.origin == from.airport && f.dest == to.airport)
            .collect();
        let mut airlines: Vec<&str> = route.iter().map(|f| f.airline.as_str()).collect();
        airlines.sort_unstable();
        airlines.dedup();
        let mut shown: Vec<&Flight> = route
            .iter()
            .copied()
            .filter(|f| req.num("stops").is_none_or(|s| f.stops == s))
            .filter(|f| {
                req.get("airline")
                    .is_none_or(|a| f.airline.eq_ignore_ascii_case(a))
            })
            .collect();
        match req.get("sort") {
            Some("price") => shown.sort_by_key(|f| (f.price, f.dep_minutes())),
            Some("duration") => shown.sort_by_key(|f| (f.duration, f.dep_minutes())),
            _ => shown.sort_by_key(|f| (f.dep_minutes(), f.price)),
        }
        let (items, nav) = paginate(req, &shown, 5);
        let airline_opts: Vec<(String, String)> = airlines
            .iter()
            .map(|a| (a.to_string(), self.airline_name(a).to_string()))
            .collect();
        let _ = write!(
            body,
            "<h2>{} ({}) to {} ({}) on {}</h2><div class=\"layout\"><aside aria-label=\"Filters\">{}{}{}</aside><section aria-label=\"Flights\"><ul class=\"results\">",
            esc(&from.name), esc(&from.airport), esc(&to.name), esc(&to.airport), date.pretty(),
            facet(req, "Sort by", "sort", &opts(&[("departure", "Departure time"), ("price", "Cheapest"), ("duration", "Fastest")])),
            facet(req, "Stops", "stops", &opts(&[("0", "Nonstop"), ("1", "1 stop"), ("2", "2 stops")])),
            facet(req, "Airlines", "airline", &airline_opts),
        );
        for f in items {
            body.push_str(&self.row(f, &date.iso(), passengers));
        }
        if items.is_empty() {
            body.push_str("<li>No flights match these filters.</li>");
        }
        let _ = write!(body, "</ul>{nav}</section></div>");
        page(
            ctx,
            &format!("Flights {} to {}", from.airport, to.airport),
            &body,
        )
    }

    pub(super) fn detail(&self, ctx: &Ctx, req: &Req, id: &str) -> Resp {
        let Some(f) = self.flight(id) else {
            return html::not_found(ctx, &req.path);
        };
        let passengers = req.num("passengers").unwrap_or(1).clamp(1, 9);
        let date = self.bookable(req.get("date"));
        let (from, to) = (self.city_of(&f.origin), self.city_of(&f.dest));
        let name = |c: Option<&crate::sites::City>, code: &str| {
            c.map_or(code.to_string(), |c| format!("{} ({})", c.name, c.airport))
        };
        let mut body = format!(
            "<h1>{} {}: {} to {}</h1><figure>{}</figure><dl><dt>Date</dt><dd>{}</dd><dt>Departs</dt><dd>{}</dd><dt>Arrives</dt><dd>{}</dd>\
<dt>Duration</dt><dd>{}</dd><dt>Stops</dt><dd>{}</dd><dt>Aircraft</dt><dd>{}</dd><dt>Fare</dt><dd>${} per passenger</dd>\
<dt>Passengers</dt><dd>{passengers}</dd><dt>Total</dt><dd class=\"price\">${}</dd><dt>Baggage</dt><dd>1 cabin bag and 1 checked bag (23 kg)</dd></dl>",
            esc(self.airline_name(&f.airline)), esc(&f.id), esc(&name(from, &f.origin)), esc(&name(to, &f.dest)),
            img(&format!("/img/{}.png", f.id), &format!("{} aircraft", self.airline_name(&f.airline)), 320),
            date.map_or("Choose a date on the search page".to_string(), |d| d.pretty()),
            esc(&f.dep), esc(&f.arrival()), esc(&f.duration_text()), esc(&f.stops_text()), esc(&f.aircraft),
            money(f64::from(f.price), 0),
            money(f64::from(f.price * passengers), 0),
        );
        if let Some(d) = date {
            let _ = write!(
                body,
                "<form method=\"get\" action=\"/booking\" aria-label=\"Book this flight\"><input type=\"hidden\" name=\"flight\" value=\"{}\">\
<input type=\"hidden\" name=\"date\" value=\"{}\"><input type=\"hidden\" name=\"passengers\" value=\"{passengers}\">{}<button type=\"submit\">Book this flight</button></form>",
                esc(&f.id), d.iso(), input("Lead passenger name", "name", "text", "")
            );
        }
        let _ = write!(
            body,
            "<p><a href=\"/flights/search?from={}&amp;to={}&amp;date={}\">Back to results</a></p>",
            esc(&f.origin),
            esc(&f.dest),
            date.map(|d| d.iso()).unwrap_or_default()
        );
        page(ctx, &format!("{} {} to {}", f.id, f.origin, f.dest), &body)
    }

    pub(super) fn booking(&self, ctx: &Ctx, req: &Req) -> Resp {
        let flight = req.get("flight").and_then(|id| self.flight(id));
        let (Some(f), Some(date)) = (flight, self.bookable(req.get("date"))) else {
            return page(
                ctx,
                "Booking",
                "<h1>Booking</h1><p role=\"alert\">Choose a flight and a bookable date first.</p>",
            )
            .with_status(400);
        };
        let passengers = req.num("passengers").unwrap_or(1).clamp(1, 9);
        let name = req.get("name").unwrap_or("Guest");
        let code = reference("SH", &[&f.id, &date.iso(), &passengers.to_string(), name]);
        let mut body = format!(
            "<h1>Booking confirmed</h1><p role=\"status\">Booking reference <strong>{code}</strong> for {}.</p>\
<p>{} {} from {} to {} on {}, departing {}.</p><p>{passengers} passenger(s), total paid <span class=\"price\">${}</span>.</p>",
            esc(name), esc(self.airline_name(&f.airline)), esc(&f.id), esc(&f.origin), esc(&f.dest), date.pretty(), esc(&f.dep),
            money(f64::from(f.price * passengers), 0),
        );
        if let Some(city) = self.city_of(&f.dest) {
            let _ = write!(
                body,
                "<h2>Complete your trip to {}</h2><ul><li>{}</li><li>{}</li></ul>",
                esc(&city.name),
                ctx.cross(
                    "hotels",
                    &format!("/hotels/search?city={}&checkin={}", city.slug, date.iso()),
                    &format!("Hotels in {}", city.name)
                ),
                ctx.cross(
                    "cars",
                    &format!("/cars/search?city={}&pickup={}", city.slug, date.iso()),
                    &format!("Car hire in {}", city.name)
                ),
            );
        }
        page(ctx, "Booking confirmed", &body)
    }

    pub(super) fn airports(&self, ctx: &Ctx) -> Resp {
        let mut body = String::from("<h1>Airports</h1><table><thead><tr><th>Code</th><th>Airport</th><th>City</th><th>Country</th></tr></thead><tbody>");
        for c in &self.cities {
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&c.airport),
                esc(&c.airport_name),
                esc(&c.name),
                esc(&c.country)
            );
        }
        body.push_str("</tbody></table>");
        page(ctx, "Airports", &body)
    }

    pub(super) fn airlines(&self, ctx: &Ctx) -> Resp {
        let mut body = String::from("<h1>Airlines</h1><ul>");
        for a in &self.data.airlines {
            let n = self
                .data
                .flights
                .iter()
                .filter(|f| f.airline == a.code)
                .count();
            let _ = write!(
                body,
                "<li>{} ({}): {n} daily flights</li>",
                esc(&a.name),
                esc(&a.code)
            );
        }
        body.push_str("</ul>");
        page(ctx, "Airlines", &body)
    }
}
