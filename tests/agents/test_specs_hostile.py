"""Hostile agent specs: a `python:` spec that names no agent maker, numbers out of range, a
module too large to hash. Each is refused with one `ValueError` (`SpecError`) naming the
problem, before anything is called or allocated; what is in range loads."""

from __future__ import annotations

import math
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import examples

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.agents.loader import SpecError, agent_identity
from mancala_env.cli import main

CALLED: list[str] = []  # the makers below that were called


class FirstLegal:
    """An agent: the lowest legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, game: Game) -> int:
        return game.legal_actions()[0]


def made_agent(seed: int | None = None) -> FirstLegal:
    """A factory of agents, as its annotation says."""
    return FirstLegal(seed)


def unannotated_maker(seed=None):
    CALLED.append("unannotated_maker")
    return FirstLegal(seed)


def annotated_number() -> int:
    CALLED.append("annotated_number")
    return 3


def lying_maker() -> FirstLegal:
    return 3  # type: ignore[return-value]


def exiting_maker() -> FirstLegal:
    raise SystemExit(0)


class ExitsWhenMade(FirstLegal):
    def __init__(self, seed: int | None = None) -> None:
        raise SystemExit(0)


class FailsWhenMade(FirstLegal):
    def __init__(self, seed: int | None = None) -> None:
        raise RuntimeError("no board\nsecond line")


MODULE = "test_specs_hostile"


@pytest.fixture(autouse=True)
def _forget_calls():
    CALLED.clear()


@pytest.mark.parametrize(
    "name, problem",
    [
        ("unannotated_maker", "is not an agent"),
        ("annotated_number", "is not an agent"),
        ("CALLED", "is not an agent"),
        ("lying_maker", "returned int, not an agent"),
        ("exiting_maker", "raised SystemExit"),
        ("ExitsWhenMade", "raised SystemExit"),
        ("FailsWhenMade", "raised RuntimeError: no board"),
    ],
)
def test_a_python_spec_that_names_no_agent_maker_is_refused(name, problem):
    spec = f"python:{MODULE}:{name}"
    with pytest.raises(SpecError) as error:
        load_agent(spec)
    first = str(error.value).splitlines()[0]
    assert first.startswith(f"bad agent spec {spec!r}: ") and problem in first
    assert "second line" not in str(error.value)
    assert CALLED == []  # nothing that is not declared to make agents is called


@pytest.mark.parametrize("spec", ["python:sys:exit", "python:builtins:print", "python:os:getcwd"])
def test_a_python_spec_of_a_function_not_declared_to_make_agents_is_not_called(spec, capsys):
    with pytest.raises(SpecError, match="is not an agent"):
        load_agent(spec)
    assert capsys.readouterr().out == ""  # print was not called


def test_a_factory_annotated_to_return_an_agent_is_called_with_the_seed():
    agent = load_agent(f"python:{MODULE}:made_agent", seed=7)
    assert isinstance(agent, FirstLegal) and agent.seed == 7
    agent = load_agent(f"python:{MODULE}:FirstLegal", seed=3)
    assert isinstance(agent, FirstLegal) and agent.seed == 3


def test_a_module_that_exits_as_it_is_imported_is_refused(tmp_path, monkeypatch):
    (tmp_path / "exits_on_import.py").write_text("raise SystemExit(0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "exits_on_import", raising=False)
    with pytest.raises(SpecError, match="cannot import module 'exits_on_import': SystemExit"):
        load_agent("python:exits_on_import:Agent")


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "oware", "--agents", "random", "python:sys:exit", "--no-progress"],
        ["match", "python:sys:exit", "random", "--max-pairs", "1"],
        ["metrics", "oware", "--agent", "python:sys:exit", "--games", "1"],
    ],
)
def test_the_commands_refuse_an_exiting_python_spec_in_one_line(tmp_path, capsys, argv):
    db = tmp_path / "t.sqlite"
    if argv[0] != "metrics":
        argv = [*argv, "--db", str(db)]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""  # refused before anything is played or printed
    assert err.startswith(f"mancala {argv[0]}: error: bad agent spec 'python:sys:exit': ")
    assert "is not an agent" in err.splitlines()[0]
    assert list(tmp_path.iterdir()) == []  # no store was made


def test_a_huge_module_is_refused_by_its_size_unread(tmp_path, monkeypatch):
    source = tmp_path / "huge_agent.py"
    with open(source, "wb") as file:
        file.truncate(4 << 30)  # sparse: 4 GiB of nothing
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError) as error:
        agent_identity("python:huge_agent:Agent")
    (line,) = str(error.value).splitlines()
    assert str(source) in line and "4,294,967,296 bytes; at most" in line


# ---- numbers in range ------------------------------------------------------------------------

# every numeric spec key of every agent and the values it takes (docs/agents.md)
RANGES = {
    "alphabeta": {"depth": (int, 1, 64), "time": (float, 0, 86_400)},
    "mcts": {
        "simulations": (int, 1, 1_000_000),
        "time": (float, 0, 86_400),
        "c": (float, 0, 1000),
        "mix": (float, 0, 1),
    },
    "az:oware": {
        "simulations": (int, 1, 1_000_000),
        "time": (float, 0, 86_400),
        "c": (float, 0, 1000),
        "considered": (int, 1, 256),
        "gumbel_scale": (float, 0, 1000),
    },
}
ATTRIBUTES = {"depth": "depth", "simulations": "simulations", "time": "time_limit"}


def _separator(kind: str) -> str:
    return "," if kind.startswith("az:") else ":"


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("mcts:simulations=4611686018427387904", "for simulations: must be an integer from 1 to"),
        ("mcts:simulations=1000001", "for simulations: must be an integer from 1 to 1,000,000"),
        ("az:oware,simulations=1000001", "for simulations: must be an integer from 1 to 1,000,000"),
        ("alphabeta:depth=65", "for depth: must be an integer from 1 to 64"),
        ("mcts:time=1e300", "for time: must be a number above 0 and at most 86400"),
        ("alphabeta:time=86401", "for time: must be a number above 0 and at most 86400"),
        ("az:oware,time=0", "for time: must be a number above 0 and at most 86400"),
        ("mcts:c=1e9", "for c: must be a number from 0 to 1000"),
        ("az:oware,c=inf", "for c: must be a number from 0 to 1000"),
        ("mcts:mix=2", "for mix: must be a number from 0 to 1"),
        ("mcts:mix=nan", "for mix: must be a number from 0 to 1"),
    ],
)
def test_a_number_out_of_its_range_is_refused_naming_the_key_and_the_range(spec, problem):
    with pytest.raises(SpecError) as error:
        load_agent(spec)
    assert problem in str(error.value).splitlines()[0]


@pytest.mark.parametrize(
    "make, problem",
    [
        (lambda: _mcts(simulations=2**62), "simulations must be an integer from 1 to 1,000,000"),
        (lambda: _mcts(time_limit=1e300), "time must be a number above 0 and at most 86400"),
        (lambda: _mcts(c=math.inf), "c must be a number from 0 to 1000"),
        (lambda: _az(simulations=2**62), "simulations must be an integer from 1 to 1,000,000"),
        (lambda: _az(c=1e9), "c must be a number from 0 to 1000"),
    ],
)
def test_the_agents_check_the_same_ranges_when_made_in_python(make, problem):
    with pytest.raises(ValueError, match=problem):
        make()


def _mcts(**arguments):
    from mancala_env.agents import MCTSAgent

    return MCTSAgent(**arguments)


def _az(**arguments):
    from mancala_env.agents.az import AZAgent

    return AZAgent("oware", **arguments)


NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["0", "1", "1e6", "1e308", "-0.0", "nan", "inf", "2**62", "0x10", " "]),
    st.text(max_size=6),
)


@st.composite
def specs(draw: st.DrawFn) -> tuple[str, str]:
    """A searching agent's kind and a spec of it with keys of its own and others', values of
    any shape."""
    kind = draw(st.sampled_from(sorted(RANGES)))
    keys = st.sampled_from([*RANGES[kind], "depth", "simulations", "x"])
    items = draw(st.lists(st.tuples(keys, NUMBERS), max_size=3))
    rest = ",".join(f"{key}={value}" for key, value in items)
    return kind, f"{kind}{_separator(kind) if rest else ''}{rest}"


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(drawn=specs())
def test_a_malformed_spec_is_loaded_in_range_or_refused_in_one_line(drawn):
    kind, spec = drawn
    try:
        agent = load_agent(spec)
    except SpecError as error:
        assert str(error).startswith(f"bad agent spec {spec!r}: ")
        assert "\n" not in str(error)  # one line, the valid forms on it
        return
    except ValueError as error:  # an unknown key reads as part of az's file name
        assert kind.startswith("az:") and len(str(error).splitlines()) == 1
        return
    for key, (number, low, high) in RANGES[kind].items():
        value = getattr(agent, ATTRIBUTES.get(key, key))
        if value is not None:
            assert isinstance(value, number) and not isinstance(value, bool)
            assert low <= value <= high and math.isfinite(value), (key, value)


@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_every_number_in_its_range_loads(data):
    kind = data.draw(st.sampled_from(sorted(RANGES)))
    key = data.draw(st.sampled_from(sorted(RANGES[kind])))
    number, low, high = RANGES[kind][key]
    if number is int:
        value = data.draw(st.integers(low, high))
    else:
        value = data.draw(st.floats(low, high, exclude_min=key == "time"))
    agent = load_agent(f"{kind}{_separator(kind)}{key}={value!r}")
    assert getattr(agent, ATTRIBUTES.get(key, key)) == value
