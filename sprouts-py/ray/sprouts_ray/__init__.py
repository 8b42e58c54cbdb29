"""Solving Sprouts positions on a Ray cluster: the driver keeps the top of the proof tree, the
workers run the Rust solver (the `sprouts` module) on its leaves with node budgets, and the facts
they prove are merged into one database and shared back. See `docs/ray.md`."""

from .driver import Driver
from .executors import LocalExecutor, RayExecutor, sprouts_job

__all__ = ["Driver", "LocalExecutor", "RayExecutor", "sprouts_job"]
