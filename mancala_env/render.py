"""Text and image rendering of a board snapshot.

Both renderers take the JSON-ready snapshot dict of a game state (keys ``variant``, ``pits``,
``stores``, ``to_move``, ``move_number`` and optionally ``last_pit``, ``closed``, ``owners``,
``pieces``)
and lay the board out the same way: player_1's row on top, read right to left, player_0's row
below, read left to right, so that pits facing each other share a column; player_1's store is
on the left and player_0's store on the right.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from PIL import Image, ImageDraw, ImageFont

REVERSE_ON = "\x1b[7m"
REVERSE_OFF = "\x1b[27m"

BASE_WIDTH, BASE_HEIGHT = 640, 240
BACKGROUND = (46, 34, 26)
BOARD = (168, 116, 64)
BOARD_EDGE = (112, 72, 36)
PIT = (110, 68, 32)
PIT_EDGE = (84, 50, 22)
CLOSED = (36, 26, 18)
TEXT = (250, 240, 220)
HIGHLIGHT = (255, 200, 40)
# 10 Mighty Men: each kind's letter, and its colour as the source gives it.
PIECE_LOOKS = {
    "farmer": ("F", (40, 160, 60)),
    "shepherd": ("S", (245, 245, 245)),
    "hunter": ("H", (120, 72, 30)),
    "warrior": ("W", (200, 30, 30)),
    "chieftain": ("C", (230, 180, 20)),
    "wise_mother": ("M", (190, 190, 200)),
    "witch_doctor": ("D", (40, 80, 220)),
    "trickster": ("T", (140, 50, 170)),
    "assassin": ("A", (10, 10, 10)),
    "spy": ("Y", (255, 140, 0)),
}


def _pieces_by_place(snapshot: dict) -> dict:
    """The kinds of the special pieces at each place (a pit, 'store_0', 'store_1', 'hand')."""
    places: dict = {}
    for piece in snapshot.get("pieces", []):
        if piece["kind"] is not None:
            places.setdefault(piece["at"], []).append(piece["kind"])
    return places


def _place_order(item: tuple) -> tuple:
    """Pits in order, then the stores and the hand."""
    place = item[0]
    return (0, place, "") if isinstance(place, int) else (1, 0, place)


def _pieces_line(snapshot: dict) -> str:
    """Where the special pieces are, in words (letters as in PIECE_LOOKS)."""
    n = len(snapshot["pits"]) // 2
    parts = []
    for place, kinds in sorted(_pieces_by_place(snapshot).items(), key=_place_order):
        name = _house(place, n) if isinstance(place, int) else place.replace("_", " ")
        parts.append(f"{name}: {' '.join(PIECE_LOOKS[k][0] for k in kinds)}")
    legend = " ".join(f"{letter}={kind}" for kind, (letter, _) in PIECE_LOOKS.items())
    return f"pieces  {'; '.join(parts) or 'none left'}\n({legend})"


def _board_rows(snapshot: dict) -> tuple[list[int], list[int]]:
    """Pit indices of the top row (player_1, left to right) and the bottom row (player_0)."""
    n = len(snapshot["pits"]) // 2
    return list(range(2 * n - 1, n - 1, -1)), list(range(n))


def _house(pit: int, n: int) -> str:
    """Name a pit by its row's player and house number (house 1 is the first pit sown)."""
    return f"player_1 house {pit - n + 1}" if pit >= n else f"player_0 house {pit + 1}"


def _status(snapshot: dict) -> str:
    to_move = snapshot["to_move"]
    return "game over" if to_move is None else f"player_{to_move} to move"


def _is_closed(snapshot: dict, pit: int) -> bool:
    closed = snapshot.get("closed")
    return bool(closed and closed[pit])


def _pit_text(snapshot: dict, pit: int) -> tuple[str, str]:
    """Seed count of a pit (``x`` when closed) and a ``*`` mark if the other player owns it."""
    n = len(snapshot["pits"]) // 2
    owners = snapshot.get("owners")
    count = "x" if _is_closed(snapshot, pit) else str(snapshot["pits"][pit])
    return count, "*" if owners and owners[pit] != int(pit >= n) else ""


def render_ansi(snapshot: dict, color: bool = True) -> str:
    """Render the board as text; with ``color`` the last-lifted pit is shown in reverse video."""
    n = len(snapshot["pits"]) // 2
    top, bottom = _board_rows(snapshot)
    last = snapshot.get("last_pit")
    s0, s1 = snapshot["stores"]

    def cells(pits: list[int]) -> str:
        out = []
        for pit in pits:
            count, mark = _pit_text(snapshot, pit)
            text = f"{count:>3}{mark:1}"
            if color and pit == last:
                text = f"{REVERSE_ON}{text}{REVERSE_OFF}"
            out.append(" " + text)
        return "".join(out)

    def houses(pits: list[int]) -> str:
        return "".join(f" {pit % n + 1:>3} " for pit in pits)

    header = f"{snapshot['variant']}  move {snapshot['move_number']}  {_status(snapshot)}"
    if last is not None:
        header += f"  last: {_house(last, n)}"
    lines = [
        header,
        f"score  player_0 {s0}  player_1 {s1}",
        f"{'house':<9}|{houses(top)}|",
        f"{'player_1':<9}|{cells(top)}|",
        f"{s1:>8} |{' ' * 5 * n}| {s0}",
        f"{'player_0':<9}|{cells(bottom)}|",
        f"{'house':<9}|{houses(bottom)}|",
    ]
    if "pieces" in snapshot:
        lines.append(_pieces_line(snapshot))
    return "\n".join(lines)


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 offers only the fixed-size bitmap font
        return ImageFont.load_default()


def _centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font) -> None:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    x = xy[0] - (left + right) / 2
    y = xy[1] - (top + bottom) / 2
    draw.text((round(x), round(y)), text, fill=TEXT, font=font)


def render_rgb(snapshot: dict, scale: int = 1) -> np.ndarray:
    """Draw the board as an RGB image of shape ``(240 * scale, 640 * scale, 3)``, dtype uint8."""
    s = scale
    n = len(snapshot["pits"]) // 2
    top, bottom = _board_rows(snapshot)
    last = snapshot.get("last_pit")
    to_move = snapshot["to_move"]

    image = Image.new("RGB", (BASE_WIDTH * s, BASE_HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    pitch = (552 - 88) / n
    radius = min(pitch * 0.42, 34)
    label_font, count_font = _font(12 * s), _font(round(min(14, radius * 0.9) * s))
    draw.rounded_rectangle(
        (4 * s, 26 * s, 636 * s, 214 * s),
        radius=24 * s,
        fill=BOARD,
        outline=BOARD_EDGE,
        width=3 * s,
    )

    for store, x0 in ((1, 14), (0, 562)):
        box = (x0 * s, 40 * s, (x0 + 64) * s, 200 * s)
        draw.ellipse(box, fill=PIT, outline=PIT_EDGE, width=2 * s)
        _centred_text(draw, ((x0 + 32) * s, 120 * s), str(snapshot["stores"][store]), count_font)

    r = radius * s
    for row, row_y in ((top, 80), (bottom, 160)):
        for col, pit in enumerate(row):
            x, y = (88 + pitch * (col + 0.5)) * s, row_y * s
            box = (round(x - r), round(y - r), round(x + r), round(y + r))
            outline, width = (HIGHLIGHT, 3 * s) if pit == last else (PIT_EDGE, 2 * s)
            if _is_closed(snapshot, pit):
                draw.ellipse(box, fill=CLOSED, outline=outline, width=width)
                d = r / 2
                draw.line((x - d, y - d, x + d, y + d), fill=TEXT, width=2 * s)
                draw.line((x - d, y + d, x + d, y - d), fill=TEXT, width=2 * s)
            else:
                draw.ellipse(box, fill=PIT, outline=outline, width=width)
                _centred_text(draw, (x, y), "".join(_pit_text(snapshot, pit)), count_font)
            _draw_pieces(draw, _pieces_by_place(snapshot).get(pit, []), x, y + r * 0.55, s)

    for player, y in ((1, 13), (0, 227)):
        if player == to_move:
            draw.ellipse((10 * s, (y - 5) * s, 20 * s, (y + 5) * s), fill=HIGHLIGHT)
        draw.text((26 * s, (y - 7) * s), f"player_{player}", fill=TEXT, font=label_font)
    info = f"{snapshot['variant']}   move {snapshot['move_number']}   {_status(snapshot)}"
    info_x = round(632 * s - draw.textlength(info, font=label_font))
    draw.text((info_x, 6 * s), info, fill=TEXT, font=label_font)
    return np.asarray(image, dtype=np.uint8)


def _draw_pieces(draw: ImageDraw.ImageDraw, kinds: list, x: float, y: float, s: int) -> None:
    """A dot in its colour for each special piece in a pit, in a row under the count."""
    dot = 3 * s
    start = x - (len(kinds) - 1) * dot * 1.25
    for k, kind in enumerate(kinds):
        cx = start + k * dot * 2.5
        box = (cx - dot, y - dot, cx + dot, y + dot)
        draw.ellipse(box, fill=PIECE_LOOKS[kind][1], outline=TEXT)


def render_for_mode(snapshot: dict, render_mode: str | None) -> str | np.ndarray | None:
    """What an environment's ``render()`` returns in `render_mode`: the image (``"rgb_array"``),
    the text (``"ansi"``), or None after printing the text (``"human"``) or warning (None)."""
    if render_mode is None:
        gymnasium.logger.warn("render() was called without a render_mode; nothing to draw")
        return None
    if render_mode == "rgb_array":
        return render_rgb(snapshot)
    text = render_ansi(snapshot)
    if render_mode == "human":
        print(text)
        return None
    return text
