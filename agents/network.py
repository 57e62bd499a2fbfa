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

import io
import json
import math
import os
import reprlib
import warnings
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.inputs import integer, is_integer
from mancala_env.observation import observation_high
from mancala_env.readers import (
    NpzArchive,
    ReadError,
    content_identity,
    file_identity,
    parse_json,
    read_bytes,
)
from mancala_env.variants import VARIANTS, get_variant

FORMAT_NAME = "mancala-az-network"
FORMAT_VERSION = 1
COUNT_CAP = 24  # an observed number is also seen one-hot up to this count (Oware's half)
MAX_NETWORK_BYTES = 256 * 1024 * 1024  # no network this code writes is larger, nor its weights
MAX_META_BYTES = 64 * 1024  # a meta is a few hundred bytes
SHIPPED = Path(__file__).parent / "networks"  # the networks that ship: RULE_SET.npz
# the policies PPO self-play trained (``mancala train --algo batched-ppo``), in this format too:
# RULE_SET.npz, played as ``ppo:RULE_SET`` (their most likely legal move)
POLICIES = Path(__file__).parent / "policies"
# Rule sets that are another's rules under another name, and so play its network: Kpo is Oware
# (variants/oware.py: the same options and readings, so the same parameters and observations).
SAME_RULES = {"kpo": "oware"}


class NetworkError(ValueError):
    """A network file that cannot be read, or that does not fit the game it is asked to play."""


class OlderRulesWarning(UserWarning):
    """A network fitted to a rule set's earlier version plays its current one."""


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
        if self.variant not in (game.variant.name, SAME_RULES.get(game.variant.name)):
            raise NetworkError(f"the network {where} plays {self.variant}, not {game.variant.name}")
        if len(high) != len(self.high) or game.n_actions != self.meta["n_actions"]:
            raise NetworkError(
                f"the network {where} (observations ({len(self.high)},), "
                f"{self.meta['n_actions']} actions) does not fit {game.variant.name} under "
                f"these options (observations ({len(high)},), {game.n_actions} actions)"
            )
        version, fitted = game.variant.version_of(game.options), self.meta["rules_version"]
        if fitted != version:
            warnings.warn(
                f"the network {where} was fitted to {self.variant} v{fitted}; these rules are "
                f"v{version} ({game.variant.env_id(version)}), so it may play worse",
                OlderRulesWarning,
                stacklevel=2,
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
    fmt = meta.get("format") if isinstance(meta, dict) else None
    if (
        not isinstance(fmt, dict)
        or fmt.get("name") != FORMAT_NAME
        or not is_integer(fmt.get("version"))
        or fmt["version"] != FORMAT_VERSION
    ):
        raise ValueError(f"it is not a {FORMAT_NAME} file of version {FORMAT_VERSION}")
    for key in ("variant", "rules_version", "observation_high", "caps", "n_actions", "hidden"):
        if key not in meta:
            raise ValueError(f"its meta has no {key!r}")
    if not isinstance(meta["variant"], str) or meta["variant"] not in VARIANTS:
        shown = reprlib.repr(meta["variant"])
        raise ValueError(f"its meta's variant {shown} is not a rule set")
    current = get_variant(meta["variant"]).version
    integer(meta["rules_version"], f"its meta's rules_version ({meta['variant']})", 0, current)
    high, caps, hidden = meta["observation_high"], meta["caps"], meta["hidden"]
    sizes = [high, caps, hidden]
    if not all(isinstance(s, list) and all(is_integer(v) and v >= 0 for v in s) for s in sizes):
        raise ValueError("its observation sizes, caps and layer widths are not counts")
    if len(high) != len(caps) or caps != [int(c) for c in encoding_caps(np.array(high))]:
        raise ValueError("its encoding caps do not fit its observation")
    if not is_integer(meta["n_actions"]) or meta["n_actions"] < 1 or not all(hidden):
        raise ValueError("its action count or a layer width is not positive")


def weight_shapes(meta: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """The arrays a network file of this `meta` holds besides the meta, and their shapes."""
    widths = [encoded_size(np.array(meta["caps"])), *meta["hidden"]]
    shapes: dict[str, tuple[int, ...]] = {}
    names = [f"layer_{i}" for i in range(len(meta["hidden"]))]
    ends = [*widths[1:], meta["n_actions"], 1]
    starts = [*widths, widths[-1]]
    for name, inputs, outputs in zip([*names, "policy", "value"], starts, ends, strict=True):
        shapes[f"{name}_weight"] = (inputs, outputs)
        shapes[f"{name}_bias"] = (outputs,)
    return shapes


def float32_bytes(meta: dict[str, Any]) -> int:
    """Bytes of the weights of a network of this `meta` as float32 (what torch fits)."""
    return 4 * sum(math.prod(shape) for shape in weight_shapes(meta).values())


def parse_network(content: bytes, where: Any = "the network") -> Network:
    """The network in `content` (an ``.npz`` file's bytes), every member checked against the
    names and sizes its meta gives before it is inflated; ValueError says what does not fit."""
    if len(content) > MAX_NETWORK_BYTES:
        raise ReadError(where, f"it is over {MAX_NETWORK_BYTES:,} bytes")
    with NpzArchive(content, where, MAX_NETWORK_BYTES) as archive:
        declared = archive.members.get("meta")
        if declared is None or declared.dtype != np.uint8 or len(declared.shape) != 1:
            raise ReadError(where, "it has no meta (JSON bytes)")
        if declared.nbytes > MAX_META_BYTES:
            raise ReadError(where, f"its meta is over {MAX_META_BYTES:,} bytes")
        meta = parse_json(archive.array("meta").tobytes(), f"{where} meta")
        try:
            _check_meta(meta)
        except ValueError as error:
            raise ReadError(where, str(error)) from None
        shapes = weight_shapes(meta)
        archive.expect({"meta": (declared.shape, "u"), **{n: (s, "f") for n, s in shapes.items()}})
        arrays = {name: archive.array(name) for name in shapes}
    for name, array in arrays.items():
        if not np.all(np.isfinite(array)):
            raise ReadError(where, f"its {name} weights are not all finite")

    def pair(name: str) -> tuple[np.ndarray, np.ndarray]:
        return arrays[f"{name}_weight"].astype(np.float32), arrays[f"{name}_bias"].astype(
            np.float32
        )

    layers = tuple(pair(f"layer_{i}") for i in range(len(meta["hidden"])))
    return Network(meta, layers, pair("policy"), pair("value"))


def shipped_policy(name: str) -> Path | None:
    """The file of the shipped PPO policy `name` (a rule set's name; ``kpo`` is Oware's,
    `SAME_RULES`), or None when `name` names none."""
    path = POLICIES / f"{SAME_RULES.get(name, name)}.npz"
    is_name = os.sep not in name and "." not in name
    return path if is_name and path.is_file() else None


def shipped_policies() -> list[str]:
    """The names `shipped_policy` knows."""
    found = {path.stem for path in POLICIES.glob("*.npz")}
    return sorted(found | {alias for alias, owner in SAME_RULES.items() if owner in found})


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
    try:
        content = read_bytes(path, MAX_NETWORK_BYTES)
        network = parse_network(content, repr(str(path)))
    except ValueError as error:
        raise NetworkError(f"cannot load a network: {error}") from None
    return network, content_identity(content)


def network_identity(name: str | os.PathLike) -> str:
    """What the network `name` names is: the hash of its file's bytes, read in chunks once
    the file is known to be no larger than a network (nothing is loaded)."""
    path = network_file(name)
    try:
        return file_identity(path, MAX_NETWORK_BYTES)
    except ValueError as error:
        raise NetworkError(f"cannot load a network: {error}") from None
