"""The documentation's tables of rule sets, ids, versions and options, read from the registry.

Written as Markdown into `docs/_generated/` when the site is built, so the ids and option lists
in the documentation cannot drift from what `import mancala_env` registers.
"""

from __future__ import annotations

import gymnasium

import mancala_env
from mancala_env.variants import VARIANTS, Variant, describe_options
from mancala_env.variants.sources import citation


def _cell(text: object) -> str:
    """`text` made safe for one cell of a Markdown table."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _value(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return "None" if value is None else str(value)


def rule_set_table() -> str:
    """One row per rule set: its name (linking its rule page), game, current ids and actions
    (the module to import, the spaces and the versions are on the rule page's header)."""
    rows = ["| name | game | PettingZoo id | Gymnasium id | actions |", "|---|---|---|---|---|"]
    for variant in VARIANTS.values():
        actions = variant.n_actions(variant.options())
        rows.append(
            f"| [`{variant.name}`](variants/{variant.name}.md) | {_cell(variant.title)} "
            f"| `{variant.env_id()}` | `{variant.gym_id()}` | {actions} |"
        )
    return "\n".join(rows) + "\n"


def options_section(variant: Variant) -> str:
    """The options of one rule set: name, default, allowed values and meaning."""
    lines = [
        f"### {variant.title} (`{variant.name}`)",
        "",
        f"{_cell(variant.summary)}. Source: {citation(variant.source).text}.",
        "",
        "| option | default | allowed | meaning |",
        "|---|---|---|---|",
    ]
    for option in describe_options(variant.options_type):
        lines.append(
            f"| `{option['name']}` | `{_value(option['default'])}` | {_cell(option['allowed'])} "
            f"| {_cell(option['doc'])} |"
        )
    return "\n".join(lines) + "\n"


def _older_ids(variant: Variant) -> str:
    """A rule set's older ids and what became of each (or "none")."""
    older = []
    for version in range(variant.version):
        state = "plays on" if version in variant.earlier_versions else "retired"
        older.append(f"`{variant.env_id(version)}` ({state})")
    return ", ".join(older) or "none"


def versions_table() -> str:
    """Every rule set's versions: the current one, and the older ids and what became of them."""
    rows = ["| name | current | older ids |", "|---|---|---|"]
    for variant in VARIANTS.values():
        rows.append(f"| `{variant.name}` | `{variant.env_id()}` | {_older_ids(variant)} |")
    return "\n".join(rows) + "\n"


def _bounds(box: gymnasium.spaces.Box) -> str:
    """A Box's values as one interval: its lowest low and highest high."""
    return f"[{int(box.low.min())}, {int(box.high.max())}]"


def env_header(name: str) -> str:
    """A rule page's header table, PettingZoo's way: the import, the agents, the action and
    observation spaces of the environment as made (not as described), the ids and versions."""
    variant = VARIANTS[name]
    env = mancala_env.make(name)
    try:
        agent = env.possible_agents[0]
        actions = env.action_space(agent)
        observation = env.observation_space(agent)
        agents = env.possible_agents
    finally:
        env.close()
    board, mask = observation["observation"], observation["action_mask"]
    rows = [
        ("Import", f"`from mancala_env import {variant.module_name()}`"),
        ("PettingZoo id", f"`{variant.env_id()}`"),
        ("Gymnasium id", f"`{variant.gym_id()}` (against a built-in opponent)"),
        ("Actions", f"Discrete, masked ({actions.n} actions)"),
        ("Agents", f"`agents= {agents}`"),
        ("Number of agents", str(len(agents))),
        ("Action shape", f"`{actions}`"),
        ("Action values", f"[0, {actions.n - 1}], the legal ones set in `action_mask`"),
        (
            "Observation shape",
            f"`observation` {board.shape}, `action_mask` {mask.shape} (a `Dict`, {board.dtype})",
        ),
        ("Observation values", f"`observation` {_bounds(board)}, `action_mask` {_bounds(mask)}"),
        ("Version", f"{variant.version}; older ids: {_older_ids(variant)}"),
    ]
    lines = [f"| {_cell(variant.title)} | `{variant.name}` |", "|---|---|"]
    lines += [f"| {key} | {_cell(value)} |" for key, value in rows]
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """The generated Markdown files, by name."""
    options = "\n".join(options_section(variant) for variant in VARIANTS.values())
    return {
        "rule_sets.md": rule_set_table(),
        "options.md": options,
        "versions.md": versions_table(),
    }
