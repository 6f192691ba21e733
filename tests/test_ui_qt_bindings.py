"""The installed Qt binding must not leak references to None on void calls (PySide6 6.12.0 on Python
3.11 does, which crashes the window after a few thousand calls); and the start-up guard must detect it."""
import sys

from veil_desktop.ui import qt_compat


def test_void_calls_do_not_drop_references_to_none():
    if sys.version_info < (3, 12):
        assert qt_compat.void_call_none_leak(500) < 10
    # on 3.12+ None is immortal and its refcount is meaningless; the guard is a no-op there
    assert qt_compat.ensure_safe_bindings() is False
