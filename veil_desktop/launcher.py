"""``veil-desktop`` (and ``python -m veil_desktop``): the window, or ``--self-test``.

The top floor: it dispatches to :func:`veil_desktop.selftest.main` (which may build a window of its own to
check it) or to :func:`veil_desktop.ui.app.main`, so neither of those imports the other (``ui`` never
imports ``selftest``). The frozen bundle has its own entry with the same dispatch (``packaging/entry.py``).
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--self-test" in argv:  # the self-test has its own options (--keep, --no-window, ...)
        from . import selftest

        return int(selftest.main([a for a in argv if a != "--self-test"]) or 0)
    from .ui.app import main as window_main

    return window_main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
