"""`mancala bench` measures every layer and reports what it could not measure."""

import json

from mancala_env import bench
from mancala_env.bench import C_REFERENCE, OPEN_SPIEL, c_reference_oware, measure
from mancala_env.cli import main


def test_measure_reports_every_layer_with_positive_speeds():
    rows = list(measure(["oware"], seconds=0.05, slowest_moves=300))
    kinds = [row["benchmark"] for row in rows]
    layers = ("engine_1_core", "engine_1_core_shared", "engine_all_cores", "batched", "aec")
    layers += ("batched_given_actions",)
    for kind in (*layers, "gymnasium", "vec_env", "make_vec"):
        assert kind in kinds
    assert {"pettingzoo connect_four_v3", OPEN_SPIEL, C_REFERENCE} <= set(kinds)
    for row in rows:
        assert row["variant"] == "oware"
        if "note" not in row:
            assert row["moves"] > 0 and row["moves_per_s"] > 0
            timed = row["benchmark"] not in ("game_step_slowest", C_REFERENCE)  # a fixed count
            assert row["seconds"] >= 0.05 or not timed
    assert next(r for r in rows if r["benchmark"] == "engine_1_core")["threads"] == 1
    slowest = next(r for r in rows if r["benchmark"] == "game_step_slowest")
    assert slowest["moves"] == 300
    assert 0 < slowest["slowest_ms"] <= slowest["seconds"] * 1000  # one of the steps timed


def test_a_search_row_counts_the_agents_simulations():
    """`searches` adds a row per search: its simulations (`last_simulations` after each move)
    on the positions of random play, not the moves it chose."""

    class Counter:
        def __init__(self):
            self.last_simulations = 0

        def act(self, game):
            self.last_simulations = 7
            return game.legal_actions()[0]

    rows = list(measure(["kpo"], 0.01, {"counter": lambda name: Counter()}, slowest_moves=0))
    row = next(r for r in rows if r["benchmark"] == "counter")
    assert row["moves"] % (7 * bench.SEARCH_POSITIONS) == 0 and row["moves"] > 0
    assert "game_step_slowest" not in [r["benchmark"] for r in rows]


def test_bench_command_prints_json_rows(capsys):
    command = ["bench", "--variant", "kpo", "--seconds", "0.02", "--json", "--slowest-moves", "50"]
    assert main(command) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {row["variant"] for row in rows} == {"kpo"} and len(rows) == 11
    assert {"mcts", "game_step_slowest"} <= {row["benchmark"] for row in rows}


def test_bench_command_names_an_unknown_variant(capsys):
    assert main(["bench", "--variant", "warri"]) == 2
    assert "known variants: ayoayo" in capsys.readouterr().err


def test_c_reference_loop_is_built_and_measured_without_leaving_a_binary(tmp_path, monkeypatch):
    monkeypatch.setattr(bench.tempfile, "tempdir", str(tmp_path))
    row = c_reference_oware()
    assert row["moves"] > 0 and row["seconds"] >= 3.0  # the loop's own fixed 3 seconds
    assert row["moves_per_s"] == round(row["moves"] / row["seconds"])
    assert list(tmp_path.iterdir()) == []


def test_c_reference_loop_says_when_there_is_no_compiler(monkeypatch):
    monkeypatch.setattr(bench, "C_COMPILER", "no-such-cc")
    assert c_reference_oware() == {"note": "no C compiler (no-such-cc) on the PATH"}
