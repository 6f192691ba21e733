"""The main window's status bar and title: the detector in use, counts per label, reviewed % / pending,
a progress bar and Cancel (permanent widgets, so transient messages show on the left).

``StatusLine`` is a mixin of ``MainWindow`` (``ui/main_window.py``): ``_build_status_bar`` creates the
widgets as window attributes (``model_label``, ``counts_label``, ``reviewed_label``, ``progress``,
``cancel_button``), ``refresh_status`` / ``_update_title`` fill them from the ``ReviewSession`` (state,
path, detector id) and the detection controller; the attributes it uses are declared below.
Threading: GUI thread only.
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton

from ..labels import display_name
from ..review.review_session import ReviewSession
from ..review.state import Status
from .detection import DetectionController
from .i18n import tr
from .span_panel import LABEL_CHOICES

#: labels listed in the status bar's counts (the rest are in its tooltip)
STATUS_LABELS = 4


class StatusLine:
    """Status bar and window title of ``MainWindow`` (see the module docstring)."""

    review: ReviewSession
    detection: DetectionController
    lang: str
    model_label: QLabel
    counts_label: QLabel
    reviewed_label: QLabel
    progress: QProgressBar
    cancel_button: QPushButton

    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        self.model_label = QLabel()
        self.counts_label = QLabel()
        self.reviewed_label = QLabel()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(180)
        self.progress.setVisible(False)
        self.cancel_button = QPushButton()
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self._on_cancel_detection)
        # permanent widgets stay visible while showMessage() shows transient messages on the left
        for w in (self.model_label, self.counts_label, self.reviewed_label, self.progress, self.cancel_button):
            sb.addPermanentWidget(w)

    def refresh_status(self) -> None:
        lang = self.lang
        running = self.detection.running
        detector_id = self.review.detector_id
        if running and not detector_id:
            self.model_label.setText(tr("status.model_loading", lang))
        else:
            self.model_label.setText(tr("status.model", lang).format(model=detector_id or "—"))
        st = self.review.state
        if st is None:
            self.counts_label.setText(tr("status.no_document", lang))
            self.reviewed_label.setText("")
            return
        counts = st.counts()
        parts = []
        for label in sorted(counts, key=lambda l: (LABEL_CHOICES.index(l) if l in LABEL_CHOICES else 99, l)):
            c = counts[label]
            parts.append(f"{display_name(label, lang)} {c[Status.ACCEPTED]}/{sum(c.values())}")
        # at most STATUS_LABELS labels in the bar (the rest in the tooltip): with a dozen labels the line would
        # push the transient message on the left out of sight ("Detection finished: 33 it")
        shown = parts[:STATUS_LABELS] + ([f"+{len(parts) - STATUS_LABELS}"] if len(parts) > STATUS_LABELS else [])
        self.counts_label.setText("  ·  ".join(shown))
        self.counts_label.setToolTip("\n".join(parts))
        if running:  # no "reviewed 100%" while the items are still arriving
            self.reviewed_label.setText(tr("status.detecting_cov", lang).format(
                n=len(st), pct=coverage_pct(self.review.coverage)))
        else:
            self.reviewed_label.setText(reviewed_text(st, counts, lang))

    def _update_title(self) -> None:
        path = self.review.path
        name = path.name if path else tr("title.no_document", self.lang)
        self.setWindowTitle(f"{name} — veil-desktop")


def coverage_pct(fraction: float) -> str:
    """A share in percent; never "100" before it is whole, never "0" once something is covered."""
    if fraction >= 1:
        return "100"
    p = 100 * max(0.0, fraction)
    if p == 0:
        return "0"
    if p < 10:                         # 3,929 of 300,028 characters: "1.3", not "1"
        return f"{max(p, 0.1):.1f}"
    return str(min(99, int(p)))


def reviewed_text(state, counts, lang: str) -> str:
    """"검토 80% · 남은 항목 3 (숨김 12)": suggestions hidden by the threshold count as pending (not reviewed)
    and are named, so a threshold of 1.00 never reads "100% · 0"."""
    hidden = state.hidden_pending_count()
    visible = sum(sum(c.values()) for c in counts.values())
    pending = state.pending_count(counts)
    total = visible + hidden
    pct = 100 if not total else round(100 * (total - pending - hidden) / total)
    if pct == 100 and pending + hidden:
        pct = 99                       # never "100%" while anything is undecided
    if hidden:
        return tr("status.reviewed_hidden", lang).format(pct=pct, pending=pending + hidden, hidden=hidden)
    return tr("status.reviewed", lang).format(pct=pct, pending=pending)
