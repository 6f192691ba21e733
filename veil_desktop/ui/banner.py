"""A lasting banner above the document: incomplete detection, unreadable pages.

Unlike a status-bar message it does not fade: an incomplete detection (cancelled or failed) stays shown
until detection is run again and finishes; unreadable pages stay shown for the whole document.

Threading: GUI thread.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from .i18n import tr


class StatusBanner(QFrame):
    rerunRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#statusBanner { background: #fff3cd; border: 1px solid #e0b000; }"
                           " QLabel { color: #5a4000; }")
        self.incomplete_label = QLabel()
        self.incomplete_label.setObjectName("bannerIncomplete")
        self.incomplete_label.setWordWrap(True)
        self.rerun_button = QPushButton()
        self.rerun_button.setObjectName("bannerRerun")
        self.rerun_button.clicked.connect(self.rerunRequested)
        self.unreadable_label = QLabel()
        self.unreadable_label.setObjectName("bannerUnreadable")
        self.unreadable_label.setWordWrap(True)
        self.ocr_label = QLabel()
        self.ocr_label.setObjectName("bannerOcr")
        self.ocr_label.setWordWrap(True)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.incomplete_label, 1)
        top.addWidget(self.rerun_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addLayout(top)
        layout.addWidget(self.unreadable_label)
        layout.addWidget(self.ocr_label)
        self._ocr: dict | None = None
        self.lang = "ko"
        self._incomplete: tuple[str, int] | None = None
        self._unreadable: str = ""
        self._refresh()

    @property
    def incomplete_text(self) -> str:
        return self.incomplete_label.text() if self._incomplete else ""

    def set_incomplete(self, status: str | None, items: int = 0) -> None:
        """``status``: ``cancelled`` / ``failed`` (shown) or ``None`` (hidden: detection finished)."""
        self._incomplete = (status, items) if status else None
        self._refresh()

    def set_unreadable(self, captions: str) -> None:
        self._unreadable = captions
        self._refresh()

    def set_ocr(self, summary: dict | None) -> None:
        """An OCR'd document (``{"pages", "mean_confidence"}``): shown while it is reviewed."""
        self._ocr = summary or None
        self._refresh()

    def set_language(self, lang: str) -> None:
        self.lang = lang
        self._refresh()

    def _refresh(self) -> None:
        lang = self.lang
        if self._incomplete:
            status, n = self._incomplete
            self.incomplete_label.setText(tr("banner.incomplete", lang).format(
                status=tr(f"detection.{status}", lang), n=n))
        self.incomplete_label.setVisible(bool(self._incomplete))
        self.rerun_button.setVisible(bool(self._incomplete))
        self.rerun_button.setText(tr("banner.rerun", lang) + " (F5)")
        self.unreadable_label.setText(tr("banner.unreadable", lang).format(pages=self._unreadable)
                                      if self._unreadable else "")
        self.unreadable_label.setVisible(bool(self._unreadable))
        if self._ocr:
            self.ocr_label.setText(tr("banner.ocr", lang).format(
                pages=self._ocr.get("pages", 0), conf=f"{float(self._ocr.get('mean_confidence', 0)):.0f}"))
        self.ocr_label.setVisible(bool(self._ocr))
        self.setVisible(bool(self._incomplete or self._unreadable or self._ocr))


def unreadable_captions(document, lang: str) -> str:
    """The unreadable pages/parts of ``document`` as one line in the UI language ("" if none)."""
    items = tuple(getattr(document, "unreadable", ()) or ())
    if items:
        texts = []
        for u in items:
            text = (getattr(u, "caption_en", "") or getattr(u, "where", "")) if lang == "en" \
                else (getattr(u, "caption", "") or getattr(u, "where", ""))
            if text and text not in texts:
                texts.append(text)
        return "; ".join(texts)
    from ..review.summary import unreadable_pages

    return ", ".join(str(p) for p in unreadable_pages(document))
