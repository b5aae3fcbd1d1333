import os
import sys
from pathlib import Path

from hypothesis import settings

# Test helpers (expectations.py) import by name; the package itself comes from the installation.
sys.path.insert(0, str(Path(__file__).resolve().parent))

# CI explores the same examples on every run (no flaky landings); local runs keep exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
