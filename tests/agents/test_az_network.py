"""The policy-value network file and its encoding (mancala_env.agents.network): what it reads,
what it refuses, and that a shipped network plays the game it names."""

import io
import itertools
import json

import numpy as np
import pytest

from mancala_env import Game
from mancala_env.agents.loader import load_agent
from mancala_env.agents.network import (
    COUNT_CAP,
    SAME_RULES,
    SHIPPED,
    Network,
    NetworkError,
    encode,
    encoded_size,
    encoding_caps,
    network_file,
    network_identity,
    network_meta,
    parse_network,
    read_network,
)
from mancala_env.observation import observation_high, observe


def make_network(variant: str = "oware", hidden=(8,), seed: int = 0, **options) -> Network:
    game = Game(variant, **options)
    meta = network_meta(game, list(hidden))
    rng = np.random.default_rng(seed)
    widths = [encoded_size(np.array(meta["caps"])), *hidden]
    layers = tuple(
        (rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
        for a, b in itertools.pairwise(widths)
    )
    policy = (rng.normal(size=(widths[-1], game.n_actions)), rng.normal(size=game.n_actions))
    value = (rng.normal(size=(widths[-1], 1)), rng.normal(size=1))
    return Network(meta, layers, policy, value)


def test_encoding_counts_each_number_once_and_scales_it():
    high = np.array([48, 48, 1])
    caps = encoding_caps(high)
    assert list(caps) == [COUNT_CAP, COUNT_CAP, 0]
    assert encoded_size(caps) == 3 + 2 * (COUNT_CAP + 1)
    features = encode(np.array([[0, 30, 1], [5, 24, 0]]), high, caps)
    assert features.shape == (2, encoded_size(caps))
    assert np.allclose(features[:, :3], [[0, 30 / 48, 1], [5 / 48, 0.5, 0]])
    one_hot = features[:, 3:]
    assert np.array_equal(one_hot.sum(axis=1), [2, 2])  # one slot per counted number
    first, second = one_hot[:, : COUNT_CAP + 1], one_hot[:, COUNT_CAP + 1 :]
    assert first[0, 0] == 1 and first[1, 5] == 1
    assert second[0, COUNT_CAP] == 1 and second[1, COUNT_CAP] == 1  # 30 and 24 share the cap


@pytest.mark.parametrize("variant", ["oware", "ayoayo", "mangala", "mighty_men"])
def test_a_network_round_trips_through_its_file(variant):
    network = make_network(variant)
    back = parse_network(network.to_bytes())
    assert back.meta == network.meta
    game = Game(variant)
    game.reset(np.random.default_rng(1))
    observation = observe(game.state, game.to_move, game.params)[None, :]
    logits, value = network.forward(observation)
    again, value_again = back.forward(observation)
    assert np.allclose(logits, again) and np.allclose(value, value_again)
    assert logits.shape == (1, game.n_actions) and -1 <= value[0] <= 1


@pytest.mark.parametrize("variant", ["oware", "mighty_men"])
def test_the_forward_pass_is_the_layers_applied_to_the_encoding(variant):
    network = make_network(variant, hidden=(16, 8))
    game = Game(variant)
    rows = []
    rng = np.random.default_rng(2)
    game.reset(rng)
    while not game.over and len(rows) < 40:
        rows.append(observe(game.state, game.to_move, game.params))
        game.step(int(rng.choice(game.legal_actions())))
    observations = np.array(rows)
    hidden = encode(observations, network.high, network.caps)
    for weight, bias in network.layers:
        hidden = np.maximum(hidden @ weight + bias, 0)
    logits, value = network.forward(observations)
    assert np.allclose(logits, hidden @ network.policy[0] + network.policy[1], atol=1e-4)
    assert np.allclose(value, np.tanh(hidden @ network.value[0] + network.value[1])[:, 0],
                       atol=1e-5)  # fmt: skip


def _npz(**arrays) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _arrays(network: Network) -> dict:
    with np.load(io.BytesIO(network.to_bytes())) as archive:
        return {name: archive[name] for name in archive.files}


def _with_meta(arrays: dict, **changes) -> dict:
    meta = json.loads(arrays["meta"].tobytes())
    meta.update(changes)
    return {**arrays, "meta": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)}


@pytest.mark.parametrize(
    "corrupt, reason",
    [
        (lambda a: b"not a zip", "not a numpy .npz"),
        (lambda a: _npz(**{k: v for k, v in a.items() if k != "meta"}), "no meta"),
        (lambda a: _npz(**{**a, "meta": np.frombuffer(b"{nope", np.uint8)}), "not JSON"),
        (lambda a: _npz(**_with_meta(a, format={"name": "x", "version": 1})), "not a mancala"),
        (lambda a: _npz(**_with_meta(a, hidden=[9])), "layer_0_weight"),
        (lambda a: _npz(**_with_meta(a, caps=[1] * 16)), "caps do not fit"),
        (lambda a: _npz(**_with_meta(a, n_actions=0)), "not positive"),
        (lambda a: _npz(**{**a, "policy_bias": np.full(6, np.nan)}), "not all finite"),
        (lambda a: _npz(**{**a, "value_weight": np.zeros((3, 1))}), "value_weight"),
    ],
)
def test_a_corrupt_network_is_refused_with_its_reason(corrupt, reason):
    content = corrupt(_arrays(make_network()))
    with pytest.raises(ValueError, match=reason):
        parse_network(content)


def test_a_pickled_array_is_refused_without_running_it(tmp_path):
    arrays = _arrays(make_network())
    buffer = io.BytesIO()
    np.savez(buffer, **{**arrays, "policy_bias": np.array([object()], dtype=object)})
    path = tmp_path / "evil.npz"
    path.write_bytes(buffer.getvalue())
    with pytest.raises(NetworkError, match="cannot load a network"):
        read_network(path)


def test_a_network_checks_the_game_it_is_asked_to_play():
    network = make_network("oware")
    network.check_game(Game("oware", grand_slam="capture"), "here")  # same sizes: plays
    with pytest.raises(NetworkError, match="plays oware, not ayoayo"):
        network.check_game(Game("ayoayo"), "here")
    with pytest.raises(NetworkError, match="does not fit oware"):
        network.check_game(Game("oware", houses=4), "here")


def test_files_are_found_by_shipped_name_or_path_and_identified_by_content(tmp_path):
    assert network_file("oware") == SHIPPED / "oware.npz"
    with pytest.raises(NetworkError, match="shipped network .*oware"):
        network_file("no-such-network")
    path = tmp_path / "mine.npz"
    path.write_bytes(make_network(seed=1).to_bytes())
    first = network_identity(path)
    assert first == read_network(path)[1]
    path.write_bytes(make_network(seed=2).to_bytes())
    assert network_identity(path) != first  # new content at the same path: a new identity


def test_kpo_plays_the_oware_network_as_it_plays_the_same_rules():
    from mancala_env.variants import VARIANTS

    for alias, owner in SAME_RULES.items():
        for options in ({}, {"grand_slam": "capture", "houses": 5}):
            assert np.array_equal(Game(alias, **options).params, Game(owner, **options).params)
        assert VARIANTS[alias].readings is VARIANTS[owner].readings
    assert network_file("kpo") == network_file("oware")
    agent = load_agent("az:kpo", "kpo")
    game = Game("kpo")
    assert agent.act(game) == load_agent("az:oware", "oware").act(Game("oware"))
    with pytest.raises(NetworkError, match="plays oware, not ayoayo"):
        load_agent("az:kpo", "ayoayo")
    with pytest.raises(NetworkError, match=r"shipped network \(.*kpo, .*oware"):
        network_file("no-such-network")


SHIPPED_NAMES = sorted(path.stem for path in SHIPPED.glob("*.npz"))


def test_the_shipped_networks_together_stay_within_30_mb():
    assert "oware" in SHIPPED_NAMES and "ayoayo" in SHIPPED_NAMES
    assert sum((SHIPPED / f"{name}.npz").stat().st_size for name in SHIPPED_NAMES) <= 30e6


@pytest.mark.parametrize("name", SHIPPED_NAMES)
def test_each_shipped_network_fits_its_rule_set_and_loads_without_pickle(name):
    network, _ = read_network(name)  # numpy arrays and a JSON meta: np.load(allow_pickle=False)
    assert network.variant == name
    network.check_game(Game(name), "shipped")
    assert len(network.high) == len(observation_high(Game(name).params))
    assert 0 <= load_agent(f"az:{name}", name).act(Game(name)) < Game(name).n_actions
