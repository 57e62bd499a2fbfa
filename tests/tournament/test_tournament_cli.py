"""`mancala tournament`, `replay` and `export`, the report, and the Ray backend."""

from __future__ import annotations

import json
import re
import sys

import pytest

from mancala_env.agents.tournament import (
    BackendError,
    TournamentConfig,
    run_games,
    run_tournament,
    schedule,
)
from mancala_env.agents.tournament.ratings import PERFECT_RECORD_NOTE
from mancala_env.cli import main

AGENTS = ("random", "greedy", "alphabeta:depth=1")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_tournament_prints_the_leaderboard_and_writes_the_report(tmp_path, capsys):
    db, report = tmp_path / "t.sqlite", tmp_path / "report"
    status, out, err = run(
        capsys, "tournament", "oware", "--agents", *AGENTS, "--games-per-pair", "6",
        "--workers", "1", "--db", str(db), "--report", str(report), "--openings", "2",
    )  # fmt: skip
    assert status == 0, err
    assert "oware tournament: 100%" in err  # the progress bar
    board = re.findall(r"^(\d)\s+(\S+)\s+([+-]\d+)\s+\[([+-]\d+), ([+-]\d+)\]", out, re.M)
    assert [b[0] for b in board] == ["1", "2", "3"] and {b[1] for b in board} == set(AGENTS)
    for _, _, rating, low, high in board:
        assert int(low) <= int(rating) <= int(high)
    assert "crosstable" in out and "first mover's score" in out
    assert f"18 games in {db}" in out and f"report: {report / 'report.md'}" in out
    markdown = (report / "report.md").read_text()
    page = (report / "report.html").read_text()
    for name in AGENTS:
        assert f"| {name} |" in markdown and f"<td>{name}</td>" in page
    for image in ("ratings.png", "crosstable.png", "lengths.png"):
        assert (report / image).read_bytes().startswith(b"\x89PNG")
        assert f"]({image})" in markdown
    assert page.count('src="data:image/png;base64,') == 3  # self-contained
    assert 'src="http' not in page and "<link" not in page


def test_a_perfect_record_is_shown_as_a_bound_with_what_it_means(tmp_path, capsys):
    """Alpha-beta wins all four games against random: neither record has a finite rating, so
    the leaderboard shows each as a bound at its interval's end, and says so."""
    status, out, err = run(
        capsys, "tournament", "oware", "--agents", "alphabeta:depth=1", "random",
        "--games-per-pair", "4", "--openings", "0", "--workers", "1", "--no-progress",
        "--db", str(tmp_path / "t.sqlite"),
    )  # fmt: skip
    assert status == 0, err
    best = re.search(
        r"^1\s+alphabeta:depth=1\s+> ([+-]\d+)\s+\[([+-]\d+), \+inf\)\s+100\.0%", out, re.M
    )
    worst = re.search(r"^2\s+random\s+< ([+-]\d+)\s+\(-inf, ([+-]\d+)\]\s+0\.0%", out, re.M)
    assert best and best[1] == best[2] and worst and worst[1] == worst[2], out
    assert f"\n{PERFECT_RECORD_NOTE}\n" in out and "+inf [" not in out


def test_anchored_tournament_names_its_anchors_and_gives_the_nash_averages(tmp_path, capsys):
    db, report = tmp_path / "t.sqlite", tmp_path / "report"
    status, out, err = run(
        capsys, "tournament", "ayoayo", "--agents", *AGENTS, "--games-per-pair", "4",
        "--workers", "1", "--db", str(db), "--report", str(report), "--no-progress",
        "--anchor", "alphabeta:depth=1=1000",
    )  # fmt: skip
    assert status == 0, err
    assert "Bradley-Terry ratings (Elo scale, anchored to alphabeta:depth=1=1000):" in out
    assert re.search(r"^\d\s+alphabeta:depth=1\s+\+1000\s+anchor\s", out, re.M)
    nash = out[out.index("Nash averaging") : out.index("crosstable (row")]
    assert {line.split()[1] for line in nash.splitlines()[2:] if line} == set(AGENTS)
    assert "anchored to alphabeta:depth=1=1000" in (report / "report.md").read_text()
    assert "## Nash averaging" in (report / "report.md").read_text()


@pytest.mark.parametrize(
    ("anchor", "message"),
    [
        ("mcts=0", "anchor 'mcts' is not an agent of the tournament; agents: random, greedy"),
        ("random", "an anchor is SPEC=RATING, such as random=0"),
    ],
)
def test_a_bad_anchor_is_one_line_before_any_game(tmp_path, capsys, anchor, message):
    db = tmp_path / "t.sqlite"
    argv = ["tournament", "oware", "--agents", "random", "greedy", "--db", str(db)]
    try:
        status = main([*argv, "--anchor", anchor])
    except SystemExit as stop:
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err
    assert not db.exists()


def test_replay_and_export_from_the_store(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    config = TournamentConfig("ayoayo", AGENTS[:2], games_per_pair=2)
    run_tournament(config, db=db, progress=False)
    status, out, _ = run(capsys, "replay", str(db), "2", "--no-step", "--no-color")
    assert status == 0
    record = run_tournament(config, db=db, progress=False).records[1]
    assert out.count("\nmove ") == record["length"]
    assert re.search(r"^result: player_0 \d+, player_1 \d+: ", out, re.M)
    assert f"player_0 {record['score_0']}, player_1 {record['score_1']}" in out

    export = tmp_path / "games.jsonl"
    status, out, _ = run(capsys, "export", str(db), "--out", str(export))
    assert status == 0 and "2 games written" in out
    lines = export.read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [1, 2]
    status, out, _ = run(capsys, "replay", str(export), "2", "--no-step", "--no-color")
    assert status == 0 and out.count("\nmove ") == record["length"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "chess"], "unknown variant 'chess'"),
        (["tournament", "oware", "--agents", "random", "bogus"], "unknown agent kind 'bogus'"),
        (["tournament", "oware", "--games-per-pair", "5"], "must be even"),
        (["tournament", "oware", "--workers", "0"], "--workers: must be an integer from 1"),
        (["tournament", "oware", "--ray-address", "x:1"], "--ray-address goes with --backend ray"),
        (["replay", "missing.sqlite", "1"], "no such file"),
        (["export", "{tmp}/junk"], "is not a tournament store"),
    ],
)
def test_bad_input_is_named(tmp_path, capsys, argv, message):
    (tmp_path / "junk").write_text("junk " * 100)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if argv[0] == "tournament":
        argv += ["--db", str(tmp_path / "t.sqlite"), "--no-progress"]
    status, _, err = run(capsys, *argv)
    assert status == 2 and message in err


def test_the_ray_backend_asks_for_ray_when_it_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    tasks = schedule(TournamentConfig("oware", AGENTS[:2], games_per_pair=2))
    with pytest.raises(BackendError, match=r"pip install 'mancala_env\[ray\]'"):
        list(run_games(tasks, backend="ray"))


@pytest.mark.integration
def test_a_tournament_on_a_local_ray_instance(tmp_path):
    config = TournamentConfig("obridjie", AGENTS, games_per_pair=4, openings=1)
    on_ray = run_tournament(config, db=tmp_path / "ray.sqlite", backend="ray", workers=2,
                            progress=False)  # fmt: skip
    local = run_tournament(config, db=tmp_path / "local.sqlite", progress=False)
    assert on_ray.played == len(on_ray.records) == 12

    def games(result):
        return [(r["game_index"], r["agent_0"], r["moves"], r["winner"]) for r in result.records]

    assert games(on_ray) == games(local)


def test_the_python_example_of_the_tournament_docs_runs(capsys):
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "tournaments.md").read_text()
    (block,) = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    exec(compile(block, "docs/tournaments.md", "exec"), {})
    out = capsys.readouterr().out
    assert "oware: 4 games (4 distinct), 2 agents" in out and "greedy" in out
