"""The machine description every results file and training run records."""

import os
import platform
from pathlib import Path

import pytest

from mancala_env import machine
from mancala_env.machine import describe_machine


def test_the_processor_model_comes_from_cpuinfo_and_the_gpu_is_named_when_given(
    tmp_path, monkeypatch
):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: Example CPU 9000\nprocessor\t: 1\n")
    monkeypatch.setattr(machine, "CPUINFO", str(cpuinfo))
    system = f"{platform.system()} {platform.release()}"
    assert describe_machine() == f"Example CPU 9000, {os.cpu_count()} cores, {system}"
    assert describe_machine("NVIDIA H200").endswith(f"{system}, NVIDIA H200")


@pytest.mark.parametrize("kind", ["missing", "no model name", "too large", "a fifo"])
def test_without_a_readable_model_name_the_platform_names_the_processor(
    tmp_path, monkeypatch, kind
):
    cpuinfo = tmp_path / "cpuinfo"
    if kind == "no model name":
        cpuinfo.write_text("processor\t: 0\n")
    elif kind == "too large":
        cpuinfo.write_bytes(b"model name\t: Huge\n" * (machine.MAX_CPUINFO_BYTES // 10))
    elif kind == "a fifo":
        os.mkfifo(cpuinfo)  # refused unread, without waiting for a writer
    monkeypatch.setattr(machine, "CPUINFO", str(cpuinfo))
    processor = platform.processor() or platform.machine()
    assert describe_machine().startswith(f"{processor}, {os.cpu_count()} cores, ")


@pytest.mark.skipif(not os.path.isfile("/proc/cpuinfo"), reason="a system without /proc/cpuinfo")
def test_the_real_cpuinfo_is_read_though_its_size_reads_zero():
    """/proc's files say they hold 0 bytes; the bounded read reads them all the same."""
    names = [
        line.partition(":")[2].strip()
        for line in Path("/proc/cpuinfo").read_text().splitlines()
        if line.partition(":")[0].strip() == "model name"
    ]
    expected = names[0] if names and names[0] else platform.processor() or platform.machine()
    assert describe_machine().startswith(f"{expected}, ")
