"""Dialogs and dialog rows of the disclosure workflow (issue 24; ``ui/tools/disclosure.py`` uses them):

- ``add_settings_rows`` / ``DisclosureSettingsRows``: reviewer name and the default reason per label, added
  to the settings dialog (``ui/dialogs.py`` SettingsDialog);
- ``add_export_options`` / ``DisclosureExportRows``: "print the reason in the output" (none / long / short)
  and "write the redaction log", added to the export dialog;
- ``MergeDialog``: the conflicts of two reviews side by side, one row each, resolved A / B (keys ``A``/``B``
  on a row, or the buttons); Apply is enabled once every row has a choice;
- ``DuplicatesDialog``: the workspace's duplicate groups; *Apply to all copies* on a row of a group.

Threading: GUI thread.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QGridLayout,
                               QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton,
                               QTableWidget, QTableWidgetItem, QVBoxLayout)

from ...labels import display_name
from ...review.reasons import ARTICLE_9, OTHER_PREFIX, default_reasons
from ..i18n import tr

REASON_OUTPUT = ("", "long", "short")
#: the labels whose default reason the settings show (personal identifiers are 6호; these are the user's)
SETTINGS_LABELS = ("PERSON", "ORGANIZATION", "BUSINESS_REG", "CORP_REG")


def reason_label(code: str | None, lang: str) -> str:
    """``"6"`` -> ``6호`` / ``item 6``; ``other:…`` -> ``기타: …``; None -> ``""``."""
    if not code:
        return ""
    if code.startswith(OTHER_PREFIX):
        return f"{tr('reason.other_short', lang)}: {code[len(OTHER_PREFIX):]}"
    return tr("reason.item", lang).format(n=code)


def _reason_combo(lang: str, value: str | None) -> QComboBox:

    box = QComboBox()
    box.addItem(tr("reason.none", lang), "none")
    for code in ARTICLE_9:
        box.addItem(reason_label(code, lang), code)
    box.setCurrentIndex(max(0, box.findData(value or "none")))
    return box


class DisclosureSettingsRows:
    """The settings dialog's rows: reviewer name, default reason of each label (``settings.reasons``)."""

    def __init__(self, form, settings, lang: str) -> None:
        self.reviewer = QLineEdit(settings.reviewer)
        self.reviewer.setObjectName("reviewerName")
        self.reviewer.setMaxLength(80)
        form.addRow(tr("settings.reviewer", lang), self.reviewer)
        defaults = settings.reason_defaults()
        labels = list(SETTINGS_LABELS) + sorted(set(default_reasons()) - set(SETTINGS_LABELS))
        box = QGroupBox(tr("settings.reasons", lang))
        grid = QGridLayout(box)
        self.boxes: dict[str, QComboBox] = {}
        for i, label in enumerate(labels):
            combo = _reason_combo(lang, defaults.get(label))
            combo.setObjectName(f"reason_{label}")
            self.boxes[label] = combo
            # three pairs a row: the settings dialog stays within a 1024x768 screen
            grid.addWidget(QLabel(display_name(label, lang)), i // 3, (i % 3) * 2)
            grid.addWidget(combo, i // 3, (i % 3) * 2 + 1)
        form.addRow(box)

    def values(self) -> dict:
        base = default_reasons()
        reasons = {label: box.currentData() for label, box in self.boxes.items()
                   if (box.currentData() if box.currentData() != "none" else None) != base.get(label)}
        return {"reviewer": " ".join(self.reviewer.text().split()), "reasons": reasons}


def add_settings_rows(form, settings, lang: str) -> DisclosureSettingsRows:
    return DisclosureSettingsRows(form, settings, lang)


class DisclosureExportRows:
    """The export dialog's box: the reason printed in the output and the redaction log."""

    def __init__(self, layout, settings, lang: str) -> None:
        box = QGroupBox(tr("reason.in_output", lang))
        vl = QVBoxLayout(box)
        self.reason_output = QComboBox()
        self.reason_output.setObjectName("reasonInOutput")
        for v in REASON_OUTPUT:
            self.reason_output.addItem(tr(f"reason.in_output_{v or 'none'}", lang), v)
        self.reason_output.setCurrentIndex(max(0, self.reason_output.findData(settings.reason_in_output)))
        self.log = QCheckBox(tr("reason.log", lang))
        self.log.setObjectName("redactionLog")
        self.log.setChecked(settings.redaction_log)
        vl.addWidget(self.reason_output)
        vl.addWidget(self.log)
        layout.addWidget(box)

    def values(self) -> dict:
        return {"reason_in_output": self.reason_output.currentData() or "", "redaction_log": self.log.isChecked()}


def add_export_options(layout, settings, lang: str) -> DisclosureExportRows:
    return DisclosureExportRows(layout, settings, lang)


def masked_form(text: str, start: int, end: int, label: str, styles=None, default_style=None) -> str:
    """``text[start:end]`` as the export would mask it with the reviewer's styles (``masking``), so a view
    that lists items (the merge dialog) shows no value in clear; a pseudonym shows as its tag (its number
    depends on the whole export's order, not on this list)."""
    from ...detect.span import Span
    from ...masking import MaskStyle, export_masker

    def no_pseudonym(v):
        return MaskStyle.TAG.value if str(getattr(v, "value", v)) == MaskStyle.PSEUDONYM.value else v

    styles = {k: no_pseudonym(v) for k, v in (styles or {}).items()}
    default = None if default_style is None else no_pseudonym(default_style)
    plan = export_masker(text, styles, default).plan(text, [Span(start, end, label, 1.0, "manual")])
    return " ".join(plan[0].text.split()) if plan else ""


def _side_text(entry, lang: str) -> str:

    if entry is None:
        return tr("merge.absent", lang)
    decision = tr(f"status.{entry.decision}", lang)
    reason = reason_label(entry.reason, lang)
    return f"{display_name(entry.label, lang)} · {decision}" + (f" · {reason}" if reason else "")


class MergeDialog(QDialog):
    """Conflicts of two reviews, side by side; ``choices()`` in ``MergeResult.conflicts`` order."""

    COL_POS, COL_TEXT, COL_A, COL_B, COL_CHOICE = range(5)

    def __init__(self, parent, state, result, who_a: str, who_b: str, lang: str = "ko", *, styles=None,
                 default_style=None) -> None:
        super().__init__(parent)
        self.setObjectName("mergeDialog")
        self.lang = lang
        self.result = result
        self._choices: list[str | None] = [None] * len(result.conflicts)
        self.setWindowTitle(tr("merge.title", lang).format(n=len(result.conflicts)))
        intro = QLabel(tr("merge.intro", lang))
        intro.setWordWrap(True)
        self.table = QTableWidget(len(result.conflicts), 5)
        self.table.setHorizontalHeaderLabels([tr("merge.col.pos", lang), tr("merge.col.masked", lang),
                                              tr("merge.col.a", lang).format(who=who_a),
                                              tr("merge.col.b", lang).format(who=who_b),
                                              tr("merge.col.choice", lang)])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(self.COL_TEXT, QHeaderView.ResizeMode.Stretch)
        for r, c in enumerate(result.conflicts):
            e = c.a or c.b
            start = min(x.start for x in (c.a, c.b) if x is not None)
            end = max(x.end for x in (c.a, c.b) if x is not None)
            # the masked form, never the value (no personal data on screen in a list of items)
            shown = masked_form(state.text, start, end, e.label, styles, default_style)
            for col, text in ((self.COL_POS, str(start)), (self.COL_TEXT, shown[:60]),
                              (self.COL_A, _side_text(c.a, lang)), (self.COL_B, _side_text(c.b, lang)),
                              (self.COL_CHOICE, "")):
                self.table.setItem(r, col, QTableWidgetItem(text))
            del e
        self.table.resizeColumnsToContents()
        self.left = QLabel()
        all_a = QPushButton(tr("merge.all_a", lang))
        all_a.clicked.connect(lambda: self._choose_all("a"))
        all_b = QPushButton(tr("merge.all_b", lang))
        all_b.clicked.connect(lambda: self._choose_all("b"))
        self.buttons = QDialogButtonBox()
        self.apply_button = self.buttons.addButton(tr("merge.apply", lang), QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(tr("merge.cancel", lang), QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(all_a)
        row.addWidget(all_b)
        row.addWidget(self.left, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.buttons)
        self.resize(860, 420)
        if result.conflicts:
            self.table.setCurrentCell(0, self.COL_TEXT)
        self._update()

    def choose(self, row: int, side: str) -> None:
        self._choices[row] = side
        self.table.item(row, self.COL_CHOICE).setText(side.upper())
        for col, s in ((self.COL_A, "a"), (self.COL_B, "b")):
            f = self.table.item(row, col).font()
            f.setBold(s == side)
            self.table.item(row, col).setFont(f)
        self._update()

    def _choose_all(self, side: str) -> None:
        for r in range(len(self._choices)):
            self.choose(r, side)

    def _update(self) -> None:
        left = sum(1 for c in self._choices if c is None)
        self.left.setText(tr("merge.left", self.lang).format(n=left))
        self.apply_button.setEnabled(left == 0)

    def choices(self) -> list[str]:
        return [c or "" for c in self._choices]

    def keyPressEvent(self, event) -> None:  # noqa: N802
        key = event.key()
        row = self.table.currentRow()
        if key in (Qt.Key.Key_A, Qt.Key.Key_B) and 0 <= row < len(self._choices):
            self.choose(row, "a" if key == Qt.Key.Key_A else "b")
            if row + 1 < len(self._choices):
                self.table.setCurrentCell(row + 1, self.COL_TEXT)
            return
        super().keyPressEvent(event)


class DuplicatesDialog(QDialog):
    """The duplicate groups, one row per unit; ``applyRequested(group, unit)`` on *Apply to all copies*."""

    applyRequested = Signal(object, object)

    def __init__(self, parent, groups, current_doc: str, lang: str = "ko") -> None:
        super().__init__(parent)
        self.setObjectName("duplicatesDialog")
        self.lang = lang
        self.groups = groups
        self.current_doc = current_doc
        self.rows: list[tuple[object, object]] = []
        self.setWindowTitle(tr("dup.title", lang))
        intro = QLabel(tr("dup.intro", lang) if groups else tr("dup.none", lang))
        intro.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels([tr("dup.col.group", lang), tr("dup.col.doc", lang),
                                              tr("dup.col.where", lang), tr("dup.col.kind", lang)])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for g_i, g in enumerate(groups, 1):
            for u in g.units:
                r = self.table.rowCount()
                self.table.insertRow(r)
                where = tr(f"dup.{u.kind}", lang).format(n=u.index)
                name = Path(u.doc).name + (" ◀" if u.doc == current_doc else "")
                kind = tr("dup.identical" if g.identical else "dup.near", lang)
                for col, text in enumerate((str(g_i), name, where, kind)):
                    self.table.setItem(r, col, QTableWidgetItem(text))
                self.rows.append((g, u))
        first = next((r for r, (_g, u) in enumerate(self.rows) if u.doc == current_doc), 0)
        for col in (0, 2, 3):                   # whole headers ("Page/paragraph" was cut at 1024x768)
            self.table.resizeColumnToContents(col)
        if self.rows:
            self.table.selectRow(first)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.apply_button = QPushButton(tr("dup.apply", lang))
        self.apply_button.setEnabled(bool(self.rows))
        self.apply_button.clicked.connect(self.apply_selected)
        buttons = QDialogButtonBox()
        buttons.addButton(self.apply_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(tr("dup.close", lang), QDialogButtonBox.ButtonRole.RejectRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.resize(760, 400)

    def apply_selected(self) -> None:
        row = self.table.currentRow()
        if not (0 <= row < len(self.rows)):
            self.message.setText(tr("dup.need_source", self.lang))
            return
        group, unit = self.rows[row]
        self.applyRequested.emit(group, unit)

    def set_result(self, out: dict[str, int]) -> None:
        self.message.setText(tr("dup.applied", self.lang).format(
            n=sum(out.values()), docs=sum(1 for v in out.values() if v)))
