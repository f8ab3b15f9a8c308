"""Test-wide setup: the pack kit importable from every test folder; no compile cache."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("RULEWRIGHT_CACHE", "off")
