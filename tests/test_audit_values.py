"""The wrong values ``suite audit`` makes of one argument (scorer/audit/values.py), each list
written out by hand from the generators' rules (docs/METHOD.md, suite-audit; scorer/audit/kinds.py):
a boolean flipped, a number one off within its bounds or the request's number where the result's
was meant, an enum's neighbours, other handles of the same shape, the named parts of a text dropped,
a text that says nothing, list items and object fields left out."""

from __future__ import annotations

from scorer.audit.values import GENERIC_TEXT, Sources, wrong_values

NONE = Sources("", "", "")


def _values(value: object, schema: object = None, sources: Sources = NONE) -> list[object]:
    return [(kind, v) for kind, path, v in wrong_values(value, schema, sources, ("x",))]


def test_a_boolean_is_flipped_and_a_value_of_no_kind_has_none() -> None:
    assert wrong_values(True, None, NONE, ("flag",)) == [("flipped", ("flag",), False)]
    assert wrong_values(False, {}, NONE, ("flag",)) == [("flipped", ("flag",), True)]
    assert wrong_values(None, {}, NONE, ("x",)) == []


def test_a_number_is_one_off_within_its_bounds() -> None:
    assert wrong_values(5, {"minimum": 1, "maximum": 10}, NONE, ("n",)) == [
        ("off_by_one", ("n",), 6),
        ("off_by_one", ("n",), 4),
    ]
    assert _values(10, {"minimum": 1, "maximum": 10}) == [("off_by_one", 9)]
    assert _values(1, {"minimum": 1, "maximum": 10}) == [("off_by_one", 2)]
    assert _values(10, {"maximum": 10}) == [("off_by_one", 9)]
    assert _values(0, {"minimum": 0}) == [("off_by_one", 1)]
    assert _values(5, {"minimum": "1", "maximum": None}) == [("off_by_one", 6), ("off_by_one", 4)]
    assert _values(5, "not a schema") == [("off_by_one", 6), ("off_by_one", 4)]
    assert _values(2.5) == [("off_by_one", 3.5), ("off_by_one", 1.5)]


def test_a_number_from_an_earlier_result_meets_the_request_numbers() -> None:
    """chains: the result named pull request 458, the request issue 452; a step that ignores the
    result sends one of the request's own numbers (not 458 nor one off it, once each, two at most,
    whole numbers only)."""
    sources = Sources(
        request="Look at issue 452 (see 4581).\nYou are an assistant.",
        results="Pull request #458 fixes it",
        messages="issue 459 and 457 then 452, 452 again, 7 and 9 more, 3.5 and v1.2",
    )
    assert _values(458, {}, sources) == [
        ("off_by_one", 459),
        ("off_by_one", 457),
        ("result_ignored", 452),
        ("result_ignored", 7),
    ]
    bounded = Sources("check 12 and 300", "PR 45", "check 12 and 300")
    assert _values(45, {"maximum": 100}, bounded) == [
        ("off_by_one", 46),
        ("off_by_one", 44),
        ("result_ignored", 12),
    ]
    # the request names it too, or no result does: the request's numbers are no wrong value
    assert _values(45, {}, Sources("PR 45 and 12", "PR 45", "PR 45 and 12")) == [
        ("off_by_one", 46),
        ("off_by_one", 44),
    ]
    assert _values(45, {}, Sources("issue 12", "PR 450", "issue 12")) == [
        ("off_by_one", 46),
        ("off_by_one", 44),
    ]
    assert _values(2.5, {}, Sources("issue 12", "took 2.5 s", "issue 12")) == [
        ("off_by_one", 3.5),
        ("off_by_one", 1.5),
    ]


def test_an_enum_value_meets_its_neighbours() -> None:
    enum = {"enum": ["a", "b", "c", "d"]}
    assert _values("a", enum) == [("enum_neighbour", "b")]
    assert _values("c", enum) == [("enum_neighbour", "b"), ("enum_neighbour", "d")]
    assert _values("d", enum) == [("enum_neighbour", "c")]
    assert _values("q", enum) == []
    assert _values("x", {"enum": [1, "x", None]}) == []
    assert _values("x", {"enum": ["x", "y", "x", "z"]}) == [("enum_neighbour", "y")]
    assert _values("x", {"enum": ["x", "x"]}) == []


def test_a_path_meets_the_other_paths_offered_in_order() -> None:
    sources = Sources(
        "Compare docs/a.md with docs/b.md, ./docs/a.md, notes.txt and docs/b.md; or docs/c.md "
        "or docs/d.md",
        "",
    )
    assert _values("docs/a.md", {}, sources) == [
        ("other_offered", "docs/b.md"),
        ("other_offered", "notes.txt"),
        ("other_offered", "docs/c.md"),
    ]
    # the request's last word and the first result's are two words
    joined = Sources("read docs/b.md", "docs/c.md was written")
    assert _values("docs/a.md", {}, joined) == [
        ("other_offered", "docs/b.md"),
        ("other_offered", "docs/c.md"),
    ]
    # a trailing slash and a leading ./ are the same path
    assert _values("src/app", {}, Sources("open ./src/app/ or src/lib/", "")) == [
        ("other_offered", "src/lib"),
    ]
    assert _values("tmp/BOX", {}, Sources("use tmp/BO", "")) == [("other_offered", "tmp/BO")]
    assert _values("src/app", {}, Sources("or src/lib", "")) == [("other_offered", "src/lib")]
    assert _values("NOTES.TXT", {}, Sources("or TODO.MD or file.abcdefg", "")) == [
        ("other_offered", "TODO.MD")
    ]
    assert _values("hello", {}, Sources("or docs/a.md", "")) == []
    # a leading dot is the path's own: a hidden file is offered as itself
    assert _values("README.md", {}, Sources("Copy .env.local (not ./README.md).", "")) == [
        ("other_offered", ".env.local")
    ]


def test_a_url_address_or_channel_meets_its_own_shape_only() -> None:
    urls = Sources("see https://example.com/b/ and https://example.com/a/ or docs/a.md", "")
    assert _values("https://example.com/a", {}, urls) == [
        ("other_offered", "https://example.com/b/")
    ]
    mail = Sources("mail ann@example.com or bob@example.org. Or #ops", "")
    assert _values("ann@example.com", {}, mail) == [("other_offered", "bob@example.org")]
    channels = Sources("post in #random or #general, #Ops, #2bad or ann@example.com", "")
    assert _values("#general", {}, channels) == [
        ("other_offered", "#random"),
        ("other_offered", "#Ops"),
    ]


def test_the_named_parts_of_a_text_are_dropped_longest_first() -> None:
    sources = Sources("Please fix bug 452 in SRC/app.py now", "")
    assert _values("Fix bug 452 in src/app.py now", {}, sources) == [
        ("part_dropped", "Fix bug 452 in now"),
        ("part_dropped", "Fix bug in src/app.py now"),
        ("generic_text", GENERIC_TEXT),
    ]
    # a part only an earlier result names; one named nowhere; a plain word
    chain = Sources("merge today x", "opened 458 for you", "merge today")
    assert _values("Merge x9 PR 458 today", {}, chain) == [
        ("result_ignored", "Merge x9 PR today"),
        ("generic_text", GENERIC_TEXT),
    ]
    # once per part, its first occurrence
    assert _values("452 and 452 again", {}, Sources("452", "")) == [
        ("part_dropped", "and 452 again"),
        ("generic_text", GENERIC_TEXT),
    ]


def test_a_dropped_part_closes_its_gap() -> None:
    def dropped(value: str, request: str) -> list[object]:
        return [v for kind, v in _values(value, {}, Sources(request, "")) if kind != "generic_text"]

    assert dropped("Call 555-1234, please", "555-1234") == ["Call, please"]
    assert dropped("XL 452", "452") == ["XL"]
    assert dropped("Line 452\n", "452") == ["Line \n"]
    assert dropped("a 1 2 3 4 5 6 7", "1 2 3 4 5 6 7") == [
        "a 2 3 4 5 6 7",
        "a 1 3 4 5 6 7",
        "a 1 2 4 5 6 7",
        "a 1 2 3 5 6 7",
        "a 1 2 3 4 6 7",
        "a 1 2 3 4 5 7",
    ]
    assert dropped("v1.2", "v1.2") == []


def test_a_text_that_says_nothing_stands_for_a_text_only() -> None:
    assert _values("two words", {}) == [("generic_text", GENERIC_TEXT)]
    assert _values("  padded  ", {}) == []
    assert _values(GENERIC_TEXT, {}) == []
    assert _values("see docs/a.md now", {}, Sources("docs/b.md", "")) == [
        ("generic_text", GENERIC_TEXT)
    ]


def test_list_items_and_object_fields_are_left_out_one_at_a_time() -> None:
    assert _values([1, 2, 3]) == [
        ("item_dropped", [2, 3]),
        ("item_dropped", [1, 3]),
        ("item_dropped", [1, 2]),
    ]
    assert [v for _, v in _values(list(range(8)))] == [
        [j for j in range(8) if j != i] for i in range(6)
    ]
    schema = {"properties": {"a": {"maximum": 1}, "b": {"properties": {"c": {}}}}}
    assert wrong_values({"a": 1, "b": {"c": True}}, schema, NONE, ("obj",)) == [
        ("field_dropped", ("obj", "a"), None),
        ("off_by_one", ("obj", "a"), 0),
        ("field_dropped", ("obj", "b"), None),
        ("field_dropped", ("obj", "b", "c"), None),
        ("flipped", ("obj", "b", "c"), False),
    ]
    assert wrong_values({"a": 1}, {"properties": ["a"]}, NONE, ("o",)) == [
        ("field_dropped", ("o", "a"), None),
        ("off_by_one", ("o", "a"), 2),
        ("off_by_one", ("o", "a"), 0),
    ]


def test_a_number_at_its_bound_is_within() -> None:
    assert _values(2, {"minimum": 1}) == [("off_by_one", 3), ("off_by_one", 1)]
    assert _values(9, {"maximum": 10}) == [("off_by_one", 10), ("off_by_one", 8)]


def test_an_enum_neighbour_is_the_value_s_own() -> None:
    assert _values("a", {"enum": ["a", None, "b"]}) == []


def test_each_wrong_value_is_made_once() -> None:
    # the neighbour is also offered; a dropped part is also offered; a dropped part says nothing
    enum = {"enum": ["docs/a.md", "docs/b.md"]}
    assert _values("docs/a.md", enum, Sources("or docs/b.md", "")) == [
        ("enum_neighbour", "docs/b.md")
    ]
    assert _values("a/b=c.md", {}, Sources("use a/b= or c.md", "")) == [
        ("other_offered", "a/b="),
        ("other_offered", "c.md"),
        ("part_dropped", "=c.md"),
    ]
    assert _values("Hello, just following up. 452", {}, Sources("452", "")) == [
        ("part_dropped", GENERIC_TEXT)
    ]


def test_a_part_named_twice_in_other_letter_case_is_one_part() -> None:
    assert _values("Fix ABC1 then abc1", {}, Sources("abc1", "")) == [
        ("part_dropped", "Fix then abc1"),
        ("generic_text", GENERIC_TEXT),
    ]
    assert _values("452 and 452 then v9", {}, Sources("452 v9", "")) == [
        ("part_dropped", "and 452 then v9"),
        ("part_dropped", "452 and 452 then"),
        ("generic_text", GENERIC_TEXT),
    ]
    # letters alone are a plain word, whatever their case
    assert _values("Size XL please", {}, Sources("size xl please", "")) == [
        ("generic_text", GENERIC_TEXT)
    ]


def test_offered_words_lose_their_brackets_and_a_trailing_slash() -> None:
    sources = Sources("see (docs/b.md) or docs/BOX/", "")
    assert _values("docs/a.md", {}, sources) == [
        ("other_offered", "docs/b.md"),
        ("other_offered", "docs/BOX"),
    ]
    # an address is no path, though it ends like a file name
    mail = Sources("mail bob@example.org or see notes.txt", "")
    assert _values("ann@example.com", {}, mail) == [("other_offered", "bob@example.org")]


def test_an_empty_object_has_no_wrong_value() -> None:
    assert wrong_values({}, {}, NONE, ("x",)) == []


def test_a_field_whose_name_holds_a_dot_is_one_key_of_the_path() -> None:
    value = {"a.b": True, "": 1, "7": {"c": False}}
    assert wrong_values(value, {}, NONE, ("x.y",)) == [
        ("field_dropped", ("x.y", "a.b"), None),
        ("flipped", ("x.y", "a.b"), False),
        ("field_dropped", ("x.y", ""), None),
        ("off_by_one", ("x.y", ""), 2),
        ("off_by_one", ("x.y", ""), 0),
        ("field_dropped", ("x.y", "7"), None),
        ("field_dropped", ("x.y", "7", "c"), None),
        ("flipped", ("x.y", "7", "c"), True),
    ]
