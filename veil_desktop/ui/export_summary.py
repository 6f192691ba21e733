"""What the reviewer sees around an export: the summary before writing, the result after it, and the
question before replacing a file. The numbers come from ``review.summary.ExportSummary`` (no Qt) and
``documents.ExportResult``; these widgets only show them and collect the reviewer's decisions.

- ``ExportSummaryDialog``: per label accepted / rejected / pending / below threshold / manual, removed
  parts, unreadable pages, unverifiable values, detection status. Export stays disabled while a blocker
  remains (``ExportSummary.blockers``); an incomplete detection and suggestions below the threshold each
  need an explicit tick, which the report records.
- ``ExportResultDialog``: output path, report path, leak-check result, unverifiable count, warnings, an
  *Open folder* button; it stays on screen until dismissed.
- ``confirm_overwrite``: asks before replacing an existing file (default: Cancel).

Threading: GUI thread.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QHeaderView, QLabel, QMessageBox,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from ..labels import display_name
from ..review.summary import ExportSummary
from .i18n import tr
from .table_model import part_caption

_COLUMNS = ("label", "accepted", "rejected", "pending", "hidden", "manual")


def _label(text: str, *, selectable: bool = False, name: str = "") -> QLabel:
    lab = QLabel(text)
    lab.setWordWrap(True)
    if selectable:
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if name:
        lab.setObjectName(name)
    return lab


class ExportSummaryDialog(QDialog):
    def __init__(self, parent: QWidget | None, summary: ExportSummary, out_path: Path, lang: str = "ko", *,
                 coverage: tuple[int, int] | None = None, held: tuple[str, ...] = ()) -> None:
        """``coverage``: ``(characters detected, characters in the text)``, shown when detection is
        incomplete."""
        super().__init__(parent)
        self.lang = lang
        self.summary = summary
        self.setObjectName("exportSummary")
        self.setWindowTitle(tr("summary.title", lang))
        layout = QVBoxLayout(self)
        layout.addWidget(_label(tr("summary.intro", lang).format(name=out_path.name)))

        rows = summary.rows
        self.table = QTableWidget(len(rows) + 1, len(_COLUMNS))
        self.table.setObjectName("summaryTable")
        self.table.setHorizontalHeaderLabels([tr(f"summary.col.{c}", lang) for c in _COLUMNS])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for r, row in enumerate(rows):
            self.table.setItem(r, 0, QTableWidgetItem(display_name(row.label, lang)))
            for c, key in enumerate(_COLUMNS[1:], start=1):
                it = QTableWidgetItem(str(getattr(row, key)))
                it.setTextAlignment(right)
                self.table.setItem(r, c, it)
        total = len(rows)
        bold = self.font()
        bold.setBold(True)
        head = QTableWidgetItem(tr("summary.total", lang))
        head.setFont(bold)
        self.table.setItem(total, 0, head)
        for c, key in enumerate(_COLUMNS[1:], start=1):
            it = QTableWidgetItem(str(summary.total(key)))
            it.setTextAlignment(right)
            it.setFont(bold)
            self.table.setItem(total, c, it)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(min(360, 28 + 24 * (len(rows) + 1)))
        layout.addWidget(self.table, 1)

        layout.addWidget(_label(tr("summary.policy", lang).format(
            policy=tr(f"export.pending_{summary.policy.value}", lang))))
        if summary.removed_parts:
            names = dict.fromkeys(part_caption(p, lang) if not isinstance(p, str) else p
                                  for p in summary.removed_parts)
            layout.addWidget(_label(tr("summary.removed", lang).format(parts=", ".join(names)), name="removed"))
        if summary.unreadable_pages:
            layout.addWidget(_label(tr("summary.unreadable", lang).format(
                pages=", ".join(str(p) for p in summary.unreadable_pages)), name="unreadable"))
        if summary.unverifiable:
            layout.addWidget(_label(tr("summary.unverifiable", lang).format(n=summary.unverifiable)))

        self.partial_box: QCheckBox | None = None
        if not summary.detection_complete:
            warn = _label(tr("summary.detection_incomplete", lang).format(
                status=tr(f"detection.{summary.detection.value}", lang)), name="detectionWarning")
            warn.setStyleSheet("color: #a00000; font-weight: bold;")
            layout.addWidget(warn)
            if coverage is not None:
                done, total = coverage
                layout.addWidget(_label(coverage_text("summary.coverage", done, total, lang), name="coverage"))
            self.partial_box = QCheckBox(tr("summary.partial_ok", lang))
            self.partial_box.setObjectName("partialOk")
            self.partial_box.toggled.connect(self._update)
            layout.addWidget(self.partial_box)
        self.below_box: QCheckBox | None = None
        if summary.hidden:
            t = f"{summary.threshold:.2f}"
            below = _label(tr("summary.below", lang).format(n=summary.hidden, t=t), name="belowWarning")
            below.setStyleSheet("color: #a00000; font-weight: bold;")
            layout.addWidget(below)
            self.below_box = QCheckBox(tr("summary.below_ok", lang).format(n=summary.hidden, t=t))
            self.below_box.setObjectName("belowOk")
            self.below_box.toggled.connect(self._update)
            layout.addWidget(self.below_box)
        # a scan the batch CLI holds back (needs review): one explicit confirmation per page or part
        self.held_boxes: list[QCheckBox] = []
        if held:
            head = _label(tr("summary.held", lang).format(n=len(held)), name="heldWarning")
            head.setStyleSheet("color: #a00000; font-weight: bold;")
            layout.addWidget(head)
            for i, text in enumerate(held):
                box = QCheckBox(tr("summary.held_ok", lang).format(item=text))
                box.setObjectName(f"heldOk{i}")
                box.toggled.connect(self._update)
                layout.addWidget(box)
                self.held_boxes.append(box)
        self.message = _label("", name="summaryMessage")
        layout.addWidget(self.message)

        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton(tr("summary.export", lang), QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setObjectName("summaryExport")
        back = self.buttons.addButton(tr("summary.back", lang), QDialogButtonBox.ButtonRole.RejectRole)
        back.setObjectName("summaryBack")
        back.setDefault(True)   # Enter never writes by accident
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.resize(760, 520)
        self._update()

    def partial_ok(self) -> bool:
        return self.partial_box is not None and self.partial_box.isChecked()

    def below_threshold_ok(self) -> bool:
        return self.below_box is not None and self.below_box.isChecked()

    def held_ok(self) -> bool:
        return all(b.isChecked() for b in self.held_boxes)

    def blockers(self) -> list[str]:
        out = self.summary.blockers(partial_ok=self.partial_ok(), below_threshold_ok=self.below_threshold_ok())
        return out + ([] if self.held_ok() else ["needs_review"])

    def _update(self, *_args) -> None:
        blockers = self.blockers()
        if "pending" in blockers:
            self.message.setText(tr("summary.pending_blocked", self.lang).format(n=self.summary.pending))
        elif not blockers:
            self.message.setText(tr("summary.ready", self.lang))
        else:
            self.message.setText("")
        self.export_button.setEnabled(not blockers)


class ExportResultDialog(QDialog):
    """Shown after a successful export; stays until the reviewer closes it."""

    def __init__(self, parent: QWidget | None, result: Any, lang: str = "ko", *, review: dict | None = None) -> None:
        super().__init__(parent)
        self.lang = lang
        self.setObjectName("exportResult")
        self.setWindowTitle(tr("result.title", lang))
        self.output = Path(getattr(result, "output", result))
        layout = QVBoxLayout(self)
        layout.addWidget(_label(tr("result.written", lang)))
        path = _label(str(self.output), selectable=True, name="outputPath")
        f = path.font()
        f.setBold(True)
        path.setFont(f)
        layout.addWidget(path)
        report = getattr(result, "report", None)
        if report is not None:
            layout.addWidget(_label(tr("result.report", lang).format(path=report), selectable=True))
        n = getattr(result, "replacements", None)
        if n is not None:
            layout.addWidget(_label(tr("result.replacements", lang).format(n=n)))
        leak = dict(getattr(result, "leak_check", None) or {})
        review = review or {}
        partial = bool(review.get("partial_export"))
        clean = leak.get("result") == "clean" and not partial   # never a green "clean" for a partial export
        if leak.get("result") == "clean" and partial:
            text = tr("result.leak_partial", lang).format(n=leak.get("values_checked", 0))
        elif leak.get("result") == "clean":
            text = tr("result.leak_clean", lang).format(n=leak.get("values_checked", 0))
        else:
            text = tr("result.leak_other", lang).format(result=leak.get("result", "—"))
        self.leak_label = _label(text, name="leakCheck")
        self.leak_label.setStyleSheet("color: #106010;" if clean else "color: #a00000;")
        layout.addWidget(self.leak_label)
        if leak.get("unverifiable"):
            layout.addWidget(_label(tr("result.unverifiable", lang).format(n=leak["unverifiable"]),
                                    name="unverifiable"))
        if partial:
            layout.addWidget(_label(tr("result.partial", lang).format(
                status=tr(f"detection.{review.get('detection', 'cancelled')}", lang)), name="partialNote"))
            total = int(review.get("text_chars") or 0)
            left = int(review.get("unchecked_chars") or 0)
            if total:
                unchecked = _label(coverage_text("result.partial_unchecked", total - left, total, lang),
                                   name="uncheckedNote")
                unchecked.setStyleSheet("color: #a00000; font-weight: bold;")
                layout.addWidget(unchecked)
        if review.get("pending_below_threshold"):
            layout.addWidget(_label(tr("result.below", lang).format(n=review["pending_below_threshold"])))
        warnings = tuple(getattr(result, "warnings", ()) or ())
        if warnings:
            layout.addWidget(_label(tr("result.warnings", lang) + "\n"
                                    + "\n".join(f"• {note_text(w, lang)}" for w in warnings), name="warnings"))
        layout.addStretch(1)
        self.buttons = QDialogButtonBox()
        self.open_button = self.buttons.addButton(tr("result.open_folder", lang), QDialogButtonBox.ButtonRole.ActionRole)
        self.open_button.setObjectName("openFolder")
        self.open_button.clicked.connect(self.open_folder)
        close = self.buttons.addButton(tr("result.close", lang), QDialogButtonBox.ButtonRole.RejectRole)
        close.setObjectName("resultClose")
        close.setDefault(True)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.resize(640, 300)

    def folder_url(self) -> QUrl:
        return QUrl.fromLocalFile(str(self.output.parent))

    def open_folder(self) -> bool:
        return QDesktopServices.openUrl(self.folder_url())


#: the readers' English notes (documents/) -> catalogue keys, so the Korean UI says them in Korean
_NOTES = (
    (r"^Text recognised by OCR \((?P<n>\d+) page\(s\)\)", "note.ocr_text"),
    (r"^Pages OCR could not read reliably \(needs review\): (?P<pages>[\d, ]+)", "note.ocr_unreadable"),
    (r"^(?P<n>\d+) of (?P<m>\d+) page\(s\) have no usable text layer \(scanned\?\) and were read by OCR",
     "note.pdf_ocr"),
    (r"^(?P<n>\d+) of (?P<m>\d+) page\(s\) have no text layer \(scanned\?\)", "note.pdf_no_text"),
    (r"^Needs review: page\(s\) (?P<pages>[\d, ]+) hold content", "note.pdf_needs_review"),
    (r"^Pictures on pages with text \((?P<n>\d+)\) were read by OCR", "note.pdf_pictures"),
    (r"^Text OCR read in pictures on page\(s\) (?P<pages>[\d, ]+) is shown", "note.pdf_pictures_read"),
    (r"^Pictures holding text on page\(s\) (?P<pages>[\d, ]+) were painted white", "note.pdf_pictures_blank"),
    (r"^PDF export is a rasterised copy", "note.pdf_raster"),
)


def note_text(note: str, lang: str) -> str:
    """A reader's note in the UI language when it is one the catalogue knows; else as written."""
    import re

    for pattern, key in _NOTES:
        m = re.match(pattern, note)
        if m:
            return tr(key, lang).format(**{k: (v or "").strip() for k, v in m.groupdict().items()})
    return note


def coverage_text(key: str, done: int, total: int, lang: str) -> str:
    from .status_line import coverage_pct

    done = max(0, min(done, total))
    return tr(key, lang).format(done=done, total=total, left=total - done,
                                pct=coverage_pct(done / total if total else 1.0))


def confirm_overwrite(parent: QWidget | None, path: Path, lang: str = "ko") -> bool:
    """Ask before replacing ``path``; ``True`` only if the reviewer chose Replace (Cancel is the default)."""
    box = overwrite_box(parent, path, lang)
    box.exec()
    return box.clickedButton() is box.replace_button


def overwrite_box(parent: QWidget | None, path: Path, lang: str = "ko") -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Warning, tr("overwrite.title", lang),
                      tr("overwrite.question", lang).format(name=path.name, folder=path.parent),
                      QMessageBox.StandardButton.NoButton, parent)
    box.setObjectName("overwriteBox")
    replace = box.addButton(tr("overwrite.replace", lang), QMessageBox.ButtonRole.DestructiveRole)
    replace.setObjectName("overwriteReplace")
    cancel = box.addButton(tr("overwrite.cancel", lang), QMessageBox.ButtonRole.RejectRole)
    cancel.setObjectName("overwriteCancel")
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    box.replace_button = replace
    return box
