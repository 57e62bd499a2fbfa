"""Every rule set has a rule page that cites its source and points at tests that exist; the
built site shows every image it names and no table wider than its column."""

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from mancala_env.variants import VARIANTS
from mancala_env.variants.sources import CITATIONS, citation

ROOT = Path(__file__).parents[2]
SOURCES = tuple(CITATIONS)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_rule_page_cites_its_source_and_real_tests(name):
    page = (ROOT / "docs" / "variants" / f"{name}.md").read_text()
    variant = VARIANTS[name]
    source = " ".join(page.split("**Source:** ", 1)[1].split())
    assert source.startswith(citation(variant.source).text), "cited: author, title, date, where"
    for copy in SOURCES:
        assert copy not in page, "a reader cannot follow the name of the project's copy"
    assert not re.search(r"(?<![\d,])\b00[0-4]\b", page), "nor its number"
    assert variant.env_id() in page
    assert f"## Version History\n\n{variant.version_history()}\n" in page
    references = re.findall(r"(tests/[\w/]+\.py)::(\w+)", page)
    assert references, "the page names the tests that show its rules"
    for path, test in references:
        text = (ROOT / path).read_text()
        assert re.search(rf"^def {test}\(", text, flags=re.M), f"{path}::{test} does not exist"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_module_docstring_cites_the_source(name):
    """The environment's docstring (`help(mancala_env.<name>_v<version>)`) and the rule set's
    module cite the source as a reader can find it, never by the project's copy."""
    variant = VARIANTS[name]
    module = sys.modules[type(variant.options()).__module__]
    for doc in (variant.doc, module.__doc__):
        assert citation(variant.source).text in " ".join(doc.split())
        assert not any(copy in doc for copy in SOURCES)
    assert any(source in variant.source for source in SOURCES), "the key of its citation"


def test_changelog_links_every_rule_sets_version_history():
    changelog = (ROOT / "docs" / "changelog.md").read_text()
    for name in VARIANTS:
        assert f"(variants/{name}.md#version-history)" in changelog


def test_no_path_outside_the_repository_in_docs_or_code():
    """A reader of the repository (or of the installed package) cannot follow `../shared/...`."""
    folders = ("docs", "mancala_env", "agents", "train", "benchmarks", "tests")
    files = [ROOT / "README.md", *(p for f in folders for p in (ROOT / f).rglob("*.*"))]
    for path in files:
        if path.suffix in (".md", ".py", ".toml") and path != Path(__file__):
            text = path.read_text()
            assert "../shared/" not in text, f"{path.relative_to(ROOT)} names ../shared/"


TRAINING_BLOCKS = re.findall(
    r"```python\n(.*?)```", (ROOT / "docs" / "training.md").read_text(), flags=re.S
)


def test_training_page_has_the_stable_baselines3_example():
    assert any("MaskablePPO" in block for block in TRAINING_BLOCKS)


@pytest.mark.parametrize("block", TRAINING_BLOCKS)
def test_training_page_python_example_runs(block):
    exec(compile(block, "docs/training.md", "exec"), {})


def test_landing_page_gives_the_readmes_two_commands():
    """The site's front door installs and plays exactly as the README does."""
    commands = r"```bash\n(.*?)```"
    readme = re.findall(commands, (ROOT / "README.md").read_text(), flags=re.S)[0]
    index = re.findall(commands, (ROOT / "docs" / "index.md").read_text(), flags=re.S)[0]
    assert index == readme


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_rule_page_opens_with_its_game_and_its_header(name):
    page = (ROOT / "docs" / "variants" / f"{name}.md").read_text()
    opening = page.split("**Source:**", 1)[0]
    assert f"```{{mancala-game}} {name}\n```" in opening
    assert f"```{{mancala-env-header}} {name}\n```" in opening


# How the site's column is laid out at 1,280 px (the furo theme and docs/_static/site.css): the
# article is 46em of 16 px; a cell adds its padding, its paragraph's margins and a border; a
# character is about 7.7 px wide on average, a heading's bold one 8% wider. Code in a cell
# breaks where the site put a <wbr> (docs/_ext/generated_images.py), and where the built
# site.css says so, tables of WIDE_TABLE columns or more are set smaller and tighter.
COLUMN_PX = 46 * 16
CELL_PX = 17
CHARACTER_PX = 7.7
WIDE_TABLE = 9
WIDE_TYPE = 0.7
WIDE_CELL_PX = 12
WIDE_SET_SMALLER = (
    f"table.docutils:has(> thead > tr > th:nth-child({WIDE_TABLE})) {{\n  font-size: {WIDE_TYPE}em;"
)


class _Page(HTMLParser):
    """A built page's image sources, and its tables as rows of cells: whether a heading, the
    plain text, the text of code."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.tables: list[list[list[tuple[bool, str, str]]]] = []
        self._open: list[list[list[tuple[bool, str, str]]]] = []
        self._cell: tuple[bool, list[str], list[str]] | None = None
        self._code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "wbr" and self._cell is not None:
            self._cell[2 if self._code else 1].append(" ")
        elif tag == "img":
            self.images.append(dict(attrs).get("src") or "")
        elif tag == "table":
            self._open.append([])
        elif tag == "tr" and self._open:
            self._open[-1].append([])
        elif tag in ("td", "th") and self._open:
            self._cell = (tag == "th", [], [])
        elif tag == "code":
            self._code += 1
            if self._cell is not None:
                self._cell[2].append(" ")  # one code span's words are not the next one's

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self._open:
            self.tables.append(self._open.pop())
        elif tag in ("td", "th") and self._cell is not None and self._open:
            heading, text, code = self._cell
            self._open[-1][-1].append((heading, " ".join(text), "".join(code)))
            self._cell = None
        elif tag == "code":
            self._code -= 1

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[2 if self._code else 1].append(data)


def table_width(rows: list[list[tuple[bool, str, str]]], wide_set_smaller: bool) -> float:
    """The narrowest a table can be laid out, in px: each column as wide as its widest cell's
    longest word (a line breaks at spaces and after dashes; code, at its spaces and its
    <wbr>s)."""
    columns = max(len(row) for row in rows)
    wide = wide_set_smaller and columns >= WIDE_TABLE
    scale, cell = (WIDE_TYPE, WIDE_CELL_PX) if wide else (1, CELL_PX)
    widths = [0.0] * columns
    for row in rows:
        for column, (heading, text, code) in enumerate(row):
            words = re.split(r"\s+|(?<=[-–])", text) + code.split()
            longest = max(map(len, words), default=0)
            width = longest * CHARACTER_PX * scale * (1.08 if heading else 1) + cell
            widths[column] = max(widths[column], width)
    return sum(widths)


def site_problems(site: Path) -> list[str]:
    """What a reader of the built `site` would meet: an image that is not there, a table
    wider than the page's column."""
    css = site / "_static" / "site.css"
    rules = css.read_text() if css.is_file() else ""
    wide_set_smaller = WIDE_SET_SMALLER in rules
    problems = []
    for page in sorted(site.rglob("*.html")):
        parsed = _Page()
        parsed.feed(page.read_text())
        name = page.relative_to(site).as_posix()
        for source in parsed.images:
            if re.match(r"[a-z]+:", source) or not (page.parent / source.split("#")[0]).is_file():
                problems.append(f"{name}: no image {source!r}")
        for number, rows in enumerate(table for table in parsed.tables if table):
            width = table_width(rows, wide_set_smaller)
            if width > COLUMN_PX:
                problems.append(f"{name}: table {number} is {width:.0f} px, wider than {COLUMN_PX}")
    return problems


@pytest.mark.integration
def test_built_site_shows_every_image_and_no_table_wider_than_its_column(tmp_path):
    """The site built strictly (as CI builds it): every image it names exists, every rule
    page shows its animated game and its header table, and every table fits the column."""
    site = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-b", "html", "-q",
         str(ROOT / "docs"), str(site)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    assert site_problems(site) == []
    for name in VARIANTS:
        page = (site / "variants" / f"{name}.html").read_text()
        assert re.search(r'<div class="[^"]*\benv-header\b', page), f"{name}'s page has no header"
        game = re.search(r'<img class="generated-image game" src="([^"]+)"', page)
        assert game, f"{name}'s page shows no game"
        with Image.open(site / "variants" / game[1]) as animation:
            assert animation.format == "GIF" and animation.n_frames > 1
    assert '<img class="generated-image board"' in (site / "index.html").read_text()


def test_site_check_finds_a_missing_image_and_a_table_too_wide(tmp_path):
    """The check of the built site fails on what it is for (pages in the built site's markup:
    an image whose file is gone, a table of long words, of code that cannot break)."""
    (tmp_path / "_images").mkdir()
    (tmp_path / "_images" / "board.png").write_bytes(b"")
    pieces = ["tests/", "rules/", "test_", "a_", "very_", "long_", "name"] * 8
    code = '<code class="docutils literal"><span class="pre">{}</span></code>'
    broken = code.format('</span><wbr><span class="pre">'.join(pieces))
    page = f'<img src="_images/board.png"><table><tr><td><p>{broken}</p></td></tr></table>'
    (tmp_path / "page.html").write_text(page)
    assert site_problems(tmp_path) == []  # the code breaks at its <wbr>s
    (tmp_path / "page.html").write_text(page + '<img src="_images/gone.gif">')
    assert site_problems(tmp_path) == ["page.html: no image '_images/gone.gif'"]
    whole = code.format("".join(pieces))
    (tmp_path / "page.html").write_text(f"<table><tr><td><p>{whole}</p></td></tr></table>")
    assert site_problems(tmp_path) == ["page.html: table 0 is 2050 px, wider than 736"]
    cells = "".join(f"<td><p>{'configuration' * 2}</p></td>" for _ in range(4))
    (tmp_path / "page.html").write_text(f"<table><tr>{cells}</tr></table>")
    assert site_problems(tmp_path) == ["page.html: table 0 is 869 px, wider than 736"]
