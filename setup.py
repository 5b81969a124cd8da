"""Build of the optional compiled kernels (trace columns, replay); everything else is in pyproject.toml.

The kernels are optional: without a C++ compiler, or with GPUMEM_GUI_PURE_PYTHON=1 set at install time, the package
installs without them (one line says so) and the pure-Python twins run: the same results, slower on big traces
(the README's Speed section has the measured factors).
"""

import os
import re
import sys
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


class OptionalBuildExt(build_ext):
    """build_ext that lets each kernel fail alone: `optional=True` does not catch a missing or failing compiler."""

    def run(self) -> None:
        if os.environ.get("GPUMEM_GUI_PURE_PYTHON"):
            print(NOTICE.format(what="GPUMEM_GUI_PURE_PYTHON is set, no compiled kernel built"), file=sys.stderr)
            return
        super().run()

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # a missing g++ is an OSError, a failing one a DistutilsExecError or CompileError
            compiler = (getattr(self.compiler, "compiler_so", None) or ["the C++ compiler"])[0]
            print(NOTICE.format(what=f"{ext.name} not compiled ({_reason(exc, compiler)})"), file=sys.stderr)


KERNEL_NAMES = (
    "gpumem_gui.core.allocator._sim",
    "gpumem_gui.core.allocator._cfeed",
    "gpumem_gui.core.analysis._replay",
    "gpumem_gui.core.snapshot._columns",
)


def kernels() -> list[Extension]:
    """The compiled kernels (built or skipped by OptionalBuildExt), or none where Cython is missing.

    With GPUMEM_GUI_PURE_PYTHON set nothing is cythonized: the pure install must not need a file that only the
    compiled build reads (a missing .pxd once broke every install from the sdist, pure or not)."""
    if os.environ.get("GPUMEM_GUI_PURE_PYTHON"):  # sourceless: OptionalBuildExt.run says so and builds nothing
        return [Extension(name, [], optional=True) for name in KERNEL_NAMES]
    try:
        from Cython.Build import cythonize  # noqa: PLC0415 (an install without Cython still works)
    except ImportError:
        print(NOTICE.format(what="Cython is not installed, so no compiled kernel is built"), file=sys.stderr)
        return []
    return _pure_mode_kernels(cythonize) + cythonize(
        [
            Extension(
                "gpumem_gui.core.analysis._replay",
                ["gpumem_gui/core/analysis/_replay.pyx"],
                language="c++",
                include_dirs=["gpumem_gui/core/analysis"],
                depends=[
                    "gpumem_gui/core/analysis/_flat_map.h",
                    "gpumem_gui/core/analysis/_replay_rules.pxi",
                    "gpumem_gui/core/analysis/_replay_support.pxi",
                ],
                optional=True,
            ),
            Extension(
                "gpumem_gui.core.snapshot._columns",
                ["gpumem_gui/core/snapshot/_columns.pyx"],
                language="c++",
                depends=["gpumem_gui/core/snapshot/_stack_intern.pxi"],
                optional=True,
            ),
        ],
        compiler_directives={"language_level": "3"},
        quiet=True,
    )


def _pure_mode_kernels(cythonize: Any) -> list[Extension]:
    """The what-if replay's simulator and feed, compiled from their own .py files (the pure twins) under other names,
    typed by the .pxd of that name: one source of the allocator's rules. Cython does not count that .pxd as a
    dependency of the .py, so a .cpp older than either is made again here."""
    pairs = {"_sim": "simulator", "_cfeed": "_feed"}
    here = "gpumem_gui/core/allocator"
    for name, source in pairs.items():
        cpp, inputs = f"{here}/{source}.cpp", [f"{here}/{name}.pxd", f"{here}/_sim.pxd"]
        if os.path.exists(cpp) and os.path.getmtime(cpp) < max(map(os.path.getmtime, inputs)):
            os.remove(cpp)
    extensions = [
        Extension(f"gpumem_gui.core.allocator.{name}", [f"{here}/{source}.py"], language="c++", optional=True)
        for name, source in pairs.items()
    ]
    # annotations stay Python's: the .pxd alone decides the C types, so both twins take the same arguments
    directives = {"language_level": "3", "annotation_typing": False}
    return list(cythonize(extensions, compiler_directives=directives, quiet=True))


# The quizzes and the bundled files live at the repository's top (quizzes/, resources/) and travel inside the package
# as gpumem_gui.quizzes and gpumem_gui.resources, where gpumem_gui/assets.py finds them through importlib.resources.
DATA_PACKAGES = {"gpumem_gui.quizzes": "quizzes", "gpumem_gui.resources": "resources"}

setup(
    packages=[*find_packages(include=["gpumem_gui", "gpumem_gui.*"]), *DATA_PACKAGES],
    package_dir=DATA_PACKAGES,
    ext_modules=kernels(),
    cmdclass={"build_ext": OptionalBuildExt},
)
