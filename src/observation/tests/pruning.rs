//! MMInA's pruning rules, one by one, and the line format.

use super::builder::{ax, ignored, root, single_frame, with_props, without_ids};
use serde_json::json;

#[test]
fn line_format_is_id_role_quoted_name_then_properties() {
    let obs = single_frame(vec![
        root(1, "MAIN", "Trip planner", &[2]),
        with_props(
            ax(2, "checkbox", "Flexible dates", &[]),
            &[("checked", json!("true")), ("required", json!(false))],
        ),
    ]);
    assert_eq!(
        obs.tree,
        "[1] RootWebArea 'Trip planner'\n\t[2] checkbox 'Flexible dates' checked: true required: False"
    );
}

#[test]
fn control_names_are_trimmed_and_text_runs_keep_their_spacing() {
    // Chromium 148 names `<label><input type=checkbox> Flexible dates</label>` with the
    // label's leading space; later releases trim it. The line is the same for both.
    let obs = single_frame(vec![
        root(1, "MAIN", "Trip planner", &[2, 3]),
        ax(2, "checkbox", " Flexible dates ", &[]),
        ax(3, "StaticText", " | ", &[]),
    ]);
    assert_eq!(
        obs.tree,
        "[1] RootWebArea 'Trip planner'\n\t[2] checkbox 'Flexible dates'\n\t[3] StaticText ' | '"
    );
}

#[test]
fn dropped_properties_never_print() {
    let dropped = [
        "focusable",
        "editable",
        "readonly",
        "level",
        "settable",
        "multiline",
        "invalid",
    ];
    let props: Vec<(&str, serde_json::Value)> = dropped
        .iter()
        .map(|p| (*p, json!(true)))
        .chain([("focused", json!(true))])
        .collect();
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2]),
        with_props(ax(2, "textbox", "City", &[]), &props),
    ]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\ttextbox 'City' focused: True"
    );
}

#[test]
fn properties_without_a_plain_value_are_skipped() {
    let mut node = ax(2, "textbox", "City", &[]);
    node["properties"] = json!([
        {"name": "labelledby", "value": {"type": "nodeList", "relatedNodes": [{"backendDOMNodeId": 9}]}},
        {"name": "hasPopup", "value": {"type": "token", "value": "menu"}},
    ]);
    let obs = single_frame(vec![root(1, "MAIN", "t", &[2]), node]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\ttextbox 'City' hasPopup: menu"
    );
}

#[test]
fn each_skippable_role_is_skipped_when_nameless_and_propertyless() {
    for role in [
        "generic",
        "img",
        "image",
        "list",
        "strong",
        "paragraph",
        "banner",
        "navigation",
        "Section",
        "LabelText",
        "Legend",
        "listitem",
    ] {
        let obs = single_frame(vec![
            root(1, "MAIN", "t", &[2]),
            ax(2, role, "", &[3]),
            ax(3, "link", "Tokyo", &[]),
        ]);
        // The child stays, at the skipped node's depth.
        assert_eq!(
            without_ids(&obs.tree),
            "RootWebArea 't'\n\tlink 'Tokyo'",
            "role {role}"
        );
    }
}

#[test]
fn skippable_roles_stay_when_named_or_with_properties() {
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2, 3]),
        ax(2, "navigation", "Main menu", &[]),
        with_props(ax(3, "generic", "", &[]), &[("live", json!("polite"))]),
    ]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\tnavigation 'Main menu'\n\tgeneric '' live: polite"
    );
}

#[test]
fn nameless_listitem_is_skipped_even_with_properties() {
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2]),
        with_props(
            ax(2, "listitem", "", &[3]),
            &[("level", json!(1)), ("setsize", json!(3))],
        ),
        ax(3, "link", "Item", &[]),
    ]);
    assert_eq!(without_ids(&obs.tree), "RootWebArea 't'\n\tlink 'Item'");
}

#[test]
fn other_nameless_roles_are_kept() {
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2]),
        ax(2, "main", "", &[3]),
        ax(3, "button", "Go", &[]),
    ]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\tmain ''\n\t\tbutton 'Go'"
    );
}

#[test]
fn ignored_nodes_are_skipped_and_their_children_kept() {
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2]),
        ignored(ax(2, "generic", "", &[3])),
        ax(3, "heading", "Districts", &[]),
    ]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\theading 'Districts'"
    );
}

#[test]
fn inline_text_boxes_never_print() {
    let mut text_box = ax(4, "InlineTextBox", "Tokyo", &[]);
    text_box.as_object_mut().unwrap().remove("backendDOMNodeId");
    text_box["nodeId"] = json!("-100");
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2]),
        ax(2, "heading", "Tokyo", &[3]),
        ax(3, "StaticText", "Tokyo", &[-100]),
        text_box,
    ]);
    assert_eq!(without_ids(&obs.tree), "RootWebArea 't'\n\theading 'Tokyo'");
}

#[test]
fn static_text_is_dropped_when_one_of_the_previous_three_lines_has_it() {
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2, 3, 4, 5, 6, 7]),
        ax(2, "link", "Tokyo Tower", &[]),
        ax(3, "StaticText", "Tokyo", &[]),
        ax(4, "button", "A", &[]),
        ax(5, "button", "B", &[]),
        ax(6, "button", "C", &[]),
        ax(7, "StaticText", "Tokyo", &[]),
    ]);
    // The first "Tokyo" repeats the link line; the second is four lines after it.
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\tlink 'Tokyo Tower'\n\tbutton 'A'\n\tbutton 'B'\n\tbutton 'C'\n\tStaticText 'Tokyo'"
    );
}

#[test]
fn whitespace_static_text_is_dropped() {
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2, 3]),
        ax(2, "StaticText", " \n ", &[]),
        ax(3, "StaticText", " | ", &[]),
    ]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\tStaticText ' | '"
    );
}

#[test]
fn depth_is_shown_with_tabs() {
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2]),
        ax(2, "main", "", &[3]),
        ax(3, "form", "Search", &[4]),
        ax(4, "button", "Go", &[]),
    ]);
    let lines: Vec<&str> = obs.tree.lines().collect();
    assert!(lines[3].starts_with("\t\t\t["), "{lines:?}");
    assert!(
        lines[2].starts_with("\t\t[") && !lines[2].starts_with("\t\t\t"),
        "{lines:?}"
    );
}

#[test]
fn images_name_their_url_and_links_do_not() {
    let image = with_props(
        ax(2, "image", "Skyline", &[]),
        &[("url", json!("http://a.test/sky.png"))],
    );
    let link = with_props(
        ax(3, "link", "Japan", &[]),
        &[("url", json!("http://a.test/Japan"))],
    );
    let obs = single_frame(vec![root(1, "MAIN", "t", &[2, 3]), image, link]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\timage 'Skyline' url: http://a.test/sky.png\n\tlink 'Japan'"
    );
}

#[test]
fn nameless_image_with_a_url_is_kept() {
    let image = with_props(
        ax(2, "img", "", &[]),
        &[("url", json!("http://a.test/x.png"))],
    );
    let obs = single_frame(vec![root(1, "MAIN", "t", &[2]), image]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\timg '' url: http://a.test/x.png"
    );
}

#[test]
fn names_are_quoted_like_python() {
    let obs = single_frame(vec![
        root(1, "MAIN", "t", &[2]),
        ax(2, "link", "Rock 'n' roll\nnow", &[]),
    ]);
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 't'\n\tlink \"Rock 'n' roll\\nnow\""
    );
}
