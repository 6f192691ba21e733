"""Find bar (Ctrl+F): literal or regex search with case / width / spacing options, a match count, next /
previous, and "mark all as LABEL" (accepted manual items, one undo step). Adapter over ``review/find.py``.

Responsiveness: every keystroke restarts a ``MatchScanner`` that a zero-delay timer advances for at most
``BUDGET_S`` per event-loop turn (one 64k-character window at a time), so typing into a 1M-character
document never blocks; the first match after the cursor is selected in the view as soon as the scan has
reached it, and the count grows until the scan is done. Mark all finishes the scan first.

Threading: GUI thread only. The bar does not own the document: ``set_document(view, state)``.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QToolButton, QVBoxLayout, QWidget,
)

from ..labels import LABELS, display_name
from ..review.find import FindError, FindOptions, MatchScanner, compile_query, fold_width
from ..review.state import ReviewState
from .i18n import tr

BUDGET_S = 0.008


class FindBar(QWidget):
    matchSelected = Signal(int, int)     # python offsets of the current match
    marked = Signal(int, str)            # number of items added/accepted, label
    closed = Signal()

    def __init__(self, parent=None, lang: str = "ko") -> None:
        super().__init__(parent)
        self.lang = lang
        self._view = None
        self._state: ReviewState | None = None
        self._text = ""
        self._folded: str | None = None
        self._scanner: MatchScanner | None = None
        self._anchor = 0
        self._current = -1           # index into scanner.matches
        self._want_first = False
        self._error = ""
        #: ``confirm_marks(matches, label)``: set by the window to show the hit list before Mark all marks
        self.confirm_marks = None
        self._timer = QTimer(self, interval=0, timeout=self._pump)

        self.query = QLineEdit(self)
        self.query.setClearButtonEnabled(True)
        self.regex = QCheckBox(self)
        self.case = QCheckBox(self)
        self.width = QCheckBox(self)
        self.width.setChecked(True)
        self.spacing = QCheckBox(self)
        self.spacing.setChecked(True)
        self.count = QLabel(self)
        self.count.setMinimumWidth(110)
        self.prev_btn = QToolButton(self)
        self.prev_btn.setArrowType(Qt.ArrowType.UpArrow)
        self.next_btn = QToolButton(self)
        self.next_btn.setArrowType(Qt.ArrowType.DownArrow)
        self.mark_label = QLabel(self)
        self.label_box = QComboBox(self)
        self.mark_btn = QPushButton(self)
        self.close_btn = QToolButton(self)
        self.close_btn.setText("✕")
        # two rows, so that the bar fits a 1024-pixel window with room for the message beside the query
        # (one row was wider than 1024 and cut the regex message): query, arrows, count/message, close;
        # then the options and Mark all
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 2, 6, 2)
        outer.setSpacing(2)
        top, bottom = QHBoxLayout(), QHBoxLayout()
        for w in (self.query, self.prev_btn, self.next_btn, self.count, self.close_btn):
            top.addWidget(w)
        top.setStretch(0, 3)
        top.setStretch(3, 2)
        for w in (self.regex, self.case, self.width, self.spacing):
            bottom.addWidget(w)
        bottom.addStretch(1)
        for w in (self.mark_label, self.label_box, self.mark_btn):
            bottom.addWidget(w)
        outer.addLayout(top)
        outer.addLayout(bottom)

        self.query.textChanged.connect(self._restart)
        for box in (self.regex, self.case, self.width, self.spacing):
            box.toggled.connect(self._restart)
        self.query.returnPressed.connect(self.find_next)
        self.next_btn.clicked.connect(self.find_next)
        self.prev_btn.clicked.connect(self.find_previous)
        self.mark_btn.clicked.connect(self._on_mark_all)
        self.close_btn.clicked.connect(self.close_bar)
        self.query.installEventFilter(self)   # Esc closes the bar, Shift+Enter goes back (before any shortcut)
        self.retranslate()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        t = event.type()
        if obj is self.query and t in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            key, mods = event.key(), event.modifiers()
            if key == Qt.Key.Key_Escape or (key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                                           and mods & Qt.KeyboardModifier.ShiftModifier):
                if t == QEvent.Type.ShortcutOverride:
                    event.accept()            # ours, not the window's Esc (cancel detection)
                elif key == Qt.Key.Key_Escape:
                    self.close_bar()
                else:
                    self.find_previous()
                return t == QEvent.Type.KeyPress
        return super().eventFilter(obj, event)

    # -- setup ------------------------------------------------------------------------------------------
    def retranslate(self, lang: str | None = None) -> None:
        if lang:
            self.lang = lang
        t = lambda k: tr(k, self.lang)  # noqa: E731
        self.query.setPlaceholderText(t("find.placeholder"))
        self.regex.setText(t("find.regex"))
        self.case.setText(t("find.case"))
        self.width.setText(t("find.width"))
        self.spacing.setText(t("find.spacing"))
        self.prev_btn.setToolTip(t("find.prev") + " (Shift+Enter)")
        self.next_btn.setToolTip(t("find.next") + " (Enter)")
        self.mark_label.setText(t("find.mark_as"))
        self.mark_btn.setText(t("find.mark_all"))
        self.close_btn.setToolTip(t("find.close") + " (Esc)")
        current = self.label_box.currentData()
        self.label_box.clear()
        for name in LABELS:
            self.label_box.addItem(display_name(name, self.lang), name)
        i = self.label_box.findData(current or "PERSON")
        self.label_box.setCurrentIndex(max(0, i))
        self._show_count()

    def set_document(self, view, state: ReviewState | None) -> None:
        """The view to select matches in (a ``DocumentView``) and the review to mark into."""
        self._view = view
        self._state = state
        self._text = state.text if state is not None else ""
        self._folded = None
        self._restart()

    def options(self) -> FindOptions:
        return FindOptions(regex=self.regex.isChecked(), case_sensitive=self.case.isChecked(),
                           width_insensitive=self.width.isChecked(),
                           spacing_tolerant=self.spacing.isChecked())

    def open_bar(self) -> None:
        self.show()
        sel = self._view.selection_range() if self._view is not None else None
        if sel is not None and 0 < sel[1] - sel[0] <= 200:
            self.query.setText(self._text[sel[0]:sel[1]])
        self.query.setFocus()
        self.query.selectAll()

    def close_bar(self) -> None:
        self._timer.stop()
        self.hide()
        self.closed.emit()
        if self._view is not None:
            self._view.setFocus()

    # -- scanning ---------------------------------------------------------------------------------------
    @property
    def matches(self) -> list[tuple[int, int]]:
        return self._scanner.matches if self._scanner is not None else []

    @property
    def scanning(self) -> bool:
        return self._scanner is not None and not self._scanner.done

    def _restart(self, *_args) -> None:
        self._timer.stop()
        self._scanner = None
        self._current = -1
        self._error = ""
        q = self.query.text()
        if not q.strip() or not self._text:
            self._show_count()
            return
        opts = self.options()
        try:
            pattern = compile_query(q, opts)
        except FindError as e:
            self._error = find_error_text(str(e), self.lang)
            self._show_count()
            return
        if opts.width_insensitive:
            if self._folded is None:
                self._folded = fold_width(self._text)
            text = self._folded
        else:
            text = self._text
        self._scanner = MatchScanner(text, pattern)
        self._anchor = self._view.cursor_offset() if self._view is not None else 0
        if self._view is not None and self._view.textCursor().hasSelection():
            self._anchor = self._view.selection_range()[0]
        self._want_first = True
        self._pump()
        if self.scanning:
            self._timer.start()

    def _pump(self) -> None:
        sc = self._scanner
        if sc is None:
            self._timer.stop()
            return
        sc.scan(BUDGET_S)
        if self._want_first:
            i = sc.first_at_or_after(self._anchor)
            if i is not None:
                self._want_first = False
                self._select(i)
            elif sc.done and sc.matches:
                self._want_first = False
                self._select(0)                     # wrap around
        if sc.done:
            self._timer.stop()
        self._show_count()

    def finish_scan(self) -> None:
        if self._scanner is not None:
            self._scanner.scan()
            self._pump()

    def _select(self, i: int) -> None:
        self._current = i
        a, b = self.matches[i]
        if self._view is not None:
            off = self._view.offsets
            if off.to_qt(b) > self._view.document().characterCount() - 1:
                self._view.finish_loading()
            c = QTextCursor(self._view.document())
            c.setPosition(off.to_qt(a))
            c.setPosition(off.to_qt(b), QTextCursor.MoveMode.KeepAnchor)
            self._view.setTextCursor(c)
            self._view.ensureCursorVisible()
        self.matchSelected.emit(a, b)
        self._show_count()

    def find_next(self) -> None:
        self._step(+1)

    def find_previous(self) -> None:
        self._step(-1)

    def _step(self, delta: int) -> None:
        if self._scanner is None:
            return
        if delta < 0 or self._current < 0:
            self.finish_scan()                      # previous (wrapping) needs every match
        n = len(self.matches)
        if not n:
            return
        if self._current < 0:
            self._select(0)
            return
        i = self._current + delta
        if i >= n:
            if self.scanning:
                self.finish_scan()
                n = len(self.matches)
            i = i if i < n else 0
        self._select(i % n)

    def _show_count(self) -> None:
        t = lambda k: tr(k, self.lang)  # noqa: E731
        if self._error:
            self.count.setText(self._error)
            self.count.setToolTip(self._error)
            return
        self.count.setToolTip("")
        if self._scanner is None:
            self.count.setText("")
            return
        n = len(self.matches)
        if self.scanning:
            self.count.setText(t("find.count_searching").format(n=n))
        elif not n:
            self.count.setText(t("find.none"))
        else:
            self.count.setText(t("find.count").format(i=self._current + 1 if self._current >= 0 else 0, n=n))
        self.mark_btn.setEnabled(bool(n) and self._state is not None)

    # -- mark all -------------------------------------------------------------------------------------------
    def mark_all(self, label: str | None = None) -> int:
        """Mark every match as ``label`` (default: the chosen one) in one undo step; returns the number of
        items added or accepted."""
        if self._state is None or self._scanner is None:
            return 0
        self.finish_scan()
        label = label or self.label_box.currentData() or "OTHER"
        cmd = self._state.add_manual_many(
            self.matches, label,
            description=tr("find.undo", self.lang).format(label=display_name(label, self.lang),
                                                          n=len(self.matches)))
        n = len(cmd.changes) if cmd is not None else 0
        if self._view is not None:
            self._view.setFocus()              # Ctrl+Z now undoes the marks, not the query text
        self.marked.emit(n, label)
        return n

    def mark_spans(self, spans, label: str) -> int:
        """Mark ``spans`` (``(start, end)`` pairs, e.g. the ones checked in the hit list) as ``label`` in one
        undo step; then the document has the focus, so Ctrl+Z undoes the marks, not the query text."""
        if self._state is None or not spans:
            return 0
        cmd = self._state.add_manual_many(
            list(spans), label,
            description=tr("find.undo", self.lang).format(label=display_name(label, self.lang), n=len(spans)))
        n = len(cmd.changes) if cmd is not None else 0
        if self._view is not None:
            self._view.setFocus()
        self.marked.emit(n, label)
        return n

    def _on_mark_all(self) -> None:
        if self.confirm_marks is not None and self._state is not None and self._scanner is not None:
            self.finish_scan()
            self.confirm_marks(list(self.matches), self.label_box.currentData() or "OTHER")
            return
        self.mark_all()


_FIND_ERRORS = (   # review.find.FindError's English messages -> catalogue keys (the UI's own words)
    (r"^Type something to find", "find.err.empty"),
    (r"^The search text is too long \(at most (?P<n>\d+)", "find.err.long"),
    (r"^Not a valid regular expression: .*?(?:at position (?P<pos>\d+))?$", "find.err.regex"),
    (r"^The regular expression is too complex", "find.err.complex"),
    (r"^The pattern matches empty text", "find.err.empty_match"),
)


def find_error_text(message: str, lang: str) -> str:
    """A find error in the UI language: no English regex-engine wording in the Korean UI."""
    import re

    for pattern, key in _FIND_ERRORS:
        m = re.match(pattern, message)
        if m:
            pos = m.groupdict().get("pos")
            text = tr(key, lang).format(n=m.groupdict().get("n") or "")
            if key == "find.err.regex" and pos is not None:
                text += " " + tr("find.err.at", lang).format(pos=int(pos) + 1)
            return text
    return tr("find.err.other", lang)
