"""Guards against known Qt-binding defects, applied once at start-up (``ensure_safe_bindings()``).

PySide6/shiboken6 6.12.0 on Python < 3.12 drops one reference to ``None`` on every call of a C++ method
returning ``void`` (``setText``, ``setPosition``, ...). ``None`` starts with ~10k references in this app,
so the window dies with "none_dealloc" after a few thousand calls — within minutes of reviewing.
pyproject.toml excludes that release; if it is installed anyway, this module detects the leak with a
probe and makes ``None``'s reference count unreachable-high (what Python 3.12 does for every build: None
is immortal since PEP 683), so the stray decrefs can never free it.
"""
from __future__ import annotations

import sys

_checked = False


def void_call_none_leak(calls: int = 200) -> int:
    """How many references to None ``calls`` void Qt calls drop (0 on a healthy binding)."""
    from PySide6.QtCore import QPoint

    p = QPoint()
    before = sys.getrefcount(None)
    for i in range(calls):
        p.setX(i)  # a void method
    return before - sys.getrefcount(None)


def ensure_safe_bindings() -> bool:
    """Probe once; returns True when the workaround had to be applied."""
    global _checked
    if _checked or sys.version_info >= (3, 12):
        _checked = True
        return False
    _checked = True
    if void_call_none_leak() < 150:
        return False
    import ctypes

    # ob_refcnt is the first field of every CPython object; None is never deallocated anyway
    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40
    print("veil-desktop: this PySide6 build leaks references to None (PySide6 6.12.0 on Python < 3.12); "
          "applied a workaround — install PySide6-Essentials 6.11 to avoid it", file=sys.stderr)
    return True
