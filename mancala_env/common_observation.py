"""One observation encoding for every rule set, so that one network can play several.

The raw observation (`mancala_env.observation`) differs in length between rule sets and holds
categories as integers. The common encoding (`observation="common"` in the AEC, Gymnasium and
vectorised environments) has the same `COMMON_SIZE` float32 numbers for every rule set, each
in [0, 1]:

- every number any rule set's observation has, in one fixed order (the pits and stores, the
  ownership, closed pits and rounds, the pregnant pits, Mangala's setting out, the special
  pieces and the decision asked); a number a rule set does not have is 0;
- counts divided by the largest value they can take under the rule set (its observation Box);
- categories one-hot, one number a category (`name=k`): a pregnant pit's holder, the phases, a
  piece's kind and place, the lifted and the Shepherd's pit;
- last, one number per rule set, 1 for the rule set being played.

`common_names()` names each number; `CommonEncoder(params, variant)` encodes raw observations
(one or a batch of rows). `COMMON_VERSION` changes whenever the numbers do.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from gymnasium import spaces

from .observation import Number, observation_high, observation_names, observation_spec
from .variants import VARIANTS


def _richest_params() -> list[np.ndarray]:
    """Parameters that between them show every block of the raw observation."""
    params = []
    for variant in VARIANTS.values():
        options = {f.name for f in dataclasses.fields(variant.options_type)}
        params.append(
            variant.params(variant.options(**({"match": True} if "match" in options else {})))
        )
    return params


def _raw_order() -> list[Number]:
    """Every raw number of every rule set, each once, in the order the observations give them."""
    order: dict[str, Number] = {}
    for params in _richest_params():
        for number in observation_spec(params):
            order.setdefault(number.name, number)
    return list(order.values())


def _expand(number: Number) -> list[str]:
    """The common encoding's names for a raw number: one a value of a category."""
    if number.categories:
        return [f"{number.name}={k}" for k in range(number.categories)]
    return [number.name]


COMMON_NAMES = [
    *(expanded for number in _raw_order() for expanded in _expand(number)),
    *(f"variant={name}" for name in VARIANTS),
]
COMMON_SIZE = len(COMMON_NAMES)
# The encoding's version: the next one with any change to its numbers (a rule set or a number
# added, or their order), so a network fitted on one version is never fed another unseen;
# tests/engine/test_layout_pins.py pins each version's size and names.
COMMON_VERSION = 1
_POSITION = {name: i for i, name in enumerate(COMMON_NAMES)}


def common_names() -> list[str]:
    """The name of each number of the common encoding."""
    return list(COMMON_NAMES)


class CommonEncoder:
    """Encodes raw observations of one rule set under `params` in the common encoding."""

    def __init__(self, params: np.ndarray, variant: str) -> None:
        spec = observation_spec(params)
        names = [number.name for number in spec]
        high = observation_high(params).astype(np.float32)
        counts = [i for i, number in enumerate(spec) if not number.categories]
        categories = [i for i, number in enumerate(spec) if number.categories]
        self._count_from = np.array(counts, dtype=np.int64)
        self._count_to = np.array([_POSITION[names[i]] for i in counts], dtype=np.int64)
        self._count_scale = 1.0 / np.maximum(high[counts], 1.0)
        self._category_from = np.array(categories, dtype=np.int64)
        self._category_to = np.array([_POSITION[f"{names[i]}=0"] for i in categories], np.int64)
        self._variant = _POSITION[f"variant={variant}"]

    def encode(self, raw: np.ndarray) -> np.ndarray:
        """The common encoding of a raw observation, or of each row of a batch of them."""
        rows = np.atleast_2d(raw)
        out = np.zeros((rows.shape[0], COMMON_SIZE), dtype=np.float32)
        out[:, self._count_to] = rows[:, self._count_from] * self._count_scale
        picked = self._category_to + rows[:, self._category_from].astype(np.int64)
        np.put_along_axis(out, picked, 1.0, axis=1)
        out[:, self._variant] = 1.0
        return out[0] if raw.ndim == 1 else out


ENCODINGS = ("raw", "common")


class ObservationEncoding:
    """What an environment shows under `encoding` ("raw" or "common") for the rule set
    `variant` under `params`: the observation space, the names of its numbers, the encoder."""

    def __init__(self, encoding: str, params: np.ndarray, variant: str) -> None:
        if encoding not in ENCODINGS:
            raise ValueError(
                f"observation={encoding!r} is not supported; choose one of {ENCODINGS}"
            )
        self.encoding = encoding
        if encoding == "common":
            self.space = spaces.Box(0.0, 1.0, shape=(COMMON_SIZE,), dtype=np.float32)
            self.names = common_names()
            self._encoder: CommonEncoder | None = CommonEncoder(params, variant)
        else:
            high = observation_high(params)
            self.space = spaces.Box(np.zeros_like(high), high, dtype=np.int8)
            self.names = observation_names(params)
            self._encoder = None

    def encode(self, raw: np.ndarray) -> np.ndarray:
        """The observation (or batch of them) the environment shows for raw ones."""
        return raw if self._encoder is None else self._encoder.encode(raw)
