"""Dialogs: export (styles per label with examples, tag language, pending policy, preview, output path),
settings, keyboard cheat sheet. The export summary, the result dialog and the hit lists live in
``export_summary.py`` and ``hit_list.py``.

Threading: GUI thread; the only slow thing a dialog starts (model-folder validation) runs on the pool.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFileDialog, QFormLayout,
                               QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QPlainTextEdit, QPushButton, QRadioButton, QSpinBox, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from ..labels import display_name
from ..masking import MaskStyle, apply_replacements, resolve_tag_language, style_example, styles_for_label
from ..review.export import PendingPolicy, build_plan
from ..review.settings import AppSettings
from ..review.state import ReviewState
from .actions import ACTIONS
from ..detect.detector_cache import validate_model_folder
from .i18n import LANGUAGES, model_error_text, tr
from .jobs import Jobs

PREVIEW_CHARS = 20_000


def _style_combo(lang: str, value: str, label: str | None = None, tag_lang: str | None = None) -> QComboBox:
    """Masking styles that make sense for ``label``, each with what it makes of an example ``label``
    value (computed by the real ``Masker``: ``태그 → [주민등록번호]``, ``일부 유지 → 900101-*******``).
    ``label=None``: the generic set (the "other labels" default) with a generic example."""
    box = QComboBox()
    fill_style_combo(box, lang, value, label, tag_lang)
    return box


def fill_style_combo(box: QComboBox, lang: str, value: str, label: str | None = None,
                     tag_lang: str | None = None) -> None:
    tag_lang = tag_lang or lang
    box.blockSignals(True)
    box.clear()
    for s in styles_for_label(label or "OTHER"):
        example = style_example(label or "OTHER", s, tag_lang)
        box.addItem(tr("style.example", lang).format(name=tr(f"style.{s.value}.name", lang), example=example),
                    s.value)
        box.setItemData(box.count() - 1, example, Qt.ItemDataRole.ToolTipRole)
    # a style that makes no sense for this label (e.g. an old setting "partial" for an organisation)
    # falls back to the first offered one (the tag)
    box.setCurrentIndex(max(0, box.findData(value)))
    box.blockSignals(False)


def export_formats(fmt: str | None) -> tuple[str, ...]:
    """Output formats a ``fmt`` document can be exported to, default first — the documents package's
    ``EXPORTS`` table, so the dialog can never offer a format the writer refuses (HWP: only ``txt``)."""
    from ..documents import EXPORTS

    return EXPORTS.get(fmt or "", ("txt",))


def suggest_output(source: Path | None, fmt: str | None = None) -> Path:
    """``report.txt`` -> ``report.masked.txt`` beside it (never the source itself): the one naming rule
    (``documents.formats.output_name``, beside the source). The source's own suffix is kept when its
    format can be written back; otherwise (``.hwp`` today) the format's default export is added
    (``report.masked.hwp.txt``)."""
    from ..documents import output_name

    if source is None:
        return Path.home() / "masked.txt"
    try:
        return output_name(source, beside_source=True)
    except (KeyError, ValueError):       # not a registered suffix: masked text beside it
        return source.with_name(f"{source.stem}.masked.txt")


def open_filters(lang: str = "ko") -> str:
    """The open dialogs' filter: every registered suffix (``documents.formats``), then mail alone
    (``.eml``), e.g. ``"문서 (*.txt ... *.eml);;메일 (*.eml)"``."""
    from ..documents.formats import supported_suffixes

    suffixes = supported_suffixes()
    pattern = " ".join("*" + s for s in suffixes)
    filters = [f"{tr('dialog.documents', lang)} ({pattern})"]
    if ".eml" in suffixes:
        filters.append(f"{tr('dialog.mail', lang)} (*.eml)")
    return ";;".join(filters)


def export_filters(fmt: str | None, lang: str = "ko") -> list[str]:
    """File-dialog filters for the allowed outputs, e.g. ``["DOCX (*.docx)", "TXT (*.txt)"]``."""
    return [f"{f.upper()} (*.{f})" for f in export_formats(fmt)]


_STANDARD_TEXTS = {"Ok": "ok", "Cancel": "cancel", "Close": "close", "Yes": "ok", "No": "cancel"}


def translate_buttons(box, lang: str) -> None:
    """Give the standard buttons of a ``QDialogButtonBox`` (or ``QMessageBox``) texts from the catalogue:
    Qt's own translations are not shipped, so "OK/Cancel/Close" would stay English in the Korean UI."""
    for name, key in _STANDARD_TEXTS.items():
        std = getattr(type(box).StandardButton, name)
        button = box.button(std)
        if button is not None:
            button.setText(tr(key, lang))


class ExportDialog(QDialog):
    def __init__(self, parent, state: ReviewState, settings: AppSettings, source: Path | None, document,
                 lang: str = "ko") -> None:
        super().__init__(parent)
        self.lang = lang
        self._state = state
        self._source = source
        self._document = document
        # created first: building the widgets below already fires change signals
        self._preview_timer = QTimer(self, singleShot=True, interval=80, timeout=self.update_preview)
        self.setWindowTitle(tr("export.title", lang))
        self.resize(900, 640)

        labels = sorted({it.label for it in state} | {"PERSON", "ADDRESS", "ORGANIZATION"})
        styles_box = QGroupBox(tr("export.styles", lang))
        grid = QGridLayout(styles_box)
        # tags in the document's language by default (Korean tags in a Korean document), English optional
        self._tag_lang = QComboBox()
        self._tag_lang.setObjectName("tagLanguage")
        for code in ("ko", "en"):
            self._tag_lang.addItem(tr(f"export.tag_lang_{code}", lang), code)
        self._tag_lang.setCurrentIndex(max(0, self._tag_lang.findData(resolve_tag_language(state.text))))
        self._tag_lang.currentIndexChanged.connect(self._on_tag_lang)
        grid.addWidget(QLabel(tr("export.tag_lang", lang)), 0, 0)
        grid.addWidget(self._tag_lang, 0, 1)
        self._style_boxes: dict[str, QComboBox] = {}
        tl = self.tag_lang()
        for i, label in enumerate(labels):
            box = _style_combo(lang, settings.styles.get(label, settings.default_style), label, tl)
            box.setObjectName(f"style_{label}")
            box.currentIndexChanged.connect(self._schedule_preview)
            self._style_boxes[label] = box
            grid.addWidget(QLabel(display_name(label, lang)), i + 1, 0)
            grid.addWidget(box, i + 1, 1)
        self._default_box = _style_combo(lang, settings.default_style, None, tl)
        self._default_box.currentIndexChanged.connect(self._schedule_preview)
        row = len(labels) + 1
        grid.addWidget(QLabel(tr("export.default_style", lang)), row, 0)
        grid.addWidget(self._default_box, row, 1)
        grid.setColumnStretch(1, 1)

        self._pending = state.pending_count()
        pending_box = QGroupBox(f"{tr('export.pending', lang)} — "
                                f"{tr('export.pending_count', lang).format(n=self._pending)}")
        pl = QVBoxLayout(pending_box)
        self._policy_group = QButtonGroup(self)
        self._policy_buttons: dict[PendingPolicy, QRadioButton] = {}
        for p in PendingPolicy:
            rb = QRadioButton(tr(f"export.pending_{p.value}", lang))
            self._policy_group.addButton(rb)
            self._policy_buttons[p] = rb
            pl.addWidget(rb)
            rb.toggled.connect(self._schedule_preview)
        # every export starts from the safe default: nothing chosen for an earlier export carries over
        self._policy_buttons[PendingPolicy.BLOCK].setChecked(True)

        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setFont(parent.view.font() if parent is not None and hasattr(parent, "view") else self.font())
        self.message = QLabel()
        self.message.setWordWrap(True)

        self._format = getattr(document, "format", None) or (source.suffix.lower().lstrip(".") if source else None)
        self._out = QLineEdit(str(suggest_output(source, self._format)))
        self._out.textChanged.connect(self._update_ok)
        browse = QPushButton(tr("export.browse", lang))
        browse.clicked.connect(self._browse)
        out_row = QHBoxLayout()
        out_row.addWidget(QLabel(tr("export.output", lang)))
        out_row.addWidget(self._out, 1)
        out_row.addWidget(browse)

        self.buttons = QDialogButtonBox()
        # the next step is the summary (nothing is written from this dialog)
        self.ok_button = self.buttons.addButton(tr("export.next", lang), QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(tr("export.cancel", lang), QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(styles_box)
        ll.addWidget(pending_box)
        from .tools.disclosure_dialogs import add_export_options   # reason in the output, redaction log

        self.disclosure = add_export_options(ll, settings, lang)
        ll.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(left, 2)
        right = QVBoxLayout()
        right.addWidget(QLabel(tr("export.preview", lang)))
        right.addWidget(self.preview, 1)
        top.addLayout(right, 3)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addWidget(self.message)
        layout.addLayout(out_row)
        layout.addWidget(self.buttons)

        self.update_preview()

    # -- values --------------------------------------------------------------------------------------
    def styles(self) -> dict[str, str]:
        return {label: box.currentData() for label, box in self._style_boxes.items()}

    def default_style(self) -> str:
        return self._default_box.currentData()

    def tag_lang(self) -> str:
        return self._tag_lang.currentData()

    def set_tag_lang(self, code: str) -> None:
        self._tag_lang.setCurrentIndex(self._tag_lang.findData(code))

    def style_texts(self, label: str) -> list[str]:
        box = self._style_boxes[label]
        return [box.itemText(i) for i in range(box.count())]

    def _on_tag_lang(self, *_args) -> None:
        tl = self.tag_lang()
        for label, box in self._style_boxes.items():
            fill_style_combo(box, self.lang, box.currentData(), label, tl)
        fill_style_combo(self._default_box, self.lang, self._default_box.currentData(), None, tl)
        self._schedule_preview()

    def policy(self) -> PendingPolicy:
        for p, rb in self._policy_buttons.items():
            if rb.isChecked():
                return p
        return PendingPolicy.BLOCK

    def set_policy(self, policy: PendingPolicy) -> None:
        self._policy_buttons[policy].setChecked(True)

    def set_style(self, label: str, style: str) -> None:
        box = self._style_boxes[label]
        i = box.findData(style)
        if i < 0:
            raise ValueError(f"style {style!r} is not offered for {label}")
        box.setCurrentIndex(i)

    def out_path(self) -> Path:
        return Path(self._out.text()).expanduser()

    def set_out_path(self, path: Path) -> None:
        self._out.setText(str(path))

    # -- behaviour -----------------------------------------------------------------------------------
    def _schedule_preview(self, *_args) -> None:
        self._preview_timer.start()

    def update_preview(self) -> None:
        policy = self.policy()
        blocked = policy is PendingPolicy.BLOCK and self._pending > 0
        # a blocked export still previews what is decided so far (pending shown unmasked)
        # the preview shows what would be written; suggestions below the threshold are shown in clear
        # (the summary asks about them before anything is written)
        plan = build_plan(self._state, self.styles(), PendingPolicy.REJECT if blocked else policy,
                          self.default_style(), allow_below_threshold=True, lang=self.tag_lang())
        # the core's English section captions in the UI language (same length: the plan's offsets hold)
        from .i18n import localize_captions

        shown = localize_captions(self._state.text, getattr(self._document, "captions", ()), self.lang)
        text = apply_replacements(shown, plan).replace("\u200b", "")
        if len(text) > PREVIEW_CHARS:
            text = text[:PREVIEW_CHARS] + "\n" + tr("export.preview_truncated", self.lang)
        self.preview.setPlainText(text)
        self._update_ok()

    def _update_ok(self) -> None:
        """Enable Export only for a writable choice; the message says what is wrong (one thing at a time)."""
        blocked = self.policy() is PendingPolicy.BLOCK and self._pending > 0
        out = self.out_path()
        same = self._source is not None and out.resolve() == self._source.resolve()
        # only what the documents package can write for this source (e.g. HWP -> .txt only)
        allowed = export_formats(self._format)
        bad_format = bool(self._out.text().strip()) and out.suffix.lower().lstrip(".") not in allowed
        if same:
            message = tr("error.overwrite", self.lang)
        elif bad_format:
            message = tr("error.export_format", self.lang).format(formats=", ".join("." + f for f in allowed))
        elif blocked:
            message = tr("error.pending", self.lang).format(n=self._pending)
        else:
            message = ""
        self.message.setText(message)
        self.ok_button.setEnabled(not blocked and not same and not bad_format and bool(self._out.text().strip()))

    def _browse(self) -> None:
        filters = export_filters(self._format, self.lang)
        current = Path(self._out.text()).suffix.lower().lstrip(".")
        chosen = next((f for f in filters if f"*.{current})" in f), filters[0])
        path, _ = QFileDialog.getSaveFileName(self, tr("export.output", self.lang), self._out.text(),
                                              ";;".join(filters), chosen)
        if path:
            self._out.setText(path)


class SettingsDialog(QDialog):
    def __init__(self, parent, settings: AppSettings, lang: str = "ko") -> None:
        super().__init__(parent)
        self.lang = lang
        self._settings = settings
        self._jobs = Jobs(self)   # the model check (channel "model": a superseded check is dropped)
        self.setWindowTitle(tr("settings.title", lang))
        self.model_dir = QLineEdit(settings.model_dir)
        self.model_dir.setPlaceholderText(tr("settings.model_default", lang))
        self.model_dir.editingFinished.connect(self.validate_model)
        browse = QPushButton(tr("export.browse", lang))
        browse.clicked.connect(self._browse)
        default = QPushButton(tr("settings.reset_model", lang))
        default.clicked.connect(lambda: (self.model_dir.setText(""), self.validate_model()))
        self.model_status = QLabel()
        self.model_status.setWordWrap(True)
        self.threads = QSpinBox()
        self.threads.setRange(0, 64)
        self.threads.setValue(settings.threads)
        self.language = QComboBox()
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.default_style = _style_combo(lang, settings.default_style, None)
        # the threshold every newly opened document starts from (the slider changes only that document)
        self.default_threshold = QDoubleSpinBox()
        self.default_threshold.setObjectName("defaultThreshold")
        self.default_threshold.setRange(0.0, 1.0)
        self.default_threshold.setSingleStep(0.05)
        self.default_threshold.setDecimals(2)
        self.default_threshold.setValue(settings.threshold)
        # a detector setting: changing it rebuilds the window's detector and detects again
        self.skip_ids = QCheckBox(tr("settings.skip_ids", lang))
        self.skip_ids.setChecked(settings.skip_ids)

        row = QHBoxLayout()
        row.addWidget(self.model_dir, 1)
        row.addWidget(browse)
        row.addWidget(default)
        form = QFormLayout()
        form.addRow(tr("settings.model_dir", lang), row)
        form.addRow("", self.model_status)
        form.addRow(tr("settings.threads", lang), self.threads)
        form.addRow(tr("settings.language", lang), self.language)
        form.addRow(tr("settings.default_style", lang), self.default_style)
        form.addRow(tr("settings.default_threshold", lang), self.default_threshold)
        form.addRow("", self.skip_ids)
        from .tools.disclosure_dialogs import add_settings_rows    # reviewer name, default reasons

        self.disclosure = add_settings_rows(form, settings, lang)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        translate_buttons(buttons, lang)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.resize(640, 220)

    def _browse(self) -> None:
        path = QFileDialog.getExistingDirectory(self, tr("settings.model_dir", self.lang), self.model_dir.text())
        if path:
            self.model_dir.setText(path)
            self.validate_model()

    def validate_model(self) -> int:
        """Check the chosen folder with the real loader on the pool; the loader's message is shown."""
        folder = self.model_dir.text().strip()
        if not folder:
            self._jobs.discard("model")            # a check still running no longer matters
            self.model_status.setText(tr("settings.model_default", self.lang))
            self.ok_button.setEnabled(True)
            return 0
        self.model_status.setText(tr("settings.model_checking", self.lang))
        self.ok_button.setEnabled(False)
        lang = self.lang

        def check() -> tuple[bool, str]:
            # the loader's problem in the UI language (its code and fields), on the pool thread
            from ..detect.model_folder import ModelFolderError

            try:
                return True, validate_model_folder(Path(folder))
            except ModelFolderError as e:
                return False, model_error_text(e, lang)

        return self._jobs.start(check, self._on_checked, self._on_invalid, channel="model").id

    def _on_checked(self, result: tuple[bool, str]) -> None:
        ok, text = result
        if ok:
            self._on_valid(text)
        else:
            self._on_invalid(text)

    def _on_valid(self, desc: str) -> None:
        self.model_status.setText(tr("settings.model_ok", self.lang).format(desc=desc))
        self.ok_button.setEnabled(True)

    def _on_invalid(self, message: str) -> None:
        self.model_status.setText(message)
        self.ok_button.setEnabled(False)

    def result_settings(self) -> AppSettings:
        return replace(self._settings, model_dir=self.model_dir.text().strip(), threads=self.threads.value(),
                       language=self.language.currentData(), default_style=self.default_style.currentData(),
                       threshold=round(self.default_threshold.value(), 2), skip_ids=self.skip_ids.isChecked(),
                       **self.disclosure.values())


class ShortcutsDialog(QDialog):
    """The cheat sheet, generated from ``ACTIONS`` — the window's and the reviewer's tools' actions alike
    (``ui/actions.py``, the table their ``QAction``s are built from) — so it can never disagree with the
    real shortcuts."""

    def __init__(self, parent, lang: str = "ko") -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("shortcuts.title", lang))
        specs = [s for s in ACTIONS if s.shortcuts]
        self.table = QTableWidget(len(specs), 2)
        self.table.setHorizontalHeaderLabels([tr("shortcuts.key", lang), tr("shortcuts.action", lang)])
        for row, spec in enumerate(specs):
            self.table.setItem(row, 0, QTableWidgetItem(" / ".join(spec.shortcuts)))
            self.table.setItem(row, 1, QTableWidgetItem(tr(f"action.{spec.id}", lang)))
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.resizeColumnToContents(0)        # the keys whole ("A / Return / Enter"), never "A / …"
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        translate_buttons(buttons, lang)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(520, 640)
