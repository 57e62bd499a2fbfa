"""Nash averaging (Balduzzi et al. 2018, "Re-evaluating evaluation"): the agents rated against
the maximum-entropy Nash equilibrium of the tournament's meta-game.

The meta-game is the symmetric zero-sum game whose payoff matrix is the antisymmetric score
margin ``A[i, j] = 2 s_ij - 1`` (s_ij: agent i's score against agent j, a draw half a win): each
player picks an agent, and the row's agent scores that margin against the column's. Its value
is 0, and its equilibria are the mixtures p of agents with ``A p <= 0`` (no agent does better
than even against p). Among them the one of maximum entropy is unique: it spreads its mass
evenly over agents that are copies of one another. An agent's Nash average is ``(A p)_i``, its
expected margin against that mixture: 0 for the agents the equilibrium plays, below 0 for the
others. Adding a copy of an agent leaves the averages of every agent as they were (the copy
shares its original's mass), and beating a weak agent by more earns nothing while the
equilibrium does not play it, unlike a mean score or a Bradley-Terry rating.

The equilibrium is computed in two exact steps, with nothing beyond numpy:

1. One linear programme, solved by a small two-phase simplex with Bland's rule (`_simplex`),
   finds a point in the relative interior of the set of equilibria, and so which agents some
   equilibrium plays and which of the constraints ``(A p)_j <= 0`` every equilibrium meets with
   equality (the standard programme: maximise the number of constraints met with a slack of 1
   over the cone ``p >= 0, A p <= 0``).
2. On the affine set those equalities leave, the entropy is maximised by Newton's method, the
   remaining constraints kept by a logarithmic barrier whose weight falls to 1e-12.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

_TOLERANCE = 1e-9  # a pivot, a singular value
_REDUCED_COST = 1e-7  # below this a reduced cost counts as 0 (the scores are game counts)


@dataclass(frozen=True)
class NashAveraging:
    """Each agent's mass in the maximum-entropy equilibrium and its Nash average, in the
    order of `agents`."""

    agents: tuple[str, ...]
    mass: tuple[float, ...]
    average: tuple[float, ...]

    def ranking(self, rating: Mapping[str, float] | None = None) -> list[tuple[str, float, float]]:
        """(agent, mass, Nash average), the highest average first; agents level on it by mass,
        then by `rating` (the leaderboard's: the higher first), then by name, so that tied
        agents come in one order whatever the order they were given in (averages and masses
        equal to 9 decimals count as equal: the solver's last digits are noise)."""
        rating = rating or {}

        def key(row: tuple[str, float, float]) -> tuple[float, float, float, str]:
            agent, mass, average = row
            return -round(average, 9), -round(mass, 9), -rating.get(agent, 0.0), agent

        return sorted(zip(self.agents, self.mass, self.average, strict=True), key=key)


def score_margins(scores: np.ndarray) -> np.ndarray:
    """The antisymmetric margin matrix ``2 s - 1`` of a matrix of scores (s_ij + s_ji = 1;
    the diagonal is 0)."""
    margins = 2 * np.asarray(scores, dtype=float) - 1
    np.fill_diagonal(margins, 0.0)
    return (margins - margins.T) / 2  # exactly antisymmetric


def nash_average(agents: Sequence[str], scores: np.ndarray) -> NashAveraging:
    """Nash averaging of `agents` from `scores[i, j]`, agent i's score against agent j."""
    margins = score_margins(scores)
    mass = max_entropy_equilibrium(margins)
    return NashAveraging(tuple(agents), tuple(map(float, mass)), tuple(map(float, margins @ mass)))


def max_entropy_equilibrium(margins: np.ndarray) -> np.ndarray:
    """The maximum-entropy mixture p with ``margins @ p <= 0`` (`margins` antisymmetric)."""
    n = len(margins)
    interior, plays, equal = _relative_interior(margins)
    rows = np.vstack([np.ones((1, plays.sum())), margins[np.ix_(equal, plays)]])
    _, singular, vt = np.linalg.svd(rows)
    rank = int(np.sum(singular > _TOLERANCE * max(1.0, singular.max(initial=0.0))))
    free = vt[rank:].T  # directions that keep every equality
    kept = margins[np.ix_(~equal, plays)]  # rows that must stay below 0
    mass = np.zeros(n)
    mass[plays] = interior[plays] if free.size == 0 else _max_entropy(interior[plays], free, kept)
    return mass


def _relative_interior(margins: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A mixture in the relative interior of the equilibria, the agents some equilibrium plays,
    and the rows j with ``(margins @ p)_j == 0`` for every equilibrium p."""
    n = len(margins)
    k = 2 * n  # constraints: p_i >= 0 and -(A p)_j >= 0
    # variables: p (n), t (k), slacks of the constraints (k), slacks of t <= 1 (k)
    size = n + 3 * k
    rows = np.zeros((2 * k, size))
    rows[:n, :n] = np.eye(n)  # p_i - t_i - slack = 0
    rows[n:k, :n] = -margins  # -(A p)_j - t_{n+j} - slack = 0
    rows[:k, n : n + k] = -np.eye(k)
    rows[:k, n + k : n + 2 * k] = -np.eye(k)
    rows[k:, n : n + k] = np.eye(k)  # t + slack = 1
    rows[k:, n + 2 * k :] = np.eye(k)
    bounds = np.concatenate([np.zeros(k), np.ones(k)])
    objective = np.zeros(size)
    objective[n : n + k] = 1
    x = _simplex(objective, rows, bounds)
    met = x[n : n + k] > 0.5  # each t is 0 or 1 at the optimum
    return x[:n] / x[:n].sum(), met[:n], ~met[n:]


def _max_entropy(start: np.ndarray, free: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Maximise the entropy of ``start + free @ z`` (kept positive) with ``kept @ p < 0``, by
    Newton's method on a barrier of falling weight."""
    p = start.copy()

    def value(q: np.ndarray, weight: float) -> float:
        return float(-np.sum(q * np.log(q)) + weight * np.sum(np.log(-(kept @ q))))

    def inside(q: np.ndarray) -> bool:
        return bool(np.all(q > 0) and np.all(kept @ q < 0))

    for weight in 10.0 ** -np.arange(2, 13):
        for _ in range(100):
            slack = -(kept @ p)
            gradient = -(np.log(p) + 1) - weight * (kept.T @ (1 / slack))
            hessian = -np.diag(1 / p) - weight * (kept.T * (1 / slack**2)) @ kept
            g, h = free.T @ gradient, free.T @ hessian @ free
            step = free @ np.linalg.solve(h, -g)
            decrement = float(-g @ np.linalg.solve(h, g))
            if decrement < 1e-20:
                break
            size, now = 1.0, value(p, weight)
            while not inside(p + size * step) or value(p + size * step, weight) < now:
                size /= 2
                if size < 1e-12:
                    break
            if size < 1e-12:
                break
            p = p + size * step
    return p


def _simplex(objective: np.ndarray, rows: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """A maximiser of ``objective @ x`` subject to ``rows @ x == bounds`` and ``x >= 0`` (a
    feasible, bounded programme with ``bounds >= 0``): two phases, Bland's rule."""
    m, n = rows.shape
    table = np.zeros((m + 1, n + m + 1))
    table[:m, :n] = rows
    table[:m, n : n + m] = np.eye(m)
    table[:m, -1] = bounds
    basis = list(range(n, n + m))
    table[-1, :n] = -rows.sum(axis=0)  # phase 1: drive the artificial variables to 0
    table[-1, -1] = -bounds.sum()
    _optimise(table, basis, n + m)
    if table[-1, -1] < -_REDUCED_COST:
        raise ValueError("the linear programme has no solution")
    for r, column in enumerate(basis):  # artificial variables still basic (at 0) leave
        if column >= n:
            entering = np.flatnonzero(np.abs(table[r, :n]) > _TOLERANCE)
            if entering.size:
                _pivot(table, basis, r, int(entering[0]))
    table[-1] = 0
    table[-1, :n] = -objective
    for r, column in enumerate(basis):
        if column < n:
            table[-1] -= table[-1, column] * table[r]
    _optimise(table, basis, n)
    x = np.zeros(n + m)
    x[basis] = table[:m, -1]
    return x[:n]


def _optimise(table: np.ndarray, basis: list[int], columns: int) -> None:
    """Pivot until no reduced cost among the first `columns` is negative (Bland's rule)."""
    while True:
        negative = np.flatnonzero(table[-1, :columns] < -_REDUCED_COST)
        if negative.size == 0:
            return
        entering = int(negative[0])
        column = table[:-1, entering]
        candidates = np.flatnonzero(column > _TOLERANCE)
        if candidates.size == 0:
            raise ValueError("the linear programme is unbounded")
        ratios = table[candidates, -1] / column[candidates]
        best = candidates[ratios <= ratios.min() + _TOLERANCE]
        leaving = int(min(best, key=lambda r: basis[r]))
        _pivot(table, basis, leaving, entering)


def _pivot(table: np.ndarray, basis: list[int], row: int, column: int) -> None:
    table[row] /= table[row, column]
    for r in range(len(table)):
        if r != row:
            table[r] -= table[r, column] * table[row]
    basis[row] = column
