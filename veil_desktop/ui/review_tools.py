"""The reviewer's tools wired into the main window: workspace of documents, find and mark, term lists and
the PDF page view. ``ReviewTools(window)`` is created once by ``MainWindow``; it adds its own actions,
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

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QMessageBox, QSplitter, QStackedWidget, QToolBar

from ..detect.term_filter import TermFilteringDetector
from ..review.state import StateListener, Status
from ..review.terms import TermList, TermsError, load_user_terms, save_user_terms
from ..review.workspace import (
    DetectOutcome, DocStatus, Workspace, accept_list_hits, export_reviewed, finish_document, prepare_document,
)
from .actions import owned_by
from .find_bar import FindBar
from .i18n import tr
from .pdf_view import PdfPageView, has_pages, load_boxes
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


class ReviewTools(QObject):
    #: the background queue picked up a document (index) / finished one (index)
    backgroundStarted = Signal(int)
    backgroundFinished = Signal(int)
    #: "export all reviewed" finished (``review.workspace.ExportAllSummary``)
    exportAllFinished = Signal(object)
    #: the PDF page view has its boxes for the document on screen
    pagesReady = Signal()

    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window
        self.ws = Workspace()
        self._bg_job: int | None = None
        self._bg_index = -1
        self._state = None
        self._changes = _Changes(self._schedule_status)
        self._status_timer = QTimer(self, singleShot=True, interval=250, timeout=self._update_current_status)
        self._queue_timer = QTimer(self, singleShot=True, interval=0, timeout=self._pump_queue)
        self.terms_error = ""
        try:
            self.terms: TermList = load_user_terms()
        except TermsError as e:
            self.terms = TermList()
            self.terms_error = str(e)

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

    # ============================================================================================ workspace
    def open_paths(self, paths) -> list[int]:
        """Add files/folders to the workspace; shows the first new document if none is on screen."""
        new, problems = self.ws.add(paths)
        if len(self.ws) > 1 or any(Path(p).is_dir() for p in paths):
            self.show_dock()
        self.panel.refresh()
        if problems:
            self.w.show_error(tr("ws.problems", self.lang) + "\n" + "\n".join(problems[:20]))
        if new and self.w.path is None and not self.w.opening:
            self.goto(new[0])
        else:
            self._schedule_queue()
        return new

    def show_dock(self) -> None:
        if not self.dock.isVisible():
            self.dock.show()
            self.w.resizeDocks([self.dock], [230], Qt.Orientation.Horizontal)

    def goto(self, index: int) -> None:
        if not 0 <= index < len(self.ws):
            return
        if self._bg_index == index:
            self._cancel_background()
        self.ws.set_current(index)
        self.panel.set_current(index)
        if self.w.path is None or _key(self.w.path) != _key(self.ws[index].path):
            self.w.open_path(self.ws[index].path)

    def _on_next_doc(self) -> None:
        i = self.ws.step(+1)
        if i is not None:
            self.goto(i)

    def _on_prev_doc(self) -> None:
        i = self.ws.step(-1)
        if i is not None:
            self.goto(i)

    def _on_open_files(self) -> None:
        from ..documents.formats import supported_suffixes

        pattern = " ".join("*" + s for s in supported_suffixes())
        paths, _ = QFileDialog.getOpenFileNames(self.w, tr("action.open_files", self.lang), "",
                                                f"{tr('dialog.documents', self.lang)} ({pattern})")
        if paths:
            self.open_paths(paths)

    def _on_open_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.w, tr("action.open_folder", self.lang))
        if folder:
            self.open_paths([folder])

    def _on_document_loaded(self, path: str) -> None:
        w = self.w
        i = self.ws.index_of(path)
        if i < 0:
            self.ws.add([path])
            i = self.ws.index_of(path)
            if len(self.ws) > 1:
                self.show_dock()
        if self._bg_index == i or w.detection.running:
            self._cancel_background()          # one document detected at a time: the one on screen
        if i >= 0:
            self.ws.set_current(i)
            self.panel.set_current(i)
        if self._state is not None:
            self._state.remove_listener(self._changes)
        self._state = w.state
        if w.state is not None:
            w.state.add_listener(self._changes)
            self._apply_mask_terms()
        self.find_bar.set_document(w.view, w.state)
        self._update_current_status()
        if self.stack.currentWidget() is self.pages:
            if has_pages(w.document):
                self.show_pages()
            else:
                self.show_text()
        self._schedule_queue()

    def _on_detection_finished(self, cancelled: bool) -> None:
        self._update_current_status()
        self._schedule_queue()

    def _schedule_status(self) -> None:
        if not self._status_timer.isActive():
            self._status_timer.start()

    def _update_current_status(self) -> None:
        w = self.w
        i = self.ws.current
        if not 0 <= i < len(self.ws) or w.state is None or w.path is None or _key(w.path) != _key(self.ws[i].path):
            return
        if w.detection.running:
            self.ws.update(i, DocStatus.DETECTING, pending=w.state.pending_count())
        else:
            complete = bool(w.session is not None and w.session.detection_complete)
            self.ws.update_from_state(i, w.state, complete)

    # -- background queue ---------------------------------------------------------------------------------
    def _schedule_queue(self) -> None:
        if not self._queue_timer.isActive():
            self._queue_timer.start()

    def _pump_queue(self) -> None:
        w = self.w
        if self._bg_job is not None or w.detection.running or w.opening:
            return
        index = next((i for i, e in enumerate(self.ws.entries)
                      if e.status is DocStatus.QUEUED and i != self.ws.current), None)
        if index is None:
            return
        entry = self.ws[index]
        threshold, terms = w.settings.threshold, self.terms

        def prepare():  # detection pool thread: read the file and its session
            prep = prepare_document(entry.path, threshold=threshold)
            if isinstance(prep, DetectOutcome):
                return None, prep
            return prep.text, lambda spans, did: finish_document(prep, spans, detector_id=did, terms=terms)

        job = w.detection.start_background(prepare, w.settings)
        if job is None:
            return
        self._bg_job, self._bg_index = job, index
        self.ws.update(index, DocStatus.DETECTING)
        self.backgroundStarted.emit(index)

    def _cancel_background(self) -> None:
        if self._bg_job is not None:
            self.w.detection.cancel_background()
            if 0 <= self._bg_index < len(self.ws):
                self.ws.update(self._bg_index, DocStatus.QUEUED)
        self._bg_job, self._bg_index = None, -1

    def _on_bg_ended(self, job: int, outcome, error: str) -> None:
        """The controller's background job ended: ``outcome`` (``DetectOutcome``), cancelled (None, ""),
        or failed (None, message)."""
        if job != self._bg_job:
            return
        index = self._bg_index
        self._bg_job, self._bg_index = None, -1
        if error:
            self.ws.update(index, DocStatus.FAILED, message=error)
        elif outcome is None:
            self.ws.update(index, DocStatus.QUEUED)
        else:
            self.ws.update(index, outcome.status, pending=outcome.pending, message=outcome.message)
        self.backgroundFinished.emit(index)
        self._schedule_queue()

    @property
    def background_running(self) -> bool:
        return self._bg_job is not None

    # -- export all reviewed ----------------------------------------------------------------------------
    def _on_export_all(self) -> None:
        reviewed = self.ws.reviewed()
        if not reviewed:
            self.w.show_error(tr("ws.export_none", self.lang))
            return
        folder = QFileDialog.getExistingDirectory(self.w, tr("ws.export_folder", self.lang))
        if not folder:
            return
        answer = QMessageBox.question(self.w, tr("ws.export_done_title", self.lang), tr("ws.export_confirm", self.lang)
                                      .format(n=len(reviewed), folder=folder, pending=len(self.ws.not_reviewed())))
        if answer == QMessageBox.StandardButton.Yes:
            self.export_all_to(folder)

    def export_all_to(self, folder: str | Path) -> int:
        """Export every reviewed document into ``folder`` on the pool; ``exportAllFinished`` reports."""
        w = self.w
        w.flush_autosave(even_empty=True)      # the document on screen: its latest decisions (nothing found
                                               # is a review too)
        entries = [e for e in self.ws.entries]
        settings = w.settings
        styles = dict(settings.styles)

        def run():
            return export_reviewed(entries, Path(folder), styles=styles, default_style=settings.default_style,
                                   allow_below_threshold=True)

        return w.jobs.start(run, self._on_export_done, w.show_error, channel="export_all").id

    def _on_export_done(self, summary) -> None:
        for row in summary.exported:
            i = self.ws.index_of(row.source)
            if i >= 0:
                self.ws.update(i, DocStatus.EXPORTED, output=row.output)
        msg = tr("ws.export_done", self.lang).format(ok=len(summary.exported), failed=len(summary.failed),
                                                     pending=len(summary.not_reviewed), path=summary.summary_path)
        below = sum(r.below_threshold for r in summary.exported)
        if below:
            msg += "\n" + tr("ws.export_below", self.lang).format(n=below)
        details = [f"{r.source.name}: {r.message}" for r in summary.rows if r.status != "exported"]
        box = QMessageBox(QMessageBox.Icon.Information, tr("ws.export_done_title", self.lang),
                          msg + ("\n\n" + "\n".join(details[:30]) if details else ""),
                          QMessageBox.StandardButton.Ok, self.w)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.last_export = summary
        self.exportAllFinished.emit(summary)

    # ============================================================================================ find
    def _on_find(self) -> None:
        if self.w.state is None:
            return
        if self.stack.currentWidget() is not self.w.view:
            self.show_text()
        self.find_toolbar.show()
        self.find_bar.open_bar()

    def _on_marked(self, n: int, label: str) -> None:
        from ..labels import display_name

        self.w.statusBar().showMessage(tr("find.marked", self.lang).format(n=n, label=display_name(label, self.lang)),
                                       6000)

    # ============================================================================================ terms
    def _apply_mask_terms(self) -> int:
        st = self.w.state
        if st is None or not self.terms.mask_terms:
            return 0
        return accept_list_hits(st, self.terms.mask_spans(st.text), undoable=True)

    def set_terms(self, terms: TermList, *, save: bool = True) -> tuple[int, int]:
        """Use ``terms`` from now on (saved to the user's list) and apply them to the document on screen:
        returns ``(mask items added, pending suggestions rejected by keep terms)``."""
        if save:
            save_user_terms(terms)
        self.terms = terms
        added = self._apply_mask_terms()
        rejected = 0
        st = self.w.state
        if st is not None and terms.keep_terms:
            keep = terms.keep_ranges(st.text)
            ids = [it.id for it in st if it.status is Status.PENDING and it.source not in ("manual", "list")
                   and terms.is_kept(it.span, keep)]
            if ids:
                cmd = st.set_status(ids, Status.REJECTED, description="term list: keep")
                rejected = len(cmd.changes) if cmd else 0
        self.w.statusBar().showMessage(tr("terms.applied", self.lang).format(mask=added, keep=rejected), 6000)
        return added, rejected

    def _on_terms(self) -> None:
        from .terms_dialog import TermsDialog

        dlg = TermsDialog(self.w, self.terms, self.lang)
        if self.terms_error:
            self.w.show_error(self.terms_error)
            self.terms_error = ""
        if dlg.exec() and dlg.result_terms() is not None:
            try:
                self.set_terms(dlg.result_terms())
            except OSError as e:
                self.w.show_error(str(e))

    # ============================================================================================ pages
    def _on_pdf_pages(self) -> None:
        if self.stack.currentWidget() is self.pages:
            self.show_text()
        else:
            self.show_pages()

    def show_text(self) -> None:
        self.stack.setCurrentWidget(self.w.view)

    def show_pages(self) -> int | None:
        w = self.w
        if not has_pages(w.document):
            w.statusBar().showMessage(tr("pdf.not_pdf", self.lang), 5000)
            return None
        doc, state = w.document, w.state
        self.stack.setCurrentWidget(self.pages)

        def done(result):
            if w.state is not state:
                return
            data, boxes = result
            self.pages.set_document(data, boxes, state)
            self._sync_pages_current()
            self.pagesReady.emit()

        return w.jobs.start(lambda: load_boxes(doc), done, w.show_error, channel="pages").id

    def _render_page(self, data: bytes, index: int, scale: float, done) -> None:
        from .pdf_view import render_page

        self.w.jobs.start(lambda: render_page(data, index, scale), lambda img: done(index, scale, img, data),
                          lambda _m: done(index, scale, None, data))

    def _on_current_item(self, item_id) -> None:
        if self.stack.currentWidget() is self.pages and self.w.state is not None:
            item = self.w.state.item(item_id) if item_id is not None and item_id in self.w.state else None
            self.pages.show_current(item)

    def _sync_pages_current(self) -> None:
        if self.stack.currentWidget() is self.pages:
            item = self.w.current_item()
            self._on_current_item(item.id if item is not None else None)


def _key(p) -> str:
    try:
        return str(Path(p).resolve())
    except OSError:
        return str(p)
