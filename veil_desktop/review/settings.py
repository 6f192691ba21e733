"""Reviewer settings as a typed dataclass with defaults. No Qt: ``ui/settings_store.py`` persists it.

Invariants: every field has a safe default; ``normalised()`` clamps values read from disk and never
raises (a value of the wrong type falls back to its default), so a hand-edited or old settings file can
never put the app in an invalid state; ``from_json`` also reports what was wrong, so the store can move
a corrupt file aside and tell the user.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace

from ..detect.span import DEFAULT_MIN_SCORE
from ..masking import DEFAULT_MASK_STYLE, MaskStyle
from .export import PendingPolicy

LANGUAGES = ("ko", "en")
MAX_RECENT = 10


@dataclass(frozen=True)
class AppSettings:
    model_dir: str = ""                 # "" = the embedded default model
    threads: int = 0                    # 0 = let the engine choose (physical cores)
    language: str = "ko"
    default_style: str = DEFAULT_MASK_STYLE.value   # the same default as veil-redact redact
    styles: dict[str, str] = field(default_factory=dict)   # label -> MaskStyle value
    pending_policy: str = PendingPolicy.BLOCK.value
    threshold: float = DEFAULT_MIN_SCORE
    skip_ids: bool = True               # hide ASCII identifier-like tokens from the model (the card's setting)
    recent_files: tuple[str, ...] = ()
    # disclosure workflow (issue 24, ui/tools/disclosure.py): the reviewer's name stamped on decisions,
    # default 비공개 사유 per label over review.reasons.default_reasons() (code or "none"), the reason
    # printed in the output ("", "long", "short") and whether the redaction log is written
    reviewer: str = ""
    reasons: dict[str, str] = field(default_factory=dict)
    reason_in_output: str = ""
    redaction_log: bool = False

    def engine_threads(self) -> int | None:
        """What to pass to the detector factory: ``None`` lets the engine pick its default."""
        return self.threads if self.threads > 0 else None

    def reason_defaults(self) -> dict[str, str | None]:
        """Label -> default disclosure reason: ``review.reasons.default_reasons()`` with this user's choices."""
        from .reasons import default_reasons

        out = default_reasons()
        out.update({k: (None if v == "none" else v) for k, v in self.reasons.items()})
        return out

    def disclosure_fields(self) -> dict:
        """The ``ExportRequest`` fields every export from the window takes from these settings (a single
        export and export all alike): reasons, codes in the output, redaction log, reviewer."""
        return {"reasons": self.reason_defaults(), "reason_in_output": self.reason_in_output,
                "redaction_log": self.redaction_log, "reviewer": self.reviewer}

    def normalised(self) -> "AppSettings":
        return _normalise(self, [])

    @classmethod
    def from_json(cls, data: object) -> tuple["AppSettings", list[str]]:
        """Settings from a decoded JSON value, and the problems found (``[]`` = all fine). Never raises:
        a value that is not an object gives the defaults; a bad field gives that field's default."""
        if not isinstance(data, dict):
            return cls(), [f"the stored settings are a JSON {type(data).__name__}, not an object"]
        known = {f.name for f in fields(cls)}
        problems: list[str] = []
        raw = cls.__new__(cls)
        defaults = cls()
        for f in fields(cls):
            object.__setattr__(raw, f.name, data.get(f.name, getattr(defaults, f.name))
                               if f.name in known else getattr(defaults, f.name))
        return _normalise(raw, problems), problems

    def with_recent(self, path: str) -> "AppSettings":  # noqa: D401
        recent = [path] + [p for p in self.recent_files if p != path]
        return replace(self, recent_files=tuple(recent[:MAX_RECENT]))


def _normalise(s: AppSettings, problems: list[str]) -> AppSettings:
    """Every field checked on its own; a value of the wrong type or out of range falls back (to the
    default, or clamped) and is noted in ``problems``."""
    d = AppSettings()

    def bad(name: str) -> None:
        problems.append(f"'{name}' had an invalid value")

    def style(v) -> str:
        try:
            return MaskStyle.parse(v).value
        except (ValueError, TypeError, AttributeError):
            return DEFAULT_MASK_STYLE.value

    def number(name: str, v, lo: float, hi: float, default):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            bad(name)
            return default
        return min(hi, max(lo, v))

    model_dir = s.model_dir if isinstance(s.model_dir, str) else (bad("model_dir") or d.model_dir)
    threads = int(number("threads", s.threads, 0, 64, d.threads))
    language = s.language if s.language in LANGUAGES else (d.language if isinstance(s.language, str)
                                                           else bad("language") or d.language)
    try:
        policy = PendingPolicy(s.pending_policy).value
    except (ValueError, TypeError):
        policy = PendingPolicy.BLOCK.value
    styles = s.styles if isinstance(s.styles, dict) else (bad("styles") or {})
    recent = s.recent_files
    if isinstance(recent, (list, tuple)) and all(isinstance(p, str) for p in recent):
        recent = tuple(recent)[:MAX_RECENT]
    else:
        bad("recent_files")
        recent = ()
    return replace(
        s,
        model_dir=model_dir,
        threads=threads,
        language=language,
        default_style=style(s.default_style),
        styles={str(k): style(v) for k, v in styles.items()},
        pending_policy=policy,
        threshold=float(number("threshold", s.threshold, 0.0, 1.0, d.threshold)),
        skip_ids=s.skip_ids if isinstance(s.skip_ids, bool) else (bad("skip_ids") or True),
        recent_files=recent,
        reviewer=" ".join(s.reviewer.split())[:80] if isinstance(s.reviewer, str) else (bad("reviewer") or ""),
        reasons=_reasons(s.reasons, bad),
        reason_in_output=s.reason_in_output if s.reason_in_output in ("", "long", "short")
        else (bad("reason_in_output") or ""),
        redaction_log=s.redaction_log if isinstance(s.redaction_log, bool) else (bad("redaction_log") or False),
    )


def _reasons(v, bad) -> dict[str, str]:
    """label -> reason code (``review.reasons.normalize_reason`` form) or "none"; bad entries dropped."""
    from .reasons import ReasonError, normalize_reason

    if not isinstance(v, dict):
        bad("reasons")
        return {}
    out = {}
    for k, code in v.items():
        try:
            out[str(k)] = normalize_reason(code) or "none"
        except ReasonError:
            bad("reasons")
    return out
