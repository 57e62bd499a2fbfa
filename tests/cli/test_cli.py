import json
import os
import re
import subprocess
import sys

import pytest

from mancala_env import list_variants
from mancala_env.arguments import parse_option
from mancala_env.cli import main
from mancala_env.cli.play import wants_color
from mancala_env.variants import VARIANTS, describe_options, get_variant
from mancala_env.variants.sources import CITATIONS, citation, cite

NAMES = list(VARIANTS)
RESULT = re.compile(
    r"^result: player_0 (\d+), player_1 (\d+): (player_[01] wins|draw) \(end_reason: (\w+)\)$"
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_variants_lists_every_rule_set_and_the_options_of_oware(capsys):
    """`mancala variants` names every rule set, each with title, and Oware's options."""
    status, out, _ = run(capsys, "variants")
    assert status == 0
    listed = [line.split()[0] for line in out.splitlines() if line and not line[0].isspace()]
    assert listed == NAMES
    oware = out.split("\nouri ")[0]
    for option in describe_options(get_variant("oware").options_type):
        assert re.search(rf"^\s+{option['name']}\s+default ", oware, re.M), option["name"]
    assert "grand_slam       default no_capture  [no_capture, capture]" in oware
    assert "stall_limit      default 100  [integer from 1 to 2147483647]" in oware
    assert cite(get_variant("oware").source, markdown=False) in oware


def test_variants_cites_every_source_as_a_reader_finds_it(capsys):
    """The project's copies of the sources are not shipped: `mancala variants` (text and JSON)
    cites author, title, date and where, and never names a copy."""
    _, out, _ = run(capsys, "variants")
    _, json_out, _ = run(capsys, "variants", "--json")
    records = {r["name"]: r for r in map(json.loads, json_out.splitlines())}
    for variant in VARIANTS.values():
        assert f"  source:  {citation(variant.source).plain}" in out
        assert records[variant.name]["source"].startswith(citation(variant.source).plain)
    for name in CITATIONS:
        assert name not in out and name not in json_out


def test_variants_json_one_object_per_rule_set(capsys):
    """`mancala variants --json` prints one parseable JSON object per line, options included."""
    status, out, _ = run(capsys, "variants", "--json")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["name"] for r in records] == NAMES
    assert [r["title"] for r in records] == [v.title for v in list_variants()]
    ayoyayo = next(r for r in records if r["name"] == "ayoyayo")
    odu = next(o for o in ayoyayo["options"] if o["name"] == "odu")
    assert odu["default"] == "forward"
    assert odu["choices"] == ["forward", "either", "none"]
    max_houses = next(o for o in ayoyayo["options"] if o["name"] == "max_houses")
    assert max_houses["default"] == 5 and max_houses["allowed"] == "integer from 1 to 2147483647"


def test_show_prints_every_board_and_the_result(capsys):
    """`mancala show` prints the start, one board per move with the move, then the result."""
    status, out, _ = run(capsys, "show", "oware", "--seed", "7", "--no-color")
    assert status == 0
    assert "\x1b[" not in out
    lines = out.splitlines()
    moves = [line for line in lines if re.fullmatch(r"player_[01] lifts house [1-6]", line)]
    headers = [line for line in lines if line.startswith("oware  move ")]
    assert len(moves) >= 1 and len(headers) == len(moves) + 1
    assert headers[-1].startswith(f"oware  move {len(moves)}  game over")
    match = RESULT.match(lines[-1])
    assert match, lines[-1]
    s0, s1 = int(match[1]), int(match[2])
    assert s0 + s1 == 48
    expected = "draw" if s0 == s1 else f"player_{int(s1 > s0)} wins"
    assert match[3] == expected


def test_show_is_deterministic_for_a_seed_and_differs_between_seeds(capsys):
    """The same seed replays the same game; another seed plays another one."""
    first = run(capsys, "show", "ouri", "--seed", "11")[1]
    again = run(capsys, "show", "ouri", "--seed", "11")[1]
    other = run(capsys, "show", "ouri", "--seed", "12")[1]
    assert first == again
    assert first != other


def test_show_colors_the_last_pit_unless_told_not_to(capsys):
    """--color always shows the last-lifted pit in reverse video; --no-color drops the escapes."""
    colored = run(capsys, "show", "kpo", "--seed", "1", "--color", "always")[1]
    plain = run(capsys, "show", "kpo", "--seed", "1", "--no-color")[1]
    assert "\x1b[7m" in colored
    assert re.sub(r"\x1b\[[0-9;]*m", "", colored) == plain


class Terminal:
    """A stand-in for standard output that says it is a terminal."""

    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    "choice, tty, no_color, expected",
    [
        ("auto", True, None, True),
        ("auto", True, "1", False),  # NO_COLOR set: no colour
        ("auto", True, "", True),  # NO_COLOR empty counts as unset (no-color.org)
        ("auto", False, None, False),  # a pipe or a file
        ("always", False, "1", True),  # the explicit choice wins
        ("never", True, None, False),
    ],
)
def test_color_only_in_a_terminal_and_never_under_no_color(
    monkeypatch, choice, tty, no_color, expected
):
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert wants_color(choice, Terminal(tty)) is expected


def show_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "mancala_env", "show", "oware", "--seed", "7", *args]


def test_show_into_a_pipe_has_no_escapes():
    """By default nothing coloured goes into a pipe, even with NO_COLOR unset."""
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    done = subprocess.run(show_command(), capture_output=True, text=True, env=environment)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and RESULT.match(done.stdout.splitlines()[-1])


def test_show_into_head_ends_quietly():
    """`mancala show ... | head` ends without a traceback: the closed pipe ends the command."""
    command = " ".join(show_command()) + " | head -n 3"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 3
    assert done.stderr == ""


def test_a_pipe_closed_before_any_output_gives_status_1_and_no_traceback():
    process = subprocess.Popen(show_command(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # closed before the command writes anything
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1
    assert err == ""


def test_show_summary_prints_the_start_the_end_and_the_result(capsys):
    full = run(capsys, "show", "oware", "--seed", "7", "--no-color")[1]
    status, summary, _ = run(capsys, "show", "oware", "--seed", "7", "--no-color", "--summary")
    assert status == 0
    boards = [line for line in summary.splitlines() if line.startswith("oware  move ")]
    assert len(boards) == 2 and boards[0].startswith("oware  move 0")
    assert summary.splitlines()[-1] == full.splitlines()[-1]
    move, board = full.split("\n\n")[-2].split("\n", 1)  # the last move and its board
    last = int(board.split()[2])
    # the end board is headed by its own move, named as the last, not read as the first move
    assert f"moves 1 to {last - 1} not shown; move {last}: {move}\n{board}" in summary
    assert len(summary.splitlines()) < len(full.splitlines()) / 10


def test_show_every_n_moves_names_the_move_before_each_board(capsys):
    every = run(capsys, "show", "oware", "--seed", "7", "--no-color", "--every", "10")[1]
    headings = [line for line in every.splitlines() if "not shown" in line]
    assert headings[0].startswith("moves 1 to 9 not shown; move 10: player_")
    assert headings[1].startswith("moves 11 to 19 not shown; move 20: player_")


def test_show_every_n_moves(capsys):
    full = run(capsys, "show", "oware", "--seed", "7", "--no-color")[1]
    every = run(capsys, "show", "oware", "--seed", "7", "--no-color", "--every", "10")[1]
    numbers = [int(line.split()[2]) for line in every.splitlines() if line.startswith("oware  m")]
    total = int([line for line in full.splitlines() if line.startswith("oware  m")][-1].split()[2])
    assert numbers == sorted({0, *range(10, total + 1, 10), total})
    assert every.splitlines()[-1] == full.splitlines()[-1]


def test_show_names_setting_out_openings_and_lifts_of_houses_won(capsys):
    """Every kind of action is described: Mangala's setting out, J'erin's opening."""
    out = run(capsys, "show", "mangala", "--seed", "3", "--no-color")[1]
    assert "seeds in the central hole being filled" in out
    assert "accepts the position" in out or "turns the board round" in out
    out = run(capsys, "show", "jerin", "--seed", "3", "--no-color")[1]
    assert re.search(r"player_\d opens with houses (\d) and \d together", out)


def test_show_passes_rule_options_and_names_odu_moves(capsys):
    """Options reach the rules: Ayoyayo with odu=either plays en bloc moves both ways."""
    status, out, _ = run(
        capsys, "show", "ayoyayo", "--seed", "0", "--no-color", "--option", "odu=either"
    )
    assert status == 0
    assert "player_0 moves house 4 en bloc to house 3 (odu)" in out
    assert "player_1 moves house 5 en bloc to house 6 (odu)" in out
    status, out, _ = run(capsys, "show", "ayoyayo", "--seed", "0", "--option", "odu=none")
    assert status == 0
    assert "en bloc" not in out


def test_show_first_player_option(capsys):
    """--option first_player=player_1 makes player_1 play the first move."""
    out = run(capsys, "show", "ayoayo", "--seed", "3", "--option", "first_player=player_1")[1]
    first_move = next(line for line in out.splitlines() if " lifts house " in line)
    assert first_move.startswith("player_1 ")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["show", "owari"], "known variants: " + ", ".join(sorted(VARIANTS))),
        (
            ["show", "oware", "--option", "odu=forward"],
            "known options: first_player, stall_limit, grand_slam, stall_remainder",
        ),
        (
            ["show", "oware", "--option", "grand_slam=sometimes"],
            "choose one of 'no_capture', 'capture'",
        ),
        (
            ["show", "oware", "--option", "stall_limit=many"],
            "must be an integer from 1 to 2147483647",
        ),
        (["show", "ouri", "--option", "singles_rule=maybe"], "choose one of True, False"),
        (["show", "oware", "--option", "grand_slam"], "is not of the form KEY=VALUE"),
    ],
)
def test_show_bad_input_exits_2_with_the_allowed_values(capsys, argv, expected):
    """Unknown variant or option, or a bad value: status 2, the library's message, no traceback."""
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert expected in err
    assert "Traceback" not in err


def test_parse_option_types():
    """Option values become integers, booleans, None or strings."""
    assert parse_option("stall_limit=40") == ("stall_limit", 40)
    assert parse_option("relay_limit=None", "ayoayo") == ("relay_limit", None)
    assert parse_option("odu=none", "ayoyayo") == ("odu", "none")  # a choice named none
    assert parse_option("relay_limit=none") == ("relay_limit", "none")  # no rule set: text
    assert parse_option("singles_rule=False") == ("singles_rule", False)
    assert parse_option("sow_into_stores=true") == ("sow_into_stores", True)
    assert parse_option("odu=either") == ("odu", "either")


@pytest.mark.parametrize("value", ["1_000", "\u0661\u0662", "+\u0661", "1.0"])
def test_an_integer_option_in_other_digits_or_with_underscores_is_refused(capsys, value):
    """Option values follow the command line's one rule for integers (`integer_text`)."""
    assert parse_option(f"relay_limit={value}", "ayoayo") == ("relay_limit", value)
    status, out, err = run(capsys, "show", "ayoayo", "--option", f"relay_limit={value}")
    assert status == 2 and out == ""
    assert f"option relay_limit={value!r} must be an integer from 1" in err
    assert len(err.splitlines()) == 1


def test_python_dash_m_runs_the_command_line():
    """`python -m mancala_env` is the same command line."""
    done = subprocess.run(
        [sys.executable, "-m", "mancala_env", "variants", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert [json.loads(line)["name"] for line in done.stdout.splitlines()] == NAMES


def test_bare_mancala_prints_the_help_with_every_command_and_exits_2():
    """``mancala`` alone is a command left unfinished: the help on standard error, status 2."""
    done = subprocess.run([sys.executable, "-m", "mancala_env"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: mancala ")
    commands = {"variants", "kernels", "bench", "show", "play", "replay", "tournament", "match",
                "openings", "export", "solve", "accuracy", "train"}  # fmt: skip
    listed = {line.split()[0] for line in done.stderr.splitlines() if line.startswith("    ")}
    assert commands <= listed


def test_variants_shows_one_rule_set_with_its_id_and_actions(capsys):
    status, out, _ = run(capsys, "variants", "mangala")
    assert status == 0
    assert out.startswith("mangala  Mangala  (mancala/mangala-v2)")
    assert "  actions 0-5     lift: lifts house 1, ..." in out
    assert "  actions 6-76    seeds left in a central hole: leaves 0 seeds" in out
    assert "  actions 77-78   accept or turn round: accepts the position, ..." in out
    assert "oware" not in out


def test_variants_of_an_unknown_name_suggests_the_closest(capsys):
    status, out, err = run(capsys, "variants", "jerni")
    assert status == 2 and out == ""
    assert "unknown variant 'jerni' (did you mean 'jerin'?)" in err


def test_version(capsys):
    import mancala_env

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"mancala {mancala_env.__version__}"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["show", "oware", "--seed", "-1"], "argument --seed: must be an integer from 0 to"),
        (["show", "oware", "--max-moves", "-1"], "argument --max-moves: must be an integer of 1"),
        (["show", "oware", "--every", "0"], "argument --every: must be an integer of 1 or more"),
        (["play", "oware", "--seed", "-1"], "argument --seed: must be an integer from 0 to"),
        (["accuracy", "random", "--max-seeds", "5", "--seed", "-1"], "argument --seed: must be"),
        (["show", "oware", "--seed", "²"], "got '²'"),
        (["show", "oware", "--seed", "9" * 5000], "argument --seed: must be an integer"),
        (["bench", "--seconds", "nan"], "argument --seconds: must be a number from 0.01"),
        (["tournament", "oware", "--games-per-pair", "1000000000000"], "from 2 to 100,000"),
        (["tournament", "oware", "--openings", "1000000000"], "from 0 to 100,000"),
        (["solve", "oware", "--max-seeds", "3", "--out", "/proc/x"], "cannot write in /proc"),
    ],
)
def test_a_bad_argument_is_one_line_naming_it_and_its_allowed_values(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and err.startswith(f"mancala {argv[0]}: error: "), err
    assert len(err.splitlines()) == 1, err


def test_export_refuses_to_write_over_its_store(tmp_path, capsys):
    """`--out` naming the store itself, by any path, is refused and the store kept."""
    from mancala_env.agents.tournament import TournamentConfig, run_tournament

    db = tmp_path / "s.sqlite"
    run_tournament(TournamentConfig("oware", ("random", "greedy"), games_per_pair=2), db=db,
                   progress=False, bootstrap=10)  # fmt: skip
    before = db.read_bytes()
    os.symlink(db, tmp_path / "link.sqlite")
    for out in (db, tmp_path / "." / "s.sqlite"):
        status, _, err = run(capsys, "export", str(db), "--out", str(out))
        assert status == 2 and f"argument --out: {out} is the db it reads" in err, err
    status, _, err = run(capsys, "export", str(db), "--out", str(tmp_path / "link.sqlite"))
    assert status == 2 and "link.sqlite is a symbolic link, not a regular file" in err, err
    assert db.read_bytes() == before and sorted(os.listdir(tmp_path)) == [
        "link.sqlite",
        "s.sqlite",
    ]


def test_kernels_prints_the_source_a_rule_set_runs_with_its_structure_folded(capsys):
    """`mancala kernels` prints the derived engine: it parses, the rule set's choices of
    mechanics are folded in (only the numbers read at run time are still read), and a
    grand-slam reading of Oware runs other code than the default."""
    from mancala_env.engine import layout as L

    runtime = {name for name in vars(L) if name.startswith("P_") and getattr(L, name) in
               L.RUNTIME_PARAMS}  # fmt: skip
    sources = {}
    for reading in ("no_capture", "capture"):
        status, out, _ = run(capsys, "kernels", "oware", "--option", f"grand_slam={reading}")
        assert status == 0
        header, _, source = out.partition("\n")
        assert header.startswith("# Oware's engine kernels: ") and header.endswith(".py")
        compile(source, header, "exec")
        assert "def step(" in source
        read = set(re.findall(r"params\[(\w+)\]", source))
        assert read and read <= runtime, read - runtime
        sources[reading] = source
    assert sources["no_capture"] != sources["capture"]
    status, out, _ = run(capsys, "kernels", "ayoayo", "--module", "batch")
    assert status == 0 and "def batch_step(" in out
    status, _, err = run(capsys, "kernels", "oware", "--option", "grand_slam=sometimes")
    assert status == 2 and "grand_slam" in err
