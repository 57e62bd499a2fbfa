"""A policy-value network in plain numpy: what the ``az`` agent plays with and what
``mancala train --algo az`` fits (torch fits it; numpy alone plays it, so an installed suite
plays a shipped network without torch).

The network reads the observation of the player to move (`mancala_env.observation.observe`)
through `encode`, then fully connected ReLU layers, and gives one logit per action (the policy)
and a value in [-1, 1] (the mover's expected result: +1 a win, -1 a loss).

A network file is a numpy ``.npz`` read with ``allow_pickle=False``: nothing in it can run
code. It holds ``meta`` (UTF-8 JSON bytes: the format, the rule set and its version, the
observation and action sizes, the layer widths, the encoding's caps) and the weights
``layer_<i>_weight``/``layer_<i>_bias``, ``policy_weight``/``policy_bias``,
``value_weight``/``value_bias`` (float16 or float32, stored input by output).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.observation import observation_high

FORMAT_NAME = "mancala-az-network"
FORMAT_VERSION = 1
COUNT_CAP = 24  # an observed number is also seen one-hot up to this count (Oware's half)
MAX_NETWORK_BYTES = 256 * 1024 * 1024  # no network this code writes is larger
SHIPPED = Path(__file__).parent / "networks"  # the networks that ship: RULE_SET.npz
# Rule sets that are another's rules under another name, and so play its network: Kpo is Oware
# (variants/oware.py: the same options and readings, so the same parameters and observations).
SAME_RULES = {"kpo": "oware"}


class NetworkError(ValueError):
    """A network file that cannot be read, or that does not fit the game it is asked to play."""


def encoding_caps(high: np.ndarray) -> np.ndarray:
    """Each observed number's one-hot size less one (0: the number is read as it is)."""
    return np.where(high > 1, np.minimum(high, COUNT_CAP), 0).astype(np.int64)


def encoded_size(caps: np.ndarray) -> int:
    """How many inputs `encode` makes of an observation with these caps."""
    return int(len(caps) + np.sum(np.where(caps > 0, caps + 1, 0)))


def one_hot_starts(caps: np.ndarray) -> np.ndarray:
    """Where each observed number's one-hot slots begin among the inputs (0 for a number read
    as it is): after the scaled numbers, the counted numbers' slots one after another."""
    counted = caps > 0
    starts = np.zeros(len(caps), dtype=np.int64)
    starts[counted] = len(caps) + np.cumsum(np.concatenate(([0], caps[counted] + 1)))[:-1]
    return starts


def _slots(observations: np.ndarray, high: np.ndarray, caps: np.ndarray) -> np.ndarray:
    """The input slot set to 1 for each counted number of each row (rows x counted)."""
    counted = np.flatnonzero(caps > 0)
    starts = one_hot_starts(caps)[counted]
    return starts + np.minimum(np.maximum(observations[:, counted], 0), caps[counted])


def encode(observations: np.ndarray, high: np.ndarray, caps: np.ndarray) -> np.ndarray:
    """The network's inputs for a batch of observations (rows): every number scaled by its
    largest value, then, for numbers that count (`caps` > 0), a one-hot of the count with the
    counts beyond the cap sharing the last slot. Counting seeds one by one is what lets a
    small network see which sowings reach which pits."""
    observations = np.asarray(observations, dtype=np.int64).reshape(-1, len(high))
    n = observations.shape[0]
    out = np.zeros((n, encoded_size(caps)), dtype=np.float32)
    out[:, : len(high)] = observations / np.maximum(high, 1)
    out[np.arange(n)[:, None], _slots(observations, high, caps)] = 1.0
    return out


@dataclass(frozen=True, eq=False)
class Network:
    """The weights of a policy-value network and what they were fitted for (`meta`)."""

    meta: dict[str, Any]
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]  # (weight, bias): inputs x outputs
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]

    @property
    def variant(self) -> str:
        return self.meta["variant"]

    @cached_property
    def high(self) -> np.ndarray:
        return np.asarray(self.meta["observation_high"], dtype=np.int64)

    @cached_property
    def caps(self) -> np.ndarray:
        return np.asarray(self.meta["caps"], dtype=np.int64)

    def forward(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits (rows x actions) and values (rows) of a batch of observations. The first
        layer of `encode`'s mostly one-hot inputs is summed from the rows of its weights that
        the ones pick, which is the same product, several times faster."""
        high = self.high
        observations = np.asarray(observations, dtype=np.int64).reshape(-1, len(high))
        weight, bias = self.layers[0]
        scaled = (observations / np.maximum(high, 1)).astype(np.float32)
        slots = _slots(observations, high, self.caps)
        hidden = np.maximum(scaled @ weight[: len(high)] + weight[slots].sum(axis=1) + bias, 0)
        for weight, bias in self.layers[1:]:
            hidden = np.maximum(hidden @ weight + bias, 0.0)
        logits = hidden @ self.policy[0] + self.policy[1]
        value = np.tanh(hidden @ self.value[0] + self.value[1])[:, 0]
        return logits, value

    def check_game(self, game: Game, where: str) -> None:
        """NetworkError unless `game` is of the rule set, observation and actions the network
        was fitted for (any options of that rule set that keep those sizes play)."""
        high = observation_high(game.params)
        if SAME_RULES.get(game.variant.name, game.variant.name) != self.variant:
            raise NetworkError(f"the network {where} plays {self.variant}, not {game.variant.name}")
        if len(high) != len(self.high) or game.n_actions != self.meta["n_actions"]:
            raise NetworkError(
                f"the network {where} (observations ({len(self.high)},), "
                f"{self.meta['n_actions']} actions) does not fit {game.variant.name} under "
                f"these options (observations ({len(high)},), {game.n_actions} actions)"
            )

    def to_bytes(self, dtype: type = np.float32) -> bytes:
        """The network as an ``.npz`` file's bytes (`read_network` reads them back)."""
        arrays = {"meta": np.frombuffer(json.dumps(self.meta).encode(), dtype=np.uint8)}
        for i, (weight, bias) in enumerate(self.layers):
            arrays[f"layer_{i}_weight"] = weight.astype(dtype)
            arrays[f"layer_{i}_bias"] = bias.astype(dtype)
        for name, (weight, bias) in (("policy", self.policy), ("value", self.value)):
            arrays[f"{name}_weight"] = weight.astype(dtype)
            arrays[f"{name}_bias"] = bias.astype(dtype)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        return buffer.getvalue()


def network_meta(game: Game, hidden: list[int]) -> dict[str, Any]:
    """The `meta` of a new network for `game`'s rule set with these hidden layer widths."""
    high = observation_high(game.params)
    return {
        "format": {"name": FORMAT_NAME, "version": FORMAT_VERSION},
        "variant": game.variant.name,
        "rules_version": game.variant.version_of(game.options),
        "observation_high": [int(h) for h in high],
        "caps": [int(c) for c in encoding_caps(high)],
        "n_actions": int(game.n_actions),
        "hidden": [int(width) for width in hidden],
    }


def _check_meta(meta: Any) -> None:
    if not isinstance(meta, dict) or meta.get("format") != {
        "name": FORMAT_NAME,
        "version": FORMAT_VERSION,
    }:
        raise ValueError(f"it is not a {FORMAT_NAME} file of version {FORMAT_VERSION}")
    for key in ("variant", "observation_high", "caps", "n_actions", "hidden"):
        if key not in meta:
            raise ValueError(f"its meta has no {key!r}")
    high, caps, hidden = meta["observation_high"], meta["caps"], meta["hidden"]
    sizes = [high, caps, hidden]
    if not all(isinstance(s, list) and all(type(v) is int and v >= 0 for v in s) for s in sizes):
        raise ValueError("its observation sizes, caps and layer widths are not counts")
    if len(high) != len(caps) or caps != [int(c) for c in encoding_caps(np.array(high))]:
        raise ValueError("its encoding caps do not fit its observation")
    if type(meta["n_actions"]) is not int or meta["n_actions"] < 1 or not all(hidden):
        raise ValueError("its action count or a layer width is not positive")


def parse_network(content: bytes) -> Network:
    """The network in `content` (an ``.npz`` file's bytes), every array checked against the
    sizes its meta gives; ValueError says what does not fit."""
    if len(content) > MAX_NETWORK_BYTES:
        raise ValueError(f"it is over {MAX_NETWORK_BYTES:,} bytes")
    try:
        with np.load(io.BytesIO(content), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ValueError(f"it is not a numpy .npz file ({error})") from None
    if "meta" not in arrays or arrays["meta"].dtype != np.uint8:
        raise ValueError("it has no meta")
    try:
        meta = json.loads(arrays["meta"].tobytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"its meta is not JSON ({error})") from None
    _check_meta(meta)
    widths = [encoded_size(np.array(meta["caps"])), *meta["hidden"]]

    def pair(name: str, inputs: int, outputs: int) -> tuple[np.ndarray, np.ndarray]:
        weight, bias = arrays.get(f"{name}_weight"), arrays.get(f"{name}_bias")
        for array, shape in ((weight, (inputs, outputs)), (bias, (outputs,))):
            if array is None or array.shape != shape or array.dtype.kind != "f":
                raise ValueError(f"its {name} weights are not floats of shape {shape}")
            if not np.all(np.isfinite(array)):
                raise ValueError(f"its {name} weights are not all finite")
        return weight.astype(np.float32), bias.astype(np.float32)

    layers = tuple(pair(f"layer_{i}", widths[i], widths[i + 1]) for i in range(len(meta["hidden"])))
    policy = pair("policy", widths[-1], meta["n_actions"])
    value = pair("value", widths[-1], 1)
    return Network(meta, layers, policy, value)


def network_file(name: str | os.PathLike) -> Path:
    """The file `name` names: a shipped network's rule-set name (``oware``; ``kpo`` is Oware's,
    `SAME_RULES`), or a path."""
    text = os.fspath(name)
    shipped = SHIPPED / f"{SAME_RULES.get(text, text)}.npz"
    if os.sep not in text and "." not in text and shipped.is_file():
        return shipped
    path = Path(text)
    if not path.is_file():
        shipped = {p.stem for p in SHIPPED.glob("*.npz")}
        names = sorted(shipped | {alias for alias, owner in SAME_RULES.items() if owner in shipped})
        raise NetworkError(
            f"no network at {text!r}: give a network file's path or a shipped network "
            f"({', '.join(names) or 'none'})"
        )
    return path


def read_network(name: str | os.PathLike) -> tuple[Network, str]:
    """The network `name` names (`network_file`) and its identity (the hash of its bytes)."""
    path = network_file(name)
    with open(path, "rb") as file:
        content = file.read(MAX_NETWORK_BYTES + 1)
    try:
        network = parse_network(content)
    except ValueError as error:
        raise NetworkError(f"cannot load a network from {str(path)!r}: {error}") from None
    return network, network_identity_of(content)


def network_identity_of(content: bytes) -> str:
    return "sha256:" + hashlib.sha256(content).hexdigest()


def network_identity(name: str | os.PathLike) -> str:
    """What the network `name` names is: the hash of its file's bytes (nothing is loaded)."""
    with open(network_file(name), "rb") as file:
        return network_identity_of(file.read())
