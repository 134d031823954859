//! OneStop Market's product page and add-to-cart confirmation.

use super::{title_case, Product, Shop};
use crate::html::{self, esc, img, money, page};
use crate::http::{Req, Resp};
use crate::site::Ctx;
use std::fmt::Write as _;

impl Shop {
    pub(super) fn find(&self, slug: &str) -> Option<&Product> {
        self.0.products.iter().find(|p| p.slug == slug)
    }

    pub(super) fn product(&self, ctx: &Ctx, req: &Req, slug: &str) -> Resp {
        let Some(p) = self.find(slug) else {
            return html::not_found(ctx, &req.path);
        };
        let chosen = p
            .option(req.get("color"))
            .or(p.colors.first().map(String::as_str));
        let (src, alt) = match chosen {
            Some(c) if !p.colors.is_empty() => (
                format!("/img/{}/{c}.png", p.slug),
                format!("{}, {}", p.name, title_case(c)),
            ),
            _ => (format!("/img/{}.png", p.slug), p.name.clone()),
        };
        let mut body = format!(
            "<nav aria-label=\"Breadcrumb\"><a href=\"/\">Home</a> › <a href=\"/category/{}\">{}</a></nav>\
<h1>{}</h1><div class=\"layout\"><figure>{}</figure><section aria-label=\"Product details\">\
<p class=\"price\">${}</p><p>Rating: {} ({} reviews)</p><p>Brand: {}</p><p>SKU: {}</p>",
            esc(&p.category),
            esc(self.category_name(&p.category)),
            esc(&p.name),
            img(&src, &alt, 320),
            money(p.price, 2),
            html::stars(p.rating),
            p.reviews,
            esc(&p.brand),
            esc(&p.slug.to_uppercase()),
        );
        if !p.colors.is_empty() {
            body.push_str("<section><h2>Colour</h2><ul>");
            for c in &p.colors {
                let name = title_case(c);
                if Some(c.as_str()) == chosen {
                    let _ = write!(
                        body,
                        "<li><strong aria-current=\"true\">{} (selected)</strong></li>",
                        esc(&name)
                    );
                } else {
                    let _ = write!(
                        body,
                        "<li><a href=\"{}\">{}</a></li>",
                        esc(&req.with("color", c)),
                        esc(&name)
                    );
                }
            }
            body.push_str("</ul></section>");
        }
        body.push_str(&cart_form(p, chosen, req.get("size")));
        let _ = write!(
            body,
            "<h2>Description</h2><p>{}</p></section></div>",
            esc(&p.description)
        );
        page(ctx, &p.name, &body)
    }

    pub(super) fn add_to_cart(&self, ctx: &Ctx, req: &Req) -> Resp {
        let Some(p) = req.get("product").and_then(|s| self.find(s)) else {
            return page(
                ctx,
                "Cart",
                "<h1>Cart</h1><p role=\"alert\">That product does not exist.</p>",
            )
            .with_status(400);
        };
        let qty = req.num("qty").unwrap_or(1).clamp(1, 99);
        let size = req
            .get("size")
            .and_then(|s| p.sizes.iter().find(|z| z.eq_ignore_ascii_case(s)));
        let colour = p
            .option(req.get("color"))
            .or(p.colors.first().map(String::as_str));
        if !p.sizes.is_empty() && size.is_none() {
            let body = format!(
                "<h1>Choose a size</h1><p role=\"alert\">Please choose a size for {} before adding it to the cart.</p><p><a href=\"/product/{}\">Back to the product</a></p>",
                esc(&p.name),
                esc(&p.slug)
            );
            return page(ctx, "Choose a size", &body).with_status(400);
        }
        let mut options = Vec::new();
        if !p.colors.is_empty() {
            options.push(format!(
                "Colour: {}",
                title_case(colour.unwrap_or_default())
            ));
        }
        if let Some(s) = size {
            options.push(format!("Size: {s}"));
        }
        let options = if options.is_empty() {
            String::new()
        } else {
            format!(" ({})", options.join(", "))
        };
        let body = format!(
            "<h1>Added to your cart</h1><p role=\"status\">You added {qty} × <a href=\"/product/{}\">{}</a>{} to your cart.</p>\
<p>Subtotal: <span class=\"price\">${}</span></p><p><a href=\"/\">Continue shopping</a></p>",
            esc(&p.slug),
            esc(&p.name),
            esc(&options),
            money(p.price * f64::from(qty), 2)
        );
        page(ctx, "Shopping cart", &body)
    }
}

fn cart_form(p: &Product, colour: Option<&str>, size: Option<&str>) -> String {
    let mut f = format!(
        "<form method=\"get\" action=\"/cart/add\" aria-label=\"Add to cart\"><input type=\"hidden\" name=\"product\" value=\"{}\">",
        esc(&p.slug)
    );
    if let (Some(c), false) = (colour, p.colors.is_empty()) {
        let _ = write!(
            f,
            "<input type=\"hidden\" name=\"color\" value=\"{}\">",
            esc(c)
        );
    }
    if !p.sizes.is_empty() {
        let mut sizes = vec![(String::new(), "Choose a size".to_string())];
        sizes.extend(p.sizes.iter().map(|s| (s.clone(), s.clone())));
        f.push_str(&html::select("Size", "size", &sizes, size.unwrap_or("")));
    }
    f.push_str("<label>Quantity <input type=\"number\" name=\"qty\" value=\"1\" min=\"1\" max=\"99\"></label> <button type=\"submit\">Add to Cart</button></form>");
    f
}
