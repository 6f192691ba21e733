"""``AppSettings`` <-> ``QSettings`` (INI file in ``paths.user_config_dir()``). The only place that
knows how settings are stored; the dataclass itself (``review/settings.py``) has no Qt."""
from __future__ import annotations

import json
import os
import time
from dataclasses import asdict
from pathlib import Path

from PySide6.QtCore import QSettings

from ..paths import user_config_dir
from ..review.settings import AppSettings


class SettingsStore:
    """Loads and saves ``AppSettings``. A settings file that cannot be used (not JSON, JSON of the wrong
    shape such as ``[1,2]`` or ``7``, values like ``{"threads": 1e400}``, a folder in place of the file)
    is moved aside as ``settings.ini.corrupt-<time>`` and the app starts on defaults; ``load_message``
    then holds a one-line message for the window to show (``None`` when all was fine)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path else user_config_dir() / "settings.ini"
        self.load_message: str | None = None
        self.load_aside: str | None = None     # file name the corrupt settings were moved to

    def _qs(self) -> QSettings:
        return QSettings(str(self.path), QSettings.Format.IniFormat)

    def _move_aside(self, reason: str) -> None:
        aside = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
        try:
            os.replace(self.path, aside)
            where = f"kept as {aside.name}"
            self.load_aside = aside.name
        except OSError:
            where = "it could not be moved aside"
        self.load_message = (f"The settings could not be read ({reason}); {where}. "
                             "Started with the default settings.")

    def load(self) -> AppSettings:
        self.load_message = self.load_aside = None
        if self.path.is_dir():
            self._move_aside("a folder is in place of the settings file")
            return AppSettings().normalised()
        try:
            raw = self._qs().value("app/json", "")
        except Exception as e:  # noqa: BLE001 - QSettings on a damaged file: never stop the app
            self._move_aside(type(e).__name__)
            return AppSettings().normalised()
        if not raw:
            return AppSettings().normalised()
        try:
            data = json.loads(str(raw))
        except (ValueError, RecursionError) as e:
            self._move_aside("not valid JSON" if isinstance(e, ValueError) else "nested too deeply")
            return AppSettings().normalised()
        settings, problems = AppSettings.from_json(data)
        if problems:
            self._move_aside("; ".join(problems[:3]))
            return AppSettings().normalised()
        return settings

    def save(self, settings: AppSettings) -> None:
        qs = self._qs()
        data = asdict(settings.normalised())
        data["recent_files"] = list(data["recent_files"])
        # one JSON value: QSettings' INI type guessing would turn "0.5" into a string and lists into
        # platform-specific encodings
        qs.setValue("app/json", json.dumps(data, ensure_ascii=False))
        qs.sync()
