import sys
from pathlib import Path

# Test helpers (expectations.py) import by name; the package itself comes from the installation.
sys.path.insert(0, str(Path(__file__).resolve().parent))
