"""The lab's instrument: a torch dispatch mode that counts ops by phase and follows the storages a step creates."""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import numpy as np


@functools.cache
def op_classes() -> tuple[Any, Any]:
    """The matmul packets and the recorder mode class, built once torch is imported."""
    import torch  # noqa: PLC0415
    from torch.multiprocessing.reductions import StorageWeakRef  # noqa: PLC0415
    from torch.utils._python_dispatch import TorchDispatchMode  # noqa: PLC0415
    from torch.utils._pytree import tree_leaves  # noqa: PLC0415

    aten = torch.ops.aten
    matmuls = frozenset({aten.mm, aten.addmm, aten.bmm, aten.baddbmm})

    def matmul_flops(packet: Any, args: tuple[Any, ...]) -> int:
        a, b = (args[1], args[2]) if packet in (aten.addmm, aten.baddbmm) else (args[0], args[1])
        batch = a.shape[0] if a.dim() == 3 else 1
        return int(2 * batch * a.shape[-2] * a.shape[-1] * b.shape[-1])

    class Recorder(TorchDispatchMode):
        """Sees every aten op of the step: counts compute ops by phase, follows the storages the step creates.

        A storage is followed through a weak reference to its StorageImpl; holding that weak reference also keeps
        the StorageImpl's address from being reused, so the address is a safe key while we follow it.
        """

        def __init__(self, excluded: set[int], track_peak: bool) -> None:
            super().__init__()
            self.excluded = excluded
            self.track_peak = track_peak
            self.phase = "forward"
            self.clock = 0
            self.live: dict[int, tuple[Any, int, int]] = {}  # address -> (weak ref, bytes, op index born)
            self.intervals: list[tuple[int, int, int]] = []  # (bytes, born, died) of storages that died
            self.ops: Counter[tuple[str, str]] = Counter()
            self.flops: Counter[str] = Counter()

        def sweep(self) -> None:
            dead = [key for key, (ref, _, _) in self.live.items() if ref.expired()]
            for key in dead:
                _, size, born = self.live.pop(key)
                self.intervals.append((size, born, self.clock))

        def forget(self, storage: Any) -> None:
            """Stop following a storage (a parameter's gradient, the loss we hold ourselves)."""
            self.excluded.add(storage._cdata)
            self.live.pop(storage._cdata, None)

        def __torch_dispatch__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
            if self.track_peak:
                self.sweep()
            out = func(*args, **(kwargs or {}))
            # checkpoint recomputes under enable_grad from inside backward, where the engine otherwise runs
            # with grad mode off: that is what tells a recomputed op from a backward op
            phase = "recompute" if self.phase == "backward" and torch.is_grad_enabled() else self.phase
            packet = func.overloadpacket
            if packet in matmuls:
                self.ops[(phase, "matmul")] += 1
                self.flops[phase] += matmul_flops(packet, args)
            elif torch.Tag.pointwise in func.tags:
                self.ops[(phase, "pointwise")] += 1
            if self.track_peak or self.phase == "forward":
                for t in tree_leaves(out):
                    if isinstance(t, torch.Tensor):
                        storage = t.untyped_storage()
                        key = storage._cdata
                        if key not in self.live and key not in self.excluded:
                            self.live[key] = (StorageWeakRef(storage), storage.nbytes(), self.clock)
            self.clock += 1
            return out

        def live_bytes(self) -> int:
            self.sweep()
            return sum(size for _, size, _ in self.live.values())

        def peak_bytes(self) -> int:
            self.sweep()
            end = self.clock + 1
            delta = np.zeros(end + 1, np.int64)
            for size, born, died in [*self.intervals, *((s, b, end) for _, s, b in self.live.values())]:
                delta[born] += size
                delta[died] -= size
            return int(np.cumsum(delta).max(initial=0))

    return matmuls, Recorder
