"""train_step.py's protocol over the fake torch, for the GPU check's tests: a few allocations, then ready (--ready),
wait for --go, an OOM the probe's observer captures, and the result (--result)."""

import argparse
import json
import os
import time
from pathlib import Path

import torch

parser = argparse.ArgumentParser()
for name in ("--ready", "--go", "--result"):
    parser.add_argument(name, type=Path, required=True)
parser.add_argument("--wait", type=float, default=60.0)
args = parser.parse_args()
torch.cuda.init()
kept = [torch.cuda.fake_malloc(size) for size in (64 << 20, 32 << 20, 2 << 20)]
reserved = torch.cuda.memory_reserved()
args.ready.write_text(json.dumps({"pid": os.getpid(), "reserved": reserved, "torch": torch.__version__}))
deadline = time.monotonic() + args.wait
while not args.go.exists() and time.monotonic() < deadline:
    time.sleep(0.05)
try:
    torch.cuda.fake_malloc(1 << 40)
    oom = {"raised": False, "message": ""}
except torch.cuda.OutOfMemoryError as e:
    oom = {"raised": True, "message": str(e)}
args.result.write_text(json.dumps({"oom": {**oom, "reserved_before": reserved}}))
