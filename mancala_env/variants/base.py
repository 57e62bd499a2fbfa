"""What every rule set declares: its options, its rule parameters and where its rules come from.

A rule set is a frozen dataclass of options (the readings its source leaves open, with the
source's reading as default) and a function that turns those options into the rule parameter
vector the compiled kernels read. `rule_params` holds the neutral value of every parameter, so
a variant names only the mechanics it uses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import layout as L
from ..inputs import INT32_MAX, is_integer
from .actions import LIFTS, ActionBlock, action_count


def choice(default: Any, choices: tuple, doc: str) -> Any:
    """A dataclass field whose value must be one of `choices`."""
    return field(default=default, metadata={"choices": choices, "doc": doc})


PLAYERS = ("player_0", "player_1", "random")

# Readings that several rule sets offer, as the engine's numbers.
SKIPS = {"move": L.SKIP_MOVE_ORIGIN, "lap": L.SKIP_LAP_ORIGIN, "none": L.SKIP_NONE}
SLAMS = {
    "no_capture": L.SLAM_NO_CAPTURE,
    "capture": L.SLAM_ALLOWED,
    "extra_turn": L.SLAM_EXTRA_TURN,
}
REMAINDERS = {"split": L.REMAINDER_SPLIT, "owner": L.REMAINDER_OWNER}
STUCK = {"pass": L.NO_MOVE_PASS, "end": L.NO_MOVE_END}  # a player who cannot move
SKIP_ORIGIN_READINGS = {
    "none": "none: no pit is passed over",
    "move": "move: the pit the move started from is passed over on every lap",
    "lap": "lap: each lap passes over the pit it was lifted from",
}


def skip_origin_field(
    default: str, reason: str, choices: tuple[str, ...] = ("none", "move", "lap")
) -> Any:
    """The option naming which lifted pit a sowing passes over on its way round the board (the
    sources differ); `reason` says why `default` is this rule set's reading."""
    readings = "; ".join(SKIP_ORIGIN_READINGS[c] for c in choices)
    return choice(default, choices, f"{readings} ({reason})")


def first_player_field(
    default: str = "player_0", doc: str = "who moves first; 'random' draws it from the reset seed"
) -> Any:
    """The option naming who moves first."""
    return choice(default, PLAYERS, doc)


def guessed_first_player() -> Any:
    """The first player of the games of 004, 'guessed from a closed fist': random by default."""
    return first_player_field(
        "random", "who moves first; the source has it guessed from a closed fist, so 'random'"
    )


def flag(default: bool, doc: str) -> Any:
    """A dataclass field holding True or False."""
    return field(default=default, metadata={"choices": (True, False), "doc": doc})


def match_flag() -> Any:
    """The option that turns an episode of one round into a whole match of rounds."""
    return flag(
        False,
        "play a whole match: rounds follow one another until the match is won "
        "(False: an episode is one round)",
    )


def bounded(default: int, low: int, high: int, doc: str) -> Any:
    """A dataclass field holding an integer from `low` to `high`."""
    return field(default=default, metadata={"low": low, "high": high, "doc": doc})


def max_rounds_field() -> Any:
    """The option that bounds a match, so that every match ends."""
    return bounded(
        100,
        1,
        127,
        "rounds after which an undecided match is decided on the seeds held "
        "(on rounds won, where rounds won decide the match)",
    )


def text(default: str, allowed: str, doc: str) -> Any:
    """A dataclass field holding text that its rule set parses and checks (`allowed` says what
    it may be)."""
    return field(default=default, metadata={"allowed": allowed, "doc": doc})


def number(default: int | None, low: int, doc: str, why: str = "", or_none: bool = False) -> Any:
    """A dataclass field holding an integer from `low` to the engine's int32 limit (`why`: the
    reason for the lower bound, given with a refused value), or None where `or_none`."""
    return field(
        default=default,
        metadata={"low": low, "high": INT32_MAX, "doc": doc, "why": why, "or_none": or_none},
    )


@dataclass(frozen=True)
class RuleOptions:
    """Options every rule set has."""

    first_player: str = first_player_field()
    stall_limit: int = number(
        100,
        1,
        "plies without a seed leaving the board after which the game is stopped "
        "(the players' agreement to stop a chase)",
        why="without a limit, a chase that never captures would go on for ever",
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            choices = f.metadata.get("choices")
            if choices is not None and not any(
                value == c and type(value) is type(c) for c in choices
            ):
                raise ValueError(
                    f"option {f.name}={value!r} is not allowed; "
                    f"choose one of {', '.join(map(repr, choices))}"
                )
            low, high = f.metadata.get("low"), f.metadata.get("high")
            if value is None and f.metadata.get("or_none"):
                continue
            if low is not None:
                if not is_integer(value) or not low <= value <= high:
                    why = f.metadata.get("why")
                    raise ValueError(
                        f"option {f.name}={value!r} must be an {allowed_values(f)}"
                        + (f": {why}" if why else "")
                    )
                object.__setattr__(self, f.name, int(value))  # a numpy integer made plain


# The bound on a relay's laps (`engine.sowing.relay`): chosen from the lengths of relays in
# random and search play, at least ten times the longest that ended (docs/relays.md).
RELAY_LIMIT = 20_000


@dataclass(frozen=True)
class RelayOptions(RuleOptions):
    """Options of the rule sets that relay: a lap whose last seed falls in an occupied pit (or
    makes an even count) is followed by another."""

    relay_limit: int | None = number(
        RELAY_LIMIT,
        1,
        "laps after which a relay still going on counts as endless, so its move is not legal "
        "(None: only a relay whose board and starting pit repeat is endless, found exactly "
        "however many laps that takes)",
        why="a relay has at least one lap",
        or_none=True,
    )


# Changes of play that several rule sets share, for their Version History.
STALL_STOP_LAST = (
    "the ply that reaches stall_limit ends the game by the rule set's own ending where it has "
    "one (it was stopped as a stall), and stall_limit=0 (never stop) is refused"
)
RELAY_REPEATS = (
    "a relay is endless only when its board and starting pit repeat: relays of more than 200 "
    "laps that end are played (they were refused as endless)"
)
RELAY_BOUNDED = (
    f"a relay still going on after relay_limit laps ({RELAY_LIMIT:,} by default: more than ten "
    "times the longest relay that ended in random and search play, docs/relays.md) counts as "
    "endless, so its move is not legal; relay_limit=None plays as the version before"
)
# The options that play a relaying rule set's version before RELAY_BOUNDED exactly.
UNBOUNDED_RELAYS = {"relay_limit": None}


SOURCE_HOUSES = 6  # every source's board: two rows of six houses


def rule_params(**values: int) -> np.ndarray:
    """The rule parameter vector: neutral defaults overridden by `values` (names without P_).

    HOUSES (houses a player, six by default) also sets the defaults that follow from the board:
    a move lifts one of the mover's houses, a chain may run the length of a row, and every pit
    starts with SEEDS_PER_HOUSE seeds.
    """
    params = np.zeros(L.PARAMS_SIZE, dtype=np.int32)
    houses = values.get("HOUSES", SOURCE_HOUSES)
    if not 1 <= houses <= L.MAX_HOUSES:
        raise ValueError(f"a board has 1 to {L.MAX_HOUSES} houses a player, not {houses}")
    defaults = {
        "HOUSES": houses,
        "SEEDS_PER_HOUSE": 4,
        "CONTINUE": L.CONTINUE_NEVER,
        "SKIP_ORIGIN": L.SKIP_MOVE_ORIGIN,
        "CAPTURE_COUNTS": 0,
        "CHAIN_MAX": houses,
        "MIN_LIFT": 1,
        "END_BOARD_AT_MOST": -1,
        "END_EACH_SIDE_AT_MOST": -1,
        "END_ANY_SIDE_AT_MOST": -1,
        "END_EACH_SIDE_EXACTLY": -1,
        "DIRECTION": 1,
        "LIFT_ACTIONS": houses,
        "MAX_ROUNDS": 100,
    }
    for name, value in {**defaults, **values}.items():
        params[getattr(L, "P_" + name)] = value
    if "TOTAL_SEEDS" not in values:
        params[L.P_TOTAL_SEEDS] = params[L.P_SEEDS_PER_HOUSE] * 2 * houses
    return params


def counts_mask(*counts: int) -> int:
    """The bit set of seed counts that a chain capture takes."""
    return sum(1 << c for c in counts)


@dataclass(frozen=True)
class Variant:
    """A registered rule set."""

    name: str
    title: str
    source: str
    summary: str
    options_type: type[RuleOptions]
    # The rule set's own readings as engine parameters (see `params` for the shared ones).
    readings: Callable[[Any], np.ndarray]
    doc: str = ""
    # What changed in play at v1, v2, ...: one tuple of changes a version (v0: the first release).
    history: tuple[tuple[str, ...], ...] = ()
    # The actions, in the order of their numbers: the lifts, then the special moves.
    actions: tuple[ActionBlock, ...] = (LIFTS,)
    # Earlier versions that stay playable, each with the options that play it exactly (the
    # others are retired: their ids raise an error naming what replaced them).
    earlier_versions: dict[int, dict[str, Any]] = field(default_factory=dict)

    def params(self, options: RuleOptions) -> np.ndarray:
        """The rule parameter vector of this rule set under `options`: its own readings, and
        the options every rule set shares."""
        params = self.readings(options)
        params[L.P_STALL_LIMIT] = options.stall_limit
        if isinstance(options, RelayOptions):
            params[L.P_RELAY_LIMIT] = options.relay_limit or 0
        count = action_count(self.actions, params)
        if count > L.MAX_ACTIONS:
            raise ValueError(f"{self.name} would need {count} actions; at most {L.MAX_ACTIONS} fit")
        params[L.P_N_ACTIONS] = count
        return params

    @property
    def version(self) -> int:
        """The version in the environment ids: play changed `version` times since the first
        release (Gymnasium's and PettingZoo's convention)."""
        return len(self.history)

    def version_of(self, options: RuleOptions) -> int:
        """The version whose play `options` give: an earlier playable one when they hold its
        options (`earlier_versions`), else the current one."""
        for version, values in sorted(self.earlier_versions.items(), reverse=True):
            if all(getattr(options, name) == value for name, value in values.items()):
                return version
        return self.version

    def env_id(self, version: int | None = None) -> str:
        """The PettingZoo id, ``mancala/<name>-v<version>`` (the current version by default)."""
        return f"mancala/{self.name}-v{self.version if version is None else version}"

    def module_name(self, version: int | None = None) -> str:
        """The versioned module's name in `mancala_env`, ``<name>_v<version>``."""
        return f"{self.name}_v{self.version if version is None else version}"

    def gym_id(self, version: int | None = None) -> str:
        """The Gymnasium id of the single-agent env, ``mancala_env/<CamelCase name>-v<version>``."""
        title = "".join(part.capitalize() for part in self.name.split("_"))
        return f"mancala_env/{title}-v{self.version if version is None else version}"

    def version_history(self) -> str:
        """The Version History, as the rule page and the environment's docstring give it."""
        lines = [f"- v0: the first release of {self.title}."]
        for version, changes in enumerate(self.history, start=1):
            lines.append(f"- v{version}: " + " ".join(f"{c[0].upper()}{c[1:]}." for c in changes))
        return "\n".join(lines)

    def retired(self, version: int) -> str:
        """Why an older version's id no longer makes an environment, and what replaced it."""
        changes = " ".join(
            f"v{v}: {'; '.join(c)}." for v, c in enumerate(self.history, 1) if v > version
        )
        return (
            f"{self.env_id(version)} is retired: {self.title}'s play changed since ({changes}) "
            f"Use {self.env_id()} (Gymnasium: {self.gym_id()}, module "
            f"mancala_env.{self.module_name()}); its rule page lists every change."
        )

    def options(self, **values: Any) -> RuleOptions:
        """Build this rule set's options, naming any unknown one and the known ones."""
        known = [f.name for f in dataclasses.fields(self.options_type)]
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ValueError(
                f"unknown option(s) {', '.join(unknown)} for variant {self.name!r}; "
                f"known options: {', '.join(known)}"
            )
        return self.options_type(**values)

    def n_actions(self, options: RuleOptions) -> int:
        """Size of the action space: the lifts, then the rule set's extra actions."""
        return int(self.params(options)[L.P_N_ACTIONS])


def allowed_values(f: dataclasses.Field) -> str:
    """The values an option field allows, as text."""
    if "allowed" in f.metadata:
        return f.metadata["allowed"]
    if "choices" in f.metadata:
        return ", ".join(
            str(c).lower() if isinstance(c, bool) else str(c) for c in f.metadata["choices"]
        )
    bounds = f"integer from {f.metadata['low']} to {f.metadata['high']}"
    return bounds + (", or None" if f.metadata.get("or_none") else "")


def describe_options(options_type: type[RuleOptions]) -> list[dict[str, Any]]:
    """Name, default, allowed values and meaning of every option of a rule set."""
    rows = []
    for f in dataclasses.fields(options_type):
        rows.append(
            {
                "name": f.name,
                "default": f.default,
                "choices": f.metadata.get("choices"),
                "allowed": allowed_values(f),
                "doc": f.metadata.get("doc", ""),
            }
        )
    return rows
