"""The games of ``mancala train --algo az`` end where the endgame database knows the result,
when the settings ask for it, through the adjudicator tournaments use."""

import numpy as np
import pytest

pytest.importorskip("torch")

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "agents"))
from test_az_network import make_network  # noqa: E402

from mancala_env.endgame.build import build  # noqa: E402
from mancala_env.train.az.config import AZConfig  # noqa: E402
from mancala_env.train.az.games import Task, play_and_label  # noqa: E402
from mancala_env.variants import get_variant  # noqa: E402

SMALL = {"houses": 4, "seeds": 3}  # 24 seeds: the games reach a database of 12
SEEDS = 12


def test_games_stop_at_the_database(tmp_path) -> None:
    """Labelled positions of the same games with and without adjudication: with it the games
    end at the first position the database knows (so more of them end), and almost no position
    the database holds is labelled (those of a chase's odd seed, which it does not decide)."""
    oware = get_variant("oware")
    build(oware, oware.options(**SMALL), SEEDS, tmp_path, progress=False)
    network = make_network("oware", **SMALL).to_bytes()
    settings = dict(games=4, teacher_depth=1, opponents=["self", "greedy"], endgames=str(tmp_path))

    def labelled(**changes):
        config = AZConfig(**{**settings, **changes})
        batch, finished = play_and_label(Task("oware", SMALL, network, config, 300, 0))
        on_board = batch.observations[:, : 2 * SMALL["houses"]].sum(axis=1)
        return np.mean(on_board <= SEEDS), finished

    covered, finished = labelled()
    covered_adjudicated, finished_adjudicated = labelled(adjudication="all")
    assert covered > 0.2 and covered_adjudicated < 0.05
    assert finished_adjudicated > finished


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"adjudication": "all"}, "adjudication needs endgames"),
        ({"adjudication": "draws", "endgames": "db"}, "adjudication: the adjudication mode"),
    ],
)
def test_bad_adjudication_settings_are_refused(changes, message) -> None:
    with pytest.raises(ValueError, match=message):
        AZConfig(**changes)
