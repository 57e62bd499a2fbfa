"""What a training run's settings are checked for before the run writes a file: every agent
they name is built (a file it names read), an opening suite they name is read, the network they
describe fits in a network file, the positions they keep fit in a checkpoint. A setting that
fails here fails before ``--out`` is claimed, not hours into the run."""

from __future__ import annotations

from typing import Any

from mancala_env import Game
from mancala_env.agents.alphabeta import AlphaBetaAgent
from mancala_env.agents.loader import SpecError, load_agent, parse_spec
from mancala_env.agents.network import MAX_NETWORK_BYTES, float32_bytes, network_meta
from mancala_env.agents.tournament.openings import read_suite, resolve_suite
from mancala_env.inputs import byte_size

from .az.config import AZConfig
from .az.games import MAX_BUFFER_BYTES, MAX_KEPT_BYTES, position_bytes
from .config import SELF


def check_opponents(specs: list[str], variant: str, setting: str) -> None:
    """Each of `specs` (but ``self``) names an agent that plays `variant` without a person:
    ValueError names the setting and the spec."""
    for spec in specs:
        if spec == SELF:
            continue
        try:
            if parse_spec(spec)[0] == "human":
                raise SpecError(spec, "a training run has no one to type a person's moves")
            load_agent(spec, variant)
        except SpecError as error:
            raise ValueError(f"{setting}: bad agent spec {spec!r}: {error.problem}") from None
        except ValueError as error:  # a model or network that does not load or fit
            raise ValueError(f"{setting}: {str(error).splitlines()[0]}") from None


def check_az_settings(variant: str, options: dict[str, Any], config: AZConfig) -> None:
    """Everything an expert-iteration run of `config` will read or build, checked now: its
    network's size, its opponents, its teacher's endgame database and its evaluation suite."""
    game = Game(variant, **options)
    meta = network_meta(game, config.hidden)
    size = float32_bytes(meta)
    if size > MAX_NETWORK_BYTES:
        raise ValueError(
            f"hidden {config.hidden} makes a network of {byte_size(size)}; a network file holds "
            f"at most {byte_size(MAX_NETWORK_BYTES)}: ask for narrower or fewer layers"
        )
    row = position_bytes(meta)
    for name in ("buffer", "generation"):  # a generation is held whole before it joins them
        count = getattr(config, name)
        if count * row > MAX_KEPT_BYTES:
            raise ValueError(
                f"{name} {count:,} holds positions of {row} bytes each ({variant}), "
                f"{byte_size(count * row)}; a checkpoint keeps at most "
                f"{byte_size(MAX_BUFFER_BYTES)} of them: ask for at most {MAX_KEPT_BYTES // row:,}"
            )
    check_opponents(config.opponents, variant, "opponents")
    if config.endgames is not None:
        try:
            AlphaBetaAgent(depth=config.teacher_depth, tb=config.endgames).tb.for_game(game)
        except ValueError as error:
            raise ValueError(f"endgames: {str(error).splitlines()[0]}") from None
    if config.eval_suite is not None:
        try:
            read_suite(resolve_suite(config.eval_suite), variant, options)
        except FileNotFoundError:
            raise ValueError(
                f"eval_suite {config.eval_suite!r} is neither an opening suite's file nor a rule "
                "set with a shipped suite"
            ) from None
        except ValueError as error:
            raise ValueError(f"eval_suite: {str(error).splitlines()[0]}") from None
