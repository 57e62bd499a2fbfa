"""Text and image rendering of a board snapshot, and the board view behind `render()`.

Both renderers take the JSON-ready snapshot dict of a game state (keys ``variant``, ``pits``,
``stores``, ``to_move``, ``move_number`` and optionally ``last_pit``, ``closed``, ``owners``,
``uur``, ``round``, ``rounds_won``, ``turns``, ``phase``, ``special_used``, ``options``,
``pieces``) and lay the board out the same way: player_1's row on top, read right to left,
player_0's row below, read left to right, so that pits facing each other share a column;
player_1's store is on the left and player_0's store on the right. Both show what the rules
depend on beyond the seeds: pregnant (uur) houses, the round and the rounds won in a match, a
phase other than play, whether each player has used the odu, and the special pieces with a
legend.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .inputs import as_integer

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
UUR = (90, 200, 230)  # the ring and tag of a pregnant (uur) house
MAX_SCALE = 8
LEGEND_HEIGHT = 44  # the strip under the board that names the special pieces' letters
PHASE_WORDS = {
    "set_out": "setting out the central holes",
    "choose": "accept the position or turn the board",
    "place": "placing the special pieces",
    "side": "keep the board or turn it round",
    "drop": "where the lifted piece falls",
    "shift": "how far the piece moves on",
    "borrow": "whose power the Chieftain takes",
    "flock_count": "how many pieces the Shepherd leaves",
    "flock_piece": "where the Shepherd sets a piece",
}
# 10 Mighty Men: each kind's letter (no two alike), and its colour as the source gives it.
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


def _uur_owner(snapshot: dict, pit: int) -> int | None:
    """The player a pregnant (uur) pit is held for, None for an ordinary pit."""
    uur = snapshot.get("uur")
    return uur[pit] if uur else None


def _pit_text(snapshot: dict, pit: int) -> tuple[str, str]:
    """Seed count of a pit (``x`` when closed) and its mark: ``*`` if the other player owns it,
    ``u`` if it is pregnant (uur)."""
    n = len(snapshot["pits"]) // 2
    owners = snapshot.get("owners")
    count = "x" if _is_closed(snapshot, pit) else str(snapshot["pits"][pit])
    if owners and owners[pit] != int(pit >= n):
        return count, "*"
    return count, "u" if _uur_owner(snapshot, pit) is not None else ""


def last_pit(snapshot: dict) -> int | None:
    """The pit the last move lifted, or None when there is none in this round (a new round of
    a match starts with no last move: no player has moved in it yet)."""
    new_round = snapshot.get("round", 0) > 0 and not any(snapshot.get("turns", [1]))
    return None if new_round else snapshot.get("last_pit")


def uur_lines(snapshot: dict) -> list[str]:
    """The pregnant (uur) houses and whom each is held for, in words (the image marks them on
    the board)."""
    n = len(snapshot["pits"]) // 2
    held = [(pit, _uur_owner(snapshot, pit)) for pit in range(2 * n)]
    houses = [f"{_house(pit, n)} (player_{owner}'s)" for pit, owner in held if owner is not None]
    return [f"pregnant (uur): {', '.join(houses)}"] if houses else []


def rule_lines(snapshot: dict) -> list[str]:
    """What else the rules depend on beyond the seeds, a line each: the round and the rounds
    won in a match, a phase other than play, and whether each player has used the odu."""
    lines = []
    options = snapshot.get("options", {})
    if options.get("match"):
        won = snapshot["rounds_won"]
        lines.append(
            f"round {snapshot['round'] + 1} (at most {options['max_rounds']}), rounds won: "
            f"player_0 {won[0]}, player_1 {won[1]}"
        )
    phase = snapshot.get("phase", "play")
    if phase != "play":
        lines.append(f"phase: {PHASE_WORDS.get(phase, phase)}")
    if "odu" in options:
        used = ["used" if u else "not used" for u in snapshot["special_used"]]
        lines.append(f"odu: player_0 {used[0]}, player_1 {used[1]}")
    return lines


def render_ansi(snapshot: dict, color: bool = True) -> str:
    """Render the board as text; with ``color`` the last-lifted pit is shown in reverse video."""
    n = len(snapshot["pits"]) // 2
    top, bottom = _board_rows(snapshot)
    last = last_pit(snapshot)
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
        *uur_lines(snapshot),
        *rule_lines(snapshot),
    ]
    if "pieces" in snapshot:
        lines.append(_pieces_line(snapshot))
    return "\n".join(lines)


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 offers only the fixed-size bitmap font
        return ImageFont.load_default()


def _centred_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font, fill: tuple = TEXT
) -> None:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    x = xy[0] - (left + right) / 2
    y = xy[1] - (top + bottom) / 2
    draw.text((round(x), round(y)), text, fill=fill, font=font)


def _ink(background: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on `background` (by its luminance)."""
    r, g, b = background
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def image_size(snapshot: dict, scale: int = 1) -> tuple[int, int]:
    """(height, width) of `render_rgb`'s image: the board, and the legend with special pieces."""
    height = BASE_HEIGHT + (LEGEND_HEIGHT if "pieces" in snapshot else 0)
    return height * scale, BASE_WIDTH * scale


def render_rgb(snapshot: dict, scale: int = 1) -> np.ndarray:
    """Draw the board as an RGB image (uint8) of `image_size`: ``(240, 640, 3)`` times `scale`,
    44 rows more with the legend of the special pieces."""
    s = scale
    height, width = image_size(snapshot, s)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (4 * s, 26 * s, 636 * s, 214 * s),
        radius=24 * s,
        fill=BOARD,
        outline=BOARD_EDGE,
        width=3 * s,
    )
    _draw_stores(draw, snapshot, s)
    _draw_pits(draw, snapshot, s)
    _draw_status(draw, snapshot, s)
    if "pieces" in snapshot:
        _draw_legend(draw, s)
    return np.asarray(image, dtype=np.uint8)


def _draw_stores(draw: ImageDraw.ImageDraw, snapshot: dict, s: int) -> None:
    """Each store, labelled with its player, its count and the special pieces captured."""
    small, count_font = _font(10 * s), _font(14 * s)
    places = _pieces_by_place(snapshot)
    for store, x0 in ((1, 14), (0, 562)):
        box = (x0 * s, 40 * s, (x0 + 64) * s, 200 * s)
        draw.ellipse(box, fill=PIT, outline=PIT_EDGE, width=2 * s)
        x = (x0 + 32) * s
        _centred_text(draw, (x, 66 * s), f"player_{store}", small)
        _centred_text(draw, (x, 78 * s), "store", small)
        _centred_text(draw, (x, 106 * s), str(snapshot["stores"][store]), count_font)
        _draw_badges(draw, places.get(f"store_{store}", []), x, 136 * s, 3, 12 * s)


def _draw_pits(draw: ImageDraw.ImageDraw, snapshot: dict, s: int) -> None:
    """The houses: count (``x`` when closed), house number, last-move highlight, the ring and
    tag of a pregnant (uur) house, and the special pieces in it."""
    n = len(snapshot["pits"]) // 2
    top, bottom = _board_rows(snapshot)
    last = last_pit(snapshot)
    places = _pieces_by_place(snapshot)
    pitch = (552 - 88) / n
    radius = min(pitch * 0.42, 34)
    r = radius * s
    count_font, small = _font(round(min(14, radius * 0.9) * s)), _font(10 * s)
    for row, row_y, label_dy in ((top, 80, -radius - 7), (bottom, 160, radius + 7)):
        for col, pit in enumerate(row):
            x, y = (88 + pitch * (col + 0.5)) * s, row_y * s
            _centred_text(draw, (x, y + label_dy * s), str(pit % n + 1), small)
            box = (round(x - r), round(y - r), round(x + r), round(y + r))
            outline, width = (HIGHLIGHT, 3 * s) if pit == last else (PIT_EDGE, 2 * s)
            kinds = places.get(pit, [])
            if _is_closed(snapshot, pit):
                draw.ellipse(box, fill=CLOSED, outline=outline, width=width)
                d = r / 2
                draw.line((x - d, y - d, x + d, y + d), fill=TEXT, width=2 * s)
                draw.line((x - d, y + d, x + d, y - d), fill=TEXT, width=2 * s)
            else:
                draw.ellipse(box, fill=PIT, outline=outline, width=width)
                count, mark = _pit_text(snapshot, pit)
                text = count + mark if mark == "*" else count  # the ring below shows a uur pit
                _centred_text(draw, (x, y - r * 0.4 if kinds else y), text, count_font)
            owner = _uur_owner(snapshot, pit)
            if owner is not None:
                inset = 5 * s
                ring = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
                draw.ellipse(ring, outline=UUR, width=2 * s)
                _centred_text(draw, (x, y + r * 0.5), f"uur p{owner}", small, UUR)
            _draw_badges(draw, kinds, x, y + r * 0.1, 4, min(12, radius * 0.36) * s)


def _draw_badges(
    draw: ImageDraw.ImageDraw, kinds: list, x: float, y: float, per_row: int, size: float
) -> None:
    """A lettered badge in its colour for each special piece, rows of `per_row` from `y` down,
    centred on `x`."""
    font = _font(max(round(size * 0.8), 6))
    step = size * 1.1
    for k, kind in enumerate(kinds):
        row, col = divmod(k, per_row)
        in_row = min(per_row, len(kinds) - row * per_row)
        cx = x + (col - (in_row - 1) / 2) * step
        cy = y + row * step + size / 2
        letter, color = PIECE_LOOKS[kind]
        half = size / 2
        box = (cx - half, cy - half, cx + half, cy + half)
        draw.rounded_rectangle(box, radius=size / 4, fill=color, outline=(20, 20, 20))
        _centred_text(draw, (cx, cy), letter, font, _ink(color))


def _draw_status(draw: ImageDraw.ImageDraw, snapshot: dict, s: int) -> None:
    """The players (a dot for the one to move), the game's progress, and what the rules depend
    on beyond the seeds (rounds, phase, odu, pieces in hand)."""
    label_font = _font(12 * s)
    for player, y in ((1, 13), (0, 227)):
        if player == snapshot["to_move"]:
            draw.ellipse((10 * s, (y - 5) * s, 20 * s, (y + 5) * s), fill=HIGHLIGHT)
        draw.text((26 * s, (y - 7) * s), f"player_{player}", fill=TEXT, font=label_font)
    info = f"{snapshot['variant']}   move {snapshot['move_number']}   {_status(snapshot)}"
    rules = rule_lines(snapshot)
    hand = _pieces_by_place(snapshot).get("hand")
    if hand:
        rules.append("in hand: " + " ".join(PIECE_LOOKS[kind][0] for kind in hand))
    for text, y in ((info, 6), ("   ".join(rules), 220)):
        x = round(632 * s - draw.textlength(text, font=label_font))
        draw.text((x, y * s), text, fill=TEXT, font=label_font)


def _draw_legend(draw: ImageDraw.ImageDraw, s: int) -> None:
    """Each special piece's badge and name, in two rows of five under the board."""
    font = _font(11 * s)
    for k, (kind, _) in enumerate(PIECE_LOOKS.items()):
        row, col = divmod(k, 5)
        x, y = (24 + 124 * col) * s, (BASE_HEIGHT + 12 + 20 * row) * s
        _draw_badges(draw, [kind], x, y - 7 * s, 1, 14 * s)
        draw.text((x + 12 * s, y - 7 * s), kind.replace("_", " "), fill=TEXT, font=font)


def check_scale(scale: Any) -> int:
    """The image's `scale`: an integer 1..MAX_SCALE (the 640 x 240 board times it)."""
    number = as_integer(scale)
    if number is None or not 1 <= number <= MAX_SCALE:
        raise ValueError(f"scale must be an integer 1..{MAX_SCALE}, got {scale!r}")
    return number


class BoardView:
    """What an environment's ``render()`` gives in `render_mode`: the image (``"rgb_array"``,
    `scale` times 640 x 240), the text (``"ansi"``), or a window (``"human"``: a pygame window,
    ``pip install 'mancala_env[human]'``, refreshed at `fps`; without pygame the text is
    printed instead)."""

    def __init__(self, render_mode: str | None, scale: int = 1, fps: float = 2) -> None:
        self.render_mode = render_mode
        self.scale = check_scale(scale)
        self.fps = fps
        self._window = None
        self._clock = None

    def render(self, snapshot: dict) -> str | np.ndarray | None:
        """The image or text of `snapshot`; None after drawing the window or printing the text
        (``"human"``) or warning that there is no render mode (None)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing to draw")
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(snapshot, self.scale)
        if self.render_mode == "human" and self._show(snapshot):
            return None
        text = render_ansi(snapshot)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _show(self, snapshot: dict) -> bool:
        """Draw `snapshot` in the window (opened on first use); False without pygame."""
        try:
            import pygame
        except ImportError:
            if self._window is None:
                gymnasium.logger.warn(
                    "render_mode='human' shows a window with pygame (pip install "
                    "'mancala_env[human]'); printing the board as text instead"
                )
                self._window = False
            return False
        image = render_rgb(snapshot, self.scale)
        if not self._window:
            pygame.init()
            pygame.display.set_caption(f"mancala_env: {snapshot['variant']}")
            self._window = pygame.display.set_mode(image.shape[1::-1])
            self._clock = pygame.time.Clock()
        pygame.event.pump()
        self._window.blit(pygame.surfarray.make_surface(image.swapaxes(0, 1)), (0, 0))
        pygame.display.flip()
        self._clock.tick(self.fps)
        return True

    def close(self) -> None:
        """Close the window, if one is open."""
        if self._window:
            import pygame

            pygame.display.quit()
            pygame.quit()
        self._window = self._clock = None

    def __reduce__(self) -> tuple[type, tuple[str | None, int, float]]:
        """Pickled and deep-copied as its settings, without the window (a copied environment
        opens its own)."""
        return BoardView, (self.render_mode, self.scale, self.fps)
