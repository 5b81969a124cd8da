"""`make gpu-check`: the probe, attach, NVML and the simulator checked against a real CUDA device in one run."""
