"""The kernels' `njit` compiles a kernel once per argument type, whatever constants it is given."""

import numba

from mancala_env.engine.jit import njit


def kernels(decorator):
    @decorator
    def add(a, b):
        return a + b

    @decorator
    def caller(x):
        return add(x, 1) + add(x, 2) + add(1, x)

    return add, caller


def test_a_kernel_called_with_constants_compiles_once_per_type():
    add, caller = kernels(njit)
    assert caller(10) == 34
    assert len(add.signatures) == 1  # (int64, int64)
    plain_add, plain_caller = kernels(numba.njit)
    assert plain_caller(10) == 34
    assert len(plain_add.signatures) == 3  # numba's own: once for each literal
