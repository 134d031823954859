from __future__ import annotations

import pytest
from support import COMPACT_TEXT, MMINA_TEXT, step_dict

from hopbench_agent import (
    ACTION_NAMES,
    ActionError,
    Element,
    click,
    close_tab,
    elements,
    find_element,
    find_link,
    go_back,
    go_forward,
    goto,
    hover,
    new_tab,
    parse_request,
    press,
    scroll,
    stop,
    tab_focus,
    type_text,
)


def test_builders_write_the_action_language():
    assert click(12) == "click [12]"
    assert hover(7) == "hover [7]"
    assert type_text(13, "merino beanie") == "type [13] [merino beanie] [1]"
    assert type_text(13, "merino beanie", enter=False) == "type [13] [merino beanie] [0]"
    assert type_text(13, "") == "type [13] [] [1]"
    assert press("Control+v") == "press [Control+v]"
    assert press("Enter") == "press [Enter]"
    assert scroll("down") == "scroll [down]"
    assert scroll("UP") == "scroll [up]"
    assert new_tab() == "new_tab"
    assert tab_focus(0) == "tab_focus [0]"
    assert close_tab() == "close_tab"
    assert goto("http://127.0.0.1:8601/tower") == "goto [http://127.0.0.1:8601/tower]"
    assert go_back() == "go_back"
    assert go_forward() == "go_forward"
    assert stop("purple") == "stop [purple]"
    assert stop("N/A") == "stop [N/A]"


def test_every_builder_starts_with_an_action_name():
    built = [click(1), hover(1), type_text(1, "x"), press("a"), scroll(), new_tab(),
             tab_focus(1), close_tab(), goto("http://a.test/"), go_back(), go_forward(),
             stop("x")]
    assert [b.split(" ")[0] for b in built] == list(ACTION_NAMES)


def test_free_text_keeps_brackets_and_trims_what_hopbench_trims():
    # Free text runs to the last `]`, so brackets inside are safe.
    assert stop("[1] and [2]") == "stop [[1] and [2]]"
    assert type_text(5, "a [b] c") == "type [5] [a [b] c] [1]"
    assert stop("  333 m ") == "stop [333 m]"
    assert goto(" http://a.test/ ") == "goto [http://a.test/]"
    assert stop("東京タワー") == "stop [東京タワー]"


def test_key_combinations_are_checked_and_canonical():
    assert press("ctrl+shift+esc") == "press [Control+Shift+Escape]"
    assert press("Cmd + ArrowLeft") == "press [Meta+ArrowLeft]"
    assert press("Shift++") == "press [Shift++]"
    assert press("F5") == "press [F5]"
    for bad in ["", "Control+", "Control", "Hyper+a", "Control+Control+a", "Enterr"]:
        with pytest.raises(ActionError):
            press(bad)


@pytest.mark.parametrize(
    "build",
    [
        lambda: click(-1),
        lambda: click("12"),
        lambda: click(True),
        lambda: click(1.0),
        lambda: click(2**32),
        lambda: hover(None),
        lambda: tab_focus(-1),
        lambda: type_text(1, "two\nlines"),
        lambda: type_text(1, "carriage\rreturn"),
        lambda: type_text(1, "x", enter=1),
        lambda: type_text(1, 5),
        lambda: scroll("left"),
        lambda: scroll(1),
        lambda: goto(""),
        lambda: goto("http://a.test/\n"),
        lambda: stop("line one\nline two"),
        lambda: stop(None),
        lambda: press("Control+v\n"),
    ],
)
def test_bad_arguments_are_rejected(build):
    with pytest.raises(ActionError):
        build()


def test_action_error_is_a_value_error():
    assert issubclass(ActionError, ValueError)


def test_elements_of_an_mmina_observation():
    found = elements(MMINA_TEXT)
    assert found[:4] == [
        Element(1, "RootWebArea", "Fleet - Northwind Car Rental"),
        Element(4, "navigation", "Main"),
        Element(5, "link", "Northwind Car Rental"),
        Element(6, "link", "Our fleet"),
    ]
    by_id = {e.id: e for e in found}
    # Properties after the name are not part of it.
    assert by_id[8] == Element(8, "searchbox", "Search cars")
    assert by_id[12] == Element(12, "combobox", "Sort by")
    assert by_id[10] == Element(10, "main", "")
    # Names are unquoted: double quotes, escaped quotes, repr escapes.
    assert by_id[17].name == "Driver's guide"
    assert by_id[20].name == "Book 'Arden Five'"
    assert by_id[16] == Element(16, "StaticText", "38 €\xa0/ day")
    # The tabs line and the blank line are not elements; page order is kept.
    assert [e.id for e in found] == [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20]
    # Elements are plain tuples.
    assert (15, "link", "Lumen Hybrid") in found


def test_elements_of_a_compact_observation():
    found = elements(COMPACT_TEXT)
    assert found == [
        Element(6, "link", "Our fleet"),
        Element(7, "link", "Locations"),
        Element(8, "searchbox", "Search cars"),
        Element(15, "link", "Lumen Hybrid"),
        Element(14, "image", ""),
        Element(18, "link", "ARDEN FIVE"),
        Element(19, "textbox", "Promo code"),
    ]


def test_find_link_exact_first_then_case_insensitive():
    text = "Tab 0 (current): x\n\n[1] RootWebArea 'x'\n\t[2] link 'tokyo'\n\t[3] link 'Tokyo'\n"
    assert find_link(text, "Tokyo") == 3  # the exact match wins over an earlier loose one
    assert find_link(text, "TOKYO") == 2  # no exact match: the first case-insensitive one
    assert find_link(MMINA_TEXT, "Lumen Hybrid") == 15
    assert find_link(MMINA_TEXT, "our  FLEET") == 6  # whitespace runs count as one space
    assert find_link(MMINA_TEXT, "Driver's guide") == 17
    # Only links: the heading and the button of the same names are not found.
    assert find_link(MMINA_TEXT, "Search") is None
    assert find_link(MMINA_TEXT, "Lumen") is None  # no partial matches
    assert find_link(COMPACT_TEXT, "Arden Five") == 18
    # An Observation works as well as its text.
    obs = parse_request(step_dict()).observation
    assert find_link(obs, "Locations") == 7


def test_find_element_by_role_or_any():
    assert find_element(MMINA_TEXT, "Our fleet") == 6
    assert find_element(MMINA_TEXT, "Our fleet", role="heading") == 11
    assert find_element(MMINA_TEXT, "search cars", role="searchbox") == 8
    assert find_element(MMINA_TEXT, "Nothing like this") is None
