"""The bundled example snapshots: small programs run through the allocator simulator, one per concept.

`python -m gpumem_gui.core.allocator.examples DIR` (what `make examples` runs) writes each as DIR/<name>.pickle
and their descriptions to DIR/examples.toml; a test checks that the files in resources/examples are what
this module makes.
Everything is deterministic (fixed seeds, the simulator's fixed clock and addresses).
"""

from __future__ import annotations

import contextlib
import math
import pickle
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpumem_gui.core.allocator.simulator import Block, DeviceAllocatorSim, OutOfMemoryError
from gpumem_gui.core.rules.allocator_constants import GiB, MiB

TORCH = "/usr/lib/python3.11/site-packages/torch"


def stack(*calls: tuple[str, str, int]) -> list[dict[str, Any]]:
    """Frames innermost first, ending in the script's <module>, as torch records them."""
    frames = [{"name": n, "filename": f, "line": line} for n, f, line in calls]
    frames.append({"name": "<module>", "filename": "train.py", "line": 212})
    return frames


def _module_call(name: str, file: str, line: int) -> list[dict[str, Any]]:
    return stack(
        (name, file, line),
        ("_call_impl", f"{TORCH}/nn/modules/module.py", 1762),
        ("forward", "model/transformer.py", 148),
        ("train_step", "train.py", 97),
    )


WEIGHT = stack(("__init__", "model/transformer.py", 41), ("build_model", "train.py", 30))
OPTIMIZER = stack(("_init_group", f"{TORCH}/optim/adamw.py", 163), ("step", f"{TORCH}/optim/adamw.py", 221))
ATTENTION = _module_call("attention", "model/attention.py", 77)
MLP = _module_call("mlp", "model/mlp.py", 35)
LOGITS = _module_call("lm_head", "model/transformer.py", 171)
GRAD = stack(("backward", f"{TORCH}/autograd/graph.py", 825), ("train_step", "train.py", 104))


@dataclass(frozen=True)
class Example:
    name: str
    description: str
    make: Callable[[], DeviceAllocatorSim]


def _weights(sim: DeviceAllocatorSim, total: int, pieces: int) -> list[Block]:
    return [sim.malloc(total // pieces, frames=WEIGHT) for _ in range(pieces)]


def _variable_length_training(settings: str) -> DeviceAllocatorSim:
    """A training loop whose batches vary in sequence length; it keeps a few tensors from step to step."""
    sim = DeviceAllocatorSim(16 * GiB, settings)
    _weights(sim, 5 * GiB, 21)
    _weights(sim, 5 * GiB + 256 * MiB, 21)  # optimizer state
    kept: list[Block] = []
    with contextlib.suppress(OutOfMemoryError):  # the program dies at the OOM; the snapshot is taken there
        for seq in (4096, 1024, 2048, 1024, 512, 4096, 768, 1024):
            acts = [sim.malloc(seq * 384 * 1024 + 4096 * i, frames=ATTENTION) for i in range(3)]
            parts = [sim.malloc(seq * 64 * 1024, frames=MLP) for _ in range(3)]
            for block in acts:
                sim.free(block)
            # per-step tensors the loop keeps for a while (running statistics, a prefix cache)
            kept.extend(sim.malloc(seq * 24 * 1024 + j * 512, frames=LOGITS) for j in range(2))
            for block in parts:
                sim.free(block)
            while len(kept) > 5:
                sim.free(kept.pop(0))
    return sim


def fragmented_oom() -> DeviceAllocatorSim:
    return _variable_length_training("")


def fragmented_expandable() -> DeviceAllocatorSim:
    return _variable_length_training("expandable_segments:True")


def cache_reuse() -> DeviceAllocatorSim:
    sim = DeviceAllocatorSim(24 * GiB)
    _weights(sim, 2 * GiB, 20)
    for _step in range(500):
        acts = [sim.malloc(size, frames=MLP) for size in (64 * MiB, 16 * MiB, 256 * 1024, 4 * MiB, 8192)]
        for block in acts:
            sim.free(block)
    return sim


def empty_cache_live_tensor() -> DeviceAllocatorSim:
    sim = DeviceAllocatorSim(24 * GiB)
    blocks = [sim.malloc(size, frames=MLP) for size in (300 * MiB, 500 * MiB, 12 * MiB, 700 * MiB)]
    sim.malloc(5 * MiB, frames=LOGITS)  # still referenced when the cache is emptied: it keeps its 20 MiB segment
    for block in blocks:
        sim.free(block)
    sim.empty_cache()  # releases the whole free segments only
    return sim


def reserved_vs_allocated() -> DeviceAllocatorSim:
    sim = DeviceAllocatorSim(40 * GiB)
    _weights(sim, 6 * GiB, 24)
    peak = [sim.malloc(2 * GiB + i * 64 * MiB, frames=ATTENTION) for i in range(6)]  # the peak of the step
    for block in peak:
        sim.free(block, frames=GRAD)  # backward frees the activations it read
    for _ in range(3):  # the next step needs far less: the cache keeps the peak's memory, free
        small = [sim.malloc(200 * MiB, frames=MLP) for _ in range(4)]
        for block in small:
            sim.free(block)
    return sim


GRAPH_POOL = (1, 0)  # the serving engine's one graph pool, shared by the graphs of every batch size
SMALL_GRAPH = stack(("capture", "serving/cuda_graphs.py", 88), ("capture_batch", "serving/cuda_graphs.py", 61))
LARGE_GRAPH = stack(("capture", "serving/cuda_graphs.py", 88), ("capture_batch", "serving/cuda_graphs.py", 63))


def graph_pool_order() -> DeviceAllocatorSim:
    """PyTorch's fragmentation devlog (2026-06-01), small then large, in a CUDA graph pool: the graph of the small
    batch size is captured first (eight 16 MiB activations, each a cudaMalloc of its own, freed by the end of the
    capture), then the large one (32 MiB activations) into the same pool. No 16 MiB block can serve 32 MiB, and
    the pool, still in use, gives nothing back: the fourth 32 MiB request fails."""
    sim = DeviceAllocatorSim(288 * MiB)
    _weights(sim, 64 * MiB, 2)
    sim.begin_allocate_to_pool(GRAPH_POOL)
    with contextlib.suppress(OutOfMemoryError):  # the capture dies at the OOM; the snapshot is taken there
        for size, count, frames in ((16 * MiB, 8, SMALL_GRAPH), (32 * MiB, 4, LARGE_GRAPH)):
            blocks = [sim.malloc(size, frames=frames) for _ in range(count)]
            for block in blocks:
                sim.free(block)
    return sim


KV_PER_TOKEN = 2 * 32 * 8 * 128 * 2  # K and V, 32 layers, 8 heads, head dim 128, fp16
KV_MAX_LEN, KV_PAGE_TOKENS, KV_LIVE = 4096, 16, 24
KV_FRAMES = stack(("allocate", "serving/kv_cache.py", 58), ("add_request", "serving/engine.py", 140))
# the block tables: int32 page numbers, one table per sequence plus the pool's own index of its pages
BLOCK_TABLE_FRAMES = stack(("allocate", "serving/block_table.py", 31), ("add_request", "serving/engine.py", 141))


def _kv_cache(paged: bool) -> DeviceAllocatorSim:
    """48 requests of random length, at most 24 live at once (a random one finishes when a 25th comes).

    Contiguous: one buffer per request sized for the longest sequence. Paged, as vLLM does: one pool of pages
    allocated at startup, as large as the contiguous run's peak KV memory (what gpu_memory_utilization would
    give), each sequence takes the pages it needs from it (tracked here in Python, no allocator call per page),
    and once the same 48 requests have run, the pages they left free admit more requests until the pool is full.
    """
    sim = DeviceAllocatorSim(24 * GiB)
    rng = random.Random(3)
    _weights(sim, 8 * GiB, 32)
    page_bytes, max_pages = KV_PAGE_TOKENS * KV_PER_TOKEN, KV_MAX_LEN // KV_PAGE_TOKENS
    pool_pages = (KV_LIVE + 1) * max_pages  # the contiguous run peaks at 25 buffers, before one finishes
    if paged:
        sim.malloc(pool_pages * page_bytes, frames=KV_FRAMES)
        sim.malloc(pool_pages * 4, frames=BLOCK_TABLE_FRAMES)
    free_pages = pool_pages
    live: list[tuple[Block, int]] = []  # (the request's buffer or block table, its pages)
    for _request in range(48):
        length = rng.randint(64, KV_MAX_LEN)
        if paged:  # PagedAttention: fixed pages from the pool, as many as the sequence needs
            pages = math.ceil(length / KV_PAGE_TOKENS)
            live.append((sim.malloc(pages * 4, frames=BLOCK_TABLE_FRAMES), pages))
        else:  # one buffer per sequence, sized for the longest it may grow to
            pages = max_pages
            live.append((sim.malloc(KV_MAX_LEN * KV_PER_TOKEN, frames=KV_FRAMES), pages))
        free_pages -= pages
        if len(live) > KV_LIVE:
            block, pages = live.pop(rng.randrange(len(live)))
            sim.free(block)
            free_pages += pages
    while paged:  # the pages saved serve more requests at once, in the same pool
        pages = math.ceil(rng.randint(64, KV_MAX_LEN) / KV_PAGE_TOKENS)
        if pages > free_pages:
            break
        sim.malloc(pages * 4, frames=BLOCK_TABLE_FRAMES)
        free_pages -= pages
    return sim


def kv_cache_contiguous() -> DeviceAllocatorSim:
    return _kv_cache(paged=False)


def kv_cache_paged() -> DeviceAllocatorSim:
    return _kv_cache(paged=True)


def _checkpointing(every: int, layers: int = 36, activation: int = 180 * MiB) -> DeviceAllocatorSim:
    """A chain of `layers` layers (one weight each) keeping every `every`-th activation (0: all of them)."""
    sim = DeviceAllocatorSim(24 * GiB)
    _weights(sim, layers * (3 * GiB // 36), layers)
    held: list[Block] = []
    for layer in range(layers):
        out = sim.malloc(activation, frames=_module_call("block", "model/transformer.py", 120 + layer % 7))
        if every and layer % every:
            sim.free(out)  # not a checkpoint: recomputed in backward
        else:
            held.append(out)
    for layer in reversed(range(layers)):
        if every and layer % every == 0:  # recompute the segment after this checkpoint
            segment = [sim.malloc(activation, frames=MLP) for _ in range(every - 1)]
            for block in segment:
                sim.free(block)
        grad = sim.malloc(activation, frames=GRAD)
        sim.free(grad)
        if held and (not every or layer % every == 0):
            sim.free(held.pop())
    return sim


def checkpointing_off() -> DeviceAllocatorSim:
    return _checkpointing(0)


def checkpointing_sqrt() -> DeviceAllocatorSim:
    return _checkpointing(int(math.sqrt(36)))


def split_blocks_oom() -> DeviceAllocatorSim:
    sim = DeviceAllocatorSim(8 * GiB)
    _weights(sim, 2 * GiB, 8)
    for block in [sim.malloc(1200 * MiB, frames=ATTENTION) for _ in range(4)]:  # a first, larger batch
        sim.free(block)
    # smaller chunks are carved out of those cached segments, then every other one is freed: the holes sit
    # between live blocks, inside segments that cannot be given back to CUDA
    chunks = [sim.malloc(150 * MiB, frames=MLP) for _ in range(32)]
    for block in chunks[::2]:
        sim.free(block)
    with contextlib.suppress(OutOfMemoryError):
        sim.malloc(int(1.4 * GiB), frames=LOGITS)
    return sim


MOVE_TO_GPU = stack(
    ("_apply", f"{TORCH}/nn/modules/module.py", 942),
    ("to", f"{TORCH}/nn/modules/module.py", 1355),
    ("main", "train.py", 40),
)
ACCUMULATE_GRAD = [  # the autograd engine's thread runs no Python: a C++ node is all its stack names
    {"name": "torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor>&&)", "filename": "accumulate_grad.cpp",
     "line": 0},
]  # fmt: skip
BACKWARD_FREE = stack(("backward", f"{TORCH}/_tensor.py", 648), ("train_step", "train.py", 104))
ADAM_TEMP = stack(("_multi_tensor_adamw", f"{TORCH}/optim/adamw.py", 520), ("step", f"{TORCH}/optim/adamw.py", 221))
ZERO_GRAD = stack(("zero_grad", f"{TORCH}/optim/optimizer.py", 990), ("train_step", "train.py", 110))
HIDDEN_HISTORY = _module_call("forward", "model/transformer.py", 160)  # self.history.append(h): never freed


def _training(leak: bool) -> DeviceAllocatorSim:
    """Six steps of forward, backward, AdamW step and zero_grad(set_to_none=True) on a 12-tensor model."""
    return training_loop(DeviceAllocatorSim(24 * GiB), leak=leak)


def training_loop(sim: DeviceAllocatorSim, *, leak: bool, steps: int = 6) -> DeviceAllocatorSim:
    """`steps` steps of _training's program on `sim` (a request that does not fit raises OutOfMemoryError: the
    debugging challenge runs the leak on a small device until it does)."""
    params = [sim.malloc(64 * MiB, frames=MOVE_TO_GPU) for _ in range(12)]  # model.to("cuda")
    state: list[Block] = []
    for _step in range(steps):
        saved = []
        for layer in range(12):  # forward: each layer saves its output for backward and frees a scratch buffer
            saved.append(sim.malloc(48 * MiB, frames=_module_call("block", "model/transformer.py", 120 + layer % 4)))
            sim.free(sim.malloc(16 * MiB, frames=MLP))
        saved.append(sim.malloc(96 * MiB, frames=LOGITS))
        if leak:  # the model keeps one hidden state per step, so the live memory grows by 32 MiB a step
            sim.malloc(32 * MiB, frames=HIDDEN_HISTORY)
        grads = []
        for i, block in enumerate(reversed(saved)):  # backward: a gradient of each saved tensor, then it is freed
            grad_in = sim.malloc(48 * MiB, frames=GRAD)
            if i < len(params):
                grads.append(sim.malloc(64 * MiB, frames=ACCUMULATE_GRAD))  # .grad of a parameter
            sim.free(block, frames=BACKWARD_FREE)
            sim.free(grad_in, frames=BACKWARD_FREE)
        if not state:  # the first step creates exp_avg and exp_avg_sq
            state = [sim.malloc(64 * MiB, frames=OPTIMIZER) for _ in range(2 * len(params))]
        for _ in range(4):  # foreach scratch of the update, freed within the step
            sim.free(sim.malloc(64 * MiB, frames=ADAM_TEMP))
        for grad in grads:
            sim.free(grad, frames=ZERO_GRAD)
    return sim


def training_leak() -> DeviceAllocatorSim:
    return _training(leak=True)


def training_steady() -> DeviceAllocatorSim:
    return _training(leak=False)


EXAMPLES = [
    Example(
        "fragmented_oom",
        "A training loop whose batches vary in sequence length, keeping a few tensors from step to step. Short "
        "batches carve the segments a long batch left behind, and the kept tensors pin them. When the next long "
        "batch asks for 1.5 GiB, cudaMalloc fails and the cache cannot serve it either: 1.9 GiB is free in it, "
        "but no single hole is large enough and no free segment can be released, so the step dies with an OOM.",
        fragmented_oom,
    ),
    Example(
        "graph_pool_order",
        "The allocation-order case of PyTorch's devlog 'When does fragmentation occur in the CUDA caching "
        "allocator?' (2026-06-01) in an LLM server's CUDA graph pool: the graph of the small batch size is "
        "captured before the large one's, into the same private pool. The eight freed 16 MiB segments cannot serve "
        "a 32 MiB request, and the pool, in use by the graphs, gives none of them back, so the fourth 32 MiB "
        "request fails with 128 MiB free in the pool. With expandable_segments:True the pool is one range whose "
        "freed blocks merge, and the 32 MiB requests are carved from them.",
        graph_pool_order,
    ),
    Example(
        "fragmented_expandable",
        "The same program with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True. The segment grows page by page at "
        "the end of one virtual range, so batches of new sizes tile one address range instead of leaving slivers in "
        "fixed-size segments, and every batch fits. The trace maps pages and never unmaps any: unmapping free pages "
        "happens only under memory pressure or in empty_cache.",
        fragmented_expandable,
    ),
    Example(
        "cache_reuse",
        "Five hundred training steps allocate and free the same activation sizes. After the first step every "
        "request is served from the cache: thousands of allocations, a handful of cudaMalloc calls.",
        cache_reuse,
    ),
    Example(
        "empty_cache_live_tensor",
        "torch.cuda.empty_cache() while one tensor is still referenced. Reserved memory drops by the whole free "
        "segments only; the segment that holds the live block stays, with its free remainder.",
        empty_cache_live_tensor,
    ),
    Example(
        "reserved_vs_allocated",
        "A step after the peak: the peak's 13 GiB of activations were freed, but the caching allocator keeps "
        "them reserved. nvidia-smi shows more than the reserved figure (the CUDA context, NCCL's buffers and other "
        "libraries' memory come on top); torch.cuda.memory_allocated shows far less.",
        reserved_vs_allocated,
    ),
    Example(
        "kv_cache_contiguous",
        "The KV cache of an LLM server that reserves a buffer for the longest possible sequence (4096 tokens) per "
        "request. Most requests are far shorter, so much of the buffers is allocated and never used: the same "
        "requests paged (kv_cache_paged) need 41.9% less KV-cache memory.",
        kv_cache_contiguous,
    ),
    Example(
        "kv_cache_paged",
        "The same requests with a paged KV cache, as vLLM's PagedAttention does: one pool of pages allocated at "
        "startup (vLLM gives it what gpu_memory_utilization, which caps all of its GPU memory, leaves after the "
        "weights, a profiling run's activation peak and CUDA graphs; here as large as the contiguous run's peak), "
        "fixed pages of 16 "
        "tokens taken from it as each sequence needs, tracked in block tables. Reserved memory stays flat; the "
        "pages saved serve 19 more requests at once in the same pool.",
        kv_cache_paged,
    ),
    Example(
        "checkpointing_off",
        "A 36-layer chain keeps every layer's activation for the backward pass: the peak grows with the depth.",
        checkpointing_off,
    ),
    Example(
        "checkpointing_sqrt",
        "The same chain with gradient checkpointing every sqrt(36) = 6 layers: only checkpoints are kept and each "
        "segment is recomputed in backward, so the peak falls to about 2 sqrt(N) activations for some more compute.",
        checkpointing_sqrt,
    ),
    Example(
        "split_blocks_oom",
        "Every other activation chunk is freed, leaving holes inside segments whose other blocks are still live. "
        "Those inactive split blocks cannot be given back to CUDA, so a 1.4 GiB request fails although 2.3 GiB "
        "is free in the cache.",
        split_blocks_oom,
    ),
    Example(
        "training_leak",
        "Six training steps (forward, backward, AdamW step, zero_grad) whose model keeps one 32 MiB hidden state "
        "per step in a list: the memory at the same point of every step grows by 32 MiB, all of it from one line "
        "of the model's forward (model/transformer.py:160). Parameters, gradients, optimizer state and "
        "activations are each made where PyTorch makes them.",
        training_leak,
    ),
    Example(
        "training_steady",
        "The same six training steps without the leak: after the first step has created the gradients and the "
        "optimizer state, every step holds the same memory at the same point.",
        training_steady,
    ),
]

DEFAULT_EXAMPLE = "fragmented_oom"


def example_bytes(example: Example) -> bytes:
    return pickle.dumps(example.make().snapshot(), protocol=4)


def index_toml() -> str:
    lines = ["# The bundled example snapshots (made by gpumem_gui.core.allocator.examples; run `make examples`)", ""]
    for ex in EXAMPLES:
        text = ex.description.replace("\\", "\\\\").replace('"', '\\"')
        lines += [f"[{ex.name}]", f'file = "{ex.name}.pickle"', f'description = "{text}"', ""]
    return "\n".join(lines)


def write_examples(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for ex in EXAMPLES:
        path = directory / f"{ex.name}.pickle"
        path.write_bytes(example_bytes(ex))
        written.append(path)
    (directory / "examples.toml").write_text(index_toml(), encoding="utf-8")
    return written


if __name__ == "__main__":
    for p in write_examples(Path(sys.argv[1] if len(sys.argv) > 1 else "resources/examples")):
        print(f"wrote {p} ({p.stat().st_size:,} bytes)")
