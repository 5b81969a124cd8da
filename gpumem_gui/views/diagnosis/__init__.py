"""The diagnosis pages beside a tab: why memory ran out, what holds it, what grows."""
