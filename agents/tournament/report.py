"""The leaderboard for the terminal, and the Markdown and HTML reports with their plots.

Text that comes from outside (agent names, an opening suite's search, paths) is escaped for
where it is shown (`mancala_env.escaping`): the HTML page is made from the Markdown, whose own
lines are the only structure it finds."""

from __future__ import annotations

import base64
import html
import io
import math
import re
from pathlib import Path

import numpy as np

from mancala_env.escaping import for_markdown, for_terminal, markdown_literal
from mancala_env.outputs import HTML_PAGE, MARKDOWN_PAGE, PNG_PICTURE, FileKind, write_atomically
from mancala_env.variants import get_variant

from ..accuracy import format_table
from .endgames import EndgameAccuracy
from .ratings import PERFECT_RECORD_NOTE, Ratings, elo_cells
from .repeats import repeat_warning
from .runner import TournamentResult
from .schedule import describe_openings


def leaderboard_rows(ratings: Ratings) -> list[list[str]]:
    """Rank, agent, Elo, 95% interval, score, W-D-L, games, likelihood of superiority (a
    perfect record's Elo a bound: `elo_cells`)."""
    rows = []
    for rank, s in enumerate(ratings.standings, 1):
        rating, interval = elo_cells(s.rating, s.low, s.high, s.score)
        if s.agent in ratings.anchors:  # held at its rating, whatever its record
            rating, interval = "-" if math.isnan(s.rating) else f"{s.rating:+.0f}", "anchor"
        los = "" if s.superiority is None else f"{100 * s.superiority:.0f}%"
        rows.append(
            [
                str(rank),
                s.agent,
                rating,
                interval,
                f"{100 * s.score:.1f}%",
                f"{s.wins}-{s.draws}-{s.losses}",
                str(s.games),
                los,
            ]
        )
    return rows


# the files a report writes in its folder, and their kinds (the command line checks them first)
REPORT_FILES: dict[str, FileKind] = {
    "report.md": MARKDOWN_PAGE,
    "report.html": HTML_PAGE,
    "ratings.png": PNG_PICTURE,
    "crosstable.png": PNG_PICTURE,
    "lengths.png": PNG_PICTURE,
}
HEADER = ["#", "agent", "Elo", "95% interval", "score", "W-D-L", "games", "LOS next"]
NASH_HEADER = ["#", "agent", "Nash average", "mass"]


def bound_note(ratings: Ratings) -> str | None:
    """What a bound in the Elo column means, when the leaderboard shows one."""
    shown = any(row[2].startswith(("<", ">")) for row in leaderboard_rows(ratings))
    return PERFECT_RECORD_NOTE if shown else None


def scale_note(ratings: Ratings) -> str:
    """What fixes the Elo scale: the anchors, or the field's mean."""
    if not ratings.anchors:
        return "the agents' mean at 0"
    return "anchored to " + ", ".join(f"{a}={r:g}" for a, r in ratings.anchors.items())


def nash_rows(ratings: Ratings) -> list[list[str]]:
    """Rank, agent, Nash average, mass in the maximum-entropy equilibrium."""
    if ratings.nash is None:
        return []
    return [
        [str(rank), agent, f"{average:+.3f}", f"{mass:.3f}"]
        for rank, (agent, mass, average) in enumerate(ratings.nash.ranking(_by_agent(ratings)), 1)
    ]


def _by_agent(ratings: Ratings) -> dict[str, float]:
    return {s.agent: s.rating for s in ratings.standings}


NASH_NOTE = (
    "Nash averaging: each agent's expected score margin (2 score - 1) against the "
    "maximum-entropy Nash equilibrium of the crosstable's zero-sum meta-game (0 for each agent "
    "the equilibrium plays, below 0 for the others) and its mass in that equilibrium; a copy "
    "of an agent, or a weak agent beaten by a wider margin, moves neither"
)
NASH_MISSING = "Nash averaging: not given, as some pairs of agents did not meet (a gauntlet)"


def _table(rows: list[list[str]], name_column: int = 1) -> list[str]:
    """`rows` (a header first) as aligned text, the name column to the left."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.ljust(w) if c == name_column else cell.rjust(w)
            for c, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def format_leaderboard(result: TournamentResult) -> str:
    """The leaderboard, the crosstable and the first mover's score as terminal text."""
    ratings = result.ratings
    lines = [
        f"{result.config.variant}: {ratings.games} games ({result.distinct} distinct), "
        f"{len(result.config.agents)} agents",
        for_terminal(describe_openings(result.config)),
        *filter(None, [repeat_warning(ratings.games, result.distinct)]),
        f"Bradley-Terry ratings (Elo scale, {for_terminal(scale_note(ratings))}):",
        *_table([HEADER, *_named(leaderboard_rows(ratings), for_terminal)]),
        *filter(None, [bound_note(ratings)]),
        "",
    ]
    if ratings.nash is None:
        lines.append(NASH_MISSING)
    else:
        lines += [
            "Nash averaging (score margin against the maximum-entropy Nash equilibrium of the "
            "crosstable, and mass in it):",
            *_table([NASH_HEADER, *_named(nash_rows(ratings), for_terminal)]),
        ]
    lines += ["", "crosstable (row's score against column, W-D-L):"]
    agents = [s.agent for s in ratings.standings]
    name_width = max(len(for_terminal(a)) for a in agents)
    for a in agents:
        cells = []
        for b in agents:
            pair = ratings.crosstable.get((a, b))
            cells.append(
                ""
                if pair is None
                else f"{for_terminal(b)}: {pair.points:g}/{pair.games} "
                f"({pair.wins}-{pair.draws}-{pair.losses})"
            )
        lines.append(f"  {for_terminal(a).ljust(name_width)}  " + "; ".join(c for c in cells if c))
    low, high = ratings.first_mover_interval
    lines += [
        "",
        f"first mover's score: {100 * ratings.first_mover_score:.1f}% "
        f"(95% interval {100 * low:.1f}-{100 * high:.1f}%) over {ratings.first_mover_games} games",
    ]
    if result.endgames is not None:
        agents = [s.agent for s in ratings.standings]
        labelled = [(for_terminal(agent), result.endgames.rows[agent]) for agent in agents]
        lines += [
            "",
            f"{endgame_note(result.endgames)}:",
            format_table("agent", labelled, "moves", "<"),
        ]
    return "\n".join(lines)


def endgame_note(endgames: EndgameAccuracy) -> str:
    """What the endgame accuracy table counts."""
    return (
        f"endgame accuracy: each agent's moves with a choice in positions of at most "
        f"{endgames.max_seeds} seeds on the board, "
        f"scored by {for_terminal(str(endgames.directory))}"
    )


def _named(rows: list[list[str]], escape) -> list[list[str]]:
    """Table rows whose second cell, an agent's name, is escaped with `escape`."""
    return [[row[0], escape(row[1]), *row[2:]] for row in rows]


ENDGAME_HEADER = [
    "agent",
    "moves",
    "keeps value",
    "95% interval",
    "seeds lost a move",
    "95% interval",
]


def endgame_rows(endgames: EndgameAccuracy, agents: list[str]) -> list[list[str]]:
    """The endgame accuracy table's rows, one an agent in `agents`' order."""
    rows = []
    for agent in agents:
        row = endgames.rows[agent]
        if row is None:
            rows.append([agent, "0", "-", "-", "-", "-"])
            continue
        rows.append(
            [
                agent,
                str(row.positions),
                f"{row.keeps_value:.3f}",
                f"{row.keeps_low:.3f}-{row.keeps_high:.3f}",
                f"{row.seeds_lost:.3f}",
                f"{row.lost_low:.3f}-{row.lost_high:.3f}",
            ]
        )
    return rows


def _endgame_markdown(result: TournamentResult, agents: list[str]) -> list[str]:
    endgames = result.endgames
    if endgames is None:
        return []
    rows = [[for_markdown(row[0]), *row[1:]] for row in endgame_rows(endgames, agents)]
    table = [ENDGAME_HEADER, ["---"] * len(ENDGAME_HEADER), *rows]
    return [
        "## Endgame accuracy",
        "",
        f"Scored by the endgame database {for_markdown(str(endgames.directory))} "
        f"(boards of at most {endgames.max_seeds} seeds): each agent's moves, in its own "
        "games, in the positions the database covers where it had a choice (the opening lines "
        "left out). Keeps value: the share of moves that keep the position's perfect value "
        "(95% Wilson interval); seeds lost a move: the mean seeds given away against best play "
        "(95% bootstrap interval).",
        "",
        *("| " + " | ".join(row) + " |" for row in table),
        "",
    ]


CROSSTABLE_COLORMAP = "cividis"  # lightness rises steadily: readable with any colour vision
STALL_NOTE = (
    "Games stopped because no seed left the board for stall_limit={limit} plies (the agreed "
    "stop of a chase that never captures) form the cluster at the long end: {stalls} of {games}."
)


def _crosstable_matrix(ratings: Ratings) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The agents in rank order, each row's score against each column, and the games played."""
    agents = [s.agent for s in ratings.standings]
    scores = np.full((len(agents), len(agents)), np.nan)
    games = np.zeros((len(agents), len(agents)), dtype=int)
    for (a, b), pair in ratings.crosstable.items():
        i, j = agents.index(a), agents.index(b)
        scores[i, j], games[i, j] = pair.points / pair.games, pair.games
    return agents, scores, games


def relative_luminance(rgb: tuple[float, ...]) -> float:
    """WCAG 2's relative luminance of an sRGB colour with channels in 0..1."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def text_color(background: tuple[float, ...]) -> str:
    """Black or white, whichever contrasts more with `background` (WCAG's contrast ratio: the
    two are equal at a luminance of about 0.179)."""
    luminance = relative_luminance(background)
    return "black" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "white"


def _stall_limit(result: TournamentResult) -> int:
    config = result.config
    return get_variant(config.variant).options(**config.options).stall_limit


def stall_note(result: TournamentResult) -> str:
    """Why game lengths have a second cluster: how many games the stall limit stopped."""
    stalls = sum(r["end_reason"] == "stall" for r in result.records)
    return STALL_NOTE.format(limit=_stall_limit(result), stalls=stalls, games=len(result.records))


def crosstable_figure(ratings: Ratings):
    """The crosstable heatmap: each cell the row's score against the column and its games."""
    import matplotlib.pyplot as plt

    agents, scores, games = _crosstable_matrix(ratings)
    colormap = plt.get_cmap(CROSSTABLE_COLORMAP)
    fig, ax = plt.subplots(figsize=(1.2 * len(agents) + 3, 1.0 * len(agents) + 2))
    image = ax.imshow(scores, cmap=colormap, vmin=0, vmax=1)
    ax.set_xticks(range(len(agents)), agents, rotation=30, ha="right")
    ax.set_yticks(range(len(agents)), agents)
    for i, j in zip(*np.nonzero(~np.isnan(scores)), strict=True):
        label = f"{100 * scores[i, j]:.0f}%\n{games[i, j]} games"
        color = text_color(colormap(scores[i, j]))
        ax.text(j, i, label, ha="center", va="center", color=color, fontsize=9)
    ax.set_title("Crosstable: score of row against column")
    fig.colorbar(image, ax=ax, label="score of row against column")
    return fig


def ratings_figure(ratings: Ratings):
    """Each agent's rating with its 95% interval; a perfect record's as the leaderboard gives
    it (`elo_cells`): a triangle at its bound pointing to the open side."""
    import matplotlib.pyplot as plt

    rows = zip(ratings.standings, leaderboard_rows(ratings), strict=True)
    shown = [(s, row[2]) for s, row in rows if not math.isnan(s.rating)][::-1]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(shown) + 1.5))
    for y, (s, elo) in enumerate(shown):
        bound = elo[0]
        if bound in "<>":
            edge = s.low if bound == ">" else s.high
            ax.plot([edge], [y], marker=bound, markersize=9, color="C0", linestyle="none")
        else:
            errors = [[s.rating - s.low], [s.high - s.rating]]
            ax.errorbar([s.rating], [y], xerr=errors, fmt="o", capsize=4, color="C0")
    ax.set_yticks(range(len(shown)), [s.agent for s, _ in shown])
    ax.set_xlabel(
        f"Elo ({scale_note(ratings)}), 95% bootstrap interval; a triangle: a bound (a record "
        "of every game won or lost)"
    )
    ax.grid(axis="x", alpha=0.3)
    return fig


def lengths_figure(result: TournamentResult):
    """Game lengths, the games the stall limit stopped stacked apart from the others."""
    import matplotlib.pyplot as plt

    lengths = np.array([r["length"] for r in result.records])
    stalled = np.array([r["end_reason"] == "stall" for r in result.records], dtype=bool)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(
        [lengths[~stalled], lengths[stalled]],
        bins=np.histogram_bin_edges(lengths, bins=30),
        stacked=True,
        color=plt.get_cmap(CROSSTABLE_COLORMAP)([0.15, 0.85]),
        label=["ended by the rules", f"stopped by the stall limit ({_stall_limit(result)})"],
    )
    ax.set_title(f"Game lengths: {result.config.variant}, {len(lengths)} games")
    ax.set_xlabel("game length (plies)")
    ax.set_ylabel("games")
    ax.legend()
    return fig


def _plots(result: TournamentResult) -> dict[str, bytes]:
    """PNG images: ratings with their intervals, the crosstable heatmap, game lengths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = result.ratings
    images = {"ratings.png": _png(ratings_figure(ratings))}
    images["crosstable.png"] = _png(crosstable_figure(ratings))
    images["lengths.png"] = _png(lengths_figure(result))
    plt.close("all")
    return images


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def _markdown(result: TournamentResult) -> str:
    config, ratings = result.config, result.ratings
    table = [HEADER, ["---"] * len(HEADER), *_named(leaderboard_rows(ratings), for_markdown)]
    agents = [s.agent for s in ratings.standings]
    cross = [["", *map(for_markdown, agents)], ["---"] * (len(agents) + 1)]
    for a in agents:
        row = [for_markdown(a)]
        for b in agents:
            pair = ratings.crosstable.get((a, b))
            row.append(
                ""
                if pair is None
                else f"{pair.points:g}/{pair.games} ({pair.wins}-{pair.draws}-{pair.losses})"
            )
        cross.append(row)
    low, high = ratings.first_mover_interval
    lengths = [r["length"] for r in result.records]
    options = ", ".join(f"{k}={v}" for k, v in config.options.items()) or "the defaults"
    warning = repeat_warning(ratings.games, result.distinct)
    lines = [
        f"# Tournament: {config.variant}",
        "",
        f"{ratings.games} games ({result.distinct} distinct), {config.format}, "
        f"{config.games_per_pair} games per pair, seed {config.seed}; "
        f"rule options: {options}. Store: {for_markdown(str(result.db))}, "
        f"tournament `{config.key}`.",
        "",
        f"{for_markdown(_sentence(describe_openings(config)))}.",
        "",
        *([f"**{warning}**", ""] if warning else []),
        "## Leaderboard",
        "",
        f"Bradley-Terry ratings on the Elo scale ({for_markdown(scale_note(ratings))}), draws "
        "counted as "
        "half a win, 95% bootstrap intervals (an anchor's rating is fixed); LOS next: "
        "likelihood that the agent is stronger than the next.",
        "",
        *("| " + " | ".join(row) + " |" for row in table),
        "",
        *([f"{for_markdown(bound_note(ratings))}.", ""] if bound_note(ratings) else []),
        "![ratings](ratings.png)",
        "",
        *_nash_markdown(ratings),
        "## Crosstable",
        "",
        "Score of the row's agent against the column's, with wins-draws-losses.",
        "",
        *("| " + " | ".join(row) + " |" for row in cross),
        "",
        "![crosstable](crosstable.png)",
        "",
        "## Seats and game length",
        "",
        f"The player who moved first scored {100 * ratings.first_mover_score:.1f}% "
        f"(95% interval {100 * low:.1f}-{100 * high:.1f}%) over {ratings.first_mover_games} games.",
        "",
        f"Game length: median {np.median(lengths):.0f} plies, shortest {min(lengths)}, "
        f"longest {max(lengths)}. {stall_note(result)}",
        "",
        "![game lengths](lengths.png)",
        "",
        *_endgame_markdown(result, agents),
    ]
    return "\n".join(lines)


_CELL_BORDER = re.compile(r"(?<!\\)\|")  # a table's | that is not an escaped one
_CODE_MARK = re.compile(r"(?<!\\)`")


def _text(markdown: str) -> str:
    """A line of the report's Markdown as HTML text: code marks dropped, escapes undone."""
    return html.escape(markdown_literal(_CODE_MARK.sub("", markdown)))


def _sentence(text: str) -> str:
    """`text` with its first letter a capital (``str.capitalize`` would lower the rest)."""
    return text[:1].upper() + text[1:]


def _nash_markdown(ratings: Ratings) -> list[str]:
    if ratings.nash is None:
        return [f"{NASH_MISSING}.", ""]
    table = [NASH_HEADER, ["---"] * len(NASH_HEADER), *_named(nash_rows(ratings), for_markdown)]
    return [
        "## Nash averaging",
        "",
        f"{NASH_NOTE}.",
        "",
        *("| " + " | ".join(row) + " |" for row in table),
        "",
    ]


def _html(markdown: str, images: dict[str, bytes]) -> str:
    """A self-contained page: the Markdown's tables and text, the plots inlined."""
    body = []
    in_table = False
    for line in markdown.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in _CELL_BORDER.split(line.strip()[1:-1])]
            if set("".join(cells)) <= {"-"}:
                continue
            tag = "th" if not in_table else "td"
            if not in_table:
                body.append("<table>")
                in_table = True
            body.append("<tr>" + "".join(f"<{tag}>{_text(c)}</{tag}>" for c in cells) + "</tr>")
            continue
        if in_table:
            body.append("</table>")
            in_table = False
        image = re.fullmatch(r"!\[[^\]]*\]\(([\w.]+)\)", line)
        if image and image[1] in images:  # the report's own pictures, nothing else
            data = base64.b64encode(images[image[1]]).decode()
            body.append(
                f'<p><img alt="{html.escape(image[1])}" src="data:image/png;base64,{data}"></p>'
            )
        elif line.startswith("## "):
            body.append(f"<h2>{_text(line[3:])}</h2>")
        elif line.startswith("# "):
            body.append(f"<h1>{_text(line[2:])}</h1>")
        elif line:
            body.append(f"<p>{_text(line)}</p>")
    if in_table:
        body.append("</table>")
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em}"
    )
    title = _text(markdown.splitlines()[0].lstrip("# "))
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def write_report(
    result: TournamentResult, folder: str | Path, replace: bool = False
) -> tuple[Path, Path]:
    """Write report.md (with its PNG plots beside it) and a self-contained report.html: the
    files of `REPORT_FILES`, each replacing an existing file of another kind only when
    `replace` (`mancala_env.outputs.write_atomically`)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    images = _plots(result)
    markdown = _markdown(result)
    page = _html(markdown, images)
    files = {**images, "report.md": markdown.encode(), "report.html": page.encode()}
    for name, content in files.items():
        write_atomically(folder / name, content, REPORT_FILES[name], replace)
    return folder / "report.md", folder / "report.html"
