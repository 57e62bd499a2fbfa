"""Files a run writes whole or not at all (`mancala_env.outputs.write_atomically`): a run
stopped at any moment (Ctrl-C, a kill, a full disk) leaves each model, checkpoint and summary as
it was before or as it is after a save, never half written; and never of weights that are no
longer finite numbers (`check_finite`)."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mancala_env.outputs import write_atomically
from mancala_env.readers import read_bytes

MAX_LOG_BYTES = 64 * 2**20  # a run's evaluations log: about 900 bytes an evaluation


class TrainingDiverged(Exception):
    """The network's weights are no longer finite numbers (its updates overflowed): the run
    stops before it writes them, its newest checkpoint the last of finite weights."""


def check_finite(parameters: Iterable[Any], when: str) -> None:
    """TrainingDiverged unless every tensor of `parameters` holds finite numbers only; `when`
    says at what point of the run (``after generation 3``)."""
    if not all(bool(tensor.isfinite().all()) for tensor in parameters):
        raise TrainingDiverged(
            f"the network's weights are no longer finite {when} (inf or nan), so they are not "
            "written; the newest checkpoint holds the last finite ones: resume from it with a "
            "lower learning_rate"
        )


def save_model(model: Any, path: str | Path) -> Path:
    """`model.save` into memory, then `write_atomically` to `path`; TrainingDiverged, nothing
    written, when the model's weights are not all finite."""
    check_finite(model.policy.parameters(), f"when {Path(path).name} was to be saved")
    buffer = io.BytesIO()
    model.save(buffer)
    write_atomically(path, buffer.getvalue())
    return Path(path)


def write_json(path: str | Path, value: Any) -> None:
    write_atomically(path, (json.dumps(value, indent=2) + "\n").encode())


def claim_folder(
    out: Path, overwrite: bool, run_files: Iterable[str], newest: Path | None, pattern: str
) -> None:
    """Make `out` a new run's folder: refuse one that holds files unless `overwrite`, which
    removes what an earlier run wrote there (`run_files`) and nothing else. `newest` (the
    earlier run's newest checkpoint, if any) and `pattern` (its checkpoints' names) make the
    refusal say how to continue that run."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file, not a folder")
    if not out.exists() or not any(out.iterdir()):
        return
    if not overwrite:
        resume = f"--resume {newest}" if newest else f"--resume OUT/checkpoints/{pattern}"
        raise ValueError(
            f"--out {out} is not empty: continue the run there with {resume}, "
            "or start a new one with --overwrite (which deletes that run's files)"
        )
    for name in run_files:
        path = out / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def append_json_line(path: Path, value: Any) -> None:
    """`path` (a JSON-lines log, such as a run's evaluations) with `value` as a new last line,
    written whole (`write_atomically`): a run killed mid-write keeps the log as it was."""
    before = read_bytes(path, MAX_LOG_BYTES) if path.exists() else b""
    if before and not before.endswith(b"\n"):
        before += b"\n"
    write_atomically(path, before + (json.dumps(value) + "\n").encode())
