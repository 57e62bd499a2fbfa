"""The machine a measurement ran on, described alike by every results file that records one."""

from __future__ import annotations

import os
import platform

from mancala_env.readers import ReadError, read_bytes

CPUINFO = "/proc/cpuinfo"
MAX_CPUINFO_BYTES = 4 * 2**20  # a few kB a core


def describe_machine(gpu: str | None = None) -> str:
    """The processor's model, its cores, the system and, when given, the GPU that did the work:
    ``AMD EPYC 7B13, 2 cores, Linux 6.1.0``."""
    fields = [
        _processor_model(),
        f"{os.cpu_count()} cores",
        f"{platform.system()} {platform.release()}",
    ]
    if gpu is not None:
        fields.append(gpu)
    return ", ".join(fields)


def _processor_model() -> str:
    """The first ``model name`` of /proc/cpuinfo, or what `platform` knows where there is none."""
    try:
        text = read_bytes(CPUINFO, MAX_CPUINFO_BYTES).decode(errors="replace")
    except (OSError, ReadError):
        text = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and value.strip():
            return value.strip()
    return platform.processor() or platform.machine()
