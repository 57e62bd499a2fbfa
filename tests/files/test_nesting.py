"""The nesting scan the readers run before a parser sees a text (`mancala_env.readers.nesting`):
on any text a parser accepts it says exactly how deep the arrays and objects (TOML's inline
arrays and tables) nest, and on any text at all it answers, never less than a parser would meet."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mancala_env.readers import SCAN_CHUNK, nesting

if sys.version_info >= (3, 11):
    import tomllib
else:
    tomllib = pytest.importorskip("tomli")

TRICKY = st.text(alphabet="[]{}\"'\\#\n ab,:=", max_size=12)
VALUES = st.recursive(
    st.integers() | TRICKY | st.booleans(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("ab", max_size=3), inner),
    max_leaves=12,
)


def depth(value: object) -> int:
    """How deeply a parsed value's lists and dicts nest."""
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


@settings(max_examples=300)
@given(value=VALUES, indent=st.sampled_from([None, 1]), ascii_only=st.booleans())
def test_json_nesting_is_the_depth_a_parser_builds(value, indent, ascii_only):
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert nesting(text) == depth(value)
    assert nesting(text.encode()) == depth(value)


def test_json_nesting_carries_strings_and_escapes_across_chunks():
    """A string and a run of backslashes that straddle the scan's chunk boundary."""
    for shift in range(-3, 4):
        padding = "a" * (SCAN_CHUNK - 6 + shift)
        value = [padding + '\\\\\\"[[', {"b": [["\\"]]}]
        assert nesting(json.dumps(value)) == depth(value) == 4


def toml_value(value: object) -> str:
    """`value` written as a TOML inline value: strings in every TOML form that can hold them."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if "'" not in value and "\n" not in value:
            return f"'{value}'"
        if "'''" not in value and not value.endswith("'"):
            return f"'''{value}'''"
        return json.dumps(value)  # a JSON string of ASCII is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(map(toml_value, value)) + "]"
    return "{" + ", ".join(f'"{key}" = {toml_value(item)}' for key, item in value.items()) + "}"


@settings(max_examples=300)
@given(values=st.lists(VALUES, max_size=4), comment=TRICKY.map(lambda t: t.replace("\n", " ")))
def test_toml_nesting_is_the_depth_a_parser_builds(values, comment):
    text = "".join(f"k{i} = {toml_value(value)} # {comment}\n" for i, value in enumerate(values))
    parsed = tomllib.loads(text)
    assert nesting(text, toml=True) == max((depth(value) for value in parsed.values()), default=0)


@settings(max_examples=500)
@given(text=st.text(alphabet="[]{}\"'\\#\n a1,:=", max_size=40))
def test_nesting_answers_any_text_never_under_what_a_parser_builds(text):
    for toml, parse in ((False, json.loads), (True, tomllib.loads)):
        found = nesting(text, toml)
        try:
            parsed = parse(text)
        except ValueError:
            continue
        built = depth(parsed) - (1 if toml else 0)  # a TOML document is a table itself
        assert found == built if not toml else found >= built
