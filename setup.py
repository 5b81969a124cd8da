"""Build of the optional compiled kernels (trace columns, replay); everything else is in pyproject.toml.

The kernel is optional: without a C++ compiler the package installs without it and the pure-Python replay runs
(the same results, several times slower on big traces).
"""

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython: install the pure-Python package
    extensions = []
else:
    extensions = cythonize(
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
                optional=True,
            ),
        ],
        compiler_directives={"language_level": "3"},
        quiet=True,
    )

setup(ext_modules=extensions)
