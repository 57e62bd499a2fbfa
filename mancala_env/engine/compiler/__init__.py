"""A rule set's own kernels, derived from the one written rule source by a build step.

The rules are written once, in the modules of this package, as kernels that read the rule
set's parameters from the ``params`` vector at run time, so one compiled copy serves every
rule set. A hot loop (the batched engine, the benchmark, a search's play-outs) gains when the
compiler knows the rule set instead: `specialised(params, modules)` writes a module in which
every ``params[P_X]`` read of the rule set's structure is replaced by its value and what became
constant is decided (`fold`); the numbers among the parameters (`layout.RUNTIME_PARAMS`) stay
reads of ``params``, so the same compiled module serves every value of them. numba compiles
that module like any other and caches it on disk.

One job a module: `assemble` (which modules are derived, in what order, the namespace
returned), `derive` (one derived module's source and the imports that wire its calls), `fold`
(the constant folder), `cache` (the derived modules' names and files) and `conventions` (the
spelling of the rule source the compiler relies on, each convention checked with a one-line
`ConventionError`).
"""

from .assemble import ENGINE, specialised
from .conventions import ConventionError

__all__ = ["ENGINE", "ConventionError", "specialised"]
