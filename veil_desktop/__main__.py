"""``python -m veil_desktop`` -> the desktop app (``veil_desktop.ui.app:main``)."""
import sys

try:  # Windows: onnxruntime before PySide6, or DLL initialisation can fail (onnxruntime#26127)
    import onnxruntime  # noqa: F401
except ImportError:  # pragma: no cover
    pass

from veil_desktop.ui.app import main

if __name__ == "__main__":
    sys.exit(main())
