"""The allocator simulated: the simulator, replay of a recorded trace under other settings, generated snapshots."""
