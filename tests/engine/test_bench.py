"""`mancala bench` measures every layer and reports what it could not measure."""

import json

import pytest

from mancala_env import bench
from mancala_env.bench import C_REFERENCE, OPEN_SPIEL, c_reference, describe_ratio, measure
from mancala_env.cli import main


@pytest.mark.integration  # the rule set's own kernels, as users run them
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
            assert row["seconds"] >= 0.05 or row["benchmark"] == "game_step_slowest"
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
    assert {row["variant"] for row in rows} == {"kpo"} and len(rows) == 12
    assert {"mcts", "game_step_slowest"} <= {row["benchmark"] for row in rows}


def test_bench_command_names_an_unknown_variant(capsys):
    assert main(["bench", "--variant", "warri"]) == 2
    assert "known variants: ayoayo" in capsys.readouterr().err


@pytest.mark.integration  # the rule set's own kernels, as users run them
def test_each_engine_row_is_followed_by_its_familys_loop_and_the_ratio(capsys):
    """The loop runs right after the rule set's one-core engine row; Kpo plays Oware's rules,
    Tampoduo only Ayoayo's family (relays)."""
    for name, loop, same in (("kpo", "oware", True), ("tampoduo", "ayoayo", False)):
        rows = list(measure([name], seconds=0.02, slowest_moves=0))
        kinds = [row["benchmark"] for row in rows]
        engine, row = rows[kinds.index("engine_1_core") : kinds.index("engine_1_core") + 2]
        assert row["benchmark"] == C_REFERENCE and row["seconds"] >= 0.02
        assert (row["variant"], row["loop"], row["same_rules"]) == (name, loop, same)
        assert row["ratio"] == round(engine["moves_per_s"] / row["moves_per_s"], 3)
    assert (
        describe_ratio(row)
        == f"engine_1_core / loop {row['ratio']:.3f} (ayoayo's loop, relay family; {row['flags']})"
    )
    main(["bench", "--variant", "kpo", "--seconds", "0.02", "--slowest-moves", "0"])
    assert f"(oware's loop, same rules; {row['flags']})" in capsys.readouterr().out


def test_c_reference_loop_is_built_and_measured_without_leaving_a_binary(tmp_path, monkeypatch):
    monkeypatch.setattr(bench.tempfile, "tempdir", str(tmp_path))
    for name in ("oware", "ayoayo"):
        row = c_reference(name, 0.2)
        assert row["moves"] > 0 and row["seconds"] >= 0.2
        assert row["moves_per_s"] == round(row["moves"] / row["seconds"])
        assert row["flags"] in ("cc -O3 -march=native", "cc -O3")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("refuses_native", [False, True])
def test_c_reference_loop_is_built_for_the_host_or_says_it_could_not(
    tmp_path, monkeypatch, refuses_native
):
    """The loop is built with -O3 -march=native, as numba builds the engine for the host's
    processor; a compiler that refuses -march=native builds it with -O3, and the row says so."""
    calls = tmp_path / "calls"
    compiler = tmp_path / "fake-cc"
    refuse = 'case " $* " in *" -march=native "*) echo "unknown cpu" >&2; exit 1;; esac\n'
    compiler.write_text(
        f'#!/bin/sh\necho "$*" >> {calls}\n{refuse if refuses_native else ""}exec cc "$@"\n'
    )
    compiler.chmod(0o755)
    monkeypatch.setattr(bench, "C_COMPILER", str(compiler))
    row = c_reference("oware", 0.05)
    tried = [line.split(" -o ")[0] for line in calls.read_text().splitlines()]
    assert row["moves"] > 0
    if refuses_native:
        assert tried == ["-O3 -march=native", "-O3"] and row["flags"] == f"{compiler} -O3"
    else:
        assert tried == ["-O3 -march=native"] and row["flags"] == f"{compiler} -O3 -march=native"
    assert describe_ratio({**row, "ratio": 0.5, "loop": "oware", "same_rules": True}).endswith(
        f"(oware's loop, same rules; {row['flags']})"
    )


def test_c_reference_loop_says_when_the_compiler_fails_with_both_flags(tmp_path, monkeypatch):
    compiler = tmp_path / "failing-cc"
    compiler.write_text('#!/bin/sh\necho "cannot compile" >&2\nexit 1\n')
    compiler.chmod(0o755)
    monkeypatch.setattr(bench, "C_COMPILER", str(compiler))
    assert c_reference("oware") == {"note": f"{compiler} -O3 failed: ['cannot compile']"}


def test_c_reference_loop_says_when_there_is_no_compiler(monkeypatch):
    monkeypatch.setattr(bench, "C_COMPILER", "no-such-cc")
    assert c_reference("ayoayo") == {"note": "no C compiler (no-such-cc) on the PATH"}
    row = bench.family_loop("ayoayo", 1000, 0.01)
    assert row["note"] == "no C compiler (no-such-cc) on the PATH" and "ratio" not in row
