"""Every rule set has a rule page that cites its source and points at tests that exist."""

import re
import sys
from pathlib import Path

import pytest

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
