"""Read-only document view: shows the text, the highlights (via ``SpanHighlighter``), the current item,
score tooltips, and turns clicks/selections into item ids and Python offsets.

All positions crossing this widget's API are *Python* string offsets; conversion to Qt's UTF-16 positions
happens here (``Utf16Map``) and nowhere else. Threading: GUI thread only.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QToolTip

from ..review.state import ReviewItem, ReviewState
from .colors import label_color
from .i18n import localize_captions
from .offsets import Utf16Map, display_text
from .table_model import item_tooltip


class DocumentView(QPlainTextEdit):
    itemClicked = Signal(int)
    loaded = Signal()                           # the whole text is in the view
    contextRequested = Signal(QPoint, object)   # global pos, item id under the cursor or None

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.setUndoRedoEnabled(False)  # a read-only view needs no edit history (and it costs memory)
        self._state: ReviewState | None = None
        self._offsets = Utf16Map("")
        self._pending_text = ""
        self._pending_pos = 0
        self._load_timer = QTimer(self, interval=0, timeout=self._load_more)
        self.lang = "ko"

    # -- content ------------------------------------------------------------------------------------
    #: characters put into the view per event-loop turn while a long document loads
    LOAD_CHUNK = 10_000

    def set_text(self, text: str, state: ReviewState | None, captions=()) -> Utf16Map:
        """Show ``text``. A long text goes in chunk by chunk (one per event-loop turn, cut after a line
        break) so opening a 1M-character document never blocks the window; items whose text has not
        arrived yet are highlighted by the highlighter as their blocks are inserted."""
        self._state = state
        self._offsets = Utf16Map(text)
        self.setExtraSelections([])
        # the core's English section captions in the UI language, same length (offsets stay valid)
        shown = display_text(localize_captions(text, captions, self.lang))
        self._pending_text = ""
        self._load_timer.stop()
        first = self._cut(shown, 0)
        self.setPlainText(shown[:first])
        if first < len(shown):
            self._pending_text = shown
            self._pending_pos = first
            self._load_timer.start()
        else:
            self.loaded.emit()
        return self._offsets

    @property
    def fully_loaded(self) -> bool:
        return not self._pending_text

    def finish_loading(self) -> None:
        """Insert whatever is still pending at once (needed before positions near the end are used)."""
        while self._pending_text:
            self._load_more()

    def _cut(self, text: str, start: int) -> int:
        end = min(len(text), start + self.LOAD_CHUNK)
        if end < len(text):
            nl = text.find("\n", end)
            end = len(text) if nl < 0 or nl - end > self.LOAD_CHUNK else nl + 1
        return end

    def _load_more(self) -> None:
        text, start = self._pending_text, self._pending_pos
        if not text:
            return
        end = self._cut(text, start)
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text[start:end])
        self._pending_pos = end
        if end >= len(text):
            self._pending_text = ""
            self._load_timer.stop()
            self.loaded.emit()

    @property
    def offsets(self) -> Utf16Map:
        return self._offsets

    # -- positions --------------------------------------------------------------------------------------
    def visible_range(self) -> tuple[int, int]:
        """Python offsets of the first and last characters currently on screen."""
        vp = self.viewport()
        a = self.cursorForPosition(QPoint(0, 0)).position()
        b = self.cursorForPosition(QPoint(vp.width() - 1, vp.height() - 1)).position()
        return self._offsets.from_qt(a), max(self._offsets.from_qt(b) + 1, self._offsets.from_qt(a) + 1)

    def visible_block_range(self) -> tuple[int, int]:
        """Numbers of the first and last blocks (paragraphs) at least partly on screen."""
        block = self.firstVisibleBlock()
        first = block.blockNumber()
        offset = self.contentOffset()
        bottom = self.viewport().height()
        last = first
        while block.isValid():
            top = self.blockBoundingGeometry(block).translated(offset).top()
            if top > bottom:
                break
            last = block.blockNumber()
            block = block.next()
        return first, last

    def selection_range(self) -> tuple[int, int] | None:
        c = self.textCursor()
        if not c.hasSelection():
            return None
        return self._offsets.from_qt(c.selectionStart()), self._offsets.from_qt(c.selectionEnd())

    def item_at_point(self, point: QPoint) -> ReviewItem | None:
        if self._state is None:
            return None
        cursor = self.cursorForPosition(point)
        # cursorForPosition snaps to the nearest gap; check the character on either side
        rect = self.cursorRect(cursor)
        pos = self._offsets.from_qt(cursor.position())
        candidates = [pos - 1, pos] if point.x() < rect.x() else [pos, pos - 1]
        for p in candidates:
            if p >= 0:
                items = self._state.items_at(p)
                if items:
                    return items[0]
        return None

    def cursor_offset(self) -> int:
        return self._offsets.from_qt(self.textCursor().position())

    # -- current item -------------------------------------------------------------------------------------
    def show_current(self, item: ReviewItem | None, *, scroll: bool = True) -> None:
        if item is None:
            self.setExtraSelections([])
            return
        if self._offsets.to_qt(item.end) > self.document().characterCount() - 1:
            self.finish_loading()  # jumping to an item beyond what is loaded yet
        sel = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._offsets.to_qt(item.start))
        cursor.setPosition(self._offsets.to_qt(item.end), QTextCursor.MoveMode.KeepAnchor)
        sel.cursor = cursor
        fmt = QTextCharFormat()
        fmt.setBackground(label_color(item.label).darker(115))
        fmt.setForeground(QColor("white"))
        fmt.setFontWeight(QFont.Weight.Bold)
        sel.format = fmt
        self.setExtraSelections([sel])
        if scroll:
            c = QTextCursor(self.document())
            c.setPosition(self._offsets.to_qt(item.start))
            self.setTextCursor(c)
            self.ensureCursorVisible()

    # -- events ---------------------------------------------------------------------------------------------
    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            item = self.item_at_point(event.position().toPoint())
            if item is not None:
                self.itemClicked.emit(item.id)

    def viewportEvent(self, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.ToolTip and self._state is not None:
            item = self.item_at_point(event.pos())
            if item is not None:
                QToolTip.showText(event.globalPos(), item_tooltip(self._state, item, self.lang), self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        item = self.item_at_point(event.pos())
        self.contextRequested.emit(event.globalPos(), item.id if item else None)
