"""The compiled tree searches with a policy-value network: what ``az:...,simulations=N`` runs.

The tree lives in preallocated arrays (a node a row: its state, its mover, the network's priors
of its moves and its value of the node, each move's visits, summed value and child). A
simulation walks down choosing a move at each node, makes the child it reaches with the engine's
`step` (the rule set's own: the search is derived for the rules of its game, `search_kernels`),
asks the network for its priors and value (a finished game counts its result: +1, 0, -1) and
backs the value up, its sign flipping where the player to move changes (an extra turn keeps
it), so that a move's summed value is always for the mover of the node it leaves.

Two searches share that tree, the walk and the back-up (`_simulation`); they differ in how they
choose a move:

- PUCT (AlphaZero's, without its noise; `simulate`): ``argmax Q + c * P * sqrt(N + 1) / (1 + n)``
  everywhere (Q a move's mean value for the node's mover, P its prior, n its visits, N the
  node's).
- Gumbel (Danihelka et al., "Policy improvement by planning with Gumbel", ICLR 2022, as
  DeepMind's mctx writes it; `gumbel_simulate`): at the root, sequential halving over the
  moves sampled by Gumbel-top-k (`considered_visits`, mctx's `seq_halving`); below it, the
  deterministic choice of mctx's `gumbel_muzero_interior_action_selection`, the move whose
  share of the node's visits lags most behind the improved policy
  ``softmax(logits + sigma(completed Q))`` (`improved_logits`, mctx's
  `qtransform_completed_by_mix_value`). `gumbel_search` runs one and returns the move and that
  improved policy at the root, the target a policy is trained towards; `puct_search` runs a
  PUCT search of a fixed count and returns its move and the root's visit shares, AlphaZero's
  target.

The network's forward pass is `mancala_env.agents.network.Network.forward`'s, one position at a
time: the first layer sums the weight rows its one-hot inputs pick, the others are matrix-vector
products.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.engine.jit import njit
from mancala_env.engine.turn import step
from mancala_env.kernels import HOT_MODULES, kernels_for
from mancala_env.observation import MAX_OBSERVATION, write_observation

from .network import Network, one_hot_starts

# a node's row in `ints`
MOVER = 0
FINISHED = 1  # 1: the game is over at this node (not `layout.OVER`: a derived module reads
# the layout's constants by their names)
N_INTS = 2
# how `_simulation` chooses a move below the root
PUCT = 0
GUMBEL = 1


@njit(cache=True, fastmath=True)
def forward(observation, n_observed, net, logits, hidden_a, hidden_b):
    """The network of `net` (scale, starts, caps, first weight and bias, then the other
    layers' weights and biases, the policy and value heads) on one observation: writes the
    logits, returns the value."""
    scale, starts, caps, first_weight, first_bias, weights, biases, head, head_bias = net
    width = first_bias.shape[0]
    for j in range(width):
        hidden_a[j] = first_bias[j]
    for i in range(n_observed):
        x = observation[i] * scale[i]
        if x != 0.0:
            for j in range(width):
                hidden_a[j] += x * first_weight[i, j]
        if caps[i] > 0:
            count = min(max(observation[i], 0), caps[i])
            row = starts[i] + count
            for j in range(width):
                hidden_a[j] += first_weight[row, j]
    for j in range(width):
        hidden_a[j] = max(hidden_a[j], 0.0)
    current, spare = hidden_a, hidden_b
    for layer in range(len(weights)):
        weight, bias = weights[layer], biases[layer]
        outputs = bias.shape[0]
        for j in range(outputs):
            spare[j] = bias[j]
        for i in range(width):
            x = current[i]
            if x != 0.0:
                for j in range(outputs):
                    spare[j] += x * weight[i, j]
        for j in range(outputs):
            spare[j] = max(spare[j], 0.0)
        current, spare = spare, current
        width = outputs
    n_actions = logits.shape[0]
    for a in range(n_actions + 1):
        total = head_bias[a]
        for i in range(width):
            total += current[i] * head[i, a]
        if a < n_actions:
            logits[a] = total
        else:
            return math.tanh(total)
    return 0.0


@njit(cache=True)
def _expand(node, tree, params, net, scratch):
    """Fill in `node` (its state already written): its mover, whether the game is over, the
    network's priors of its legal moves and its value for its mover (a finished game's result),
    which it returns."""
    states, ints, priors, visits, values, children, estimates = tree
    observation, logits, hidden_a, hidden_b = scratch
    state = states[node]
    mover = state[L.TO_MOVE]
    ints[node, MOVER] = mover
    n_actions = priors.shape[1]
    for a in range(n_actions):
        visits[node, a] = 0.0
        values[node, a] = 0.0
        children[node, a] = -1
        priors[node, a] = 0.0
    if state[L.OVER] == 1:
        ints[node, FINISHED] = 1
        winner = state[L.WINNER]
        estimates[node] = 0.0 if winner < 0 else (1.0 if winner == mover else -1.0)
        return estimates[node]
    ints[node, FINISHED] = 0
    n = write_observation(state, mover, params, observation, False)
    value = forward(observation, n, net, logits, hidden_a, hidden_b)
    top = -np.inf
    for a in range(n_actions):
        if state[L.LEGAL + a] != 0 and logits[a] > top:
            top = logits[a]
    total = 0.0
    for a in range(n_actions):
        if state[L.LEGAL + a] != 0:
            priors[node, a] = math.exp(logits[a] - top)
            total += priors[node, a]
    for a in range(n_actions):
        priors[node, a] /= total
    estimates[node] = value
    return value


@njit(cache=True)
def new_tree(state, params, net, tree, scratch):
    """Make `state` the root (node 0); return the number of nodes (1)."""
    tree[0][0, :] = state
    _expand(0, tree, params, net, scratch)
    return 1


@njit(cache=True)
def _puct_action(node, priors, visits, values, c):
    """The legal move of `node` with the highest ``Q + c * P * sqrt(N + 1) / (1 + n)``."""
    n_actions = priors.shape[1]
    total = 0.0
    for a in range(n_actions):
        total += visits[node, a]
    root_n = math.sqrt(total + 1.0)
    best, best_score = -1, -np.inf
    for a in range(n_actions):
        if priors[node, a] <= 0.0:
            continue
        q = values[node, a] / visits[node, a] if visits[node, a] > 0 else 0.0
        score = q + c * priors[node, a] * root_n / (1.0 + visits[node, a])
        if score > best_score:
            best, best_score = a, score
    return best


@njit(cache=True)
def improved_logits(node, tree, c_visit, c_scale, out):
    """Write to `out` the logits of `node`'s improved policy, ``log P + sigma(completed Q)``
    for its legal moves and -inf for the others (mctx's `qtransform_completed_by_mix_value`
    without its min-max rescaling, as the paper writes it).

    A visited move's Q is its mean value for the node's mover; an unvisited one's is the mixed
    value ``(v + N * sum_b P(b) Q(b) / sum_b P(b)) / (N + 1)`` (the sums over the visited
    moves b; v the network's value of the node, N its visits). Values, -1 to 1 here, count on
    the paper's 0-to-1 scale (``(Q + 1) / 2``) in
    ``sigma(q) = (c_visit + max_b n(b)) * c_scale * q``. Log P is the logits less a constant,
    which neither a softmax nor an argmax sees."""
    states, ints, priors, visits, values, children, estimates = tree
    n_actions = priors.shape[1]
    total, most, weighted, weights = 0.0, 0.0, 0.0, 0.0
    for a in range(n_actions):
        if visits[node, a] > 0:
            prior = max(priors[node, a], 2.2250738585072014e-308)  # mctx's: no 0 / 0
            total += visits[node, a]
            most = max(most, visits[node, a])
            weighted += prior * values[node, a] / visits[node, a]
            weights += prior
    mixed = estimates[node]
    if total > 0:
        mixed = (estimates[node] + total * weighted / weights) / (total + 1.0)
    scale = (c_visit + most) * c_scale
    for a in range(n_actions):
        if states[node, L.LEGAL + a] == 0:
            out[a] = -np.inf
            continue
        q = values[node, a] / visits[node, a] if visits[node, a] > 0 else mixed
        out[a] = math.log(max(priors[node, a], 2.2250738585072014e-308)) + scale * (q + 1.0) / 2.0


@njit(cache=True)
def _gumbel_action(node, tree, c_visit, c_scale, improved):
    """The legal move of `node` whose share of its visits lags most behind the improved policy:
    ``argmax pi'(a) - n(a) / (1 + N)`` (mctx's `gumbel_muzero_interior_action_selection`), so
    the visits follow pi' as they grow. `improved`: room for the improved policy's logits."""
    visits = tree[3]
    n_actions = visits.shape[1]
    improved_logits(node, tree, c_visit, c_scale, improved)
    top, total, mass = -np.inf, 0.0, 0.0
    for a in range(n_actions):
        top = max(top, improved[a])
        total += visits[node, a]
    for a in range(n_actions):
        mass += math.exp(improved[a] - top)
    best, best_score = -1, -np.inf
    for a in range(n_actions):
        if improved[a] == -np.inf:
            continue
        score = math.exp(improved[a] - top) / mass - visits[node, a] / (1.0 + total)
        if score > best_score:
            best, best_score = a, score
    return best


@njit(cache=True)
def _simulation(first, rule, n_nodes, c, c_visit, c_scale, params, net, tree, scratch,
                path_nodes, path_actions, improved):  # fmt: skip
    """One simulation: walks down from the root, playing `first` there (any move below it, or
    at the root too when `first` is -1, chosen by `rule`: PUCT with `c`, GUMBEL with `c_visit`
    and `c_scale`), makes and evaluates the node it reaches and backs its value up; returns
    the number of nodes then."""
    states, ints, priors, visits, values, children, estimates = tree
    node = 0
    depth = 0
    value = 0.0
    seen_by = 0
    while True:
        if ints[node, FINISHED] == 1:
            seen_by = ints[node, MOVER]
            value = estimates[node]
            break
        if depth == 0 and first >= 0:
            best = first
        elif rule == PUCT:
            best = _puct_action(node, priors, visits, values, c)
        else:
            best = _gumbel_action(node, tree, c_visit, c_scale, improved)
        path_nodes[depth] = node
        path_actions[depth] = best
        depth += 1
        child = children[node, best]
        if child < 0:
            child = n_nodes
            n_nodes += 1
            states[child, :] = states[node]
            step(states[child], best, params)
            children[node, best] = child
            value = _expand(child, tree, params, net, scratch)
            seen_by = ints[child, MOVER]
            break
        node = child
        if depth >= path_nodes.shape[0]:
            seen_by = ints[node, MOVER]
            value = 0.0
            break
    for k in range(depth - 1, -1, -1):
        parent, action = path_nodes[k], path_actions[k]
        visits[parent, action] += 1.0
        values[parent, action] += value if ints[parent, MOVER] == seen_by else -value
    return n_nodes


@njit(cache=True)
def simulate(count, n_nodes, c, params, net, tree, scratch, path_nodes, path_actions):
    """Run `count` PUCT simulations from the root (fewer when the tree is full); return the
    number of nodes then."""
    capacity = tree[0].shape[0]
    improved = np.empty(0)  # PUCT's choice needs no improved policy
    for _ in range(count):
        if n_nodes >= capacity:
            break
        n_nodes = _simulation(-1, PUCT, n_nodes, c, 0.0, 0.0, params, net, tree, scratch,
                              path_nodes, path_actions, improved)  # fmt: skip
    return n_nodes


@njit(cache=True)
def gumbel_simulate(n_nodes, considered, gumbel, c_visit, c_scale, params, net, tree, scratch,
                    path_nodes, path_actions):  # fmt: skip
    """Run a Gumbel search's simulations from the root (one a number of `considered`, fewer
    when the tree is full); return the number of nodes then.

    Simulation i plays at the root, among the legal moves visited `considered[i]` times, the
    one with the highest ``g + log P + sigma(completed Q)`` (`gumbel`: g, a Gumbel sample per
    move): mctx's `gumbel_muzero_root_action_selection`. With `considered` from
    `considered_visits(m, ...)` that is sequential halving over the m moves Gumbel-top-k draws,
    the best half of them by that score kept at each round."""
    states, ints, priors, visits, values, children, estimates = tree
    n_actions = priors.shape[1]
    capacity = states.shape[0]
    improved = np.empty(n_actions)
    for i in range(considered.shape[0]):
        if n_nodes >= capacity:
            break
        improved_logits(0, tree, c_visit, c_scale, improved)
        first, best_score = -1, -np.inf
        for a in range(n_actions):
            if visits[0, a] == considered[i] and improved[a] > -np.inf:
                score = gumbel[a] + improved[a]
                if score > best_score:
                    first, best_score = a, score
        n_nodes = _simulation(first, GUMBEL, n_nodes, 0.0, c_visit, c_scale, params, net, tree,
                              scratch, path_nodes, path_actions, improved)  # fmt: skip
    return n_nodes


def search_kernels(game: Game) -> SimpleNamespace:
    """This module's kernels for `game`'s rules (`mancala_env.kernels`): the simulations step
    with the rule set's own `step` and observe with its own `write_observation`."""
    return kernels_for(
        game.variant, game.params, (*HOT_MODULES, __name__), uses=("simulate", "gumbel_simulate")
    )


class Searcher:
    """The arrays of one agent's searches: a network's weights in the compiled layout and a
    tree of at most `capacity` nodes."""

    def __init__(self, network: Network, capacity: int = 1 << 17) -> None:
        high = network.high
        caps = network.caps
        starts = one_hot_starts(caps)
        first_weight, first_bias = network.layers[0]
        later = list(network.layers[1:])
        if not later:  # an identity layer: after a ReLU, the same numbers (numba wants a layer)
            width = len(first_bias)
            later = [(np.eye(width, dtype=np.float32), np.zeros(width, dtype=np.float32))]
        head = np.concatenate([network.policy[0], network.value[0]], axis=1)
        head_bias = np.concatenate([network.policy[1], network.value[1]])
        self.net = (
            (1.0 / np.maximum(high, 1)).astype(np.float32),
            starts,
            caps.astype(np.int64),
            np.ascontiguousarray(first_weight),
            np.ascontiguousarray(first_bias),
            tuple(np.ascontiguousarray(w) for w, _ in later),
            tuple(np.ascontiguousarray(b) for _, b in later),
            np.ascontiguousarray(head, dtype=np.float32),
            np.ascontiguousarray(head_bias, dtype=np.float32),
        )
        n_actions = int(network.meta["n_actions"])
        widest = max(network.meta["hidden"])
        self.tree = (
            np.zeros((capacity, L.STATE_SIZE), dtype=np.int32),
            np.zeros((capacity, N_INTS), dtype=np.int64),
            np.zeros((capacity, n_actions), dtype=np.float64),
            np.zeros((capacity, n_actions), dtype=np.float64),
            np.zeros((capacity, n_actions), dtype=np.float64),
            np.zeros((capacity, n_actions), dtype=np.int64),
            np.zeros(capacity, dtype=np.float64),
        )
        self.scratch = (
            np.zeros(MAX_OBSERVATION, dtype=np.int8),
            np.zeros(n_actions, dtype=np.float32),
            np.zeros(widest, dtype=np.float32),
            np.zeros(widest, dtype=np.float32),
        )
        self.path = (np.zeros(1024, dtype=np.int64), np.zeros(1024, dtype=np.int64))

    def root_stats(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The root's priors, visits and summed values."""
        _, _, priors, visits, values, _, _ = self.tree
        return priors[0], visits[0], values[0]


def considered_visits(considered: int, simulations: int) -> np.ndarray:
    """The visits a root move must have to be chosen at each of `simulations` simulations of
    sequential halving over `considered` moves (mctx's `get_sequence_of_considered_visits`):
    each round gives every move still considered ``max(1, simulations // (log2 m * m_now))``
    visits, then keeps the better half (two at least)."""
    if considered <= 1:
        return np.arange(simulations, dtype=np.float64)
    rounds = math.ceil(math.log2(considered))
    sequence: list[int] = []
    visits = [0] * considered
    kept = considered
    while len(sequence) < simulations:
        for _ in range(max(1, int(simulations / (rounds * kept)))):
            sequence.extend(visits[:kept])
            for i in range(kept):
                visits[i] += 1
        kept = max(2, kept // 2)
    return np.array(sequence[:simulations], dtype=np.float64)


def gumbel_search(
    searcher: Searcher,
    kernels: SimpleNamespace,
    game: Game,
    simulations: int,
    gumbel: np.ndarray,
    considered: int,
    c_visit: float,
    c_scale: float,
) -> tuple[int, np.ndarray]:
    """A Gumbel search of `simulations` simulations from `game`'s position (its kernels:
    `search_kernels`; `gumbel`: a Gumbel(0, 1) sample per action, the search's only chance)
    over ``min(considered, legal moves)`` root moves; returns the move it chooses and the
    improved policy ``softmax(logits + sigma(completed Q))`` of the legal moves (zero
    elsewhere), mctx's `gumbel_muzero_policy`'s action and action weights. The move is the one
    of the most visited with the highest ``g + logits + sigma(completed Q)``: the survivor of
    sequential halving."""
    legal = game.legal_mask().astype(bool)
    params, net, tree = game.params, searcher.net, searcher.tree
    nodes = kernels.new_tree(game.state, params, net, tree, searcher.scratch)
    schedule = considered_visits(min(considered, int(legal.sum())), simulations)
    kernels.gumbel_simulate(nodes, schedule, gumbel, c_visit, c_scale, params, net, tree,
                            searcher.scratch, *searcher.path)  # fmt: skip
    logits = np.empty(len(legal))
    kernels.improved_logits(0, tree, c_visit, c_scale, logits)
    visits = searcher.root_stats()[1]
    survivors = legal & (visits == visits[legal].max())
    action = int(np.argmax(np.where(survivors, gumbel + logits, -np.inf)))
    weights = np.where(legal, np.exp(logits - logits[legal].max()), 0.0)
    return action, weights / weights.sum()


def most_visited(priors: np.ndarray, visits: np.ndarray) -> int:
    """The most visited root move, ties going to the network's favourite: PUCT's choice."""
    most = np.flatnonzero(visits == visits.max())
    return int(most[np.argmax(priors[most])])


def puct_search(
    searcher: Searcher, kernels: SimpleNamespace, game: Game, simulations: int, c: float
) -> tuple[int, np.ndarray]:
    """A PUCT search of `simulations` simulations from `game`'s position (`search_kernels`'s
    kernels, exploration constant `c`); returns its move (`most_visited`) and the root's visit
    shares, zero for the illegal moves (AlphaZero's policy target)."""
    params, net, tree = game.params, searcher.net, searcher.tree
    nodes = kernels.new_tree(game.state, params, net, tree, searcher.scratch)
    kernels.simulate(simulations, nodes, c, params, net, tree, searcher.scratch, *searcher.path)
    priors, visits, _ = searcher.root_stats()
    return most_visited(priors, visits), visits / visits.sum()
