"""All PySide6 code of veil-desktop. Nothing outside this package imports Qt (tests/test_core_has_no_qt.py)."""
