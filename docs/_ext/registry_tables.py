"""The documentation's tables of rule sets, ids, versions and options, read from the registry.

Written as Markdown into `docs/_generated/` when the site is built, so the ids and option lists
in the documentation cannot drift from what `import mancala_env` registers.
"""

from __future__ import annotations

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
    """One row per rule set: its name, game, current ids and version, actions and rule page."""
    rows = [
        "| name | game | PettingZoo id | Gymnasium id | module | version | actions | rules |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for variant in VARIANTS.values():
        actions = variant.n_actions(variant.options())
        rows.append(
            f"| `{variant.name}` | {_cell(variant.title)} | `{variant.env_id()}` "
            f"| `{variant.gym_id()}` | `mancala_env.{variant.module_name()}` "
            f"| {variant.version} | {actions} | [{variant.name}](variants/{variant.name}.md) |"
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


def versions_table() -> str:
    """Every rule set's versions: the current one, and the older ids and what became of them."""
    rows = ["| name | current | older ids |", "|---|---|---|"]
    for variant in VARIANTS.values():
        older = []
        for version in range(variant.version):
            state = "plays on" if version in variant.earlier_versions else "retired"
            older.append(f"`{variant.env_id(version)}` ({state})")
        rows.append(f"| `{variant.name}` | `{variant.env_id()}` | {', '.join(older) or 'none'} |")
    return "\n".join(rows) + "\n"


def pages() -> dict[str, str]:
    """The generated Markdown files, by name."""
    options = "\n".join(options_section(variant) for variant in VARIANTS.values())
    return {
        "rule_sets.md": rule_set_table(),
        "options.md": options,
        "versions.md": versions_table(),
    }
