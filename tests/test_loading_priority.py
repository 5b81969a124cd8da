"""The loading worker runs at a lower priority than the window (app.loading.lower_priority), and loads all the same."""

from __future__ import annotations

import os
import sys

import pytest

from gpumem_gui.app.loading import WORKER_NICE, lower_priority
from gpumem_gui.sources.file_loader import FileLoadJob
from tests.conftest import fixture_path


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no nice values on this platform")
def test_the_worker_runs_niced_and_still_loads() -> None:
    job = FileLoadJob(str(fixture_path("constructor_memory_snapshot.pickle")))
    pid = job._proc.pid
    assert pid is not None
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    lower_priority(job)
    niced = os.getpriority(os.PRIO_PROCESS, pid)
    result = job.run(timeout=120)
    assert niced == max(ours, WORKER_NICE)  # below the window's (never raised: a user may not raise it back)
    assert os.getpriority(os.PRIO_PROCESS, 0) == ours  # the window's own priority is untouched
    assert result.error is None and result.snapshot is not None and result.timelines


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux sets each thread's priority")
def test_a_gone_worker_is_no_error() -> None:
    job = FileLoadJob(str(fixture_path("constructor_memory_snapshot.pickle")))
    job.cancel()  # killed and reaped: its pid and /proc entry are gone
    lower_priority(job)
