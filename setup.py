"""Build of the optional compiled kernels (trace columns, replay); everything else is in pyproject.toml.

The kernels are optional: without a C++ compiler, or with GPUMEM_GUI_PURE_PYTHON=1 set at install time, the package
installs without them (one line says so) and the pure-Python twins run: the same results, slower on big traces
(the README's Speed section has the measured factors).
"""

import os
import re
import sys
import threading
import time
from typing import Any

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

NOTICE = "gpumem_gui: {what}; the pure-Python twin runs instead (same results, slower)"


def _reason(exc: Exception, compiler: str) -> str:
    """The compiler failure in a few words: the missing program, or the compiler and how it ended."""
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror}"
    text = re.sub(r"^\[Errno \d+\] ", "", str(exc))
    status = text.rsplit("exit status", 1)
    if len(status) == 2:
        return f"{compiler} failed with exit status {status[1].strip(' .')}"
    return (text.splitlines() or [type(exc).__name__])[0][:100]


# compile jobs side by side: every core unless GPUMEM_GUI_BUILD_JOBS says otherwise (pip's -C build_ext's --parallel
# cannot reach setup.py through an isolated PEP 517 build)
JOBS = max(1, int(os.environ.get("GPUMEM_GUI_BUILD_JOBS") or os.cpu_count() or 1))
ALLOCATOR = "gpumem_gui/core/allocator"
ANALYSIS = "gpumem_gui/core/analysis"
# The one list of the compiled kernels: module name, its source, and for a .pyx what else it is built from. The
# simulator and its feed compile from their own .py files (the pure twins) under other names, typed by the .pxd of
# that name: one source of the allocator's rules.
KERNELS: dict[str, dict[str, Any]] = {  # the longest to compile first: two jobs then end close together
    "gpumem_gui.core.allocator._sim": {"source": f"{ALLOCATOR}/simulator.py"},
    "gpumem_gui.core.snapshot._columns": {
        "source": "gpumem_gui/core/snapshot/_columns.pyx",
        "depends": ["gpumem_gui/core/snapshot/_stack_intern.pxi"],
    },
    "gpumem_gui.core.analysis._replay": {
        "source": f"{ANALYSIS}/_replay.pyx",
        "include_dirs": [ANALYSIS],
        "depends": [f"{ANALYSIS}/_flat_map.h", f"{ANALYSIS}/_replay_rules.pxi", f"{ANALYSIS}/_replay_support.pxi"],
    },
    "gpumem_gui.core.allocator._cfeed": {"source": f"{ALLOCATOR}/_feed.py"},
}
# no debug information (Python's own flags ask for -g): the four modules take 1.7 MB instead of 11 MB
EXTRA_COMPILE_ARGS = [] if os.name == "nt" else ["-g0"]


class OptionalBuildExt(build_ext):
    """build_ext that compiles the kernels side by side, says how far it is, and lets each kernel fail alone:
    `optional=True` does not catch a missing or failing compiler."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = JOBS
        self._lock = threading.Lock()
        self._done = 0

    def run(self) -> None:
        if os.environ.get("GPUMEM_GUI_PURE_PYTHON"):
            print(NOTICE.format(what="GPUMEM_GUI_PURE_PYTHON is set, no compiled kernel built"), file=sys.stderr)
            return
        super().run()

    def build_extensions(self) -> None:
        jobs = min(int(self.parallel or 1), len(self.extensions))
        _progress(f"compiling {len(self.extensions)} kernels, {jobs} at a time (about a minute of CPU in all)")
        self._started = time.monotonic()
        super().build_extensions()
        _progress(f"kernels done in {time.monotonic() - self._started:.0f} s")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # a missing g++ is an OSError, a failing one a DistutilsExecError or CompileError
            compiler = (getattr(self.compiler, "compiler_so", None) or ["the C++ compiler"])[0]
            _say(NOTICE.format(what=f"{ext.name} not compiled ({_reason(exc, compiler)})"), sys.stderr)
            return
        with self._lock:
            self._done += 1
            done = self._done
        _progress(f"[{done}/{len(self.extensions)}] {ext.name} ({time.monotonic() - self._started:.0f} s)")


_SAYING = threading.Lock()


def _say(line: str, stream: Any) -> None:
    """One whole line, flushed: the jobs' threads would otherwise interleave a line and its newline."""
    with _SAYING:
        stream.write(line + "\n")
        stream.flush()


def _progress(line: str) -> None:
    # stdout: pip -v (and `make run`, which picks these lines) shows them as they come
    _say(f"gpumem_gui: {line}", sys.stdout)


def kernels() -> list[Extension]:
    """The compiled kernels (built or skipped by OptionalBuildExt), or none where Cython is missing.

    With GPUMEM_GUI_PURE_PYTHON set nothing is cythonized: the pure install must not need a file that only the
    compiled build reads (a missing .pxd once broke every install from the sdist, pure or not)."""
    if os.environ.get("GPUMEM_GUI_PURE_PYTHON"):  # sourceless: OptionalBuildExt.run says so and builds nothing
        return [Extension(name, [], optional=True) for name in KERNELS]
    try:
        from Cython.Build import cythonize  # noqa: PLC0415 (an install without Cython still works)
    except ImportError:
        print(NOTICE.format(what="Cython is not installed, so no compiled kernel is built"), file=sys.stderr)
        return []
    extensions = {
        name: Extension(
            name,
            [spec["source"]],
            language="c++",
            include_dirs=spec.get("include_dirs", []),
            depends=spec.get("depends", []),
            extra_compile_args=EXTRA_COMPILE_ARGS,
            optional=True,
        )
        for name, spec in KERNELS.items()
    }
    pure_mode = [ext for name, ext in extensions.items() if KERNELS[name]["source"].endswith(".py")]
    pyx = [ext for ext in extensions.values() if ext not in pure_mode]
    _drop_stale_cpp(pure_mode)
    # annotations stay Python's in the pure-mode kernels: the .pxd alone decides the C types, so both twins take the
    # same arguments
    built = cythonize(pure_mode, compiler_directives={"language_level": "3", "annotation_typing": False}, nthreads=JOBS)
    built += cythonize(pyx, compiler_directives={"language_level": "3"}, nthreads=JOBS)
    order = list(KERNELS)
    return sorted(built, key=lambda ext: order.index(ext.name))


def _drop_stale_cpp(pure_mode: list[Extension]) -> None:
    """Cython does not count the .pxd of a pure-mode kernel as a dependency of its .py: a .cpp older than either
    .pxd it reads is removed here, so that it is made again."""
    for ext in pure_mode:
        source = ext.sources[0]
        cpp = source[: -len(".py")] + ".cpp"
        inputs = [f"{ALLOCATOR}/{ext.name.rsplit('.', 1)[1]}.pxd", f"{ALLOCATOR}/_sim.pxd"]
        if os.path.exists(cpp) and os.path.getmtime(cpp) < max(map(os.path.getmtime, inputs)):
            os.remove(cpp)


# The quizzes and the bundled files live at the repository's top (quizzes/, resources/) and travel inside the package
# as gpumem_gui.quizzes and gpumem_gui.resources, where gpumem_gui/assets.py finds them through importlib.resources.
DATA_PACKAGES = {"gpumem_gui.quizzes": "quizzes", "gpumem_gui.resources": "resources"}

setup(
    packages=[*find_packages(include=["gpumem_gui", "gpumem_gui.*"]), *DATA_PACKAGES],
    package_dir=DATA_PACKAGES,
    ext_modules=kernels(),
    cmdclass={"build_ext": OptionalBuildExt},
)
