"""On a CUDA machine: a real training loop under the probe, attached with `attach --once --save`, checked against
what torch reports inside the job. Skips itself where torch has no CUDA device."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import BlockState
from tests.conftest import wait_until
from tests.probe_helpers import stop, wait_for_socket

pytestmark = pytest.mark.gpu

JOB = """
import json, pathlib, sys, time
import torch
model = torch.nn.Sequential(*[torch.nn.Linear(1024, 1024) for _ in range(8)]).cuda()
opt = torch.optim.AdamW(model.parameters())
for step, seq in enumerate([128, 512, 256, 1024, 384, 768]):
    x = torch.randn(seq, 1024, device="cuda")
    model(x).square().mean().backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
torch.cuda.synchronize()
out = pathlib.Path(sys.argv[1])
out.write_text(json.dumps({"reserved": torch.cuda.memory_reserved(), "allocated": torch.cuda.memory_allocated()}))
deadline = time.time() + 120
while not pathlib.Path(sys.argv[2]).exists() and time.time() < deadline:
    time.sleep(0.05)
"""


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_real_cuda_job_attached_once(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(JOB))
    figures, flag, out = tmp_path / "figures.json", tmp_path / "go", tmp_path / "snap.pickle"
    command = [sys.executable, "-m", "gpumem_gui.probe", "--stacks", "python", str(script), str(figures), str(flag)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_socket(proc.pid, proc)
        wait_until(figures.exists, timeout=120, what="the job's own figures")
        expected = json.loads(figures.read_text())
        result = subprocess.run([sys.executable, "-m", "gpumem_gui", "attach", str(proc.pid), "--once", "--save",
                                 str(out)], capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
        assert result.returncode == 0, result.stderr
        snap = load_snapshot(out)
        assert int(snap.state.segments.total_size.sum()) == expected["reserved"]
        allocated = snap.state.blocks.size[snap.state.blocks.state == BlockState.ALLOCATED].sum()
        assert int(allocated) == expected["allocated"]
        assert len(snap.trace(snap.default_device())) > 0  # the probe turned recording on at CUDA init
        flag.touch()
        proc.wait(timeout=60)
        assert proc.returncode == 0
    finally:
        stop(proc)
