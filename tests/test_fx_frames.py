"""Frames of torch.compile's generated code with FX fields (`_dump_snapshot(augment_with_fx_traces=True)`): made
here by PyTorch itself (an FX graph module compiled with enrich_profiler_metadata, its Python stack captured where
the allocation happens, then torch._utils._augment_memory_snapshot_stack_traces), read by both twins."""

from __future__ import annotations

import inspect
import pickle
import traceback
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.core import load_snapshot
from gpumem_gui.core.snapshot.stacks import block_sites, fx_text, site_frame
from gpumem_gui.document.events import describe_event
from gpumem_gui.sources.transfer import load_parts, save_parts

BASE = 0x7F0000000000


def forward(module: Any, x: Any) -> Any:  # named so: FX keeps the trace from a frame named forward on
    return module.lin(x)  # the user's line the FX node 'lin' comes from


USER_LINE = inspect.getsourcelines(forward)[1] + 1


def _augmented_frames() -> list[dict[str, Any]]:
    torch = pytest.importorskip("torch")
    from torch._utils import _augment_memory_snapshot_stack_traces  # noqa: PLC0415
    from torch.fx.experimental import _config as fx_config  # noqa: PLC0415
    from torch.overrides import TorchFunctionMode  # noqa: PLC0415

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = torch.nn.Linear(4, 4)

        forward = forward

    captured: list[list[dict[str, Any]]] = []

    class AtLinear(TorchFunctionMode):  # where the CUDA allocator would capture the stack: inside F.linear
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            if func is torch.nn.functional.linear and not captured:
                stack = traceback.extract_stack()[:-1]  # innermost last; this method's own frame dropped
                captured.append([{"name": f.name, "filename": f.filename, "line": f.lineno} for f in stack[::-1]])
            return func(*args, **(kwargs or {}))

    old = fx_config.enrich_profiler_metadata
    fx_config.enrich_profiler_metadata = True
    try:
        tracer = torch.fx.Tracer()
        tracer.record_stack_traces = True
        net = Net()
        module = torch.fx.GraphModule(net, tracer.trace(net))
        with AtLinear():
            module(torch.randn(2, 4))
        raw = {
            "segments": [],
            "device_traces": [[{"action": "alloc", "addr": BASE, "size": 512, "frames": captured[0]}]],
        }
        augmented: list[dict[str, Any]] = _augment_memory_snapshot_stack_traces(raw)["device_traces"][0][0]["frames"]
    finally:
        fx_config.enrich_profiler_metadata = old
    return augmented


@pytest.fixture(scope="module")
def frames() -> list[dict[str, Any]]:
    return _augmented_frames()


def _write(tmp_path: Path, frames: list[dict[str, Any]]) -> Path:
    block = {"address": BASE, "size": 512, "requested_size": 512, "state": "active_allocated", "frames": frames}
    rest = {"address": BASE + 512, "size": (2 << 20) - 512, "requested_size": 0, "state": "inactive"}
    segment = {"address": BASE, "total_size": 2 << 20, "stream": 0, "segment_type": "large", "blocks": [block, rest]}
    alloc = {"action": "alloc", "addr": BASE, "size": 512, "stream": 0, "time_us": 1, "frames": frames}
    path = tmp_path / "fx.pickle"
    path.write_bytes(pickle.dumps({"segments": [segment], "device_traces": [[alloc]]}, protocol=4))
    return path


def test_fx_node_is_kept_shown_and_names_the_site(tmp_path: Path, twin: str, frames: list[dict[str, Any]]) -> None:
    generated = [f for f in frames if "fx_node_name" in f]
    # torch/_utils.py _augment_frames (2.13, lines 1349-1357): op, name, str(target), and the node's stack_trace
    assert len(generated) == 1 and generated[0]["filename"].startswith("fx_generated_")
    assert (generated[0]["fx_node_op"], generated[0]["fx_node_name"], generated[0]["fx_node_target"]) == (
        "call_module",
        "lin",
        "lin",
    )
    snapshot = load_snapshot(_write(tmp_path, frames))
    (node,) = snapshot.stacks.fx.values()
    assert (node.op, node.name, node.target) == ("call_module", "lin", "lin")
    # a symbolic trace's stack_trace runs from the user's forward into the tracer (torch/fx/proxy.py)
    user = site_frame(node.original_frames())
    assert user is not None and (user.filename, user.line, user.name) == (__file__, USER_LINE, "forward")

    info = describe_event(snapshot, 0, 0)
    assert info is not None and info.fx_nodes == (node,)
    assert fx_text(node) == f"lin (call_module lin), from {__file__}:{USER_LINE}:forward"

    sites, labels = block_sites(snapshot.stacks, snapshot.state.blocks.stack[:1])
    # the generated file's line names nothing the user wrote: the site is the user's line of the original trace
    assert labels[int(sites[0])].startswith(f"{__file__}:{USER_LINE}:forward via torch/nn/modules/linear.py:")


def test_without_fx_fields_the_site_is_the_generated_line(tmp_path: Path, frames: list[dict[str, Any]]) -> None:
    plain = [{k: f[k] for k in ("name", "filename", "line")} for f in frames]
    snapshot = load_snapshot(_write(tmp_path, plain))
    assert not snapshot.stacks.fx
    sites, labels = block_sites(snapshot.stacks, snapshot.state.blocks.stack[:1])
    assert labels[int(sites[0])].startswith("fx_generated_")


def test_the_fx_nodes_cross_to_the_window(tmp_path: Path, frames: list[dict[str, Any]]) -> None:
    # the loading worker hands the snapshot to the window through sources.transfer
    snapshot = load_snapshot(_write(tmp_path, frames))
    save_parts(tmp_path / "parts", snapshot, {})
    received, _timelines = load_parts(tmp_path / "parts")
    assert received.stacks.fx == snapshot.stacks.fx and len(received.stacks.fx) == 1
