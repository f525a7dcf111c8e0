"""Mahjongero: the command line that ties the engine, the vision pipeline and the web UI."""
