"""Synthetic camera scenes rendered from the product spec: test and benchmark data, and the
simulated arena camera that the service shows when it runs with no camera (arena_demo)."""
