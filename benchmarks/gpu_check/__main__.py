"""`python -m benchmarks.gpu_check [FOLDER]`: the real-GPU check (run.py says what it does)."""

import sys

from benchmarks.gpu_check.run import main

sys.exit(main())
