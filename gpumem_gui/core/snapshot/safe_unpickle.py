"""Unpickle data that may come from anyone: plain containers and scalars only, never a global."""

from __future__ import annotations

import gc
import io
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class RefusedGlobal(pickle.UnpicklingError):
    """The pickle named a global (a class or function); loading it could run code."""

    def __init__(self, qualified_name: str) -> None:
        super().__init__(f"refused to load: the file asks for {qualified_name}")
        self.qualified_name = qualified_name


class _NoGlobalsUnpickler(pickle.Unpickler):
    # Snapshot pickles hold only dict, list, tuple, str, int, float, bool and None, all of which pickle encodes with
    # dedicated opcodes. Every GLOBAL/STACK_GLOBAL (the only way to reach os.system and friends) goes through
    # find_class, so refusing there refuses every global while the C unpickler keeps its full speed.
    def find_class(self, module: str, name: str) -> Any:
        raise RefusedGlobal(f"{module}.{name}")

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("refused to load: the file uses a persistent id")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for work that makes millions of containers and no cycles.

    Each burst of allocations can trigger a collection that walks every container made so far, so unpickling and
    converting a big snapshot with the collector on is several times slower (measured in benchmarks/bench_load.py).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def loads_no_globals(data: bytes | memoryview) -> Any:
    """Unpickle `data` with every global refused and the garbage collector paused."""
    with gc_paused():
        return _NoGlobalsUnpickler(io.BytesIO(data)).load()
