//! Reference websites listed inside an MMInA intent as `Label:URL` lines.

use crate::task::ReferenceSite;

/// Every `Label:URL` (or `Label: URL`) found in `intent`, in order. The label is the
/// text between the previous colon (or line start) and the colon before the URL, so
/// "Here are some reference urls: Wiki: https://..." yields the label "Wiki".
/// A URL with no label before it is not a reference site and is skipped.
pub(crate) fn reference_sites(intent: &str) -> Vec<ReferenceSite> {
    let mut sites = Vec::new();
    for line in intent.lines() {
        let mut rest = line;
        while let Some(start) = find_url(rest) {
            let (before, from_url) = rest.split_at(start);
            let end = from_url.find(char::is_whitespace).unwrap_or(from_url.len());
            let url = &from_url[..end];
            if let Some(label) = label_before(before) {
                sites.push(ReferenceSite {
                    label,
                    url: url.trim().to_string(),
                });
            }
            rest = &from_url[end..];
        }
    }
    sites
}

fn find_url(s: &str) -> Option<usize> {
    let lower = s.to_ascii_lowercase();
    [lower.find("https://"), lower.find("http://")]
        .into_iter()
        .flatten()
        .min()
}

fn label_before(before: &str) -> Option<String> {
    let head = before.trim_end().strip_suffix(':')?;
    let label = head.rsplit(':').next().unwrap_or(head).trim();
    (!label.is_empty()).then(|| label.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_urls_and_spacing_variants() {
        let intent = "Do it!\n\n Here are some reference urls: Wiki: https://w.test/Landing  \n\
                      Rent a car:https://cars.test/?a=1 \nExchange dollars: https://www.xe.com/ \n\
                      see https://nolabel.test/ too\n\n Question:- Which city?";
        let sites = reference_sites(intent);
        let pairs: Vec<(&str, &str)> = sites
            .iter()
            .map(|s| (s.label.as_str(), s.url.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("Wiki", "https://w.test/Landing"),
                ("Rent a car", "https://cars.test/?a=1"),
                ("Exchange dollars", "https://www.xe.com/"),
            ]
        );
    }
}
