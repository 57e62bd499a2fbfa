"""Text from files (an opening suite's search, agent names, anything a store holds) made safe
to show: on a terminal, in Markdown and in HTML. Such text is written by whoever wrote the
file; shown as it is, an escape sequence would drive the reader's terminal, and a Markdown
heading, image or table cell, or an HTML tag, would change the report it lands in."""

from __future__ import annotations

import html
import re

# the marks with a meaning inside a line (a value never starts one: line breaks are escaped)
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]<>!|~&])")
_MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation


def for_terminal(text: str) -> str:
    """`text` with every character a terminal would act on (escape sequences, control and
    format characters, line breaks) written as a Python escape (``\\x1b``)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def for_markdown(text: str) -> str:
    """`text` as literal Markdown inline text: on one line (`for_terminal`), every mark that
    has a meaning inside a line (emphasis, code, links and images, tags, entities, table
    borders) escaped with a backslash."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", for_terminal(text))


def markdown_literal(text: str) -> str:
    """Markdown inline text as the text it shows: its backslash escapes removed."""
    return _MARKDOWN_ESCAPE.sub(r"\1", text)


def for_html(text: str) -> str:
    """`text` as HTML text: on one line (`for_terminal`), ``<``, ``>``, ``&`` and quotes as
    entities."""
    return html.escape(for_terminal(text))
