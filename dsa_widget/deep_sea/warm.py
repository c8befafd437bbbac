"""Compile Deep Sea Adventure's numba code now, so the first board of a fresh install is quick.

numba compiles on first use and keeps the result in ``__pycache__`` (or numba's user cache
where the package's folder is read-only); ``python -m dsa_widget warm`` runs this once, at set-up
(``scripts/setup.sh`` does). Without the ``fast`` extra there is nothing to compile and this
returns at once.
"""

from __future__ import annotations

__all__ = ["warm"]


def warm() -> None:
    """Compile the hints' home-chance sums (exact, floating point, sampled) and the playouts."""
    from . import playouts
    from .analysis import home_kernel

    home_kernel.warm_up()
    playouts.warm_up()
