"""A job for the fake torch, driven line by line on stdin so a test decides when CUDA starts, allocates, or OOMs."""

import sys

try:
    import torch
except ImportError:  # FAKE_TORCH=missing: a job without torch, where only `ping` and `exit` make sense
    torch = None

addresses = []
for line in sys.stdin:
    command, *args = line.split()
    if command == "probe":  # the one-line way: start the probe from inside the script
        import gpumem_gui.probe

        gpumem_gui.probe.start(max_entries=int(args[0]) if args else 50_000)
    elif command == "record":  # the program turns recording on itself
        torch.cuda.memory._record_memory_history(max_entries=int(args[0]))
    elif command == "init":
        torch.cuda.init()
    elif command == "alloc":
        addresses.append(torch.cuda.fake_malloc(int(args[0])))
    elif command == "free":
        torch.cuda.fake_free(addresses.pop())
    elif command == "fraction":  # torch.cuda.set_per_process_memory_fraction(args[0])
        torch.cuda.set_per_process_memory_fraction(float(args[0]))
    elif command == "churn":  # many allocations and frees: a long trace
        for _ in range(int(args[0])):
            torch.cuda.fake_free(torch.cuda.fake_malloc(4096))
    elif command == "oom":
        try:
            torch.cuda.fake_malloc(1 << 40)
        except torch.cuda.OutOfMemoryError as exc:
            print("caught", exc, flush=True)
    elif command == "exit":
        break
    print("done", command, flush=True)
