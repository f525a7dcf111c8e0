"""Thin adapters, one per dependency of the web UI: rules, photo reader, table book (referee)."""
