"""Disclosure reasons (비공개 사유): why a masked part is withheld, for the decision notice. No Qt.

Korean public bodies withhold parts of a document under 공공기관의 정보공개에 관한 법률 제9조제1항 1호–8호
and state the ground for each withheld part; personal information is 6호, business secrets 7호. A reason is
a code ``"1"`` … ``"8"`` or ``"other:<free text>"`` (기타). Every review item may carry one
(``ReviewItem.reason``); an item without one takes its label's default (:func:`default_reasons`, set in
the settings or ``veil-redact redact --reason LABEL=N``). The export core records the effective reason in
every decision, counts them in the report and writes the redaction log (:func:`redaction_log_csv`:
page/part, label, reason, masked form — never the original value); optionally the reason is printed in the
output beside the tag (:func:`reason_text`: ``[비공개 제9조제1항제6호]`` or ``(6호)``).
"""
from __future__ import annotations

import csv
import io
import re
from typing import Iterable, Mapping

#: 제9조제1항 각 호: (Korean, English) short titles
ARTICLE_9: dict[str, tuple[str, str]] = {
    "1": ("다른 법률 또는 법률이 위임한 명령에 따라 비밀·비공개로 규정된 정보", "secret under another law"),
    "2": ("국가안전보장·국방·통일·외교관계 등에 관한 사항", "national security, defence, unification, diplomacy"),
    "3": ("국민의 생명·신체 및 재산의 보호에 현저한 지장을 초래할 우려가 있는 정보",
          "risk to life, body or property"),
    "4": ("진행 중인 재판·범죄의 예방·수사 등에 관한 사항", "trials, crime prevention and investigation"),
    "5": ("감사·감독·검사·시험·규제·입찰계약·기술개발·인사관리·의사결정 과정 등에 관한 사항",
          "audits, inspections, tenders, personnel, decisions in progress"),
    "6": ("성명·주민등록번호 등 개인에 관한 사항(개인정보)", "personal information (names, ID numbers, …)"),
    "7": ("법인·단체 또는 개인의 경영상·영업상 비밀에 관한 사항", "business or trade secrets"),
    "8": ("부동산 투기·매점매석 등으로 특정인에게 이익 또는 불이익을 줄 우려가 있는 정보",
          "speculation, hoarding: undue advantage or harm"),
}
OTHER_PREFIX = "other:"
MAX_OTHER_CHARS = 120

#: labels whose values are personal information: 6호 by default. Organisation names and business or
#: corporate registration numbers have no default (7호 or none: the user decides).
_NO_DEFAULT = frozenset({"ORGANIZATION", "BUSINESS_REG", "CORP_REG"})

_CODE = re.compile(r"^\s*(?:제\s*)?([1-8])\s*(?:호)?\s*$")


class ReasonError(ValueError):
    ui_key = "error.reason"


def normalize_reason(value: object) -> str | None:
    """``"6"``, ``"6호"``, ``"제6호"`` -> ``"6"``; ``"기타: …"`` / ``"other: …"`` -> ``"other:…"``;
    ``None``/``""``/``"none"`` -> ``None``. Raises ``ReasonError`` for anything else."""
    if value is None:
        return None
    s = str(value).strip()
    if not s or s.lower() in ("none", "없음", "-"):
        return None
    m = _CODE.match(s)
    if m:
        return m.group(1)
    for prefix in ("기타:", "기타 :", "other:", "Other:", "OTHER:"):
        if s.startswith(prefix):
            text = " ".join(s[len(prefix):].split())
            if not text:
                raise ReasonError("기타 사유에 내용이 없습니다 / the 'other' reason has no text")
            if len(text) > MAX_OTHER_CHARS:
                raise ReasonError(f"기타 사유는 {MAX_OTHER_CHARS}자 이하 / at most {MAX_OTHER_CHARS} characters")
            return OTHER_PREFIX + text
    raise ReasonError(f"알 수 없는 비공개 사유 {s!r:.40} (1–8 또는 기타:내용) / unknown reason "
                      "(1-8 or other:TEXT)")


def default_reasons(labels: Iterable[str] | None = None) -> dict[str, str | None]:
    """Label -> default reason: ``"6"`` for personal identifiers, ``None`` for organisations and business
    or corporate registration numbers."""
    from ..labels import LABELS

    names = list(labels) if labels is not None else list(LABELS)
    return {n: (None if n in _NO_DEFAULT else "6") for n in names}


def parse_reason_args(values: Iterable[str]) -> dict[str, str | None]:
    """``["PERSON=6", "ORGANIZATION=7", "PHONE=none"]`` -> overrides of :func:`default_reasons`."""
    out: dict[str, str | None] = {}
    for v in values:
        label, sep, code = v.partition("=")
        if not sep or not label.strip():
            raise ReasonError(f"--reason {v!r}: expected LABEL=N (N = 1-8, other:TEXT or none)")
        out[label.strip().upper()] = normalize_reason(code)
    return out


def effective_reason(item_reason: str | None, label: str, defaults: Mapping[str, str | None]) -> str | None:
    return item_reason if item_reason else defaults.get(label)


def reason_text(code: str | None, style: str = "long", lang: str = "ko") -> str:
    """The reason as printed in the output: ``long`` -> ``[비공개 제9조제1항제6호]`` / ``[withheld: Art. 9(1)
    item 6]``, ``short`` -> ``(6호)`` / ``(item 6)``; ``other:…`` -> ``[비공개: …]`` / ``(기타)``."""
    if not code:
        return ""
    if code.startswith(OTHER_PREFIX):
        what = code[len(OTHER_PREFIX):]
        if style == "short":
            return "(기타)" if lang == "ko" else "(other)"
        return f"[비공개: {what}]" if lang == "ko" else f"[withheld: {what}]"
    if style == "short":
        return f"({code}호)" if lang == "ko" else f"(item {code})"
    return f"[비공개 제9조제1항제{code}호]" if lang == "ko" else f"[withheld: Art. 9(1) item {code}]"


def reason_title(code: str | None, lang: str = "ko") -> str:
    if not code:
        return ""
    if code.startswith(OTHER_PREFIX):
        return ("기타: " if lang == "ko" else "other: ") + code[len(OTHER_PREFIX):]
    ko, en = ARTICLE_9[code]
    return f"제9조제1항제{code}호 {ko}" if lang == "ko" else f"Art. 9(1) item {code}: {en}"


LOG_COLUMNS_KO = ("번호", "위치", "시작", "끝", "항목", "비공개 사유", "사유 내용", "가림 표시")
LOG_COLUMNS_EN = ("no", "where", "start", "end", "label", "reason", "reason text", "masked as")


def redaction_log_csv(rows: Iterable[Mapping[str, object]], lang: str = "ko") -> bytes:
    """The redaction log as CSV (UTF-8 with BOM, so Excel opens Korean text): one row per masked part —
    ``where`` (page or part name), offsets, label (display name), reason code and title, the masked form.
    The original value is never in it (the rows carry none)."""
    from ..labels import display_name

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(LOG_COLUMNS_KO if lang == "ko" else LOG_COLUMNS_EN)
    for n, r in enumerate(rows, 1):
        code = r.get("reason")
        w.writerow([n, r.get("where", ""), r.get("start"), r.get("end"), display_name(str(r.get("label")), lang),
                    (f"{code}호" if code and not str(code).startswith(OTHER_PREFIX) else ("기타" if code else ""))
                    if lang == "ko" else (code or ""),
                    reason_title(code, lang), r.get("masked", "")])
    return ("\ufeff" + buf.getvalue()).encode("utf-8")


def log_path_for(out_path):
    return out_path.with_name(out_path.name + ".redaction-log.csv")
