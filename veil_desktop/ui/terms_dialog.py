"""Term lists dialog: edit the deny list (mask, with a label) and the allow list (keep), import/export them
as UTF-8 CSV (``term,action,label``). Adapter over ``review/terms.py``; saving writes the user's list
(``<user config dir>/terms.csv``). Bad rows or files are refused with one message per line.

Threading: GUI thread only.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox, QDialog, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QMessageBox, QPushButton,
    QTableWidget, QTableWidgetItem, QVBoxLayout,
)

from ..labels import LABELS, display_name
from ..review.terms import Problem, Term, TermList, TermsError
from .i18n import terms_problem_text, tr


class TermsDialog(QDialog):
    def __init__(self, parent=None, terms: TermList | None = None, lang: str = "ko") -> None:
        super().__init__(parent)
        self.lang = lang
        self.setWindowTitle(tr("terms.title", lang))
        self.resize(640, 460)
        self._result: TermList | None = None
        t = lambda k: tr(k, lang)  # noqa: E731

        intro = QLabel(t("terms.intro"))
        intro.setWordWrap(True)
        self.table = QTableWidget(0, 3, self)
        self.table.setHorizontalHeaderLabels([t("terms.col.term"), t("terms.col.action"), t("terms.col.label")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.add_btn = QPushButton(t("terms.add"))
        self.remove_btn = QPushButton(t("terms.remove"))
        self.import_btn = QPushButton(t("terms.import"))
        self.export_btn = QPushButton(t("terms.export"))
        self.save_btn = QPushButton(t("terms.save"))
        self.save_btn.setDefault(True)
        self.cancel_btn = QPushButton(t("terms.cancel"))
        row = QHBoxLayout()
        for b in (self.add_btn, self.remove_btn, self.import_btn, self.export_btn):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.save_btn)
        row.addWidget(self.cancel_btn)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addWidget(self.table)
        lay.addLayout(row)

        self.add_btn.clicked.connect(lambda: self.add_row("", "mask", "PERSON", edit=True))
        self.remove_btn.clicked.connect(self.remove_selected)
        self.import_btn.clicked.connect(self._on_import)
        self.export_btn.clicked.connect(self._on_export)
        self.save_btn.clicked.connect(self._on_save)
        self.cancel_btn.clicked.connect(self.reject)
        self.set_terms(terms or TermList())

    # -- rows -------------------------------------------------------------------------------------------
    def set_terms(self, terms: TermList) -> None:
        self.table.setRowCount(0)
        for term in terms.terms:
            self.add_row(term.term, term.action, term.label or "PERSON")

    def add_row(self, term: str, action: str, label: str, *, edit: bool = False) -> int:
        r = self.table.rowCount()
        self.table.insertRow(r)
        self.table.setItem(r, 0, QTableWidgetItem(term))
        act = QComboBox()
        act.addItem(tr("terms.mask", self.lang), "mask")
        act.addItem(tr("terms.keep", self.lang), "keep")
        act.setCurrentIndex(0 if action == "mask" else 1)
        lab = QComboBox()
        for name in LABELS:
            lab.addItem(display_name(name, self.lang), name)
        lab.setCurrentIndex(max(0, lab.findData(label)))
        lab.setEnabled(action == "mask")
        act.currentIndexChanged.connect(lambda _i, a=act, l=lab: l.setEnabled(a.currentData() == "mask"))
        self.table.setCellWidget(r, 1, act)
        self.table.setCellWidget(r, 2, lab)
        if edit:
            self.table.setCurrentCell(r, 0)
            self.table.editItem(self.table.item(r, 0))
        return r

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()} or
                      ({self.table.currentRow()} if self.table.currentRow() >= 0 else set()), reverse=True)
        for r in rows:
            self.table.removeRow(r)

    def terms(self) -> TermList:
        """The rows as a validated list (empty term rows are ignored); raises ``TermsError``."""
        items = []
        for r in range(self.table.rowCount()):
            cell = self.table.item(r, 0)
            text = cell.text().strip() if cell is not None else ""
            if not text:
                continue
            action = self.table.cellWidget(r, 1).currentData()
            label = self.table.cellWidget(r, 2).currentData() if action == "mask" else ""
            items.append(Term(text, action, label))
        return TermList(items)

    def result_terms(self) -> TermList | None:
        return self._result

    # -- buttons ----------------------------------------------------------------------------------------
    def _show_errors(self, e: TermsError) -> None:
        shown = [terms_problem_text(p, self.lang) for p in e.errors]
        lines = shown[:20] + ([f"… (+{len(e.errors) - 20})"] if len(e.errors) > 20 else [])
        box = QMessageBox(QMessageBox.Icon.Warning, tr("terms.title", self.lang),
                          tr("terms.errors", self.lang) + "\n\n" + "\n".join(lines), QMessageBox.StandardButton.Ok,
                          self)
        from .dialogs import translate_buttons

        translate_buttons(box, self.lang)          # "확인", not Qt's untranslated "OK"
        box.open()
        self.last_error = "\n".join(shown)

    def import_file(self, path: str | Path) -> bool:
        try:
            tl = TermList.load(path)
        except TermsError as e:
            self._show_errors(e)
            return False
        self.set_terms(tl)
        return True

    def export_file(self, path: str | Path) -> bool:
        try:
            self.terms().save(path)
        except TermsError as e:
            self._show_errors(e)
            return False
        except OSError as e:
            name = Path(path).name
            self._show_errors(TermsError(Problem("write_failed", f"{name}: {e.strerror or e}", name=name)))
            return False
        return True

    def _on_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("terms.import", self.lang), "", tr("terms.csv_filter", self.lang))
        if path:
            self.import_file(path)

    def _on_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("terms.export", self.lang), "terms.csv",
                                              tr("terms.csv_filter", self.lang))
        if path:
            self.export_file(path)

    def _on_save(self) -> None:
        try:
            self._result = self.terms()
        except TermsError as e:
            self._show_errors(e)
            return
        self.accept()
