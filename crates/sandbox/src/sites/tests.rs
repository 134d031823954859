//! Handler-level tests of every site: pages are pure functions of the request, so the
//! content checks run without sockets (the server itself: `tests/sandbox_server.rs`).

use super::SITES;
use crate::http::{Req, Resp};
use crate::site::{Ctx, Site, SiteUrls};
use crate::{site_urls, Config};
use std::sync::{Arc, OnceLock};

struct Built {
    sites: Vec<Box<dyn Site>>,
    urls: Arc<SiteUrls>,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let urls = site_urls(&Config::default()).unwrap();
        Built {
            sites: SITES.iter().map(|d| (d.build)().unwrap()).collect(),
            urls: Arc::new(SiteUrls(
                urls.into_iter().map(|(d, u)| (d.key, u)).collect(),
            )),
        }
    })
}

fn get(key: &str, target: &str) -> Resp {
    let b = built();
    let i = SITES.iter().position(|d| d.key == key).unwrap();
    let ctx = Ctx {
        def: &SITES[i],
        urls: &b.urls,
    };
    b.sites[i].handle(&ctx, &Req::parse(target))
}

fn text(key: &str, target: &str) -> String {
    let r = get(key, target);
    assert_eq!(r.status, 200, "{key} {target}: status {}", r.status);
    String::from_utf8(r.body).unwrap()
}

/// Asserts that `a` appears before `b` in `s` (both present).
fn before(s: &str, a: &str, b: &str) {
    let (ia, ib) = (s.find(a), s.find(b));
    assert!(
        ia.is_some() && ib.is_some() && ia < ib,
        "expected {a:?} before {b:?}"
    );
}

#[test]
fn ports_and_keys_are_unique() {
    let mut offsets: Vec<u16> = SITES.iter().map(|d| d.offset).collect();
    offsets.sort_unstable();
    offsets.dedup();
    assert_eq!(offsets.len(), SITES.len());
    assert!(SITES.len() >= 10);
}

#[test]
fn every_home_page_has_the_site_title_and_labelled_landmarks() {
    for def in SITES {
        let page = text(def.key, "/");
        assert!(
            page.contains(&format!("<title>{}</title>", crate::html::esc(def.name))),
            "{}",
            def.key
        );
        assert!(
            page.contains("<nav aria-label=\"Main\">")
                && page.contains("<main>")
                && page.contains("<h1>"),
            "{}",
            def.key
        );
    }
}

#[test]
fn unknown_paths_are_404_pages_listing_the_routes() {
    for def in SITES {
        let r = get(def.key, "/no/such/page");
        assert_eq!(r.status, 404, "{}", def.key);
        let body = String::from_utf8(r.body).unwrap();
        assert!(
            body.contains("/no/such/page") && body.contains(&crate::html::esc(def.routes[0].0)),
            "{}",
            def.key
        );
    }
}

#[test]
fn wiki_articles_link_each_other_and_the_travel_sites() {
    let page = text("wiki", "/wiki/Tokyo");
    assert!(page.contains("<a href=\"/wiki/Tokyo_Tower\">Tokyo Tower</a>"));
    assert!(page.contains("src=\"/img/Tokyo.png\""));
    assert!(page.contains("http://127.0.0.1:8608/destination/tokyo"));
    assert!(page.contains("http://127.0.0.1:8602/?to=TYO"));
    assert!(page.contains("http://127.0.0.1:8605/events/tokyo"));
    let search = text("wiki", "/search?q=tower");
    before(&search, "/wiki/Tokyo_Tower", "/wiki/Eiffel_Tower");
    let cat = text("wiki", "/category/landmark?page=2");
    assert!(cat.contains("Page 2 of 2"));
    assert_eq!(get("wiki", "/wiki/Atlantis").status, 404);
}

#[test]
fn shop_filters_sort_and_pages() {
    let by_price = text("shop", "/category/clothing?sort=price_asc");
    before(&by_price, "Everyday Cotton T-Shirt", "Merino Beanie");
    assert!(by_price.contains("Page 1 of 1 (6 results)"));
    let under_25 = text("shop", "/category/clothing?max_price=25");
    assert!(
        under_25.contains("Everyday Cotton T-Shirt") && !under_25.contains("Linen Summer Dress")
    );
    let red = text("shop", "/search?q=&color=red");
    assert!(
        red.contains("PocketBox Bluetooth Speaker") && !red.contains("Strawberry Jam"),
        "colour filter uses options only"
    );
    let page2 = text("shop", "/search?q=&page=2");
    assert!(page2.contains("Page 2 of 7 (38 results)"));
    let search = text("shop", "/search?q=headphones&sort=price_desc");
    before(
        &search,
        "StudioMax Pro Headphones",
        "AirQuiet Wireless Headphones",
    );
}

#[test]
fn shop_product_pages_show_the_chosen_colour_and_hide_single_colours() {
    let shirt = text("shop", "/product/everyday-cotton-t-shirt?color=red");
    assert!(shirt.contains("src=\"/img/everyday-cotton-t-shirt/red.png\""));
    assert!(shirt.contains("Red (selected)"));
    let bottle = text("shop", "/product/insulated-steel-water-bottle-750ml");
    assert!(bottle.contains("src=\"/img/insulated-steel-water-bottle-750ml.png\""));
    assert!(
        !bottle.to_lowercase().contains("teal"),
        "a single colour is only in the picture"
    );
    let cart = text(
        "shop",
        "/cart/add?product=everyday-cotton-t-shirt&color=red&size=M&qty=2",
    );
    assert!(cart.contains("Colour: Red, Size: M") && cart.contains("$29.98"));
    assert_eq!(
        get("shop", "/cart/add?product=everyday-cotton-t-shirt").status,
        400
    );
}

#[test]
fn flights_search_filters_sort_and_book() {
    let by_price = text(
        "flights",
        "/flights/search?from=TYO&to=SFO&date=2026-12-01&sort=price",
    );
    before(&by_price, "EJ741", "EJ779");
    let nonstop = text(
        "flights",
        "/flights/search?from=Tokyo&to=san+francisco&date=2026-12-01&stops=0",
    );
    assert!(
        nonstop.contains("EJ779") && !nonstop.contains("EJ741 "),
        "names work as codes; stop filter"
    );
    let p2 = text(
        "flights",
        "/flights/search?from=TYO&to=SYD&date=2026-12-01&page=2",
    );
    assert!(p2.contains("Page 2 of 2 (7 results)"));
    let out_of_range = text("flights", "/flights/search?from=TYO&to=SFO&date=2030-01-01");
    assert!(out_of_range.contains("role=\"alert\""));
    let detail = text("flights", "/flights/EJ741?date=2026-12-01&passengers=2");
    assert!(detail.contains("src=\"/img/EJ741.png\"") && detail.contains("$1,690"));
    let booking = text(
        "flights",
        "/booking?flight=EJ741&date=2026-12-01&passengers=2&name=Ada",
    );
    assert!(
        booking.contains("Booking reference <strong>SH")
            && booking.contains("http://127.0.0.1:8603/hotels/search?city=san-francisco")
    );
}

#[test]
fn hotels_filter_sort_and_total() {
    let list = text(
        "hotels",
        "/hotels/search?city=tokyo&checkin=2026-12-01&checkout=2026-12-04&sort=price",
    );
    before(&list, "Tokyo Bay Capsule Stay", "Sakura Garden Hotel");
    assert!(list.contains("$345 for 3 nights") && list.contains("Page 1 of 2 (7 results)"));
    let five = text("hotels", "/hotels/search?city=tokyo&stars=5");
    assert!(five.contains("Ginza Grand Palace") && !five.contains("Sakura Garden Hotel"));
    let rated = text("hotels", "/hotels/search?city=tokyo&sort=rating");
    before(&rated, "Harbor Lights Hotel Odaiba", "Ueno Park Lodge");
    let hotel = text(
        "hotels",
        "/hotel/ueno-park-lodge?checkin=2026-12-01&checkout=2026-12-03&guests=2",
    );
    assert!(
        hotel.contains("src=\"/img/ueno-park-lodge.png\"")
            && hotel.contains("$490</span> in total")
    );
    assert!(text(
        "hotels",
        "/hotel/ueno-park-lodge/reserve?checkin=2026-12-01&checkout=2026-12-03"
    )
    .contains("Confirmation number"));
}

#[test]
fn cars_filter_by_type_and_show_pictures() {
    let list = text(
        "cars",
        "/cars/search?city=paris&pickup=2026-12-01&dropoff=2026-12-04&type=van",
    );
    assert!(
        list.contains("Caravel People Mover")
            && list.contains("Nomad Van")
            && !list.contains("Piccolo Hatch")
    );
    before(&list, "Caravel People Mover", "Nomad Van");
    assert!(list.contains("$204 for 3 days"));
    let car = text(
        "cars",
        "/car/kestrel-mini?city=tokyo&pickup=2026-12-01&dropoff=2026-12-02",
    );
    assert!(car.contains("src=\"/img/kestrel-mini.png\"") && !car.to_lowercase().contains("red"));
    assert!(text(
        "cars",
        "/car/kestrel-mini/book?city=tokyo&pickup=2026-12-01&dropoff=2026-12-02"
    )
    .contains("Booking reference"));
}

#[test]
fn events_redirect_filter_and_detail() {
    let r = get(
        "events",
        "/events/search?city=New+York&category=music&date=",
    );
    assert_eq!(
        (r.status, r.location.as_deref()),
        (302, Some("/events/new-york?category=music"))
    );
    let day = text("events", "/events/tokyo?date=2026-12-05");
    assert!(day.contains("Tsukiji Street Food Walk") && !day.contains("Robot Makers Meetup"));
    let sports = text("events", "/events/london?category=theatre");
    assert!(sports.contains("Hamlet in the Round") && sports.contains("(1 result)"));
    let page2 = text("events", "/events/tokyo?page=2");
    assert!(page2.contains("Page 2 of 2 (6 results)"));
    let event = text("events", "/events/tokyo/tsukiji-street-food-walk");
    assert!(
        event.contains("src=\"/img/tsukiji-street-food-walk.png\"")
            && event.contains("Sat 5 Dec 2026")
    );
}

#[test]
fn recipes_search_and_ingredients() {
    let eggs = text("recipes", "/recipes/search?q=eggs&sort=rating");
    before(&eggs, "Tiramisu", "Spaghetti Carbonara");
    let thai = text("recipes", "/recipes/search?cuisine=thai&max_time=30");
    assert!(thai.contains("Weeknight Pad Thai") && !thai.contains("Green Curry"));
    let tiramisu = text("recipes", "/recipe/tiramisu");
    assert!(tiramisu.contains("<li>6 eggs</li>") && tiramisu.contains("src=\"/img/tiramisu.png\""));
}

#[test]
fn currency_converts_with_the_rate() {
    let page = text("currency", "/convert?amount=100&from=USD&to=JPY");
    assert!(page.contains("100.00 USD = 15,137.00 JPY") && page.contains("1 USD = 151.3700 JPY"));
    let eur = text("currency", "/convert?amount=50&from=EUR&to=GBP");
    assert!(
        eur.contains("50.00 EUR = 42.39 GBP"),
        "50 * 0.7812 / 0.9215"
    );
    assert_eq!(
        get("currency", "/convert?amount=1&from=XXX&to=USD").status,
        400
    );
}

#[test]
fn travel_food_and_videos_pages() {
    let guide = text("travel", "/destination/rome");
    assert!(
        guide.contains("/destination/rome/colosseum")
            && guide.contains("http://127.0.0.1:8600/wiki/Rome")
    );
    let europe = text("travel", "/destinations?region=europe");
    assert!(europe.contains("Page 1 of 1 (4 results)"));
    assert!(
        text("travel", "/destination/rome/colosseum").contains("src=\"/img/rome/colosseum.png\"")
    );
    let food = text("food", "/restaurants/london?sort=rating&page=1");
    before(&food, "Trattoria Kensington", "The Thames Chophouse");
    assert!(text("food", "/restaurants/london?page=2").contains("Page 2 of 2 (5 results)"));
    let r = get("food", "/restaurants/search?city=london&cuisine=british");
    assert_eq!(
        r.location.as_deref(),
        Some("/restaurants/london?cuisine=british")
    );
    let videos = text("videos", "/results?search_query=red+panda&sort=relevance");
    before(&videos, "Red Pandas Playing in the Snow", "</main>");
    let watch = text("videos", "/watch?v=Lk3Jh5Gf7Ds");
    assert!(watch.contains("src=\"/img/Lk3Jh5Gf7Ds.png\"") && watch.contains("5,830,000 views"));
}

#[test]
fn detail_images_are_pngs_and_bad_names_404() {
    for (key, path) in [
        ("wiki", "/img/Tokyo_Tower.png"),
        ("shop", "/img/everyday-cotton-t-shirt/red.png"),
        ("flights", "/img/EJ741.png"),
        ("hotels", "/img/ueno-park-lodge.png"),
        ("cars", "/img/kestrel-mini.png"),
        ("events", "/img/tsukiji-street-food-walk.png"),
        ("recipes", "/img/tiramisu.png"),
        ("travel", "/img/rome/colosseum.png"),
        ("food", "/img/trattoria-kensington.png"),
        ("videos", "/img/Lk3Jh5Gf7Ds.png"),
    ] {
        let r = get(key, path);
        assert_eq!(
            (r.status, r.content_type),
            (200, "image/png"),
            "{key} {path}"
        );
        assert!(r.body.starts_with(b"\x89PNG\r\n\x1a\n"), "{key} {path}");
    }
    assert_eq!(
        get("shop", "/img/everyday-cotton-t-shirt/purple.png").status,
        404,
        "not an option"
    );
    assert_eq!(get("wiki", "/img/Atlantis.png").status, 404);
}
