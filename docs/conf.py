"""Sphinx configuration of the documentation site (MyST Markdown pages, the furo theme).

The tables of rule sets, ids, versions and options are read from the registry, and the measured
tables from the results files the benchmarks wrote, when the site is built: they are written to
`_generated/` (not kept in git) and included by the pages.
"""

import sys
from importlib.metadata import version as installed_version
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "_ext"))

import registry_tables  # noqa: E402
import results_tables  # noqa: E402

project = "mancala_env"
author = "the mancala_env authors"
copyright = author  # noqa: A001 (Sphinx's name for the footer's line)
release = installed_version("mancala_env")
version = release

# generated_images: the rule pages' animations and header tables, the landing page's board and
# the measured figures, drawn when the site is built (docs/_ext/generated_images.py)
extensions = ["myst_parser", "sphinx.ext.autodoc", "generated_images"]
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_generated", "_ext"]
html_theme = "furo"
html_title = f"mancala_env {release}"
html_static_path = ["_static"]
html_css_files = ["site.css"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}
# other libraries' docstrings (Gymnasium's render, ...) name their own attributes
autodoc_inherit_docstrings = False
# Annotations naming other libraries' classes (numpy, Gymnasium, PettingZoo, ...) have no
# documentation here to link to; everything of mancala_env's must resolve.
nitpick_ignore_regex = [
    ("py:class", r"(numpy|np|gymnasium|pettingzoo|collections|typing|pathlib|types)\..*"),
    ("py:class", r"(optional|callable|iterable|sequence)"),
    # type aliases: autodoc shows their names, which have no page of their own
    ("py:class", r"Opponent|AutoresetMode"),
]


def write_generated() -> None:
    """Write the registry's and the results files' tables for the pages to include."""
    folder = HERE / "_generated"
    folder.mkdir(exist_ok=True)
    for name, text in {**registry_tables.pages(), **results_tables.pages()}.items():
        path = folder / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


write_generated()
