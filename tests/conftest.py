"""Shared fixtures. Sub-folders add their own conftest.py for their subsystem."""
