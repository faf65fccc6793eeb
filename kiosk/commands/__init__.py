"""Command-line front ends of the game engines (the engine itself does no I/O)."""
