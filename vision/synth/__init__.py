"""Synthetic camera scenes for tests and benchmarks (never imported by the product at run time)."""
