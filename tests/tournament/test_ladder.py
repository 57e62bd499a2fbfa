"""Rating ladders (`mancala_env.agents.tournament.ladder`, ``mancala ladder``): a calibration
written and read back, a rating against anchors held where the calibration put them, an
interval that carries the calibration's uncertainty, refusals of a changed anchor or a bad
file in one line, and the shipped ladders."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mancala_env.agents.tournament import ladder as ladders
from mancala_env.agents.tournament.ladder import (
    Anchor,
    Ladder,
    LadderError,
    Pair,
    calibrate,
    check_unchanged,
    rate_on_ladder,
    read_ladder,
    read_ladder_file,
)
from mancala_env.agents.tournament.ratings import bradley_terry, expected_score
from mancala_env.cli import main

ANCHORS = ["random", "greedy", "alphabeta:depth=1"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> tuple[Ladder, Path]:
    """A ladder of three anchors calibrated on four games a pair, shipped in a folder of its own."""
    folder = tmp_path_factory.mktemp("ladders")
    ladder = calibrate(
        "oware", ANCHORS, 4, 4, folder / "calibration.sqlite", 1, {"date": "2026-12-04"},
        progress=False,
    )  # fmt: skip
    (folder / "oware-v1.json").write_text(json.dumps(ladder.to_document()))
    return ladder, folder


def test_a_calibration_reads_back_as_it_was_written_with_random_at_zero(tiny):
    ladder, folder = tiny
    assert read_ladder_file(folder / "oware-v1.json", "oware") == ladder
    assert [anchor.spec for anchor in ladder.anchors] == ANCHORS
    assert ladder.anchors[0].rating == 0.0 and ladder.anchors[1].rating > 0
    assert [(pair.a, pair.b) for pair in ladder.pairs] == [(0, 1), (0, 2), (1, 2)]
    assert all(pair.games == 4 for pair in ladder.pairs)
    assert ladder.calibration == {"date": "2026-12-04", "games_per_pair": 4}
    assert ladder.suite_sha256  # Oware's shipped suite


def test_an_agent_is_rated_against_the_anchors_where_the_calibration_put_them(tiny, tmp_path):
    ladder, _ = tiny
    rating = rate_on_ladder(ladder, "alphabeta:depth=2", tmp_path / "games.sqlite", progress=False)
    assert rating.games == 4 * len(ANCHORS) and rating.version == 1
    assert set(rating.scores) == set(ANCHORS)
    assert rating.low <= rating.rating <= rating.high
    # the calibration's uncertainty widens the interval of the rating as Elo above random
    assert rating.calibrated_low <= rating.low and rating.high <= rating.calibrated_high
    assert rating.calibrated_high - rating.calibrated_low > rating.high - rating.low
    # the same agent on the same ladder plays the same games again: the same rating
    again = rate_on_ladder(ladder, "alphabeta:depth=2", tmp_path / "games.sqlite", progress=False)
    assert again == rating
    with pytest.raises(ValueError, match="is an anchor of the ladder"):
        rate_on_ladder(ladder, "greedy", tmp_path / "games.sqlite", progress=False)


def synthetic(games: int) -> Ladder:
    """Anchors at 0, 400 and 800 whose calibration pairs scored what the model expects."""
    ratings = [0.0, 400.0, 800.0]
    pairs = []
    for a in range(3):
        for b in range(a + 1, 3):
            points = round(games * float(expected_score(ratings[a] - ratings[b])) * 2) / 2
            pairs.append(Pair(a, b, games, points, 0))
    anchors = tuple(
        Anchor(spec, r, r, r, "x")
        for spec, r in zip(["random", "b", "c"], ratings, strict=True)  # fmt: skip
    )
    return Ladder("oware", 1, anchors, tuple(pairs), "", 0, 20, {})


def test_the_interval_carries_the_calibrations_uncertainty():
    """The agent's own games fixed, a calibration of fewer games gives a wider interval; the
    interval of an agent that scored what a rating of 400 expects holds 400."""
    scores = {"random": (20, 18.0), "b": (20, 10.0), "c": (20, 2.0)}
    draws = dict.fromkeys(scores, 0)
    widths = []
    for games in (400, 10):
        low, high = ladders._interval(synthetic(games), 400.0, scores, draws, 400, seed=1)
        assert low < 400 < high
        widths.append(high - low)
    assert widths[1] > 1.3 * widths[0]


def test_bradley_terry_takes_anchors_of_their_own_for_each_problem():
    rng = np.random.default_rng(0)
    points = rng.integers(0, 10, (5, 3, 3)).astype(float)
    points = np.triu(points, 1) + np.triu(10 - points, 1).transpose(0, 2, 1)
    anchors = np.column_stack([rng.normal(0, 200, 5), np.full(5, np.nan), np.full(5, np.nan)])
    together = bradley_terry(points, anchors=anchors)
    for k in range(5):
        alone = bradley_terry(points[k], anchors=anchors[k])
        assert np.allclose(together[k], alone)
        assert together[k, 0] == pytest.approx(anchors[k, 0])


def test_a_changed_anchor_is_refused_it_would_be_another_ladder(tiny):
    ladder, _ = tiny
    changed = replace(ladder, anchors=(replace(ladder.anchors[0], identity="random v0"),
                                       *ladder.anchors[1:]))  # fmt: skip
    with pytest.raises(LadderError, match="its anchor random has changed since it was calibrated"):
        check_unchanged(changed)
    with pytest.raises(LadderError, match="opening suite has changed"):
        check_unchanged(replace(ladder, suite_sha256="0" * 64))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(format={"name": "other"}), "its format is not mancala-ladder"),
        (lambda d: d.update(variant="ayoayo"), "it is a ladder of ayoayo"),
        (lambda d: d.pop("seed"), "a field is missing: 'seed'"),
        (lambda d: d["anchors"][0].update(rating=1e300), "rating must be a number from"),
        (lambda d: d["anchors"][0].update(spec="x" * 2000), "anchor spec is not a text"),
        (lambda d: d.update(anchors=d["anchors"] * 30), "anchors are not a list of 2 to 64"),
        (lambda d: d["pairs"][0].update(a=99), "a must be an integer from 0 to 2"),
        (lambda d: d["pairs"][0].update(points=5), "points must be a number from 0 to 4"),
        (lambda d: d["anchors"].pop(0), "random is not among its anchors"),
    ],
)
def test_a_bad_ladder_file_is_refused_in_one_line(tiny, tmp_path, edit, message):
    ladder, _ = tiny
    document = ladder.to_document()
    edit(document)
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(document))
    with pytest.raises(LadderError, match=message) as refused:
        read_ladder_file(path, "oware")
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 100_000, "nest"),
        ("{}" + " " * (2 << 20), "is 2,097,154 bytes; at most 1,048,576 are read"),
    ],
)
def test_a_hostile_ladder_file_is_refused_before_it_is_parsed(tmp_path, content, message):
    path = tmp_path / "v1.json"
    path.write_text(content)
    with pytest.raises(LadderError, match=message):
        read_ladder_file(path, "oware")


def test_the_command_shows_the_ladder_and_rates_an_agent_on_it(tiny, tmp_path, capsys, monkeypatch):
    _, folder = tiny
    monkeypatch.setattr(ladders, "LADDERS", folder)
    assert main(["ladder", "oware"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("oware ladder v1: Elo") and "alphabeta:depth=1" in shown
    db, ratings = str(tmp_path / "games.sqlite"), tmp_path / "ratings.json"
    command = ["ladder", "oware", "alphabeta:depth=2", "--db", db, "--no-progress"]
    assert main([*command, "--out", str(ratings)]) == 0
    out = capsys.readouterr().out
    written = json.loads(ratings.read_text())
    assert written["format"]["name"] == "mancala-ladder-ratings" and written["ladder_version"] == 1
    assert [r["spec"] for r in written["ratings"]] == ["alphabeta:depth=2"]
    assert {"date", "machine", "command"} <= set(written)
    (tmp_path / "store.sqlite").write_bytes(Path(db).read_bytes())
    assert main([*command, "--out", str(tmp_path / "store.sqlite")]) == 2  # not its kind
    assert "--replace" in capsys.readouterr().err
    assert out.startswith("alphabeta:depth=2: ") and "on the oware ladder v1 (12 games" in out
    assert out.count("  against ") == 3 and "with the calibration's uncertainty: [" in out
    for command, refusal in [
        (["ladder", "ayoayo"], "ayoayo has no ladder; the rule sets with one: oware"),
        (["ladder", "oware", "--ladder-version", "2"], "has no version 2; its versions: 1"),
        (["ladder", "oware", "greedy", "--db", db], "greedy is an anchor of the ladder"),
        (["ladder", "oware", "alphabeta:depth=0", "--db", db], "bad agent spec"),
    ]:
        assert main(command) == 2
        err = capsys.readouterr().err
        assert refusal in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("variant", ladders.shipped_ladders())
def test_every_shipped_ladder_reads_and_its_anchors_are_as_calibrated(variant):
    ladder = read_ladder(variant)
    check_unchanged(ladder)
    assert ladder.anchors[[a.spec for a in ladder.anchors].index("random")].rating == 0
    n = len(ladder.anchors)
    assert len(ladder.pairs) == n * (n - 1) // 2  # a round robin
    assert {"date", "machine", "command", "games_per_pair", "minutes"} <= set(ladder.calibration)
