"""The written sources the rule sets follow, cited as a reader can find them.

Each rule set's `source` names the project's copy of its source by file name (and the section);
the copies are not shipped, so a reader never sees those names: `citation` turns one into
author, title, date and where the text was published, and `cite` puts the citations in place of
the names in a text (a rule set's `source`, a module's docstring), for the command line, the
docstrings, the rule pages and the README.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Citation:
    """One written source: who wrote it, what it is called, when and where it appeared."""

    author: str
    title: str
    date: str
    published: str

    @property
    def text(self) -> str:
        """The citation in one line of Markdown: author, *title*, date, where published."""
        return f"{self.author}, *{self.title}*, {self.date}; {self.published}"

    @property
    def plain(self) -> str:
        """The citation in one line of plain text, for a terminal: titles in double quotes,
        addresses bare."""
        return _URL.sub(r"\1", _ITALICS.sub(r'"\1"', self.text))


_ITALICS = re.compile(r"\*([^*]+)\*")
_URL = re.compile(r"<(https?://[^>]+)>")


# By the file name of the project's copy of each source.
CITATIONS = {
    "000_edc2cb6489bae485.txt": Citation(
        "Ken Maher",
        "10 Mighty Men",
        "undated wiki article on Maher's game of 2009 and Ralf Gering's calmer rules",
        "Mancala World, <https://mancala.fandom.com/wiki/10_Mighty_Men>",
    ),
    "001_9cf8f14e7fe6ff20.txt": Citation(
        "R. J. Newberry",
        "Games and Pastimes of Southern Nigeria",
        "undated",
        'Part III, *Ayo*, of an article in instalments (it ends "To be continued"); the '
        "project's copy names neither the periodical nor the year",
    ),
    "002_39c0c29210756e27.txt": Citation(
        "John P. Pratt",
        "Ayoayo Rules",
        "19 September 2009",
        "John P. Pratt's web site, <http://johnpratt.com/items/mancala/ayoayo.html>",
    ),
    "003_27373f1e89548b8e.txt": Citation(
        "unsigned",
        "The Game of Ayo",
        "last updated 10 October 2008",
        "h2g2, Edited Entry A833816, <https://h2g2.com/edited_entry/A833816>",
    ),
    "004_8ffe586423a61d8e.txt": Citation(
        "KIDS Afterschool",
        "African Sowing Game Rules",
        "undated",
        "the KIDS Afterschool curriculum's activity *One Africa, Many Countries - Ayo*, "
        "<http://BeyondTheChalkboard.com>",
    ),
}


def source_file(source: str) -> str:
    """The file name of the project's copy that a rule set's `source` text names."""
    for name in CITATIONS:
        if name in source:
            return name
    raise ValueError(f"the source {source!r} names none of the copies {', '.join(CITATIONS)}")


def citation(source: str) -> Citation:
    """The citation of the source a rule set's `source` text names."""
    return CITATIONS[source_file(source)]


def cite(text: str, markdown: bool = True) -> str:
    """`text` with each copy's file name in it (bare or as a ``literal``) replaced by that source's
    citation, in Markdown or (`markdown=False`) plain text."""
    names = "|".join(re.escape(name) for name in CITATIONS)

    def replace(match: re.Match) -> str:
        found = CITATIONS[match.group(1) or match.group(2)]
        return found.text if markdown else found.plain

    return re.sub(rf"``({names})``|({names})", replace, text)
