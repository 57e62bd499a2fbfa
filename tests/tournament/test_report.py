"""The report's pictures: colours readable by every reader, cells that say how many games they
rest on, and a game-length histogram that explains its second cluster."""

import html
import re
from dataclasses import replace
from pathlib import Path

import matplotlib
import numpy as np
import pytest

from mancala_env.agents.tournament.openings import read_suite, shipped_suite
from mancala_env.agents.tournament.ratings import PERFECT_RECORD_NOTE, rate
from mancala_env.agents.tournament.report import (
    CROSSTABLE_COLORMAP,
    _markdown,
    crosstable_figure,
    format_leaderboard,
    lengths_figure,
    ratings_figure,
    relative_luminance,
    text_color,
    write_report,
)
from mancala_env.agents.tournament.runner import TournamentResult
from mancala_env.agents.tournament.schedule import TournamentConfig
from mancala_env.escaping import for_markdown

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

AGENTS = ("random", "greedy", "alphabeta:depth=1")
# (agent_0, agent_1, winner, games): each pair a different number of games
PAIRS = [(0, 1, 1, 4), (0, 2, 1, 6), (1, 2, -1, 2), (1, 2, 1, 6)]
FIELDS = ("agent_0", "agent_1", "first_player", "winner", "end_reason", "length")


def contrast(text: str, background) -> float:
    high, low = sorted([1.0 if text == "white" else 0.0, relative_luminance(background)])[::-1]
    return (high + 0.05) / (low + 0.05)


@pytest.fixture
def result() -> TournamentResult:
    records = []
    for a, b, winner, games in PAIRS:
        for k in range(games):
            stalled = k == 0  # one game of each group reaches the stall limit
            end = ("stall", 100) if stalled else ("no_move", 30 + k)
            record = dict(zip(FIELDS, (AGENTS[a], AGENTS[b], 0, winner, *end), strict=True))
            moves = [len(records)]  # every game its own
            records.append({**record, "variant": "oware", "options": {}, "seed": 0, "moves": moves})
    config = TournamentConfig("oware", AGENTS, options={"stall_limit": 90})
    ratings = rate(records, AGENTS, bootstrap=20)
    yield TournamentResult(config, Path("t.sqlite"), records, ratings, len(records))
    plt.close("all")


def test_crosstable_colours_rise_in_lightness_and_every_cell_text_is_readable():
    colormap = plt.get_cmap(CROSSTABLE_COLORMAP)
    values = np.linspace(0, 1, 101)
    luminance = [relative_luminance(colormap(v)) for v in values]
    assert np.all(np.diff(luminance) > 0)  # one lightness order, whatever the colour vision
    for v in values:
        background = colormap(v)
        assert contrast(text_color(background), background) >= 4.5  # WCAG AA
    assert text_color(colormap(0.0)) == "white" and text_color(colormap(1.0)) == "black"


def test_crosstable_cells_show_score_and_games(result):
    (ax, _) = crosstable_figure(result.ratings).axes
    cells = {text.get_text(): text.get_color() for text in ax.texts}
    assert len(cells) == len(result.ratings.crosstable)
    colormap = plt.get_cmap(CROSSTABLE_COLORMAP)
    for pair in result.ratings.crosstable.values():
        score = pair.points / pair.games
        label = f"{100 * score:.0f}%\n{pair.games} games"
        assert cells[label] == text_color(colormap(score))
    assert {pair.games for pair in result.ratings.crosstable.values()} == {4, 6, 8}


def test_lengths_histogram_has_a_title_and_sets_the_stall_stops_apart(result):
    (ax,) = lengths_figure(result).axes
    assert ax.get_title() == f"Game lengths: oware, {len(result.records)} games"
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert labels == ["ended by the rules", "stopped by the stall limit (90)"]
    rules, stall = ax.containers
    heights = [sum(patch.get_height() for patch in bars) for bars in (rules, stall)]
    assert heights == [len(result.records) - len(PAIRS), len(PAIRS)]
    markdown = _markdown(result)
    assert "stall_limit=90 plies" in markdown and f": 4 of {len(result.records)}." in markdown


HOSTILE = "alphabeta:depth=2\n![x](evil.png)\n# Heading\x1b[31m red | cell <script>`x`"


def test_text_from_a_suite_is_escaped_in_the_markdown_and_the_html(result, tmp_path):
    """A suite's search holding a Markdown image line (which crashed the HTML writer), a
    heading, an escape sequence, a table border and a tag shows as text, on its own line."""
    suite = read_suite(shipped_suite("oware"), "oware", {})
    config = TournamentConfig("oware", AGENTS, opening_suite=replace(suite, search=HOSTILE))
    hostile = replace(result, config=config)
    markdown, page = (path.read_text() for path in write_report(hostile, tmp_path))
    assert "\x1b" not in markdown + page and "<script>" not in page
    assert [line for line in markdown.splitlines() if line.startswith(("# ", "![", "|"))] == [
        line for line in _markdown(result).splitlines() if line.startswith(("# ", "![", "|"))
    ]  # no heading, picture or table row but the report's own
    assert page.count("<img") == 3 and page.count("<h1>") == 1 and "evil.png" in page
    shown = "alphabeta:depth=2\\n![x](evil.png)\\n# Heading\\x1b[31m red | cell <script>`x`"
    assert "rated even by " + html.escape(shown) + ")" in page


def swept() -> list[dict]:
    """Alpha-beta wins all 8 of its games; greedy and random split theirs."""
    found = []
    for a, b, winner, games in [(2, 0, 0, 4), (2, 1, 0, 4), (1, 0, 0, 2), (1, 0, 1, 2)]:
        for k in range(games):
            record = dict(
                zip(FIELDS, (AGENTS[a], AGENTS[b], 0, winner, "no_move", 30), strict=True)
            )
            found.append({**record, "variant": "oware", "options": {}, "seed": k, "moves": [k]})
    return found


def test_a_perfect_record_is_a_one_sided_bound_on_the_leaderboard_and_in_the_report():
    """An agent that won every game has no finite rating: the leaderboard shows the lower end
    of its interval as a bound, ``> +X  [+X, +inf)``, not the prior's number at the interval's
    upper end; one that lost every game ``< -X  (-inf, -X]``; a line says what the bound means,
    in the terminal and in the report."""
    config = TournamentConfig("oware", AGENTS, openings=0)
    records = swept()
    ratings = rate(records, AGENTS, bootstrap=200)
    best = ratings.standings[0]
    assert best.agent == "alphabeta:depth=1" and best.score == 1 and best.low < best.rating
    board = format_leaderboard(TournamentResult(config, Path("t.sqlite"), records, ratings, 16))
    low = f"{best.low:+.0f}"
    assert re.search(
        rf"^1  alphabeta:depth=1\s+> {re.escape(low)}  \[{re.escape(low)}, \+inf\)  100\.0%",
        board,
        re.M,
    )
    assert f"\n{PERFECT_RECORD_NOTE}\n" in board
    markdown = _markdown(TournamentResult(config, Path("t.sqlite"), records, ratings, 16))
    assert f"| 1 | alphabeta:depth=1 | > {low} | [{low}, +inf) |" in markdown
    assert f"\n{for_markdown(PERFECT_RECORD_NOTE)}.\n" in markdown
    (ax,) = ratings_figure(ratings).axes
    marks = {line.get_marker(): line.get_xdata()[0] for line in ax.lines if line.get_marker()}
    assert marks[">"] == best.low  # the bound, pointing to the open side, not the prior's fit


def test_a_record_lost_every_game_is_a_bound_from_above(result):
    last = result.ratings.standings[-1]
    assert last.agent == "random" and last.score == 0
    high = f"{last.high:+.0f}"
    assert re.search(
        rf"^3  random\s+< {re.escape(high)}  \(-inf, {re.escape(high)}\]",
        format_leaderboard(result),
        re.M,
    )
