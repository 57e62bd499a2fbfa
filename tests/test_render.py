import re

import numpy as np

from mancala_env.render import render_ansi, render_rgb

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
