"""A network's learning curve (`python -m mancala_env.train.az.curve`): one curve from its
training stages, each later stage counted on from the end of the one before."""

import json

import pytest

from mancala_env.train.az.curve import join_stages, main, read_evaluations

PNG = b"\x89PNG\r\n\x1a\n"


def evaluation(generation: int, positions: int, seconds: float, score: float) -> dict:
    return {
        "generation": generation,
        "positions": positions,
        "seconds": seconds,
        "scores": {"alphabeta:depth=4": [score, score - 0.1, score + 0.1]},
    }


FIRST = [evaluation(10, 100_000, 500.0, 0.2), evaluation(20, 200_000, 1000.0, 0.3)]
SECOND = [evaluation(10, 90_000, 400.0, 0.4), evaluation(15, 140_000, 600.0, 0.5)]


def write_lines(path, rows) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def test_a_later_stage_counts_on_from_the_end_of_the_one_before():
    joined, starts = join_stages([FIRST, SECOND])
    assert starts == [1000.0]
    assert [row["generation"] for row in joined] == [10, 20, 30, 35]
    assert [row["positions"] for row in joined] == [100_000, 200_000, 290_000, 340_000]
    assert [row["seconds"] for row in joined] == [500.0, 1000.0, 1400.0, 1600.0]
    assert [row["scores"] for row in joined] == [row["scores"] for row in FIRST + SECOND]
    assert join_stages([FIRST]) == (FIRST, [])


def test_the_command_draws_the_stages_as_one_png(tmp_path, capsys):
    first = write_lines(tmp_path / "first.jsonl", FIRST)
    second = write_lines(tmp_path / "second.jsonl", SECOND)
    out = tmp_path / "curve.png"
    assert main([first, second, "--variant", "oware", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(PNG)
    assert "4 evaluations in 2 stage(s)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no evaluations"),
        ('{"generation": 1, "positions": 2, "seconds": 3}\n', "needs generation, positions"),
        ("[1, 2]\n", "needs generation, positions"),
        ("{not json\n", "first.jsonl"),
        ('{"generation": "1", "positions": 2, "seconds": 3, "scores": {}}\n', "are numbers"),
        ('{"generation": 1, "positions": 2, "seconds": 3, "scores": {"a": [1]}}\n', "score, low"),
    ],
)
def test_a_file_without_evaluations_is_refused_by_name(tmp_path, text, message):
    path = tmp_path / "first.jsonl"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        read_evaluations(path)


def test_the_command_refuses_a_bad_file_in_one_line(tmp_path, capsys):
    path = tmp_path / "first.jsonl"
    path.write_text("")
    with pytest.raises(SystemExit) as stopped:
        main([str(path), "--variant", "oware", "--out", str(tmp_path / "curve.png")])
    assert stopped.value.code == 2
    assert "no evaluations" in capsys.readouterr().err
    assert not (tmp_path / "curve.png").exists()


def test_the_command_replaces_a_file_of_another_kind_only_when_told(tmp_path, capsys):
    first = write_lines(tmp_path / "first.jsonl", FIRST)
    out = tmp_path / "runs.sqlite"
    out.write_bytes(b"SQLite format 3\0" + b"\0" * 84)  # a tournament store, say
    with pytest.raises(SystemExit) as refused:
        main([first, "--variant", "oware", "--out", str(out)])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert "is a SQLite database" in err and "--replace" in err and len(err.splitlines()) == 1
    assert out.read_bytes().startswith(b"SQLite format 3")
    assert main([first, "--variant", "oware", "--out", str(out), "--replace"]) == 0
    assert out.read_bytes().startswith(PNG)
