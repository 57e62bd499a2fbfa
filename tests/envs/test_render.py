import copy
import re
import sys

import gymnasium
import numpy as np
import pytest

from mancala_env.env import raw_env
from mancala_env.gym_env import SingleAgentEnv
from mancala_env.render import (
    BASE_HEIGHT,
    LEGEND_HEIGHT,
    PIECE_LOOKS,
    UUR,
    image_size,
    render_ansi,
    render_rgb,
)

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def snapshot(**changes) -> dict:
    snap = {
        "variant": "oware",
        "pits": list(range(12)),
        "stores": [17, 29],
        "to_move": 0,
        "move_number": 5,
        "last_pit": None,
    }
    snap.update(changes)
    return snap


def row(text: str, label: str) -> str:
    """The part of the labelled board line between its two bars."""
    (line,) = [line for line in text.splitlines() if line.startswith(label)]
    return line.split("|")[1]


def test_ansi_rows_read_in_board_order():
    text = render_ansi(snapshot(), color=False)
    assert row(text, "player_1").split() == ["11", "10", "9", "8", "7", "6"]
    assert row(text, "player_0").split() == ["0", "1", "2", "3", "4", "5"]
    labels = [line.split()[0] for line in text.splitlines() if line.endswith("|")]
    assert labels == ["house", "player_1", "player_0", "house"]


def test_ansi_house_numbers_as_each_player_sees_them():
    lines = render_ansi(snapshot(), color=False).splitlines()
    house_rows = [line.split("|")[1].split() for line in lines if line.startswith("house")]
    assert house_rows == [["6", "5", "4", "3", "2", "1"], ["1", "2", "3", "4", "5", "6"]]


def test_ansi_facing_pits_share_a_column_for_three_digit_counts():
    pits = [100, 5, 123, 4, 0, 1, 999, 2, 3, 14, 5, 6]
    text = ESCAPE.sub("", render_ansi(snapshot(pits=pits, last_pit=2), color=True))
    lines = [line for line in text.splitlines() if line.endswith("|")]
    columns = {len(line.split("|")[0]) for line in lines}
    assert len(columns) == 1 and len({len(line) for line in lines}) == 1
    top, bottom = row(text, "player_1"), row(text, "player_0")
    top_ends = [m.end() for m in re.finditer(r"\S+", top)]
    bottom_ends = [m.end() for m in re.finditer(r"\S+", bottom)]
    assert top.split() == [str(pits[11 - k]) for k in range(6)]
    assert bottom.split() == [str(pits[k]) for k in range(6)]
    assert top_ends == bottom_ends


def test_ansi_stores_on_their_ends_and_scores_shown():
    lines = render_ansi(snapshot(stores=[17, 29]), color=False).splitlines()
    (top,) = [i for i, line in enumerate(lines) if line.startswith("player_1")]
    assert lines[top + 1].split() == ["29", "|", "|", "17"]
    text = "\n".join(lines)
    assert "player_0 17" in text and "player_1 29" in text


def test_ansi_turn_and_game_over():
    assert "player_1 to move" in render_ansi(snapshot(to_move=1))
    assert "move 5" in render_ansi(snapshot())
    over = render_ansi(snapshot(to_move=None))
    assert "game over" in over
    assert "to move" not in over


def test_ansi_without_color_has_no_escape_codes():
    snap = snapshot(last_pit=3, closed=[False] * 11 + [True], owners=[0] * 5 + [1] * 7)
    assert "\x1b" not in render_ansi(snap, color=False)
    assert "\x1b" not in render_ansi(snapshot(), color=True)


def test_ansi_highlights_last_lifted_pit():
    text = render_ansi(snapshot(last_pit=8), color=True)
    assert ESCAPE.findall(text) == ["\x1b[7m", "\x1b[27m"]
    assert re.search(r"\x1b\[7m\s*8\s*\x1b\[27m", row(text, "player_1"))
    assert "last: player_1 house 3" in text
    assert ESCAPE.sub("", text) == render_ansi(snapshot(last_pit=8), color=False)


def test_ansi_marks_closed_and_foreign_pits():
    owners = [0, 0, 0, 0, 0, 1] + [1] * 6
    text = render_ansi(snapshot(closed=[True] + [False] * 11, owners=owners), color=False)
    assert row(text, "player_0").split() == ["x", "1", "2", "3", "4", "5*"]
    assert row(text, "player_1").split() == ["11", "10", "9", "8", "7", "6"]


def test_rgb_shape_and_dtype():
    image = render_rgb(snapshot())
    assert image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] >= 200 and image.shape[1] >= 600
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 5


def test_rgb_changes_with_pit_count():
    pits = list(range(12))
    before = render_rgb(snapshot(pits=pits))
    pits[2] = 42
    after = render_rgb(snapshot(pits=pits))
    changed = np.argwhere((before != after).any(axis=2))
    assert len(changed) > 0
    # pit 2 lies in player_0's row, the bottom half, left of the middle
    assert changed[:, 0].min() > before.shape[0] // 2
    assert changed[:, 1].max() < before.shape[1] // 2


def test_rgb_shows_turn_and_last_pit():
    base = render_rgb(snapshot())
    assert not np.array_equal(base, render_rgb(snapshot(to_move=None)))
    assert not np.array_equal(base, render_rgb(snapshot(to_move=1)))
    assert not np.array_equal(base, render_rgb(snapshot(last_pit=4)))


def test_rgb_scale_doubles_size():
    one, two = render_rgb(snapshot()), render_rgb(snapshot(), scale=2)
    assert two.shape == (2 * one.shape[0], 2 * one.shape[1], 3)


def test_rgb_deterministic():
    snap = snapshot(last_pit=7, closed=[False] * 11 + [True])
    assert np.array_equal(render_rgb(snap), render_rgb(dict(snap)))


def test_rgb_closed_pit_drawn_dark_with_x():
    zeros = [0] * 12
    open_image = render_rgb(snapshot(pits=zeros))
    closed_image = render_rgb(snapshot(pits=zeros, closed=[True] + [False] * 11))
    changed = np.argwhere((open_image != closed_image).any(axis=2))
    (y0, x0), (y1, x1) = changed.min(axis=0), changed.max(axis=0)
    assert y0 > open_image.shape[0] // 2 and x1 < open_image.shape[1] // 3
    region = (slice(y0, y1 + 1), slice(x0, x1 + 1))
    assert closed_image[region].mean() < open_image[region].mean()
    # the two strokes of the x cross at the pit centre and run along both diagonals
    cy, cx, q = (y0 + y1) // 2, (x0 + x1) // 2, (y1 - y0) // 8
    brightness = closed_image.astype(int).sum(axis=2)
    for dy, dx in ((0, 0), (-q, -q), (q, q), (-q, q), (q, -q)):
        patch = brightness[cy + dy - 1 : cy + dy + 2, cx + dx - 1 : cx + dx + 2]
        assert patch.max() > 600
    assert brightness[cy, cx + 2 * q] < 300


# ---- what the rules depend on, in text and image -----------------------------------------------
PIT_PITCH, PIT_RADIUS = (552 - 88) / 6, min((552 - 88) / 6 * 0.42, 34)


def pit_box(pit: int, margin: int = 0) -> tuple[slice, slice]:
    """The rows and columns of `pit`'s circle in a scale-1 image of a six-house board, and
    `margin` pixels round it."""
    col, y = (pit, 160) if pit < 6 else (11 - pit, 80)
    x, r = 88 + PIT_PITCH * (col + 0.5), round(PIT_RADIUS) + margin
    return slice(y - r, y + r + 1), slice(round(x) - r, round(x) + r + 1)


def changed_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.flatnonzero((a != b).any(axis=(1, 2)))


UUR_SNAPSHOT = {"uur": [None, 1] + [None] * 8 + [1, None]}  # a facing pair held for player_1


def test_ansi_names_the_pregnant_houses_and_marks_them():
    text = render_ansi(snapshot(**UUR_SNAPSHOT), color=False)
    assert "pregnant (uur): player_0 house 2 (player_1's), player_1 house 5 (player_1's)" in text
    assert row(text, "player_0").split()[1] == "1u"
    assert row(text, "player_1").split()[1] == "10u"
    assert "uur" not in render_ansi(snapshot(uur=[None] * 12), color=False)


def test_rgb_rings_the_pregnant_houses_in_their_own_colour():
    plain, pregnant = render_rgb(snapshot()), render_rgb(snapshot(**UUR_SNAPSHOT))
    uur_pixels = (pregnant == UUR).all(axis=2)
    for pit in range(12):
        rows, cols = pit_box(pit)
        if pit in (1, 10):
            assert uur_pixels[rows, cols].sum() > 50
        else:
            assert not uur_pixels[rows, cols].any()
            assert np.array_equal(plain[rows, cols], pregnant[rows, cols])


def match_snapshot(**changes) -> dict:
    values = {"options": {"match": True, "max_rounds": 9}, "round": 1, "rounds_won": [1, 0],
              "turns": [2, 1]}  # fmt: skip
    return snapshot(**{**values, **changes})


def test_round_and_rounds_won_shown_in_a_match_only():
    text = render_ansi(match_snapshot(), color=False)
    assert "round 2 (at most 9), rounds won: player_0 1, player_1 0" in text
    assert "round" not in render_ansi(snapshot(round=1, rounds_won=[1, 0]), color=False)
    one, other = render_rgb(match_snapshot()), render_rgb(match_snapshot(rounds_won=[0, 1]))
    rows = changed_rows(one, other)
    assert len(rows) and rows.min() > 214  # the status line under the board
    assert changed_rows(one, render_rgb(snapshot())).min() > 214


def test_a_new_round_starts_without_the_last_moves_highlight():
    fresh = match_snapshot(turns=[0, 0], last_pit=3)
    assert "last:" not in render_ansi(fresh) and "\x1b[7m" not in render_ansi(fresh)
    assert np.array_equal(render_rgb(fresh), render_rgb(match_snapshot(turns=[0, 0])))
    played = match_snapshot(turns=[1, 0], last_pit=3)
    assert "last: player_0 house 4" in render_ansi(played)
    rows, cols = pit_box(3, margin=2)
    changed = (render_rgb(played) != render_rgb(fresh)).any(axis=2)
    assert changed[rows, cols].any() and changed.sum() == changed[rows, cols].sum()


@pytest.mark.parametrize(
    "changes, line",
    [
        ({"phase": "set_out"}, "phase: setting out the central holes"),
        ({"phase": "choose"}, "phase: accept the position or turn the board"),
        ({"options": {"odu": "forward"}, "special_used": [1, 0]},
         "odu: player_0 used, player_1 not used"),
    ],
)  # fmt: skip
def test_phase_and_odu_shown_in_text_and_image(changes, line):
    assert line in render_ansi(snapshot(**changes), color=False).splitlines()
    assert changed_rows(render_rgb(snapshot()), render_rgb(snapshot(**changes))).min() > 214


def test_odu_used_by_the_other_player_changes_the_image():
    odu = {"options": {"odu": "forward"}}
    first = render_rgb(snapshot(**odu, special_used=[1, 0]))
    assert not np.array_equal(first, render_rgb(snapshot(**odu, special_used=[0, 1])))


def pieces_snapshot_with(*kinds: str, at=4) -> dict:
    return snapshot(pieces=[{"kind": kind, "at": at} for kind in kinds])


def test_piece_letters_differ_and_look_apart_without_colour():
    letters = [letter for letter, _ in PIECE_LOOKS.values()]
    assert len(set(letters)) == len(letters) == 10
    for a, b in (("chieftain", "spy"), ("shepherd", "wise_mother")):
        grey_a = render_rgb(pieces_snapshot_with(a)).sum(axis=2)
        grey_b = render_rgb(pieces_snapshot_with(b)).sum(axis=2)
        rows, cols = pit_box(4)
        assert np.abs(grey_a[rows, cols] - grey_b[rows, cols]).max() > 300  # the letter's ink
    text = render_ansi(pieces_snapshot_with("chieftain", "spy", at="hand"), color=False)
    assert "hand: C Y" in text and "C=chieftain" in text and "Y=spy" in text


def test_pieces_get_a_legend_under_the_board():
    with_pieces = render_rgb(pieces_snapshot_with("farmer"))
    assert with_pieces.shape == (BASE_HEIGHT + LEGEND_HEIGHT, 640, 3)
    assert image_size(pieces_snapshot_with("farmer"), 2) == (
        2 * (BASE_HEIGHT + LEGEND_HEIGHT),
        1280,
    )
    legend = with_pieces[BASE_HEIGHT:]
    for _, colour in PIECE_LOOKS.values():  # every kind's badge, even with no such piece left
        assert (legend == colour).all(axis=2).sum() > 20
    assert np.array_equal(
        with_pieces[:BASE_HEIGHT], render_rgb(pieces_snapshot_with("farmer"))[:BASE_HEIGHT]
    )


def test_house_numbers_and_store_labels_are_drawn():
    image = render_rgb(snapshot(pits=[0] * 12, stores=[0, 0])).astype(int).sum(axis=2)
    bright = image > 500  # the labels' ink; the board and pits are darker
    for pit in range(12):
        rows, cols = pit_box(pit)
        label_rows = slice(34, 47) if pit >= 6 else slice(193, 206)
        assert bright[label_rows, cols].any()
    for x0 in (14, 562):
        assert bright[58:84, x0 + 8 : x0 + 56].sum() > 40  # "player_N" / "store"


# ---- the board view behind render() --------------------------------------------------------------
def test_env_scale_keyword_sets_the_image_size_and_is_checked():
    env = raw_env(variant="oware", render_mode="rgb_array", scale=3)
    env.reset(seed=0)
    assert env.render().shape == (720, 1920, 3)
    gym = SingleAgentEnv("oware", render_mode="rgb_array", scale=2)
    gym.reset(seed=0)
    assert gym.render().shape == (480, 1280, 3)
    for bad in (0, 9, 1.5, "2", True, None):
        with pytest.raises(ValueError, match=r"^scale must be an integer 1\.\.8, got "):
            raw_env(variant="oware", scale=bad)


def test_human_mode_without_pygame_prints_the_text(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame raises ImportError
    env = raw_env(variant="oware", render_mode="human")
    env.reset(seed=0)
    with pytest.warns(UserWarning, match=r"mancala_env\[human\]"):
        assert env.render() is None
    assert capsys.readouterr().out.strip() == render_ansi(env.snapshot()).strip()


def test_human_mode_opens_a_pygame_window_with_the_image(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = raw_env(variant="mighty_men", render_mode="human", scale=2)
    env.reset(seed=0)
    env.step(env.game.legal_actions()[0])  # human mode draws after every move
    window = pygame.display.get_surface()
    shown = pygame.surfarray.array3d(window).swapaxes(0, 1)
    assert np.array_equal(shown, render_rgb(env.snapshot(), 2))
    twin = copy.deepcopy(env)
    assert twin.view._window is None and twin.view.scale == 2
    env.close()
    assert not pygame.display.get_init()


def test_gymnasium_human_mode_draws_the_window_after_reset_and_every_step(monkeypatch):
    """The single-agent environment has the PettingZoo environments' human mode, drawn as
    Gymnasium's human mode is: by `reset` and `step` themselves, `render()` returning None."""
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    made = gymnasium.make("mancala_env/MightyMen-v1", render_mode="human")
    assert "human" in made.metadata["render_modes"] and made.unwrapped.render_mode == "human"
    made.close()
    env = SingleAgentEnv("mighty_men", opponent="greedy", seat=0, render_mode="human", scale=2)

    def shown() -> np.ndarray:
        return pygame.surfarray.array3d(pygame.display.get_surface()).swapaxes(0, 1)

    _, info = env.reset(seed=0)
    assert np.array_equal(shown(), render_rgb(env.game.snapshot(), 2))
    before = env.game.move_number
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.game.move_number > before
    assert np.array_equal(shown(), render_rgb(env.game.snapshot(), 2))  # after the opponent's
    assert env.render() is None
    env.close()
    assert not pygame.display.get_init()


def test_gymnasium_human_mode_without_pygame_prints_the_board_at_each_step(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame raises ImportError
    env = SingleAgentEnv("oware", seat=0, render_mode="human")
    with pytest.warns(UserWarning, match=r"mancala_env\[human\]"):
        _, info = env.reset(seed=0)
    assert capsys.readouterr().out.strip() == render_ansi(env.game.snapshot()).strip()
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert capsys.readouterr().out.strip() == render_ansi(env.game.snapshot()).strip()
