//! OneStop Market (the MMInA shop, Magento-like): categories, product search, filters
//! (colour, price, rating), sorting, pagination, product pages with a picture per
//! colour option and size choice, and an add-to-cart confirmation.
//!
//! A product with one colour never names it in text: only its picture shows it, so
//! image questions ("what colour is the water bottle?") need the image.

use super::{check_specs, cmp_f64, image, load, matches_words, SandboxError};
use crate::html::{
    self, esc, facet, form, img, input, money, opts, page, paginate, select, with_any,
};
use crate::http::{Req, Resp};
use crate::shapes::ImageSpec;
use crate::site::{Ctx, Site, SiteDef};
use serde::Deserialize;
use std::fmt::Write as _;

pub const DEF: SiteDef = SiteDef {
    key: "shop",
    name: "OneStop Market",
    tagline: "everything for home, travel and table",
    offset: 1,
    accent: "#c2410c",
    nav: &[
        ("Home", "/"),
        ("Electronics", "/category/electronics"),
        ("Clothing", "/category/clothing"),
        ("Shoes", "/category/shoes"),
        ("Home & Kitchen", "/category/home-kitchen"),
        ("Sports & Outdoors", "/category/sports-outdoors"),
        ("Grocery", "/category/grocery"),
    ],
    routes: &[
        ("/", "home with categories and search"),
        (
            "/category/<slug>?color=&min_price=&max_price=&rating=&sort=&page=",
            "a category with filters",
        ),
        (
            "/search?q=<words>&category=&color=&min_price=&max_price=&rating=&sort=&page=",
            "product search",
        ),
        (
            "/product/<slug>?color=<colour>&size=<size>",
            "a product page",
        ),
        (
            "/cart/add?product=<slug>&color=&size=&qty=",
            "add-to-cart confirmation",
        ),
        (
            "/img/<slug>.png, /img/<slug>/<colour>.png",
            "product pictures",
        ),
    ],
    build,
};

const PER_PAGE: usize = 6;

#[derive(Deserialize)]
struct Data {
    categories: Vec<Category>,
    products: Vec<Product>,
}

#[derive(Deserialize)]
struct Category {
    slug: String,
    name: String,
}

#[derive(Deserialize)]
struct Product {
    slug: String,
    name: String,
    category: String,
    brand: String,
    price: f64,
    rating: f64,
    reviews: u32,
    kind: String,
    /// Colour options, named on the page; the first is the default.
    #[serde(default)]
    colors: Vec<String>,
    /// The only colour of a product without options: shown in its picture only.
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    sizes: Vec<String>,
    #[serde(default)]
    accent: Option<String>,
    description: String,
}

impl Product {
    fn spec(&self, colour: Option<&str>) -> ImageSpec {
        let default = self
            .colors
            .first()
            .or(self.color.as_ref())
            .map_or("gray", String::as_str);
        let colour = colour.unwrap_or(default);
        // A light product on a light backdrop would vanish: give it a dark one.
        let bg = if ["white", "cream", "beige"].contains(&colour) {
            "navy"
        } else {
            "cream"
        };
        ImageSpec {
            kind: self.kind.clone(),
            color: colour.to_string(),
            accent: self.accent.clone(),
            bg: Some(bg.to_string()),
            label: Some(self.brand.clone()),
        }
    }

    /// The chosen colour option, if `wanted` is one of them (case-insensitive).
    fn option(&self, wanted: Option<&str>) -> Option<&str> {
        let wanted = wanted?;
        self.colors
            .iter()
            .find(|c| c.eq_ignore_ascii_case(wanted))
            .map(String::as_str)
    }
}

struct Shop(Data);

fn build() -> Result<Box<dyn Site>, SandboxError> {
    let data: Data = load("shop.json", include_str!("../../../data/shop.json"))?;
    let specs: Vec<(String, ImageSpec)> = data
        .products
        .iter()
        .flat_map(|p| {
            let mut all = vec![(p.slug.clone(), p.spec(None))];
            all.extend(p.colors.iter().map(|c| (p.slug.clone(), p.spec(Some(c)))));
            all
        })
        .collect();
    check_specs(
        "shop.json",
        specs.iter().map(|(s, spec)| (s.as_str(), spec)),
    )?;
    Ok(Box::new(Shop(data)))
}

fn title_case(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

const PRICE_RANGES: &[(&str, &str, &str)] = &[
    ("", "25", "Under $25"),
    ("25", "50", "$25 to $50"),
    ("50", "100", "$50 to $100"),
    ("100", "", "$100 and above"),
];

impl Shop {
    fn category_name<'a>(&'a self, slug: &'a str) -> &'a str {
        self.0
            .categories
            .iter()
            .find(|c| c.slug == slug)
            .map_or(slug, |c| c.name.as_str())
    }

    fn card(&self, p: &Product) -> String {
        let colours = if p.colors.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = p.colors.iter().map(|c| title_case(c)).collect();
            format!("<p>Colours: {}</p>", esc(&names.join(", ")))
        };
        format!(
            "<li>{}<h3><a href=\"/product/{}\">{}</a></h3><p class=\"price\">${}</p><p>Rating: {} ({} reviews)</p>{colours}</li>",
            img(&format!("/img/{}.png", p.slug), &p.name, 180),
            esc(&p.slug),
            esc(&p.name),
            money(p.price, 2),
            html::stars(p.rating),
            p.reviews
        )
    }

    fn search_form(&self, q: &str, category: &str) -> String {
        let cats = with_any(
            "All categories",
            self.0
                .categories
                .iter()
                .map(|c| (c.slug.clone(), c.name.clone())),
        );
        form(
            "/search",
            "Product search",
            &[
                input("Search products", "q", "search", q),
                select("Category", "category", &cats, category),
            ],
            "Search",
        )
    }

    fn home(&self, ctx: &Ctx) -> Resp {
        let mut body = format!(
            "<h1>Welcome to OneStop Market</h1>{}<h2>Shop by category</h2><ul class=\"cards\">",
            self.search_form("", "")
        );
        for c in &self.0.categories {
            let n = self
                .0
                .products
                .iter()
                .filter(|p| p.category == c.slug)
                .count();
            let _ = write!(
                body,
                "<li><a href=\"/category/{}\">{}</a> ({n} products)</li>",
                esc(&c.slug),
                esc(&c.name)
            );
        }
        body.push_str("</ul><h2>Top rated</h2><ul class=\"cards\">");
        let mut top: Vec<&Product> = self.0.products.iter().collect();
        top.sort_by(|a, b| cmp_f64(b.rating, a.rating));
        for p in top.iter().take(4) {
            body.push_str(&self.card(p));
        }
        body.push_str("</ul>");
        page(ctx, "", &body)
    }

    /// Applies the shared filters and sort of category and search listings.
    fn filtered<'a>(&self, req: &Req, found: Vec<&'a Product>) -> Vec<&'a Product> {
        let min = req.get("min_price").and_then(|v| v.parse::<f64>().ok());
        let max = req.get("max_price").and_then(|v| v.parse::<f64>().ok());
        let rating = req.get("rating").and_then(|v| v.parse::<f64>().ok());
        let colour = req.get("color");
        let mut out: Vec<&Product> = found
            .into_iter()
            .filter(|p| min.is_none_or(|m| p.price >= m))
            .filter(|p| max.is_none_or(|m| p.price < m))
            .filter(|p| rating.is_none_or(|r| p.rating >= r))
            .filter(|p| colour.is_none() || p.option(colour).is_some())
            .collect();
        match req.get("sort") {
            Some("price_asc") => out.sort_by(|a, b| cmp_f64(a.price, b.price)),
            Some("price_desc") => out.sort_by(|a, b| cmp_f64(b.price, a.price)),
            Some("rating") => out.sort_by(|a, b| cmp_f64(b.rating, a.rating)),
            Some("name") => out.sort_by(|a, b| a.name.cmp(&b.name)),
            _ => {}
        }
        out
    }

    fn facets(&self, req: &Req, found: &[&Product]) -> String {
        let mut colours: Vec<&str> = found
            .iter()
            .flat_map(|p| p.colors.iter().map(String::as_str))
            .collect();
        colours.sort_unstable();
        colours.dedup();
        let colour_opts: Vec<(String, String)> = colours
            .iter()
            .map(|c| (c.to_string(), title_case(c)))
            .collect();
        let mut out = String::from("<aside aria-label=\"Filters\"><h2>Filter</h2>");
        out.push_str(&facet(
            req,
            "Sort by",
            "sort",
            &opts(&[
                ("price_asc", "Price: low to high"),
                ("price_desc", "Price: high to low"),
                ("rating", "Customer rating"),
                ("name", "Name"),
            ]),
        ));
        out.push_str("<section><h3>Price</h3><ul>");
        for (lo, hi, label) in PRICE_RANGES {
            let _ = write!(
                out,
                "<li><a href=\"{}\">{label}</a></li>",
                esc(&req.with_all(&[("min_price", lo), ("max_price", hi)]))
            );
        }
        let _ = write!(
            out,
            "<li><a href=\"{}\">Any price</a></li></ul></section>",
            esc(&req.with_all(&[("min_price", ""), ("max_price", "")]))
        );
        out.push_str(&facet(
            req,
            "Customer rating",
            "rating",
            &opts(&[("4", "4 stars and up"), ("4.5", "4.5 stars and up")]),
        ));
        if !colour_opts.is_empty() {
            out.push_str(&facet(req, "Colour", "color", &colour_opts));
        }
        out.push_str("</aside>");
        out
    }

    fn listing(
        &self,
        ctx: &Ctx,
        req: &Req,
        title: &str,
        intro: &str,
        found: Vec<&Product>,
    ) -> Resp {
        let facets = self.facets(req, &found);
        let found = self.filtered(req, found);
        let (items, nav) = paginate(req, &found, PER_PAGE);
        let mut body = format!("<h1>{}</h1>{intro}<div class=\"layout\">{facets}<section aria-label=\"Products\"><ul class=\"cards\">", esc(title));
        for p in items {
            body.push_str(&self.card(p));
        }
        if items.is_empty() {
            body.push_str("<li>No products match these filters.</li>");
        }
        let _ = write!(body, "</ul>{nav}</section></div>");
        page(ctx, title, &body)
    }

    fn category(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        if !self.0.categories.iter().any(|c| c.slug == slug) {
            return html::not_found(ctx, &req.path);
        }
        let found = self
            .0
            .products
            .iter()
            .filter(|p| p.category == slug)
            .collect();
        self.listing(ctx, req, self.category_name(slug), "", found)
    }

    fn search(&self, ctx: &Ctx, req: &Req) -> Resp {
        let q = req.get("q").unwrap_or("");
        let cat = req.get("category").unwrap_or("");
        let found = self
            .0
            .products
            .iter()
            .filter(|p| cat.is_empty() || p.category == cat)
            .filter(|p| {
                matches_words(
                    &format!(
                        "{} {} {} {}",
                        p.name,
                        p.brand,
                        p.description,
                        p.colors.join(" ")
                    ),
                    q,
                )
            })
            .collect();
        let title = if q.is_empty() {
            "All products".to_string()
        } else {
            format!("Search results for \"{q}\"")
        };
        self.listing(ctx, req, &title, &self.search_form(q, cat), found)
    }
}

mod product;

impl Site for Shop {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp {
        match req.segments().as_slice() {
            [] => self.home(ctx),
            ["category", slug] => self.category(ctx, req, slug),
            ["search"] => self.search(ctx, req),
            ["product", slug] => self.product(ctx, req, slug),
            ["cart", "add"] => self.add_to_cart(ctx, req),
            ["img", file] => image(ctx, file, |s| self.find(s).map(|p| p.spec(None))),
            ["img", slug, file] => image(ctx, file, |c| {
                self.find(slug)
                    .and_then(|p| p.option(Some(c)).map(|c| p.spec(Some(c))))
            }),
            _ => html::not_found(ctx, &req.path),
        }
    }
}
