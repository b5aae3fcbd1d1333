"""Declare target restrictions shared by C, C++ and Fortran (OMP101–OMP117)."""
from __future__ import annotations
