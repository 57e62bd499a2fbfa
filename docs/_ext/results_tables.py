"""The documentation's measured tables, rendered from the files the benchmarks wrote.

Each table says where its numbers come from: the results file, and the date, machine and
command the file records (or that it records none of them), so no number is typed by hand.
"""

from __future__ import annotations

import collections
import importlib.util
import itertools
import statistics
from pathlib import Path
from typing import Any

from mancala_env.agents.accuracy import MIN_SEEDS
from mancala_env.agents.network import SAME_RULES
from mancala_env.agents.tournament.ratings import elo_cells
from mancala_env.readers import parse_json, read_bytes
from mancala_env.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
NOT_RECORDED = "not recorded in the file"
MAX_RESULTS_BYTES = 4 * 2**20  # the largest results file holds under 200 kB


def _read_json(path: Path) -> Any:
    """A results file's record, read bounded in size and nesting like every file the suite reads."""
    return parse_json(read_bytes(path, MAX_RESULTS_BYTES), path)


def _read_lines(path: Path) -> list[Any]:
    """A results file of one JSON record a line (a training curve)."""
    text = read_bytes(path, MAX_RESULTS_BYTES).decode()
    return [parse_json(line, path) for line in text.splitlines() if line.strip()]


def _workers(count: int) -> str:
    return f"{count} worker" if count == 1 else f"{count} workers"


def _provenance(path: Path, record: dict, writer: str) -> str:
    """Where a table's numbers come from: the file, its writer, and its date, machine and
    command as far as the file records them."""
    name = path.relative_to(ROOT).as_posix()
    return f"From `{name}`, written by {writer} ({'; '.join(_fields(record))}).\n"


def _fields(record: dict) -> list[str]:
    """A record's date, machine and command, each as far as the record holds it."""
    return [
        f"date: {record.get('date', NOT_RECORDED)}",
        f"machine: {record.get('machine', NOT_RECORDED)}",
        f"command: `{record['command']}`" if "command" in record else f"command: {NOT_RECORDED}",
    ]


def _interval(score: float, low: float, high: float) -> str:
    return f"{score:.3f} ({low:.3f}–{high:.3f})"


SEARCH_TARGET = 0.6  # a network searching 0.1 s a move against alpha-beta at the same time
NO_SEARCH_TARGET = ("oware", "alphabeta:depth=4", 0.60)  # Oware's network alone past depth 4


def _target(score: float, target: float) -> str:
    if score >= target:
        return f"target {target:.2f}: met"
    return f"target {target:.2f}: missed by {target - score:.3f}"


def _network_strength(variant: str, path: Path) -> list[str]:
    """A network's section of the strength page: without search against every baseline,
    searching against alpha-beta at equal time, and its training run."""
    record = _read_json(path)
    network = ROOT / "agents" / "networks" / f"{record['network']}.npz"
    size = f"{network.stat().st_size / 1e6:.1f} MB" if network.is_file() else "not shipped"
    lines = [
        f"## `az:{record['network']}` ({variant})\n",
        _provenance(path, record, "`benchmarks/az_strength.py`"),
        f"Seed {record['seed']}, {_workers(record['workers'])}, {record['seconds']} s; "
        f"the network's file: {size}.\n",
    ]
    goal_variant, goal_opponent, goal = NO_SEARCH_TARGET
    targeted = variant == goal_variant and goal_opponent in record["no_search"]
    counts = {games for *_, games in record["no_search"].values()}
    same = f"{counts.pop()} games against each, " if len(counts) == 1 else ""  # not a column
    lines += [
        f"Without search (`az:{record['network']}`, its most likely legal move), {same}from "
        "random four-move lines:\n",
        "| against |"
        + ("" if same else " games |")
        + " score (95% interval) |"
        + (" target |" if targeted else ""),
        "|---|---|" + ("" if same else "---|") + ("---|" if targeted else ""),
    ]
    for opponent, (score, low, high, games) in record["no_search"].items():
        note = _target(score, goal) if opponent == goal_opponent else ""
        played = "" if same else f" {games} |"
        cells = f"`{opponent}` |{played} {_interval(score, low, high)}"
        lines.append(f"| {cells} |" + (f" {note} |" if targeted else ""))
    search = record["search"]
    openings = record.get("search_openings", "random lines")
    if search["scores"]:
        lines += [
            f"\nSearching 0.1 s a move (`{search['learner']}`; openings: {openings}):\n",
            "| against | games | score (95% interval) | target |",
            "|---|---|---|---|",
        ]
    for opponent, (score, low, high, games) in search["scores"].items():
        lines.append(
            f"| `{opponent}` | {games} | {_interval(score, low, high)} "
            f"| {_target(score, SEARCH_TARGET)} |"
        )
    for added in record.get("added", []):
        opponents = ", ".join(f"`{opponent}`" for opponent in added["opponents"])
        lines.append(
            f"\nThe rows against {opponents} were added later ({'; '.join(_fields(added))}; "
            f"seed {added['seed']}, {_workers(added['workers'])}, {added['seconds']} s)."
        )
    accuracy = RESULTS / f"endgame_accuracy_{variant}.json"
    scored = _read_json(accuracy) if accuracy.is_file() else {"agents": {}}
    if f"az:{record['network']}" in scored["agents"]:
        lines += ["\nIts moves scored by the endgame database:\n"]
        lines += _accuracy_section(accuracy, scored)
    stages = _training_stages(variant)
    if stages:
        files = ", ".join(f"`{path.relative_to(ROOT).as_posix()}`" for path, _ in stages)
        ends = [rows[-1] for _, rows in stages]
        positions = sum(end["positions"] for end in ends)
        generations = sum(end["generation"] for end in ends)
        minutes = sum(end["seconds"] for end in ends) / 60
        runs = "the run's evaluations" if len(stages) == 1 else f"{len(stages)} runs' evaluations"
        staged = "" if len(stages) == 1 else f" in {len(stages)} stages"
        every_row = [row for _, rows in stages for row in rows]
        lines.append(
            f"\nTraining ({files}, {runs}): {positions:,} labelled positions in {generations} "
            f"generations{staged}, {minutes:.0f} minutes of training time; machine: "
            f"{_machines(every_row)}."
        )
    return lines


# az_VARIANT_training{stage}.jsonl: a run, then the runs each started from the one before (--init)
TRAINING_STAGES = ("", "_continued", "_self_play")


def _training_stages(variant: str) -> list[tuple[Path, list[dict]]]:
    """A network's training runs, each with its evaluations: the first, then the run started
    from its network (``--init``), as far as their files exist."""
    paths = [RESULTS / f"az_{variant}_training{stage}.jsonl" for stage in TRAINING_STAGES]
    return [(path, _read_lines(path)) for path in paths if path.is_file()]


def _machines(rows: list[dict]) -> str:
    """The machines a training run's evaluations name, in order, each stint once (runs from
    before they named one record none)."""
    named = [row.get("machine", NOT_RECORDED) for row in rows]
    return "; then ".join(machine for machine, _ in itertools.groupby(named))


SUMMARY_NO_SEARCH = "alphabeta:depth=4"  # the summary's opponent of a network without search
SUMMARY_SEARCH = "alphabeta:time=0.1"  # and of one searching 0.1 s a move


def measured_networks() -> list[str]:
    """The rule sets whose network has a strength file (``az_VARIANT.json``)."""
    return [v for v in sorted(VARIANTS) if (RESULTS / f"az_{v}.json").is_file()]


def strength_scores() -> dict[str, dict[str, list[float] | None]]:
    """Each measured network's score (score, low, high, games) without search against
    `SUMMARY_NO_SEARCH` and searching against `SUMMARY_SEARCH` (None where not measured)."""
    scores = {}
    for variant in measured_networks():
        record = _read_json(RESULTS / f"az_{variant}.json")
        scores[variant] = {
            "no_search": record["no_search"].get(SUMMARY_NO_SEARCH),
            "search": record["search"]["scores"].get(SUMMARY_SEARCH),
        }
    return scores


def strength_summary() -> str:
    """One row a network: its score without search and searching, against the opponents of
    the targets; the detail, with each file's date, machine and command, is below it."""
    lines = [
        "From `benchmarks/results/az_RULE_SET.json`, written by `benchmarks/az_strength.py`; "
        "each network's section below gives its file's date, machine and command. Scores with "
        "95% intervals.\n",
        f"| network | no search against `{SUMMARY_NO_SEARCH}` | searching 0.1 s a move against "
        f"`{SUMMARY_SEARCH}` | target {SEARCH_TARGET:.2f} |",
        "|---|---|---|---|",
    ]
    not_measured = "not measured"
    for variant, scores in strength_scores().items():
        plain, search = scores["no_search"], scores["search"]
        lines.append(
            f"| [`az:{variant}`](#az{variant}-{variant}) "
            f"| {_interval(*plain[:3]) if plain else not_measured} "
            f"| {_interval(*search[:3]) if search else not_measured} "
            f"| {_target(search[0], SEARCH_TARGET).split(': ')[1] if search else not_measured} |"
        )
    return "\n".join(lines) + "\n"


def strength() -> str:
    """Every network with a strength file (``az_VARIANT.json``), rule set by rule set."""
    measured = measured_networks()
    sections = [_network_strength(v, RESULTS / f"az_{v}.json") for v in measured]
    shared = {alias: owner for alias, owner in SAME_RULES.items() if owner in measured}
    if shared:
        sections.append(
            ["## Rule sets that play another's network\n"]
            + [
                f"- `az:{alias}` is `az:{owner}`: {VARIANTS[alias].title} plays "
                f"{VARIANTS[owner].title}'s rules, so its strength is the one above."
                for alias, owner in sorted(shared.items())
            ]
        )
    missing = [f"`{v}`" for v in sorted(VARIANTS) if v not in measured and v not in shared]
    if missing:
        sections.append(["## Not measured yet\n", f"No measured network: {', '.join(missing)}."])
    return "\n\n".join("\n".join(section) for section in sections) + "\n"


def az_training() -> str:
    """The Oware network's score against alpha-beta of each depth during its training runs."""
    stages = _training_stages("oware")
    opponents = list(stages[0][1][0]["scores"])
    lines = [
        *(
            _provenance(
                path,
                {"machine": rows[-1]["machine"]} if "machine" in rows[-1] else {},
                f"stage {number}'s evaluations (`mancala train --algo az`)",
            )
            for number, (path, rows) in enumerate(stages, start=1)
        ),
        "The network's score without search against each opponent (`alphabeta:depth=N` as "
        "depth N); a stage's number on its first row.\n",
        "| stage | generation | positions | seconds | "
        + " | ".join(_opponent_column(o) for o in opponents)
        + " |",
        "|---|---|---|---|" + "---|" * len(opponents),
    ]
    for number, (_, rows) in enumerate(stages, start=1):
        for index, row in enumerate(rows):
            scores = " | ".join(f"{row['scores'][o][0]:.3f}" for o in opponents)
            generation, positions = row["generation"], row["positions"]
            stage = number if index == 0 else ""
            lines.append(
                f"| {stage} | {generation} | {positions:,} | {row['seconds']} | {scores} |"
            )
    return "\n".join(lines) + "\n"


def _opponent_column(opponent: str) -> str:
    """A column's heading for `opponent`: alpha-beta of a depth as "depth N", others as given."""
    depth = opponent.removeprefix("alphabeta:depth=")
    return f"depth {depth}" if depth != opponent else f"`{opponent}`"


def endgame_build() -> str:
    """Building Oware's endgame database, seed count by seed count."""
    path = RESULTS / "endgame_build.json"
    build = _read_json(path)["build"]
    lines = [
        _provenance(path, build, "the database build (`mancala solve`)"),
        f"Measured with: {build['measured_with']}.\n",
        "| at most seeds | boards | on disk (MB) | wall (s) | CPU (s) | peak memory (GB) |",
        "|---|---|---|---|---|---|",
    ]
    for level in build["levels"]:
        lines.append(
            f"| {level['max_seeds']} | {level['boards_total']:,} "
            f"| {level['bytes_on_disk'] / 1e6:,.1f} | {level['wall_s']} | {level['cpu_s']} "
            f"| {level['peak_rss_bytes'] / 1e9:.2f} |"
        )
    return "\n".join(lines) + "\n"


def endgame_accuracy() -> str:
    """The baselines' moves scored by the 25-seed database, positions of 17 to 25 seeds."""
    path = RESULTS / "endgame_build.json"
    accuracy = _read_json(path)["accuracy"]
    lines = [
        _provenance(path, accuracy, "`mancala accuracy`"),
        f"Pooled: {accuracy['pooled_17_25']}.\n",
        *_accuracy_table({a: r["pooled_17_25"] for a, r in accuracy["agents"].items()}),
    ]
    return "\n".join(lines) + "\n"


def _accuracy_table(pooled: dict[str, dict]) -> list[str]:
    """Each agent's pooled accuracy (`mancala accuracy`'s fields) as a table's lines; the
    positions scored, when every agent's are as many, said once above it."""
    counts = {row["positions"] for row in pooled.values()}
    columns = ["agent", "positions", "keeps the value (95%)", "seeds lost a move (95%)"]
    above = []
    if len(counts) == 1:
        above = [f"Each agent's moves in {next(iter(counts)):,} positions:\n"]
        columns.remove("positions")
    lines = [*above, f"| {' | '.join(columns)} |", "|---" * len(columns) + "|"]
    for agent, row in pooled.items():
        keeps = _interval(row["keeps_value"], row["keeps_low"], row["keeps_high"])
        lost = _interval(row["seeds_lost"], row["lost_low"], row["lost_high"])
        cells = [f"`{agent}`", *([str(row["positions"])] if not above else []), keeps, lost]
        lines.append(f"| {' | '.join(cells)} |")
    return lines


def endgame_build_ayoayo() -> str:
    """Building Ayoayo's endgame database, a run a seed count."""
    path = RESULTS / "endgame_build_ayoayo.json"
    record = _read_json(path)
    lines = [
        _provenance(path, record, "`benchmarks/endgame_build_ayoayo.py`"),
        f"Measured with: {record['measured_with']}.\n",
        "| seed counts solved | settling passes (-1: all the stall limit's) | boards the last "
        "pass changed | on disk, all counts (MB) | wall (s) | CPU (s) | peak memory (GB) |",
        "|---|---|---|---|---|---|---|",
    ]
    for run in record["runs"]:
        solved = run["seed_counts_solved"]
        counts = f"{solved[0]}–{solved[-1]}" if len(solved) > 1 else str(solved[0])
        passes = ", ".join(str(p) for p in run["settling_passes"].values())
        changed = ", ".join(str(c) for c in run["changed_by_the_last_pass"].values())
        lines.append(
            f"| {counts} | {passes} | {changed} | {run['bytes_on_disk'] / 1e6:,.2f} "
            f"| {run['wall_s']} | {run['cpu_s']} | {run['peak_rss_bytes'] / 1e9:.2f} |"
        )
    return "\n".join(lines) + "\n"


def endgame_accuracy_ayoayo() -> str:
    """Ayoayo's agents scored by its database, all seed counts pooled."""
    path = RESULTS / "endgame_accuracy_ayoayo.json"
    return "\n".join(_accuracy_section(path, _read_json(path))) + "\n"


def _accuracy_section(path: Path, record: dict) -> list[str]:
    """A rule set's agents scored by its database (`benchmarks/endgame_accuracy.py`), all seed
    counts pooled, with what measured each agent and how long it took."""
    measured: dict[tuple[str, ...], list[str]] = {}
    for spec, scores in record["agents"].items():
        database = scores.get("database")
        how = (
            *_fields(scores),
            f"a database of {database}" if database else f"database: {NOT_RECORDED}",
        )
        took = f" ({scores['seconds']} s)" if "seconds" in scores else ""
        measured.setdefault(how, []).append(f"`{spec}`{took}")
    return [
        f"From `{path.relative_to(ROOT).as_posix()}`, written by "
        f"`benchmarks/endgame_accuracy.py`: {record['positions']} positions of {MIN_SEEDS} to "
        f"{record['max_seeds']} seeds (seed {record['seed']}), spread evenly over the seed "
        "counts, the same for every agent.\n",
        *(f"- {', '.join(specs)}: {'; '.join(how)}." for how, specs in measured.items()),
        "",
        *_accuracy_table({spec: scores["rows"][-1] for spec, scores in record["agents"].items()}),
    ]


def layout_tricks() -> str:
    """Moves a second with and without the engine's two layout tricks, by rule set and row."""
    path = RESULTS / "layout_tricks.json"
    record = _read_json(path)
    combinations = list(next(iter(next(iter(record["rates"].values())).values())))
    lines = [
        _provenance(path, record, "`benchmarks/layout_tricks.py`"),
        f"Measured on commit `{record['commit']}`.\n",
        "| rule set | row | " + " | ".join(combinations) + " |",
        "|---|---|" + "---|" * len(combinations),
    ]
    for variant, rows in record["rates"].items():
        for row, rates in rows.items():
            cells = " | ".join(f"{rates[c]:,}" for c in combinations)
            lines.append(f"| `{variant}` | {row} | {cells} |")
    return "\n".join(lines) + "\n"


def limits() -> str:
    """Each rule set's one-core engine against its family's C loop, run by run."""
    record = limits_record()
    lines = [
        _provenance(RESULTS / "limits.json", record, "`benchmarks/limits.py`"),
        f"{record['rounds']} runs; load average {record['load_average_before_and_after'][0]} "
        f"before and {record['load_average_before_and_after'][1]} after.\n",
    ]
    variants = list(record["summary"])
    lines += [
        "| run | "
        + " | ".join(
            f"`{v}` engine | `{record['summary'][v]['loop']}` loop | ratio" for v in variants
        )
        + " |",
        "|---|" + "---|---|---|" * len(variants),
    ]
    for number, run in enumerate(record["runs"], 1):
        cells = " | ".join(
            f"{run[v]['engine_1_core']:,} | {run[v]['loop_moves_per_s']:,} | {run[v]['ratio']:.3f}"
            for v in variants
        )
        lines.append(f"| {number} | {cells} |")
    medians = " | ".join(
        f" | | **{record['summary'][v]['ratio_median']:.3f}** ({record['summary'][v]['target']})"
        for v in variants
    )
    lines.append(f"| median (target) |{medians} |")
    return "\n".join(lines) + "\n"


def limits_record() -> dict:
    """`benchmarks/limits.py`'s record: each rule set's engine against its family's C loop."""
    return _read_json(RESULTS / "limits.json")


def median_rates(record: dict, variant: str) -> tuple[float, float]:
    """The engine's and the C loop's moves a second for `variant`, each the median run's."""
    return (
        statistics.median(run[variant]["engine_1_core"] for run in record["runs"]),
        statistics.median(run[variant]["loop_moves_per_s"] for run in record["runs"]),
    )


def _loop_flags(record: dict) -> str:
    """The compiler flags the record's C loops were built with (a record from before the runs
    kept them: "flags not recorded")."""
    flags = sorted({row["loop_flags"] for run in record["runs"] for row in run.values()
                    if "loop_flags" in row})  # fmt: skip
    return " / ".join(f"`{flag}`" for flag in flags) or "flags not recorded"


def limits_summary() -> str:
    """One row a rule set measured against its family's C loop: the median run's rates, the
    ratio's median and range over the runs, and its target."""
    record = limits_record()
    lines = [
        _provenance(RESULTS / "limits.json", record, "`benchmarks/limits.py`").rstrip()
        + f" Moves a second of random play on one core, the median of {record['rounds']} runs;"
        f" the loops built with {_loop_flags(record)}.\n",
        "| rule set | engine | its family's C loop | engine / loop (lowest–highest) | target |",
        "|---|---|---|---|---|",
    ]
    for variant, summary in record["summary"].items():
        engine, loop = median_rates(record, variant)
        ratio = _interval(
            summary["ratio_median"], summary["ratio_lowest"], summary["ratio_highest"]
        )
        lines.append(
            f"| `{variant}` | {engine:,.0f} | {loop:,.0f} (`{summary['loop']}`) | {ratio} "
            f"| {_target(summary['ratio_median'], summary['target'])} |"
        )
    return "\n".join(lines) + "\n"


def rllib_selfplay() -> str:
    """The RLlib example's long run: its settings and its final games against the baselines."""
    path = ROOT / "benchmarks" / "rllib" / "oware_summary.json"
    record = _read_json(path)
    # the run's output folder is a path on the machine it ran on, not a setting of the run
    settings = ", ".join(
        f"{key} {value}" for key, value in record["settings"].items() if key != "out"
    )
    lines = [
        _provenance(path, record, "`python -m mancala_env.train.rllib_selfplay`"),
        f"Settings: {settings}. {record['iterations']} iterations, {record['env_steps']:,} "
        f"moves, {record['train_seconds']} s of training; the league ended as "
        f"{', '.join(record['league'])}.\n",
        "| opponent | games | wins | draws | losses | score |",
        "|---|---|---|---|---|---|",
    ]
    for row in record["scores"]:
        lines.append(
            f"| `{row['opponent']}` | {row['games']} | {row['wins']} | {row['draws']} "
            f"| {row['losses']} | {row['score']} |"
        )
    return "\n".join(lines) + "\n"


def ppo_speed() -> str:
    """Learner steps a second of the two PPO trainers on the same settings, and their time's
    split."""
    path = RESULTS / "ppo_speed.json"
    record = _read_json(path)
    settings = ", ".join(f"{key} {value}" for key, value in record["settings"].items())
    lines = [
        _provenance(path, record, "`benchmarks/ppo_speed.py`"),
        f"Settings: {settings} ({record['variant']}).\n",
        "| trainer | steps/s (best turn) | every turn | x MaskablePPO | engine | forward | "
        "update |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, row in record["trainers"].items():
        share = row["share_of_time"]
        turns = ", ".join(f"{rate:,}" for rate in row["all_turns_steps_per_second"])
        lines.append(
            f"| {name} | {row['steps_per_second']:,} | {turns} | {row['speed_up']:.2f} "
            f"| {share['engine']:.0%} | {share['forward']:.0%} | {share['update']:.0%} |"
        )
    return "\n".join(lines) + "\n"


def gumbel_search() -> str:
    """The az agent's Gumbel search against PUCT at the same simulations a move, with and
    without its noise (`benchmarks/gumbel_search.py`)."""
    path = RESULTS / "gumbel_search_oware.json"
    record = _read_json(path)
    lines = [
        _provenance(path, record, "`benchmarks/gumbel_search.py`"),
        f"Openings: {record['openings']}.\n",
        "| Gumbel search | against | games | Gumbel's score (95% interval) |",
        "|---|---|---|---|",
    ]
    for gumbel, scores in record["scores"].items():
        for puct, (score, low, high, games) in scores.items():
            lines.append(f"| `{gumbel}` | `{puct}` | {games} | {_interval(score, low, high)} |")
    return "\n".join(lines) + "\n"


def self_play_recipes() -> str:
    """Self-play from scratch with Gumbel's and with PUCT's targets, beside the teacher recipe
    over the same training minutes (`benchmarks/self_play_recipes.py`)."""
    path = RESULTS / "az_oware_self_play_recipes.json"
    record = _read_json(path)
    teacher = record["teacher"]
    opponents = list(record["recipes"][0]["evaluations"][0]["scores"])
    lines = [
        _provenance(path, record, "`benchmarks/self_play_recipes.py`"),
        f"Each self-play run: `{record['config']}` with its `search`, from random weights, seed "
        f"{record['seed']}, stopped at {record['minutes']:g} minutes (evaluations included); "
        "the teacher recipe's rows are the evaluations of its first stage within as many "
        f"minutes of training time (`{teacher['file']}`; machine: "
        f"{_machines(teacher['evaluations'])}). The network without search against alpha-beta "
        "of each depth, 64 games each from the shipped suite, both seats.\n",
        "| recipe | generation | positions | training seconds | "
        + " | ".join(_opponent_column(o) for o in opponents)
        + " |",
        "|---|---|---|---|" + "---|" * len(opponents),
    ]
    runs = [(f'self-play, `search = "{r["search"]}"`', r["evaluations"]) for r in record["recipes"]]
    for recipe, rows in [*runs, ("teacher, alpha-beta depth 8", teacher["evaluations"])]:
        for index, row in enumerate(rows):
            scores = " | ".join(f"{row['scores'][o][0]:.3f}" for o in opponents)
            name = recipe if index == 0 else ""
            lines.append(
                f"| {name} | {row['generation']} | {row['positions']:,} | {row['seconds']} "
                f"| {scores} |"
            )
    return "\n".join(lines) + "\n"


def threads() -> str:
    """A batch's games a second on one thread, on the pool and on the count it picks, quiet and
    beside a busy core (`benchmarks/threads_under_load.py`)."""
    path = RESULTS / "threads.json"
    record = _read_json(path)
    ways = list(record["rows"][0]["games_per_second"])
    lines = [
        _provenance(path, record, "`benchmarks/threads_under_load.py`"),
        f"`BatchedGames.step_random` on {record['variant']}, {record['seconds_each']:g} s a cell; "
        "games stepped a second.\n",
        "| games a call | another process spinning on a core | " + " | ".join(ways) + " |",
        "|---|---|" + "---|" * len(ways),
    ]
    for row in record["rows"]:
        speeds = " | ".join(f"{row['games_per_second'][way]:,}" for way in ways)
        lines.append(f"| {row['rows']:,} | {'yes' if row['busy_core'] else 'no'} | {speeds} |")
    return "\n".join(lines) + "\n"


ADJUDICATION_FILES = ("adjudication.json", "adjudication_small_databases.json")


def adjudication() -> str:
    """The same tournaments played out and adjudicated, with each database's size
    (`benchmarks/adjudication.py`): what adjudication saves and how far the ratings move."""
    sections = []
    for name in ADJUDICATION_FILES:
        path = RESULTS / name
        record = _read_json(path)
        agents = ", ".join(f"`{agent}`" for agent in record["agents"])
        lines = [
            _provenance(path, record, "`benchmarks/adjudication.py`"),
            f"{record['games_per_pair']} games a pair of {agents}; {_workers(record['workers'])}."
            "\n",
            "| rule set | database | games adjudicated | results not those of play "
            "| plies played out → adjudicated | game seconds |",
            "|---|---|---|---|---|---|",
        ]
        for rules in record["rule_sets"]:
            plies, seconds = rules["plies"], rules["game_seconds"]
            lines.append(
                f"| {rules['variant']} | 0-{rules['database_seeds']} seeds "
                f"| {rules['games_adjudicated']} of {rules['games']} "
                f"| {rules['adjudicated_results_that_differ_from_play']} "
                f"| {plies['played_out']:,} → {plies['adjudicated']:,} "
                f"({rules['plies_saved_share']:.0%} saved) "
                f"| {seconds['played_out']} → {seconds['adjudicated']} |"
            )
        lines += [
            "\n| rule set | agent | Elo played out [95%] | Elo adjudicated [95%] "
            "| intervals overlap |",
            "|---|---|---|---|---|",
        ]
        for rules in record["rule_sets"]:
            for agent in record["agents"]:
                cells = [
                    f"{rating['rating']:+.0f} [{rating['low']:+.0f}, {rating['high']:+.0f}]"
                    for rating in (rules["ratings"][kind][agent] for kind in ("played_out",
                                                                               "adjudicated"))
                ]  # fmt: skip
                overlap = "yes" if rules["intervals_overlap"][agent] else "no"
                lines.append(f"| {rules['variant']} | {agent} | {' | '.join(cells)} | {overlap} |")
        sections.append("\n".join(lines))
    return "\n\n".join(sections) + "\n"


def atlas() -> str:
    """Each rule set's first-player score and draw rate under self-play from the start, with
    the exact value of a board solved whole."""
    path = RESULTS / "atlas.json"
    record = _read_json(path)
    agents = collections.Counter(cell["agent"] for cell in record["cells"])
    usual = agents.most_common(1)[0][0] if agents else ""
    lines = [
        _provenance(path, record, "`benchmarks/atlas.py`"),
        f"Seed {record['seed']}; a cell stops once both intervals are within "
        f"±{record['half_width']} or at {record['max_games']} games; a cell marked *unfinished* "
        f"is counted as far as its games went. Every cell is played by `{usual}` but those "
        "that name their agent.\n",
        "| rule set and options | games (distinct) | first player's score (95%) "
        "| draw rate (95%) | plies, seconds a game | perfect play |",
        "|---|---|---|---|---|---|",
    ]
    for cell in record["cells"]:
        name = f"`{cell['name']}`" + ("" if cell["complete"] else " *unfinished*")
        if cell["agent"] != usual:
            name += f", by `{cell['agent']}`"
        score = _interval(cell["first_player_score"], *cell["first_player_interval"])
        draws = _interval(cell["draw_rate"], *cell["draw_interval"])
        exact = cell["exact"]
        perfect = (
            "—"
            if exact is None
            else f"{exact['result'].replace('_', ' ')}: {exact['first_player_seeds']:g} of "
            f"{exact['seeds']} seeds"
        )
        lines.append(
            f"| {name} | {cell['games']} ({cell['distinct_games']}) | {score} | {draws} "
            f"| {cell['mean_plies']:.0f}, {cell['seconds_per_game']:.2f} | {perfect} |"
        )
    return "\n".join(lines) + "\n"


def relay_lengths() -> str:
    """How long relays run, by rule set and option: the table `benchmarks/relay_lengths.py
    --report` prints, from the same function."""
    path = RESULTS / "relay_lengths.json"
    spec = importlib.util.spec_from_file_location(
        "relay_lengths", ROOT / "benchmarks" / "relay_lengths.py"
    )
    assert spec is not None and spec.loader is not None
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    record = _read_json(path)
    writer = "`benchmarks/relay_lengths.py` (its table: `--report`)"
    return _provenance(path, record, writer) + "\n" + benchmark.report(record) + "\n"


def compile_times() -> str:
    """Each rule set's compile from empty caches, and its load from warm ones."""
    path = RESULTS / "compile_times.json"
    record = _read_json(path)
    lines = [
        _provenance(path, record, "`benchmarks/compile_times.py`"),
        "Seconds of CPU (wall in brackets), each in a fresh process.\n",
        "| rule set | engine, cold | batch kernels, cold | engine, warm | batch kernels, warm |",
        "|---|---|---|---|---|",
    ]

    def cell(phase: dict[str, float]) -> str:
        return f"{phase['cpu']:.1f} ({phase['wall']:.1f})"

    for name, row in record["rule_sets"].items():
        cold, warm = row["cold"], row["warm"]
        lines.append(
            f"| {name} | {cell(cold['engine'])} | {cell(cold['batch'])} "
            f"| {cell(warm['engine'])} | {cell(warm['batch'])} |"
        )
    shared = record["shared"]["engine"]
    lines.append(f"\nThe shared kernels (every mechanic), cold: {cell(shared)}.")
    return "\n".join(lines) + "\n"


def metrics() -> str:
    """Every rule set's metrics under random and strong play: the table `benchmarks/metrics.py
    --report` prints, from the same function."""
    from mancala_env.agents.metrics import markdown_report

    path = RESULTS / "metrics.json"
    record = _read_json(path)
    source = f"From `{path.relative_to(ROOT).as_posix()}`, written by `benchmarks/metrics.py`"
    return f"{source} (its table: `--report`). {markdown_report(record)}\n"


def opening_suites() -> str:
    """What the shipped opening suites record of how each was made: the search that rated
    their positions, the positions tried and the openings kept."""
    folder = ROOT / "agents" / "tournament" / "suites"
    lines = [
        f"From the suites' own files (`{folder.relative_to(ROOT).as_posix()}/VARIANT.json`).\n",
        "| rule set | plies | search | margin (seeds) | tried | kept |",
        "|---|---|---|---|---|---|",
    ]
    for path in sorted(folder.glob("*.json")):
        suite = _read_json(path)
        lines.append(
            f"| {suite['variant']} | {suite['plies']} | `{suite['search']}` | {suite['margin']:g} "
            f"| {suite['tried']:,} | {len(suite['entries'])} |"
        )
    return "\n".join(lines) + "\n"


OPPONENTS_PPO = ("greedy", "alphabeta:depth=2")


def batched_ppo_strength() -> str:
    """Each measured 30-minute Oware run of ``--algo batched-ppo``: its settings, steps, and
    scores without search against greedy and alpha-beta to depth 2 (`ppo_strength.py`)."""
    lines = [
        "| results file | policy | reward | `ent_coef` | pool | steps | vs `greedy` "
        "| vs `alphabeta:depth=2` |",
        "|---|---|---|---|---|---|---|---|",
    ]
    records = []
    for path in sorted(RESULTS.glob("batched_ppo_oware_*.json")):
        record = _read_json(path)
        training = record["training"]
        config = training["config"]
        batched = config["batched"]
        greedy, depth_2 = (_interval(*record["scores"][o][:3]) for o in OPPONENTS_PPO)
        # a key its run's version did not have yet held its default then
        lines.append(
            f"| `{path.name}` | `{batched.get('policy', 'mlp')}` "
            f"| `{batched.get('reward', 'win_loss')}` "
            f"| {config['ppo']['ent_coef']:g} | {', '.join(config['opponents'])} "
            f"| {training['timesteps'] / 1e6:.1f}M in {training['minutes']} min "
            f"| {greedy} | {depth_2} |"
        )
        records.append(record)
    fields = sorted({"; ".join(_fields(record)) for record in records})
    return (
        "From `benchmarks/results/batched_ppo_oware_*.json`, written by "
        "`benchmarks/ppo_strength.py` (" + " / ".join(fields) + ").\n\n" + "\n".join(lines) + "\n"
    )


BASELINE_OPPONENTS = (
    "random", "greedy", "alphabeta:depth=1", "alphabeta:depth=2", "alphabeta:depth=3",
    "alphabeta:depth=4",
)  # fmt: skip


# The trainers the baselines page compares: a results file's prefix, and how its rows are named.
BASELINE_ROUTES = {
    "batched_ppo": "`--algo batched-ppo`",
    "maskable_ppo": "`--algo ppo` (MaskablePPO)",
}


def baseline_runs() -> dict[tuple[str, str], tuple[Path, dict, list[dict]]]:
    """Each measured 30-minute run by rule set and trainer (`BASELINE_ROUTES`): its model's
    measurement and its evaluations during training (the learning curve),
    `benchmarks/results/ROUTE_VARIANT_network.json` and ``..._curve.jsonl``. The batched
    trainer's are the shipped policies; MaskablePPO's run beside them under the same budget."""
    runs = {}
    for variant in VARIANTS:
        for route in BASELINE_ROUTES:
            path = RESULTS / f"{route}_{variant}_network.json"
            curve = RESULTS / f"{route}_{variant}_network_curve.jsonl"
            if path.is_file():
                curve_rows = _read_lines(curve) if curve.is_file() else []
                runs[variant, route] = (path, _read_json(path), curve_rows)
    return runs


def baselines() -> str:
    """The shipped policies' scores without search against random, greedy and alpha-beta to
    depth 4, with their runs' steps and minutes, and MaskablePPO's beside them where run."""
    runs = baseline_runs()
    if not runs:
        return "No policy measured yet.\n"
    columns = " | ".join(f"`{o}`" for o in BASELINE_OPPONENTS)
    lines = [
        f"| rule set | trainer | agent | steps in minutes | {columns} |",
        "|---|---|---|---|" + "---|" * len(BASELINE_OPPONENTS),
    ]
    fields = set()
    for (variant, route), (_, record, _) in runs.items():
        training, scores = record["training"], record["scores"]
        cells = [
            _interval(*scores[o][:3]) if o in scores else "not measured" for o in BASELINE_OPPONENTS
        ]
        agent = f"`ppo:{variant}`" if route == "batched_ppo" else "not shipped"
        lines.append(
            f"| {variant} | {BASELINE_ROUTES[route]} | {agent} | "
            f"{training['timesteps'] / 1e6:.1f}M in {training['minutes']} min | "
            + " | ".join(cells)
            + " |"
        )
        fields.add("; ".join(_fields(record)))
    names = ", ".join(f"`{path.name}`" for path, _, _ in runs.values())
    return (
        f"From {names} in `benchmarks/results/`, written by `benchmarks/ppo_strength.py` "
        f"({' / '.join(sorted(fields))}).\n\n" + "\n".join(lines) + "\n"
    )


def ladders() -> str:
    """Every shipped ladder version: its anchors' calibrated ratings and intervals, and how the
    calibration was made (the ladder file's own record)."""
    folder = ROOT / "agents" / "tournament" / "ladders"
    paths = sorted(folder.glob("*-v*.json"))
    if not paths:
        return "No ladder calibrated yet: `python benchmarks/ladder.py VARIANT` makes one.\n"
    lines = []
    for path in paths:
        ladder = _read_json(path)
        calibration = ladder["calibration"]
        anchors = sorted(ladder["anchors"], key=lambda anchor: anchor["rating"])
        lines += [
            f"**{ladder['variant']}, v{ladder['version']}**: a round robin of "
            f"{calibration['games_per_pair']} games a pair, {calibration['minutes']} min; an agent "
            f"is rated in {ladder['games_per_anchor']} games an anchor "
            f"({ladder['games_per_anchor'] * len(anchors)} in all). "
            + _provenance(path, calibration, "`benchmarks/ladder.py`"),
            "| anchor | rating | 95% interval |",
            "|---|---|---|",
            *(
                f"| `{a['spec']}` | {a['rating']:+.0f} | [{a['low']:+.0f}, {a['high']:+.0f}] |"
                for a in anchors
            ),
            "",
        ]
    return "\n".join(lines)


def ladder_ratings() -> str:
    """Agents rated on the ladders (``mancala ladder VARIANT AGENT --out``)."""
    paths = sorted(RESULTS.glob("ladder_ratings_*.json"))
    if not paths:
        return "No agent rated on a ladder yet.\n"
    lines = []
    for path in paths:
        record = _read_json(path)
        lines += [
            f"**{record['variant']}, ladder v{record['ladder_version']}.** "
            + _provenance(path, record, "`mancala ladder --out`"),
            "| agent | rating | 95% interval (on the version's scale) "
            "| with the calibration's uncertainty | games | score |",
            "|---|---|---|---|---|---|",
        ]
        for r in record["ratings"]:
            score = r["points"] / r["games"]
            rating, interval = elo_cells(r["rating"], r["low"], r["high"], score)
            _, calibrated = elo_cells(r["rating"], r["calibrated_low"], r["calibrated_high"], score)
            lines.append(
                f"| `{r['spec']}` | {rating} | {interval} | {calibrated} | {r['games']} "
                f"| {score:.3f} |"
            )
        lines.append("")
    return "\n".join(lines)


def test_times() -> str:
    """The two test loops' runs from empty caches, and the developer's from warm ones after an
    edit."""
    path = RESULTS / "test_times.json"
    if not path.is_file():
        return "Not measured yet: `python benchmarks/test_times.py` writes the table.\n"
    record = _read_json(path)
    lines = [
        _provenance(path, record, "`benchmarks/test_times.py`"),
        f"At commit {record['commit']}; CPU: the seconds of user and system time of every "
        "process of the run.\n",
        "| run | command | wall s | CPU s | tests passed | failed | load average as it began |",
        "|---|---|---|---|---|---|---|",
    ]
    for run in record["runs"]:
        lines.append(
            f"| {run['run']} | `{run['command']}` | {run['wall']:.0f} | {run['cpu']:.0f} "
            f"| {run['passed']:,} | {run['failed']} | {run['load_average_at_start']:.1f} |"
        )
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """The generated Markdown files, by name."""
    return {
        "atlas.md": atlas(),
        "strength.md": strength(),
        "strength_summary.md": strength_summary(),
        "limits_summary.md": limits_summary(),
        "az_training.md": az_training(),
        "compile_times.md": compile_times(),
        "endgame_build.md": endgame_build(),
        "endgame_accuracy.md": endgame_accuracy(),
        "endgame_build_ayoayo.md": endgame_build_ayoayo(),
        "endgame_accuracy_ayoayo.md": endgame_accuracy_ayoayo(),
        "layout_tricks.md": layout_tricks(),
        "limits.md": limits(),
        "metrics.md": metrics(),
        "opening_suites.md": opening_suites(),
        "ladders.md": ladders(),
        "ladder_ratings.md": ladder_ratings(),
        "batched_ppo_strength.md": batched_ppo_strength(),
        "baselines.md": baselines(),
        "relay_lengths.md": relay_lengths(),
        "test_times.md": test_times(),
        "rllib_selfplay.md": rllib_selfplay(),
        "ppo_speed.md": ppo_speed(),
        "gumbel_search.md": gumbel_search(),
        "self_play_recipes.md": self_play_recipes(),
        "threads.md": threads(),
        "adjudication.md": adjudication(),
    }
