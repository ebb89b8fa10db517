"""Synthetic camera scenes rendered from the product spec, for tests and benchmarks."""
