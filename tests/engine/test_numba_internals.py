"""The numba internals the engine uses are where `engine.numba_internals` expects them.

These fail, naming the installed numba, when it is outside the tested range or one of the
internals moved; `test_jit` and `test_first_use` check what each of them does.
"""

import inspect
import re
from pathlib import Path

import numba
import numpy as np
from numba.core import caching
from numba.core.dispatcher import Dispatcher
from numba.np.arrayobj import populate_array

from mancala_env.engine import numba_internals
from mancala_env.engine.jit import njit
from mancala_env.engine.numba_internals import TESTED, is_tested, numba_version, stack_array

ROOT = Path(__file__).resolve().parents[2]
WHERE = f"numba {numba.__version__}: see mancala_env/engine/numba_internals.py"


def test_the_installed_numba_is_one_the_internals_were_tested_with():
    assert is_tested(numba_version()), f"{WHERE} (tested: {TESTED})"


def test_the_package_bounds_numba_to_the_tested_range():
    (spec,) = re.findall(r'"(numba[^"]*)"', (ROOT / "pyproject.toml").read_text())
    bounds = re.fullmatch(r"numba>=(\d+)\.(\d+),<(\d+)\.(\d+)", spec)
    assert bounds, f"{spec}: numba needs a lower and an upper bound"
    low_major, low_minor, high_major, high_minor = map(int, bounds.groups())
    assert (low_major, low_minor) == TESTED[0], spec
    assert (high_major, high_minor) == (TESTED[1][0], TESTED[1][1] + 1), spec


def test_the_internals_are_where_they_were():
    template = inspect.signature(Dispatcher.get_call_template)
    assert list(template.parameters) == ["self", "args", "kws"], WHERE
    assert list(inspect.signature(Dispatcher.compile).parameters) == ["self", "sig"], WHERE
    assert isinstance(caching.CompileResultCacheImpl._locator_classes, list), WHERE
    assert issubclass(caching.FunctionCache._impl_class, caching.CompileResultCacheImpl), WHERE
    for name in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator"):
        locator = getattr(caching, name, None) or getattr(caching, "_" + name)
        assert callable(locator.get_source_stamp), WHERE
    assert hasattr(caching.IndexDataCacheFile, "_load_index"), WHERE
    fields = inspect.signature(populate_array).parameters
    assert {"data", "shape", "strides", "itemsize", "meminfo"} <= set(fields), WHERE


def test_a_stamped_kernel_reads_its_disk_cache_index():
    @njit(cache=True)
    def twice(x):
        return 2 * x

    assert twice._cache._cache_file._load_index() is not None, WHERE
    assert Path(twice._cache._cache_path).is_dir(), WHERE
    assert twice._cache._cache_file._index_name.endswith(".nbi"), WHERE
    assert twice(21) == 42 and numba_internals.has_cached_code(twice)


def test_a_stack_array_holds_what_is_written_into_it():
    @njit(_nrt=False)
    def squares(n):
        room = stack_array(16)
        for i in range(16):
            room[i] = i * i
        total = 0
        for i in range(n):
            total += room[i]
        return total

    assert squares(16) == int(np.sum(np.arange(16) ** 2))
