"""A small real training step for the GPU check, run as `python -m gpumem_gui.probe ... train_step.py --ready R --go G
--result OUT`: four transformer layers trained on batches of varying sequence length (a few hundred MiB), then it
says it is ready (R), waits for the check to attach and write G, forces an out-of-memory error under
set_per_process_memory_fraction (which the probe's observer captures) and writes what happened to OUT."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import torch
from torch import nn

SEQUENCE_LENGTHS = (96, 320, 200, 512, 64, 448)  # a new length each step: the allocator sees new sizes each time
BATCH, WIDTH, HEADS, FEEDFORWARD, LAYERS, VOCABULARY = 8, 512, 8, 2048, 4, 8000
MiB = 1 << 20
_KEPT: list[object] = []  # the model and its optimizer stay live after training: the snapshot shows them


def _write(path: Path, data: dict[str, object]) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(data, indent=1))
    part.replace(path)  # whoever polls for the file never reads half of it


def train(device: torch.device) -> dict[str, object]:
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Embedding(VOCABULARY, WIDTH),
        *[nn.TransformerEncoderLayer(WIDTH, HEADS, FEEDFORWARD, batch_first=True) for _ in range(LAYERS)],
        nn.Linear(WIDTH, VOCABULARY),
    ).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    losses = []
    for length in SEQUENCE_LENGTHS:
        tokens = torch.randint(0, VOCABULARY, (BATCH, length), device=device)
        targets = torch.randint(0, VOCABULARY, (BATCH, length), device=device)
        logits = model(tokens)
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCABULARY), targets.reshape(-1))
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        losses.append(loss.item())
    torch.cuda.synchronize()
    _KEPT.extend((model, optimizer))
    return {
        "parameters": sum(p.numel() for p in model.parameters()),
        "sequence_lengths": list(SEQUENCE_LENGTHS),
        "losses": losses,
    }


def force_oom() -> dict[str, object]:
    """Allow the allocator 64 MiB more than it holds, then ask for all of that at once: it gives back its cache,
    still cannot fit the request beside the live parameters, and raises."""
    total = int(torch.cuda.mem_get_info()[1])
    reserved = int(torch.cuda.memory_reserved())
    allowed = reserved + 64 * MiB
    torch.cuda.set_per_process_memory_fraction(allowed / total)
    raised, message = False, ""
    try:
        torch.empty(allowed, dtype=torch.uint8, device="cuda")
    except torch.cuda.OutOfMemoryError as e:
        raised, message = True, str(e).splitlines()[0][:400]
    finally:
        torch.cuda.set_per_process_memory_fraction(1.0)
    return {"raised": raised, "message": message, "reserved_before": reserved, "allowed": allowed, "total": total}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ready", type=Path, required=True)
    parser.add_argument("--go", type=Path, required=True)
    parser.add_argument("--result", type=Path, required=True)
    parser.add_argument("--wait", type=float, default=120.0, help="seconds to wait for --go")
    args = parser.parse_args()
    device = torch.device("cuda")
    started = time.monotonic()
    facts: dict[str, object] = {"pid": os.getpid(), "torch": torch.__version__}
    facts.update(train(device))
    stats = torch.cuda.memory_stats()
    facts.update(
        train_seconds=round(time.monotonic() - started, 2),
        allocated=int(stats["allocated_bytes.all.current"]),
        reserved=int(stats["reserved_bytes.all.current"]),
        peak_allocated=int(stats["allocated_bytes.all.peak"]),
        peak_reserved=int(stats["reserved_bytes.all.peak"]),
        settings=os.environ.get("PYTORCH_CUDA_ALLOC_CONF", ""),
    )
    _write(args.ready, facts)
    deadline = time.monotonic() + args.wait
    while not args.go.exists():
        if time.monotonic() > deadline:
            print(f"train_step: no {args.go} after {args.wait:.0f} s; forcing the OOM anyway", file=sys.stderr)
            break
        time.sleep(0.05)
    facts["oom"] = force_oom()
    _write(args.result, facts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
