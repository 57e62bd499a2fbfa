"""Every command's typed arguments, driven with generated bad values: each is refused
before the command begins its work, with exit status 2, one line on standard error naming the
argument, nothing on standard output, and no file made or changed."""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import examples

from mancala_env import arguments
from mancala_env.cli import build_parser, main

# a command's arguments that must be there, so that the one drawn is the one refused
BASE = {
    "show": ["oware"],
    "play": ["oware"],
    "bench": [],
    "tournament": ["oware"],
    "solve": ["oware", "--max-seeds", "2"],
    "accuracy": ["random", "--max-seeds", "3"],
    "train": ["oware"],
    "replay": ["g.jsonl"],
    "export": ["s.sqlite"],
    "match": ["random", "greedy"],
    "openings": ["oware", "--out", "suite.json"],
    "metrics": ["oware"],
    "ladder": ["oware", "random"],
}
NOT_NUMBERS = [
    *("nan", "inf", "-inf", "²", "", " ", "abc", "1e400", "-1e400", "9" * 5000, "-" + "9" * 5000),
    *("0x10", "١", "٣.٥", "1_0", "1,000", "4.5.6", "None", "True"),
]
PATH_TYPES = {
    arguments.input_file: ["missing.txt", ".", "a_folder"],
    arguments.input_folder: ["missing", "a_file"],
    arguments.output_file: ["a_folder", "/proc/x", "a_file/x", "missing/x"],
    arguments.output_folder: ["a_file", "/proc/x", "a_file/x"],
}


def typed_options() -> list[tuple[str, argparse.Action]]:
    """(command, action) for every option that converts its text (a path, a number)."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [
        (name, action)
        for name, sub in commands.choices.items()
        for action in sub._actions
        if action.option_strings and action.type is not None and action.type is not str
    ]


OPTIONS = typed_options()


def not_a_number(text: str) -> bool:
    """Whether no option that takes a number could take `text` (a number is written in ASCII
    with no underscores: Python's int() and float() take '١' and '1_0' too)."""
    if not text.isascii() or "_" in text:
        return True
    for convert in (int, float):
        try:
            value = convert(text)
        except (ValueError, OverflowError):
            continue
        if math.isfinite(value):
            return False
    return True


@st.composite
def bad_arguments(draw: st.DrawFn) -> tuple[str, str, str]:
    command, action = draw(st.sampled_from(OPTIONS))
    if action.type in PATH_TYPES:
        value = draw(st.sampled_from(PATH_TYPES[action.type]))
    else:
        texts = st.text(max_size=12).filter(not_a_number)
        value = draw(st.one_of(st.sampled_from(NOT_NUMBERS), texts))
    return command, action.option_strings[-1], value


def test_every_typed_option_of_every_command_is_driven():
    named = {(command, action.option_strings[-1]) for command, action in OPTIONS}
    assert {("solve", "--max-seeds"), ("train", "--max-minutes"), ("replay", "--delay"),
            ("show", "--seed"), ("tournament", "--games-per-pair"), ("train", "--out"),
            ("export", "--out"), ("bench", "--seconds")} <= named  # fmt: skip
    assert {command for command, _ in OPTIONS} == set(BASE)


def folder_contents(root) -> dict[str, bytes | None]:
    found = {}
    for path in sorted(root.rglob("*")):
        found[str(path.relative_to(root))] = path.read_bytes() if path.is_file() else None
    return found


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(bad=bad_arguments())
def test_a_bad_value_of_any_option_is_one_line_and_changes_nothing(tmp_path, monkeypatch, bad):
    command, option, value = bad
    monkeypatch.chdir(tmp_path)
    for name, text in (("a_file", "x"), ("g.jsonl", "{}\n"), ("s.sqlite", "")):
        if not os.path.exists(name):
            (tmp_path / name).write_text(text)
    (tmp_path / "a_folder").mkdir(exist_ok=True)
    before = folder_contents(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([command, *BASE[command], f"{option}={value}"])
    message = err.getvalue()
    assert status == 2, (command, option, value, message)
    assert out.getvalue() == ""
    assert message.startswith(f"mancala {command}: error: argument {option}"), message
    assert len(message.splitlines()) == 1, message
    assert folder_contents(tmp_path) == before
