"""``python -m veil_desktop`` -> the desktop app or its self-test (``veil_desktop.launcher:main``)."""
import os
import sys

os.environ["ORT_DISABLE_TELEMETRY"] = "1"  # before onnxruntime's first import (see packaging/entry.py)

try:  # Windows: onnxruntime before PySide6, or DLL initialisation can fail (onnxruntime#26127)
    import onnxruntime  # noqa: F401
except ImportError:  # pragma: no cover
    pass

from veil_desktop.launcher import main

if __name__ == "__main__":
    sys.exit(main())
