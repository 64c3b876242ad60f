"""The installed package's version, in a leaf module that the rest reads without import cycles."""

from __future__ import annotations

from importlib import metadata

__all__ = ["VERSION"]

try:
    VERSION: str = metadata.version("cardtable")
except metadata.PackageNotFoundError:  # running from a source tree that was never installed
    VERSION = "0+unknown"
