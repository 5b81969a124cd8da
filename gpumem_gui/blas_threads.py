"""One BLAS thread for the gpumem-gui process and its workers, set before numpy is first imported.

numpy's OpenBLAS starts a thread per core, and they spin for a while after numpy's import-time check: CPU taken
from the reader on a small machine, for a program that does no linear algebra. A user's own setting wins. Only the
command line imports this (never the probe, which lives in the user's training process).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # not OMP_NUM_THREADS: the checkpointing lab's torch uses it
