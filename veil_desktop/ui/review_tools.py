"""The reviewer's tools wired into the main window: workspace of documents, find and mark, term lists and
the PDF page view, one module each in ``ui/tools/`` (``workspace``, ``find``, ``terms``, ``pages``: mixins
with declared attributes, assembled here). ``ReviewTools(window)`` is created once by ``MainWindow``; it adds its own actions,
a document dock, a find bar and a page view, and listens to the window's signals — the shell itself only
calls ``open_paths`` for several files or a folder.

- **Workspace** (``review/workspace.py``, ``ui/workspace_panel.py``): several files or a folder (dialog,
  drag and drop, command line) in a list docked beside the view with each document's state. The document
  on screen is detected by the window itself; the others are detected in the background, one at a time,
  through the window's ``DetectionController.start_background`` — the same detection pool, lowered-priority
  worker, cached production detector, slicing and cancel checks as the document on screen
  (``prepare_document`` / ``finish_document`` write their sessions on the pool thread) — only while the
  window is not detecting; opening a document cancels a background job and puts it back in the queue. Ctrl+PgDown / Ctrl+PgUp: next /
  previous document. *Export all reviewed* writes every reviewed document into one folder with the same
  per-file checks (``export_document``) and one summary; documents not reviewed are listed, not exported.
- **Find and mark** (``ui/find_bar.py``): Ctrl+F.
- **Term lists** (``review/terms.py``, ``ui/terms_dialog.py``): the user's list is applied to every
  detection: the detector is wrapped so suggestions inside ``keep`` terms never reach the review, and the
  ``mask`` terms' occurrences are added as accepted items with source ``list`` when a document is shown.
  Saving a changed list applies it to the document on screen (new mask hits added; pending suggestions
  inside keep terms rejected, one undo step).
- **Pages view** (``ui/pdf_view.py``): F6 switches a PDF between text and rendered pages with item boxes.

Threading: GUI thread; background detection on the detection pool (``ui/detection.py``), other background
work (export all, page rendering) through ``window.jobs`` (``ui/jobs.py``, ``QThreadPool.globalInstance()``).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QSplitter, QStackedWidget, QToolBar

from ..detect.term_filter import TermFilteringDetector
from ..review.state import StateListener
from ..review.terms import TermList, TermsError, load_user_terms
from ..review.workspace import Workspace
from .actions import owned_by
from .find_bar import FindBar
from .i18n import terms_error_text, tr
from .pdf_view import PdfPageView
from .tools.find import FindTool
from .tools.pages import PagesTool
from .tools.terms import TermsTool
from .tools.workspace import WorkspaceTool
from .tools.export_all import ExportAllTool
from .workspace_panel import WorkspacePanel

#: the tools' actions: declared with every other action in ``ui/actions.py`` (``owner="tools"``; the one
#: table the F1 cheat sheet is built from); handler ``_on_<id>``, text ``tr("action.<id>")``
TOOL_ACTIONS = owned_by("tools")


class _Changes(StateListener):
    def __init__(self, fn) -> None:
        self.fn = fn

    def rows_inserted(self, first, last): self.fn()
    def row_removed(self, row, item): self.fn()
    def items_changed(self, before, after): self.fn()
    def reset(self): self.fn()
    def threshold_changed(self, threshold): self.fn()


class ReviewTools(WorkspaceTool, ExportAllTool, FindTool, TermsTool, PagesTool, QObject):
    #: the background queue picked up a document (index) / finished one (index)
    backgroundStarted = Signal(int)
    backgroundFinished = Signal(int)
    #: "export all reviewed" finished (``review.workspace.ExportAllSummary``)
    exportAllFinished = Signal(object)
    #: the export-all summary (``ui/export_all_dialog.ExportAllDialog``) is on screen, nothing written yet
    exportAllChecked = Signal(object)
    #: the PDF page view has its boxes for the document on screen
    pagesReady = Signal()

    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window                        # the host: widgets, signals, jobs, detection
        self.review = window.review            # the document on screen (review/review_session.py)
        self.ws = Workspace()
        self._bg_job: int | None = None
        self._bg_index = -1
        self._state = None
        self._changes = _Changes(self._schedule_status)
        self._status_timer = QTimer(self, singleShot=True, interval=250, timeout=self._update_current_status)
        self._queue_timer = QTimer(self, singleShot=True, interval=0, timeout=self._pump_queue)
        self.terms_error = ""
        self.export_all_dialog = None
        self.export_all_result = None
        self._below_ok_last = False
        try:
            self.terms: TermList = load_user_terms()
        except TermsError as e:
            self.terms = TermList()
            self.terms_error = terms_error_text(e, getattr(window, "lang", "ko"))   # shown with the dialog

        # the detector of the window drops suggestions inside keep terms
        window.detection.detectors.wrappers.append(lambda det: TermFilteringDetector(det, lambda: self.terms))
        window.detection.backgroundEnded.connect(self._on_bg_ended)

        # document list (dock), find bar (bottom toolbar), page view (stacked with the text view)
        self.panel = WorkspacePanel(self.ws, lang=window.lang)
        self.panel.documentActivated.connect(self.goto)
        self.dock = QDockWidget(window)
        self.dock.setObjectName("documents")
        self.dock.setWidget(self.panel)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                              | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        self.dock.hide()

        self.find_bar = FindBar(lang=window.lang)
        self.find_bar.marked.connect(self._on_marked)
        self.find_bar.confirm_marks = self._confirm_marks     # Mark all shows its hit list first
        self.mark_dialog = None
        self.find_toolbar = QToolBar(window)
        self.find_toolbar.setObjectName("find")
        self.find_toolbar.setMovable(False)
        self.find_toolbar.addWidget(self.find_bar)
        window.addToolBar(Qt.ToolBarArea.BottomToolBarArea, self.find_toolbar)
        self.find_toolbar.hide()
        self.find_bar.closed.connect(self.find_toolbar.hide)

        self.pages = PdfPageView()
        self.pages.renderer = self._render_page
        self.pages.itemClicked.connect(lambda i: window.select_item(i, scroll_view=True))
        self.stack = QStackedWidget()
        holder = window.view.parentWidget()       # a splitter, or a widget with a layout (banner above)
        if isinstance(holder, QSplitter):
            holder.replaceWidget(holder.indexOf(window.view), self.stack)
        else:
            holder.layout().replaceWidget(window.view, self.stack)
        self.stack.addWidget(window.view)
        self.stack.addWidget(self.pages)

        self.actions: dict[str, QAction] = {}
        for spec in TOOL_ACTIONS:
            act = QAction(window)
            act.setShortcuts([QKeySequence(k) for k in spec.shortcuts])
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.triggered.connect(getattr(self, f"_on_{spec.id}"))
            window.menus[spec.menu].addAction(act)
            window.addAction(act)
            self.actions[spec.id] = act

        window.documentLoaded.connect(self._on_document_loaded)
        window.detectionFinished.connect(self._on_detection_finished)
        # the window's current item (table row) -> the page view; after the window's own handler ran
        window.table.selectionModel().currentChanged.connect(
            lambda *_: QTimer.singleShot(0, self._sync_pages_current))
        window.installEventFilter(self)        # closing the window cancels a background job at once
        from .tools.disclosure import DisclosureTool   # reasons, review files, XFDF, duplicates (issue 24)

        self.disclosure = DisclosureTool(window, self)
        self.retranslate(window.lang)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if obj is self.w and event.type() == QEvent.Type.Close:
            self._cancel_background()
        return False

    # ============================================================================================ i18n
    def retranslate(self, lang: str) -> None:
        self.lang = lang
        for spec in TOOL_ACTIONS:
            text = tr(f"action.{spec.id}", lang)
            self.actions[spec.id].setText(text)
            if spec.shortcuts:
                self.actions[spec.id].setToolTip(f"{text} ({spec.shortcuts[0]})")
        self.dock.setWindowTitle(tr("ws.title", lang))
        self.find_bar.retranslate(lang)
        self.panel.retranslate(lang)
        if getattr(self, "disclosure", None) is not None:
            self.disclosure.retranslate(lang)
