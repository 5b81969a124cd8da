"""Qt widgets that draw finished values from the core; they never parse, compute metrics or touch a socket."""
