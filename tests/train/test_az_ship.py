"""Shipping a trained network (`python -m mancala_env.train.az.ship`): float16 weights, half
the bytes, the same play, and a clear refusal of what float16 cannot hold."""

import dataclasses
import io
import os
from pathlib import Path

import numpy as np
import pytest

from mancala_env import Game
from mancala_env.agents.loader import load_agent
from mancala_env.agents.network import SHIPPED, NetworkError, read_network
from mancala_env.train.az.ship import half_precision, main, rounding_shift


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A float32 network as a training run writes it: the shipped Oware network's weights, each
    moved by a little noise so that, as in a fitted network, every bit of float32 is used."""
    network, _ = read_network(SHIPPED / "oware.npz")
    rng = np.random.default_rng(0)

    def fitted(pair: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        return tuple(  # type: ignore[return-value]
            (array + rng.normal(scale=1e-5, size=array.shape)).astype(np.float32) for array in pair
        )

    network = dataclasses.replace(
        network,
        layers=tuple(fitted(pair) for pair in network.layers),
        policy=fitted(network.policy),
        value=fitted(network.value),
    )
    path = tmp_path_factory.mktemp("source") / "oware.npz"
    path.write_bytes(network.to_bytes(dtype=np.float32))
    return path


def test_the_shipped_file_holds_float16_weights_in_half_the_bytes_and_plays_alike(
    source, tmp_path, capsys
):
    out = tmp_path / "oware.npz"
    main([str(source), str(out), "--positions", "300"])
    printed = capsys.readouterr().out
    assert f"{out}: " in printed and "changed the most likely legal move" in printed
    with np.load(out, allow_pickle=False) as archive:
        weights = [name for name in archive.files if name != "meta"]
        assert weights and {archive[name].dtype for name in weights} == {np.dtype(np.float16)}
    assert out.stat().st_size < 0.55 * source.stat().st_size
    before, _ = read_network(source)
    after, _ = read_network(out)
    assert after.meta == before.meta
    game = Game("oware")
    for _ in range(6):  # the opening moves of both, searching nothing
        move = load_agent(f"az:{source}", "oware").act(game)
        assert load_agent(f"az:{out}", "oware").act(game) == move
        game.step(move)


def test_the_rounding_is_measured_on_the_positions_of_random_games(source):
    network, _ = read_network(source)
    same = rounding_shift(network, network, positions=50)
    assert same == {"positions": 50, "logit": 0.0, "value": 0.0, "changed_moves": 0}
    policy = (network.policy[0], network.policy[1] + np.float32(5.0) * np.arange(6))
    shifted = rounding_shift(network, dataclasses.replace(network, policy=policy), positions=50)
    assert shifted["logit"] == pytest.approx(25.0, rel=1e-4) and shifted["changed_moves"] > 0


def test_weights_past_float16_are_refused_by_name(source, tmp_path, capsys):
    network, _ = read_network(source)
    layers = list(network.layers)
    layers[1] = (layers[1][0] * 1e6, layers[1][1])
    huge = dataclasses.replace(network, layers=tuple(layers))
    with pytest.raises(NetworkError, match=r"the layer_1 weights reach .* past float16's 65504"):
        half_precision(huge)
    huge_file = tmp_path / "huge.npz"
    huge_file.write_bytes(huge.to_bytes())
    with pytest.raises(SystemExit) as stopped:
        main([str(huge_file), str(tmp_path / "out.npz")])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.startswith(
        "python -m mancala_env.train.az.ship: error: the layer_1"
    )
    assert not (tmp_path / "out.npz").exists()


def test_an_out_that_is_not_a_regular_file_is_left_alone(source, tmp_path, capsys):
    target = tmp_path / "elsewhere.npz"
    target.write_bytes(b"kept")
    link = tmp_path / "link.npz"
    os.symlink(target, link)
    with pytest.raises(SystemExit):
        main([str(source), str(link), "--positions", "10"])
    assert "link.npz" in capsys.readouterr().err
    assert link.is_symlink() and target.read_bytes() == b"kept"


@pytest.mark.parametrize("count", ["0", "100001"])
def test_a_bad_positions_count_is_one_line(source, count, capsys):
    with pytest.raises(SystemExit):
        main([str(source), "out.npz", "--positions", count])
    assert f"--positions must be from 1 to 100,000, not {count}" in capsys.readouterr().err


def test_a_shipped_network_is_named_by_its_rule_set(tmp_path, capsys):
    main(["oware", str(tmp_path / "oware.npz"), "--positions", "10"])
    assert f"(from {(SHIPPED / 'oware.npz').stat().st_size:,})" in capsys.readouterr().out


def test_a_file_that_is_not_a_network_is_refused(tmp_path, capsys):
    bad = tmp_path / "bad.npz"
    buffer = io.BytesIO()
    np.savez(buffer, meta=np.zeros(3, dtype=np.uint8))
    bad.write_bytes(buffer.getvalue())
    with pytest.raises(SystemExit):
        main([str(bad), str(tmp_path / "out.npz")])
    assert "cannot load a network" in capsys.readouterr().err


def test_an_out_of_another_kind_is_replaced_only_when_told(source, tmp_path, capsys):
    out = tmp_path / "notes.txt"
    out.write_text("mine\n")
    with pytest.raises(SystemExit) as refused:
        main([str(source), str(out), "--positions", "10"])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert "is a text file" in err and "--replace" in err and len(err.splitlines()) == 1
    assert out.read_text() == "mine\n"
    main([str(source), str(out), "--positions", "10", "--replace"])
    assert out.read_bytes().startswith(b"PK\x03\x04")
