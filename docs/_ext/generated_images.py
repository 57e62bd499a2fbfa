"""The site's pictures and rule-page headers, made when the site is built.

- ``{mancala-game} NAME``: an animated GIF of a short seeded game of rule set NAME, drawn by the
  environment's own ``render_mode="rgb_array"``.
- ``{mancala-board} NAME``: one such frame (``:plies:`` moves into the game) as a PNG.
- ``{results-figure} NAME``: a figure of a results file, drawn by `results_figures.FIGURES`.
- ``{mancala-env-header} NAME``: the rule page's header table (`registry_tables.env_header`),
  read from the registry and the environment as made.

Code in a table cell may break after its separators (`BreakCodeInTables`), so that tables of
ids and test names fit the column.

The images are written into the build's ``_images/`` as each page is written, never into the
source tree, so what the site shows is what the code draws today.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import registry_tables
import results_figures
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from PIL import Image
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective, SphinxTranslator

from mancala_env.variants import VARIANTS

GAME_FRAMES = 12  # the start and eleven moves: a short game, a small file
FRAME_MS = 700
LAST_FRAME_MS = 2500
GAME_SEED = 7  # the README's `mancala show oware --seed 7`


class generated_image(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes so)
    """An image drawn when its page is written: `kind` and `name` say what, `file` where."""


def _frames(name: str, plies: int, seed: int) -> list[np.ndarray]:
    """The start of a seeded game of `name` and the positions after each of its first `plies`
    moves (fewer if it ends), each as the environment renders it; the moves are drawn
    uniformly among the legal ones by a generator of `seed`."""
    import mancala_env

    env = mancala_env.make(name, render_mode="rgb_array")
    try:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        frames = [env.render()]
        for _ in range(plies):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                break
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            frames.append(env.render())
    finally:
        env.close()
    return frames


def _game_gif(name: str, plies: int, seed: int) -> bytes:
    images = [Image.fromarray(frame).quantize(colors=64) for frame in _frames(name, plies, seed)]
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    images[0].save(
        buffer, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0
    )
    return buffer.getvalue()


def _board_png(name: str, plies: int, seed: int) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(_frames(name, plies, seed)[-1]).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _draw(node: generated_image) -> bytes:
    kind, name = node["kind"], node["name"]
    if kind == "game":
        return _game_gif(name, node["plies"], node["seed"])
    if kind == "board":
        return _board_png(name, node["plies"], node["seed"])
    return results_figures.FIGURES[name]()


def _rule_set(argument: str) -> str:
    if argument not in VARIANTS:
        raise ValueError(f"no rule set {argument!r}; the rule sets: {', '.join(VARIANTS)}")
    return argument


class _PictureDirective(SphinxDirective):
    """A picture of a rule set's game, drawn when the page is written."""

    required_arguments = 1
    option_spec = {"plies": directives.nonnegative_int, "seed": directives.nonnegative_int}
    kind = ""
    plies = 0
    suffix = ""

    def run(self) -> list[nodes.Node]:
        try:
            name = _rule_set(self.arguments[0])
        except ValueError as error:
            raise self.error(str(error)) from None
        plies = self.options.get("plies", self.plies)
        what = "a seeded game" if self.kind == "game" else f"the board after {plies} moves"
        node = generated_image(
            kind=self.kind,
            name=name,
            plies=plies,
            seed=self.options.get("seed", GAME_SEED),
            file=f"{name}-{self.kind}-{plies}{self.suffix}",
            alt=f"{VARIANTS[name].title}: {what}, drawn by the environment's rgb_array render",
        )
        return [node]


class GameDirective(_PictureDirective):
    kind, plies, suffix = "game", GAME_FRAMES - 1, ".gif"


class BoardDirective(_PictureDirective):
    kind, plies, suffix = "board", 0, ".png"


class ResultsFigureDirective(SphinxDirective):
    """A figure of the measured numbers, drawn from the results files when the page is written."""

    required_arguments = 1
    option_spec = {"alt": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in results_figures.FIGURES:
            raise self.error(
                f"no figure {name!r}; the figures: {', '.join(results_figures.FIGURES)}"
            )
        alt = self.options.get("alt", name)
        return [generated_image(kind="figure", name=name, file=f"{name}-figure.png", alt=alt)]


class EnvHeaderDirective(SphinxDirective):
    """A rule page's header table, from the registry and the environment as made."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        try:
            text = registry_tables.env_header(_rule_set(self.arguments[0]))
        except ValueError as error:
            raise self.error(str(error)) from None
        container = nodes.container(classes=["env-header"])
        self.state.nested_parse(StringList(text.splitlines()), self.content_offset, container)
        return [container]


CODE_BREAKS = re.compile(r"(?<=[_/.:=,])(?=[^\s_/.:=,])")  # after a separator, before a word
UNBROKEN_CODE = 16  # a word of code shorter than this (an option's name, `houses=3`) stays whole


def _code_pieces(text: str) -> list[str]:
    """`text` cut where a line may break inside its long words (none: one piece)."""
    pieces = [""]
    for word in re.split(r"(\s+)", text):
        parts = CODE_BREAKS.split(word) if len(word) >= UNBROKEN_CODE else [word]
        pieces[-1] += parts[0]
        pieces += parts[1:]
    return pieces


class BreakCodeInTables(SphinxPostTransform):
    """Code in a table cell (ids, paths, test names, agent specs) may break after its
    separators (``_ / . : = ,``), by an HTML ``<wbr>`` that copying leaves out, so that a
    table fits the column without breaking a word of it anywhere; short code stays whole."""

    default_priority = 900
    formats = ("html",)

    def run(self, **kwargs: object) -> None:
        for entry in self.document.findall(nodes.entry):
            for literal in list(entry.findall(nodes.literal)):
                for text in list(literal.findall(nodes.Text)):
                    pieces = _code_pieces(str(text))
                    if len(pieces) > 1:
                        parts: list[nodes.Node] = [nodes.Text(pieces[0])]
                        for piece in pieces[1:]:
                            parts += [nodes.raw("", "<wbr>", format="html"), nodes.Text(piece)]
                        text.parent.replace(text, parts)


def visit_html(translator: SphinxTranslator, node: generated_image) -> None:
    """Draw the image into the build's ``_images/`` and point an ``<img>`` at it."""
    folder = Path(translator.builder.outdir) / translator.builder.imagedir
    folder.mkdir(parents=True, exist_ok=True)
    data = _draw(node)
    (folder / node["file"]).write_bytes(data)
    width, height = Image.open(io.BytesIO(data)).size
    source = f"{translator.builder.imgpath}/{node['file']}"
    translator.body.append(
        f'<img class="generated-image {node["kind"]}" src="{source}" width="{width}" '
        f'height="{height}" alt="{translator.attval(node["alt"])}" />'
    )
    raise nodes.SkipNode


def skip(_translator: SphinxTranslator, _node: generated_image) -> None:
    """Other builders (text, LaTeX, ...) leave the picture out."""
    raise nodes.SkipNode


def setup(app: Sphinx) -> dict[str, object]:
    visitors: dict[str, tuple[Callable, None]] = {
        builder: (skip, None) for builder in ("latex", "text", "man", "texinfo")
    }
    app.add_node(generated_image, html=(visit_html, None), **visitors)
    app.add_directive("mancala-game", GameDirective)
    app.add_directive("mancala-board", BoardDirective)
    app.add_directive("results-figure", ResultsFigureDirective)
    app.add_directive("mancala-env-header", EnvHeaderDirective)
    app.add_post_transform(BreakCodeInTables)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
