"""Recompute functions, one module per article; importing this package registers them all."""

from . import article1  # noqa: F401
from . import article2  # noqa: F401
