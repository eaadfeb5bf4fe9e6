"""Benchmarks of what tutorials claim about speed and memory. Run: python -m bench."""
