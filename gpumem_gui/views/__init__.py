"""Qt widgets by feature: common < diagnosis < snapshot < compare | live < teach. They draw finished values from
the core; they never parse, compute metrics or touch a socket."""
