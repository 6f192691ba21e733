"""Per-label colours and the three status looks (pending / accepted / rejected). No widgets."""
from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QTextCharFormat

from ..review.state import Status

_PALETTE = {
    "PERSON": "#e6553a",
    "ADDRESS": "#2f8fd8",
    "ORGANIZATION": "#8e5bd6",
    "PHONE": "#1fa37a",
    "RRN": "#d6336c",
    "FOREIGNER_RN": "#c2255c",
    "EMAIL": "#f08c00",
    "CARD": "#5c7cfa",
    "ACCOUNT": "#0c8599",
    "BUSINESS_REG": "#66a80f",
    "CORP_REG": "#5f3dc4",
    "PASSPORT": "#e8590c",
    "DRIVER_LICENSE": "#1971c2",
    "VEHICLE": "#2b8a3e",
    "IP": "#868e96",
    "POSTAL_CODE": "#a61e4d",
    "OTHER": "#495057",
}


def label_color(label: str) -> QColor:
    hexa = _PALETTE.get(label)
    if hexa is None:  # a model folder may bring its own labels: derive a stable colour from the name
        h = sum(ord(c) * 131 for c in label) % 360
        return QColor.fromHsv(h, 170, 200)
    return QColor(hexa)


def tinted(color: QColor, alpha: int) -> QColor:
    c = QColor(color)
    c.setAlpha(alpha)
    return c


class FormatCache:
    """``QTextCharFormat`` per (label, status), built once.

    pending  = light tint + solid underline in the label colour (a suggestion, not yet decided);
    accepted = filled with the label colour, bold (will be masked);
    rejected = grey struck-through text, no fill (will stay).
    """

    def __init__(self) -> None:
        self._cache: dict[tuple[str, Status], QTextCharFormat] = {}

    def get(self, label: str, status: Status) -> QTextCharFormat:
        key = (label, status)
        fmt = self._cache.get(key)
        if fmt is None:
            fmt = self._cache[key] = self._build(label, status)
        return fmt

    @staticmethod
    def _build(label: str, status: Status) -> QTextCharFormat:
        color = label_color(label)
        fmt = QTextCharFormat()
        if status is Status.PENDING:
            fmt.setBackground(tinted(color, 45))
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
            fmt.setUnderlineColor(color)
            fmt.setFontUnderline(True)
        elif status is Status.ACCEPTED:
            fmt.setBackground(tinted(color, 170))
            fmt.setForeground(QColor("#111111"))
            fmt.setFontWeight(QFont.Weight.Bold)
        else:
            fmt.setForeground(QColor("#9a9a9a"))
            fmt.setFontStrikeOut(True)
        return fmt
