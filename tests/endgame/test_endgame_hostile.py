"""Hostile endgame databases and requests: a level file whose header or values no
build writes, or something other than a regular file in a level's place, is refused on load
with one line naming what is wrong; a database is known by every byte of its level files; a
build that cannot fit in memory is refused before it begins; a build that cannot write leaves no
part file and says why."""

from __future__ import annotations

import errno
import json
import os
import stat
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import examples

from mancala_env import inputs, outputs
from mancala_env.batch import BatchedGames
from mancala_env.cli import main
from mancala_env.endgame.build import build
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.endgame.files import (
    HEADER_SIZE,
    MAGIC,
    DatabaseError,
    checksum,
    database_identity,
    level_path,
)
from mancala_env.variants import get_variant

OWARE = get_variant("oware")
SEEDS = 3


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory):
    directory = tmp_path_factory.mktemp("oware")
    build(OWARE, OWARE.options(), SEEDS, directory, progress=False)
    return directory


@pytest.fixture
def copy(source, tmp_path):
    """A copy of the database, to damage."""
    for seeds in range(SEEDS + 1):
        level_path(tmp_path, seeds).write_bytes(level_path(source, seeds).read_bytes())
    return tmp_path


def rewrite(path, header_change=None, values_change=None) -> None:
    """Rewrite a level file as a forger would: its header changed and its values changed, with
    the checksum recomputed so that it still matches."""
    data = path.read_bytes()
    header = json.loads(data[len(MAGIC) : HEADER_SIZE].rstrip(b"\0"))
    values = bytearray(data[HEADER_SIZE:])
    if values_change:
        values_change(values)
    header["checksum"] = checksum(bytes(values))
    header.update(header_change or {})
    text = MAGIC + json.dumps(header).encode()
    path.write_bytes(text.ljust(HEADER_SIZE, b"\0") + bytes(values))


def loads(directory):
    """Every way a database is loaded: opened, added to by a build, used by a command."""
    yield lambda: EndgameDatabase(directory, OWARE, OWARE.options())
    yield lambda: build(OWARE, OWARE.options(), SEEDS + 1, directory, progress=False)


def refused_by_the_commands(directory, capsys, message) -> None:
    for argv in (
        ["accuracy", "random", "--max-seeds", str(SEEDS), "--positions", "5", "--db"],
        ["solve", "oware", "--max-seeds", str(SEEDS + 1), "--no-progress", "--out"],
    ):
        assert main([*argv, str(directory)]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"options": ["grand_slam", "no_capture"]}, "header's 'options' must be an object"),
        ({"options": [], "rules": "other"}, "header's 'options' must be an object"),
        ({"options": "x", "version": 9}, "header's 'options' must be an object"),
        ({"seeds": "2"}, "header's 'seeds' must be an integer, got '2'"),
        ({"version": True}, "header's 'version' must be an integer, got True"),
        ({"variant": None}, "header's 'variant' must be a rule set's name, got None"),
    ],
)
def test_a_header_entry_of_the_wrong_kind_is_refused_on_every_load(copy, capsys, change, message):
    """An options list used to end in AttributeError ('list' object has no attribute 'items')
    where the header was named in a message, and to pass unseen where it was not."""
    rewrite(level_path(copy, 2), header_change=change)
    for load in loads(copy):
        with pytest.raises(DatabaseError, match=message):
            load()
    refused_by_the_commands(copy, capsys, message)
    assert not level_path(copy, SEEDS + 1).exists()


@pytest.mark.parametrize(("seeds", "value"), [(1, 3), (2, 5), (3, 255), (0, 1)])
def test_a_value_no_board_of_its_seed_count_can_have_is_refused(copy, capsys, seeds, value):
    """A board of k seeds is worth 0 to 2k half seeds; a forged level (a 4-seed board worth
    127.5 seeds) with its checksum recomputed used to be read and played from."""

    def forge(values):
        values[len(values) // 2] = value

    rewrite(level_path(copy, seeds), values_change=forge)
    message = f"holds a value of {value} half seeds, and a board of {seeds} seeds is worth 0 to"
    for load in loads(copy):
        with pytest.raises(DatabaseError, match=message):
            load()
    refused_by_the_commands(copy, capsys, message)


def test_a_build_that_needs_more_memory_than_there_is_is_refused_before_it_begins(
    tmp_path, capsys, monkeypatch
):
    """`solve --max-seeds 31` on a machine without 14.3 GiB used to end in numpy's
    _ArrayMemoryError; now the need is said before a folder is made."""
    monkeypatch.setattr(inputs, "available_memory", lambda: 2_000)
    out = tmp_path / "db"
    with pytest.raises(ValueError, match=r"max_seeds 4 needs 4\.\d KiB of memory and this"):
        build(OWARE, OWARE.options(), 4, out, progress=False)
    assert main(["solve", "oware", "--max-seeds", "4", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "mancala solve: error: max_seeds 4 needs" in err and "2.0 KiB available" in err
    assert len(err.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.parametrize("n_games", [10**15, 2**63, 2**64])
def test_a_batch_larger_than_memory_is_refused_naming_n_games(n_games):
    with pytest.raises(ValueError, match=f"n_games={n_games:,} .* needs .* of memory"):
        BatchedGames("oware", n_games)


def test_a_batch_that_fits_is_not_refused(monkeypatch):
    monkeypatch.setattr(inputs, "available_memory", lambda: 10**6)
    assert BatchedGames("oware", 100).states.shape[0] == 100
    with pytest.raises(ValueError, match="n_games=10,000 .* needs 24.2 MiB of memory"):
        BatchedGames("oware", 10_000)


def test_a_full_disk_leaves_no_part_file_and_is_one_line(tmp_path, capsys, monkeypatch):
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, file):
            self.file = file

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

        def fileno(self):
            return self.file.fileno()

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def opened(descriptor, mode="r", *args, **kwargs):  # the level files' writer (outputs)
        file = real_fdopen(descriptor, mode, *args, **kwargs)
        return FullDisk(file) if "w" in mode else file

    monkeypatch.setattr(outputs.os, "fdopen", opened)
    out = tmp_path / "db"
    status = main(["solve", "oware", "--max-seeds", "2", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 1 and len(err.strip().splitlines()) == 1, err
    assert f"cannot build the database in {out}: No space left on device" in err
    assert os.listdir(out) == []


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("{file}", "is a file; name a folder"),
        ("{file}/db", "is a file, not a folder"),
        ("/proc/db", "cannot write in /proc"),
    ],
)
def test_solve_out_where_no_database_can_be_written_is_one_line(tmp_path, capsys, out, message):
    file = tmp_path / "f"
    file.write_text("x")
    out = out.replace("{file}", str(file))
    assert main(["solve", "oware", "--max-seeds", "2", "--out", out]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert file.read_text() == "x"


# ---- what stands in a level's place -----------------------------------------------------------
def put_in_place(path, kind: str) -> str:
    """Something other than a regular file at `path` (a level's name); the refusal it gets."""
    path.unlink()
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # the null device's numbers
        except PermissionError:
            os.mkfifo(path)
    elif kind == "link to a folder":
        (path.parent / "elsewhere").mkdir()
        path.symlink_to(path.parent / "elsewhere")
    else:  # a link to nothing
        path.symlink_to(path.parent / "nothing")
        return "cannot be read: No such file or directory"
    return "is a folder, not a regular file" if "folder" in kind else "is not a regular file"


PLACES = ["folder", "fifo", "device", "link to a folder", "dangling link"]


def one_line_refusal(argv, capsys, message) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("kind", PLACES)
def test_a_level_that_is_no_regular_file_is_refused_in_one_line(
    copy, tmp_path_factory, capsys, kind
):
    """A folder named seeds_02.egdb used to end `mancala accuracy` and a tournament of
    `perfect:db=` in IsADirectoryError; a link to nothing used to end the database there."""
    message = put_in_place(level_path(copy, 2), kind)
    with pytest.raises(DatabaseError, match=f"seeds_02.egdb: {message}"):
        EndgameDatabase(copy, OWARE, OWARE.options())
    with pytest.raises(DatabaseError, match=message):
        database_identity(copy)
    accuracy = ["accuracy", "random", "--max-seeds", str(SEEDS), "--positions", "5", "--db"]
    one_line_refusal([*accuracy, str(copy)], capsys, message)
    store = tmp_path_factory.mktemp("store") / "t.sqlite"
    tournament = ["tournament", "oware", "--agents", "random", f"perfect:db={copy}"]
    runner = ["--games-per-pair", "2", "--workers", "1", "--no-progress", "--db", str(store)]
    one_line_refusal([*tournament, *runner], capsys, message)
    one_line_refusal(
        [*tournament[:-1], "greedy", *runner, "--endgame-db", str(copy)], capsys, message
    )
    assert not store.exists()


# ---- a database's identity --------------------------------------------------------------------
def forge_values(path) -> None:
    """Change values of the level file at `path` and leave its header as it is, its checksum
    still matching: CRC-32 is linear, so among the bits 0-2 of 16 values below 8 (48 bits, 32
    conditions) some set flips no bit of it. The values stay below 8: no load refuses them."""
    data = path.read_bytes()
    values = bytearray(data[HEADER_SIZE:])
    spots = [i for i, value in enumerate(values) if value < 8][:16]
    zero = zlib.crc32(bytes(len(values)))

    def flipped(i: int, bit: int) -> int:  # what flipping a bit does to the CRC, of any values
        one = bytearray(len(values))
        one[i] = 1 << bit
        return zlib.crc32(one) ^ zero

    pivots: dict[int, tuple[int, frozenset]] = {}  # Gaussian elimination over GF(2)
    for flip in ((i, bit) for i in spots for bit in range(3)):
        effect, flips = flipped(*flip), frozenset([flip])
        while effect and effect.bit_length() in pivots:
            pivot, pivot_flips = pivots[effect.bit_length()]
            effect, flips = effect ^ pivot, flips ^ pivot_flips
        if not effect:
            break
        pivots[effect.bit_length()] = effect, flips
    for i, bit in flips:
        values[i] ^= 1 << bit
    assert checksum(bytes(values)) == checksum(data[HEADER_SIZE:]) and values != data[HEADER_SIZE:]
    path.write_bytes(data[:HEADER_SIZE] + bytes(values))


def test_a_database_changed_under_its_headers_makes_a_new_tournament(
    oware_db, tmp_path, capsys, caplog
):
    """A tournament keyed a database by its level files' headers: values changed under them
    (their CRC kept) joined the old tournament's games, so the same command played nothing."""
    database = tmp_path / "db"
    database.mkdir()
    for seeds in range(oware_db.max_seeds + 1):
        level_path(database, seeds).write_bytes(level_path(oware_db.directory, seeds).read_bytes())
    argv = ["tournament", "oware", "--agents", "random", f"perfect:db={database}"]
    argv += ["--games-per-pair", "2", "--openings", "1", "--workers", "1", "--no-progress"]
    argv += ["--db", str(tmp_path / "t.sqlite")]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "2 played now, 0 found there" in first
    header = level_path(database, oware_db.max_seeds).read_bytes()[:HEADER_SIZE]
    forge_values(level_path(database, oware_db.max_seeds))
    assert level_path(database, oware_db.max_seeds).read_bytes()[:HEADER_SIZE] == header
    EndgameDatabase(database, OWARE, OWARE.options())  # it opens: only values changed
    assert main(argv) == 0
    second = capsys.readouterr()
    assert "2 played now, 0 found there" in second.out, second.out
    assert first.split("(tournament ")[1][:16] != second.out.split("(tournament ")[1][:16]
    assert "changed since tournament" in caplog.text


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    seeds=st.integers(0, SEEDS),
    in_header=st.booleans(),
    where=st.floats(0, 1, exclude_max=True),
    flip=st.integers(1, 255),
)
def test_every_byte_of_every_level_is_part_of_the_identity(copy, seeds, in_header, where, flip):
    """A byte of a header or of the values (the level's board `where` of the way along)."""
    path = level_path(copy, seeds)
    before, data = database_identity(copy), bytearray(path.read_bytes())
    at = (
        int(where * HEADER_SIZE)
        if in_header
        else HEADER_SIZE + int(where * (len(data) - HEADER_SIZE))
    )
    data[at] ^= flip
    path.write_bytes(data)
    try:
        assert database_identity(copy) != before
    finally:
        data[at] ^= flip
        path.write_bytes(data)
    assert database_identity(copy) == before
