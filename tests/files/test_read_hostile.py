"""Malformed files of every kind the suite reads (opening suites, networks, checkpoint states,
both recipes' configs, JSON-lines records, endgame database headers): each is read or refused
with one line of the reader's own error, within a bounded amount of memory, and no file in its
folder changes."""

from __future__ import annotations

import importlib.util
import io
import json
import tracemalloc
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mancala_env import Game
from mancala_env.agents.network import (
    MAX_NETWORK_BYTES,
    NetworkError,
    OlderRulesWarning,
    network_identity,
    read_network,
)
from mancala_env.agents.ppo import MAX_MODEL_BYTES, ModelLoadError, model_identity
from mancala_env.agents.tournament.openings import SUITES, read_suite
from mancala_env.agents.tournament.replay import load_record
from mancala_env.endgame.files import MAGIC, _read_header
from mancala_env.readers import MAX_NESTING, nesting

MEMORY = 64 * 1024 * 1024  # what reading or refusing any of these files may allocate at most
HOSTILE = st.sampled_from(
    [True, False, 1.0, -(10**12), 2**70, float("nan"), float("inf"), "x", None, [], {}, [1]]
)
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def mutated(draw: st.DrawFn, document: dict) -> str:
    """`document` as JSON with one value somewhere in it replaced by a hostile one, or with
    nesting too deep, or cut short."""
    text = json.dumps(document)
    how = draw(st.sampled_from(["replace", "deep", "cut", "bytes"]))
    if how == "deep":
        return text[:-1] + f', "deep": {nested(draw(st.integers(MAX_NESTING, 5000)))}}}'
    if how == "cut":
        return text[: draw(st.integers(0, len(text) - 1))]
    if how == "bytes":
        return draw(st.binary(max_size=64)).decode("latin-1")
    copy = json.loads(text)
    place = copy
    while True:
        keys = list(place) if isinstance(place, dict) else list(range(len(place)))
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        if not isinstance(place[key], (dict, list)) or draw(st.booleans()):
            place[key] = draw(HOSTILE | ANY_JSON)
            break
        place = place[key]
    return json.dumps(copy)


def check_refusal(folder: Path, read, errors: type | tuple[type, ...]) -> None:
    """`read()` reads or raises one line of `errors`, allocating at most `MEMORY`, and leaves
    every file of `folder` as it was."""
    before = files_as_they_are(folder)
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OlderRulesWarning)
            read()
    except errors as error:
        assert "\n" not in str(error), str(error)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < MEMORY, peak
    assert files_as_they_are(folder) == before


def files_as_they_are(folder: Path) -> dict[Path, tuple[int, int, bytes | None]]:
    """Each file of `folder`: its size, its modification time and, unless it is larger than
    16 MiB (a sparse file of gigabytes, not read), its bytes."""
    found = {}
    for path in folder.rglob("*"):
        if path.is_file():
            status = path.stat()
            small = status.st_size <= 16 * 2**20
            found[path] = (status.st_size, status.st_mtime_ns, path.read_bytes() if small else None)
    return found


SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SUITE = json.loads((SUITES / "oware.json").read_text())
SUITE["entries"] = SUITE["entries"][:3]


@SETTINGS
@given(text=mutated(SUITE))
def test_a_malformed_opening_suite_is_refused_in_one_line(tmp_path, text):
    path = tmp_path / "suite.json"
    path.write_text(text)
    check_refusal(tmp_path, lambda: read_suite(path, "oware"), ValueError)


@pytest.fixture(scope="module")
def network_arrays() -> dict:
    from mancala_env.agents.network import SHIPPED

    with np.load(SHIPPED / "oware.npz") as archive:
        return {name: archive[name] for name in archive.files}


def npz(arrays: dict) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    return buffer.getvalue()


@SETTINGS
@given(data=st.data())
def test_a_network_with_a_malformed_meta_is_refused_in_one_line(tmp_path, network_arrays, data):
    meta = json.loads(network_arrays["meta"].tobytes())
    text = data.draw(mutated(meta))
    arrays = {**network_arrays, "meta": np.frombuffer(text.encode(), dtype=np.uint8)}
    path = tmp_path / "net.npz"
    path.write_bytes(npz(arrays))
    check_refusal(tmp_path, lambda: read_network(path), NetworkError)


@pytest.mark.parametrize("variant", [[], {}, 3, None, "x" * 10_000])
def test_a_network_whose_meta_names_no_rule_set_is_refused_in_one_line(
    tmp_path, network_arrays, variant
):
    """A variant that is not a text (a list once raised TypeError) or names no rule set."""
    meta = {**json.loads(network_arrays["meta"].tobytes()), "variant": variant}
    text = json.dumps(meta)
    arrays = {**network_arrays, "meta": np.frombuffer(text.encode(), dtype=np.uint8)}
    path = tmp_path / "net.npz"
    path.write_bytes(npz(arrays))
    check_refusal(tmp_path, lambda: read_network(path), NetworkError)
    with pytest.raises(NetworkError, match="is not a rule set"):
        read_network(path)


def test_a_network_member_of_deflated_zeros_is_refused_unread(tmp_path, network_arrays):
    path = tmp_path / "net.npz"
    path.write_bytes(npz(network_arrays))
    with (
        # the fastest deflate: a gigabyte of zeros in about 4.5 MB
        zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
        archive.open("junk.npy", "w", force_zip64=True) as member,
    ):
        header = {"descr": "<f4", "fortran_order": False, "shape": (2**28,)}
        np.lib.format.write_array_header_1_0(member, header)
        zeros = bytes(2**24)
        for _ in range(2**30 // 2**24):
            member.write(zeros)
    assert path.stat().st_size < 8 * 1024 * 1024
    with pytest.raises(NetworkError, match="members hold 1,07.* bytes; at most 268,435,456"):
        check_refusal(tmp_path, lambda: read_network(path), ())


def test_a_network_member_whose_header_claims_more_than_it_holds_is_refused(
    tmp_path, network_arrays
):
    path = tmp_path / "net.npz"
    path.write_bytes(npz(network_arrays))
    with zipfile.ZipFile(path, "a") as archive, archive.open("value_extra.npy", "w") as member:
        header = {"descr": "<f4", "fortran_order": False, "shape": (10**6, 10**6)}
        np.lib.format.write_array_header_1_0(member, header)
    with pytest.raises(NetworkError, match=r"shape \(1000000, 1000000\), which its"):
        check_refusal(tmp_path, lambda: read_network(path), ())


def test_a_network_names_only_its_own_members(tmp_path, network_arrays):
    path = tmp_path / "net.npz"
    path.write_bytes(npz({**network_arrays, "extra": np.zeros(3, np.float32)}))
    with pytest.raises(NetworkError, match="has unknown members extra"):
        read_network(path)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"rules_version": 99}, "rules_version .* must be an integer from 0 to 1, got 99"),
        ({"rules_version": True}, "rules_version .* got True"),
        ({"format": {"name": "mancala-az-network", "version": True}}, "not a mancala-az-network"),
        ({"format": {"name": "mancala-az-network", "version": 1.0}}, "not a mancala-az-network"),
        ({"n_actions": 6.0}, "action count"),
    ],
)
def test_a_network_meta_of_bools_floats_or_unknown_rules_is_refused(
    tmp_path, network_arrays, change, message
):
    meta = {**json.loads(network_arrays["meta"].tobytes()), **change}
    path = tmp_path / "net.npz"
    path.write_bytes(
        npz({**network_arrays, "meta": np.frombuffer(json.dumps(meta).encode(), np.uint8)})
    )
    with pytest.raises(NetworkError, match=message):
        read_network(path)


def test_a_network_fitted_to_earlier_rules_says_so_in_one_line(tmp_path, network_arrays):
    meta = {**json.loads(network_arrays["meta"].tobytes()), "rules_version": 0}
    path = tmp_path / "net.npz"
    path.write_bytes(
        npz({**network_arrays, "meta": np.frombuffer(json.dumps(meta).encode(), np.uint8)})
    )
    network, _ = read_network(path)
    with pytest.warns(OlderRulesWarning, match="fitted to oware v0; these rules are v1") as said:
        network.check_game(Game("oware"), "here")
    assert "\n" not in str(said[0].message)


@pytest.mark.parametrize(
    "identity, limit, error",
    [
        (network_identity, MAX_NETWORK_BYTES, NetworkError),
        (model_identity, MAX_MODEL_BYTES, ModelLoadError),
    ],
)
def test_an_identity_of_a_file_too_large_is_refused_unread(tmp_path, identity, limit, error):
    path = tmp_path / "huge.zip"
    with open(path, "wb") as file:
        file.truncate(2 * 1024**3)  # sparse: nothing on the disk
    with pytest.raises(error, match=f"at most {limit:,} are read"):
        check_refusal(tmp_path, lambda: identity(path), ())


AZ_KEYS = ["positions", "generation", "games", "workers", "teacher_depth", "hidden", "buffer",
           "eval_depths", "opponents", "eval_suite", "endgames", "temperature"]  # fmt: skip
PPO_KEYS = ["timesteps", "n_envs", "opponents", "self_share", "eval_games", "ppo"]


def toml_value(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf"}.get(str(value), repr(value))
    if value is None or value == {}:
        return "{}"
    return json.dumps(value)


@SETTINGS
@given(
    recipe=st.sampled_from(["az", "ppo"]),
    lines=st.lists(st.tuples(st.sampled_from(AZ_KEYS + PPO_KEYS), HOSTILE), max_size=3),
    deep=st.sampled_from([0, MAX_NESTING + 1, 10_000]),
)
def test_a_malformed_training_config_is_refused_in_one_line(tmp_path, recipe, lines, deep):
    pytest.importorskip("torch")
    from mancala_env.train.az.config import load_az_config
    from mancala_env.train.config import load_config

    text = "".join(f"{key} = {toml_value(value)}\n" for key, value in dict(lines).items())
    text += f"deep = {nested(deep)}\n" if deep else ""
    path = tmp_path / "config.toml"
    path.write_text(text)
    load = load_az_config if recipe == "az" else load_config
    check_refusal(tmp_path, lambda: load("oware", path), ValueError)


STATE = {"variant": "oware", "options": {}, "seed": 0, "config": {"hidden": [8], "buffer": 10},
         "generation": 1, "positions": 12, "games": 3, "seconds": 1.5,
         "evaluations": [{"generation": 1, "positions": 12, "seconds": 1.5, "network": "n",
                          "scores": {"alphabeta:depth=1": [0.5, 0.1, 0.9]}}]}  # fmt: skip


@SETTINGS
@given(text=mutated(STATE))
def test_a_malformed_checkpoint_state_is_refused_in_one_line(tmp_path, text):
    pytest.importorskip("torch")
    from mancala_env.train.az.run import _checkpoint_state

    checkpoint = tmp_path / "gen_1.npz"
    for suffix in (".npz", ".pt", ".buffer.npz"):
        checkpoint.with_suffix(suffix).write_bytes(b"")
    checkpoint.with_suffix(".json").write_text(text)
    check_refusal(tmp_path, lambda: _checkpoint_state(checkpoint, "oware"), ModelLoadError)


RECORD = {"id": 1, "variant": "ayoayo", "options": {}, "seed": 3, "moves": [0], "agent_0": "a",
          "agent_1": "b", "length": 1, "winner": -1, "end_reason": "none"}  # fmt: skip


@SETTINGS
@given(text=mutated(RECORD))
def test_a_malformed_record_is_refused_in_one_line(tmp_path, text):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(RECORD) + "\n" + text.replace("\n", " ") + "\n")
    check_refusal(tmp_path, lambda: load_record(path, 1), ValueError)


HEADER = {"format": 1, "variant": "oware", "rules": "x", "seeds": 3, "positions": 10,
          "checksum": "y"}  # fmt: skip


@SETTINGS
@given(text=mutated(HEADER))
def test_a_malformed_endgame_header_is_refused_in_one_line(tmp_path, text):
    path = tmp_path / "level.bin"
    path.write_bytes((MAGIC + text.encode())[:4096].ljust(4096, b"\0"))
    check_refusal(tmp_path, lambda: _read_header(path), ValueError)


ROOT = Path(__file__).resolve().parents[2]
_ATLAS = importlib.util.spec_from_file_location("atlas", ROOT / "benchmarks" / "atlas.py")
atlas = importlib.util.module_from_spec(_ATLAS)
_ATLAS.loader.exec_module(atlas)
ATLAS = json.loads((ROOT / "benchmarks" / "results" / "atlas.json").read_text())
ATLAS["cells"] = [ATLAS["cells"][0], next(c for c in ATLAS["cells"] if c["exact"] is not None)]


@SETTINGS
@given(text=mutated(ATLAS))
def test_a_malformed_atlas_results_file_is_refused_in_one_line(tmp_path, text):
    """What `benchmarks/atlas.py` reads of an earlier run's file is what it draws and writes
    again: each cell's record read is one its figure draws."""
    path = tmp_path / "atlas.json"
    path.write_text(text)
    records = []
    check_refusal(tmp_path, lambda: records.extend(atlas.read_records(path)), ValueError)
    if records:
        atlas.write_figure(tmp_path / "atlas.png", records)


@pytest.mark.parametrize(
    "text, toml, depth",
    [
        ('{"a": "[[[[", "b": [[1]]}', False, 3),
        ("a = '[[[['\nb = [[1]] # [[[[", True, 2),
        ('a = """x"y[[["""\nb = [1]', True, 1),
        ('a = "[[[\n[[[[', True, 0),  # a string that does not close ends a parser's reading
    ],
)
def test_nesting_counts_brackets_outside_strings_and_comments(text, toml, depth):
    assert nesting(text, toml) == depth


# Texts that made the nesting scan quadratic (a regex that tries every quote as a string's start
# and runs to the end of the text from each): 40 KB of escaped quotes took 7.4 s, so a megabyte
# would take over an hour. Each is read (refused) here in one pass, whatever reads it.
HOSTILE_SCANS = {
    "escaped quotes": '\\"',
    "quote and bracket": '"[',
    "triple quotes": '"""',
    "triple apostrophes": "'''",
    "backslashes": "\\\\",
    "apostrophe and bracket": "'[",
}


def hostile_scan(unit: str, size: int) -> str:
    return unit * (size // len(unit))


@pytest.mark.parametrize("unit", HOSTILE_SCANS.values(), ids=HOSTILE_SCANS)
def test_every_reader_refuses_a_hostile_scan_in_one_pass(tmp_path, network_arrays, unit):
    pytest.importorskip("torch")
    from mancala_env.train.az.config import load_az_config
    from mancala_env.train.config import MAX_CONFIG_BYTES, load_config

    text = hostile_scan(unit, 4 * 2**20)
    (tmp_path / "suite.json").write_text(text)
    check_refusal(tmp_path, lambda: read_suite(tmp_path / "suite.json", "oware"), ValueError)
    (tmp_path / "games.jsonl").write_text(json.dumps(RECORD) + "\n" + text + "\n")
    check_refusal(tmp_path, lambda: load_record(tmp_path / "games.jsonl", 2), ValueError)
    meta = np.frombuffer(text.encode(), dtype=np.uint8)
    (tmp_path / "net.npz").write_bytes(npz({**network_arrays, "meta": meta}))
    check_refusal(tmp_path, lambda: read_network(tmp_path / "net.npz"), NetworkError)
    config = tmp_path / "config.toml"
    config.write_text("a = 1\n" + hostile_scan(unit, MAX_CONFIG_BYTES - 6))
    for load in (load_az_config, load_config):
        check_refusal(tmp_path, lambda load=load: load("oware", config), ValueError)
