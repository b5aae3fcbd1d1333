"""Fortran-only declare target restrictions (OMP151–OMP163)."""
from __future__ import annotations
