"""PUCT tree search with a policy-value network, compiled: what ``az:...,simulations=N`` runs.

The tree lives in preallocated arrays (a node a row: its state, its mover, the network's priors
of its moves, each move's visits, summed value and child). A simulation walks down choosing
``argmax Q + c * P * sqrt(N + 1) / (1 + n)`` (Q a move's mean value for the node's mover, P its
prior, n its visits, N the node's), makes the child it reaches with the engine's `step` (the
rule set's own: the search is derived for the rules of its game, `search_kernels`), asks
the network for its priors and value (a finished game counts its result: +1, 0, -1) and backs
the value up, its sign flipping where the player to move changes (an extra turn keeps it).

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
    network's priors of its legal moves; return its value for its mover."""
    states, ints, priors, visits, values, children = tree
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
        return 0.0 if winner < 0 else (1.0 if winner == mover else -1.0)
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
    return value


@njit(cache=True)
def new_tree(state, params, net, tree, scratch):
    """Make `state` the root (node 0); return the number of nodes (1)."""
    tree[0][0, :] = state
    _expand(0, tree, params, net, scratch)
    return 1


@njit(cache=True)
def simulate(count, n_nodes, c, params, net, tree, scratch, path_nodes, path_actions):
    """Run `count` simulations from the root (fewer when the tree is full); return the number
    of nodes then."""
    states, ints, priors, visits, values, children = tree
    n_actions = priors.shape[1]
    capacity = states.shape[0]
    for _ in range(count):
        if n_nodes >= capacity:
            break
        node = 0
        depth = 0
        value = 0.0
        seen_by = 0
        while True:
            if ints[node, FINISHED] == 1:
                winner = states[node, L.WINNER]
                seen_by = ints[node, MOVER]
                value = 0.0 if winner < 0 else (1.0 if winner == seen_by else -1.0)
                break
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


def search_kernels(game: Game) -> SimpleNamespace:
    """This module's kernels for `game`'s rules (`mancala_env.kernels`): the simulations step
    with the rule set's own `step` and observe with its own `write_observation`."""
    return kernels_for(game.variant, game.params, (*HOT_MODULES, __name__), uses=("simulate",))


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
        _, _, priors, visits, values, _ = self.tree
        return priors[0], visits[0], values[0]
