"""Files a run writes whole or not at all: a run stopped at any moment (Ctrl-C, a kill, a full
disk) leaves each model, checkpoint and summary as it was before or as it is after a save,
never half written."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any


def write_atomically(path: str | Path, content: bytes) -> None:
    """Write `content` to a temporary file beside `path`, then rename it to `path`."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)  # left only when the write failed


def save_model(model: Any, path: str | Path) -> Path:
    """`model.save` into memory, then `write_atomically` to `path`."""
    buffer = io.BytesIO()
    model.save(buffer)
    write_atomically(path, buffer.getvalue())
    return Path(path)


def write_json(path: str | Path, value: Any) -> None:
    write_atomically(path, (json.dumps(value, indent=2) + "\n").encode())
