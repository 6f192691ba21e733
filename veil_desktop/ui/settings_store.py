"""``AppSettings`` <-> ``QSettings`` (INI file in ``paths.user_config_dir()``). The only place that
knows how settings are stored; the dataclass itself (``review/settings.py``) has no Qt."""
from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path

from PySide6.QtCore import QSettings

from ..paths import user_config_dir
from ..review.settings import AppSettings


class SettingsStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path else user_config_dir() / "settings.ini"

    def _qs(self) -> QSettings:
        return QSettings(str(self.path), QSettings.Format.IniFormat)

    def load(self) -> AppSettings:
        qs = self._qs()
        raw = qs.value("app/json", "")
        if not raw:
            return AppSettings().normalised()
        try:
            data = json.loads(str(raw))
            known = {f.name for f in fields(AppSettings)}
            data = {k: v for k, v in data.items() if k in known}
            if "recent_files" in data:
                data["recent_files"] = tuple(data["recent_files"])
            return AppSettings(**data).normalised()
        except (ValueError, TypeError):
            return AppSettings().normalised()  # unreadable settings never stop the app

    def save(self, settings: AppSettings) -> None:
        qs = self._qs()
        data = asdict(settings.normalised())
        data["recent_files"] = list(data["recent_files"])
        # one JSON value: QSettings' INI type guessing would turn "0.5" into a string and lists into
        # platform-specific encodings
        qs.setValue("app/json", json.dumps(data, ensure_ascii=False))
        qs.sync()
