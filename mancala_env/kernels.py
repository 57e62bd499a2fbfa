"""The kernels of the hot loops, derived for each rule set (see `engine.compiler`).

The loops that play many moves per call (the batched engine and its opponents, MCTS,
`mancala bench`) run the rule set's own kernels under any options, derived from the same source
with the rule set's parameters folded in, compiled once and kept in numba's disk cache; their
calls into the engine go to the derived engine, which a single game under the rule set's
default rules runs too (`Game`).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from .engine.compiler import specialised
from .first_use import announce_compiling
from .variants import Variant

HOT_MODULES = ("mancala_env.opponents", "mancala_env.observation", "mancala_env.batch")
COMPILE_SECONDS = 8  # a rule set's batch kernels after its engine: Oware's 4 s on two cores


def rule_set_kernels(
    variant: Variant,
    params: np.ndarray,
    uses: tuple[str, ...],
    extra: tuple[str, ...] = (),
    keep: bool = False,
) -> SimpleNamespace:
    """The kernels of `HOT_MODULES` (and of the modules `extra`) derived for `variant` under
    the rule parameters `params` (`keep`: see `engine.compiler.specialised`); says so on
    stderr when one of the kernels named in `uses` has to compile."""
    module = specialised(params, HOT_MODULES + extra, keep)
    announce_compiling(
        f"the {variant.name} kernels ({', '.join(uses)}) for these rules",
        [getattr(module, name) for name in uses],
        COMPILE_SECONDS,
    )
    return module
