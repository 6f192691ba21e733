"""Reviewer settings as a typed dataclass with defaults. No Qt: ``ui/settings_store.py`` persists it.

Invariants: every field has a safe default; ``normalised()`` clamps values read from disk, so a
hand-edited or old settings file can never put the app in an invalid state.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..masking import MaskStyle
from .export import PendingPolicy

LANGUAGES = ("ko", "en")
MAX_RECENT = 10


@dataclass(frozen=True)
class AppSettings:
    model_dir: str = ""                 # "" = the embedded default model
    threads: int = 0                    # 0 = let the engine choose (physical cores)
    language: str = "ko"
    default_style: str = MaskStyle.TAG.value
    styles: dict[str, str] = field(default_factory=dict)   # label -> MaskStyle value
    pending_policy: str = PendingPolicy.BLOCK.value
    threshold: float = 0.5
    skip_ids: bool = True               # hide ASCII identifier-like tokens from the model (the card's setting)
    recent_files: tuple[str, ...] = ()

    def engine_threads(self) -> int | None:
        """What to pass to the detector factory: ``None`` lets the engine pick its default."""
        return self.threads if self.threads > 0 else None

    def normalised(self) -> "AppSettings":
        def style(v: str) -> str:
            try:
                return MaskStyle.parse(v).value
            except ValueError:
                return MaskStyle.TAG.value

        try:
            policy = PendingPolicy(self.pending_policy).value
        except ValueError:
            policy = PendingPolicy.BLOCK.value
        return replace(
            self,
            threads=max(0, min(64, int(self.threads))),
            language=self.language if self.language in LANGUAGES else "ko",
            default_style=style(self.default_style),
            styles={str(k): style(v) for k, v in dict(self.styles).items()},
            pending_policy=policy,
            threshold=min(1.0, max(0.0, float(self.threshold))),
            skip_ids=self.skip_ids if isinstance(self.skip_ids, bool) else True,
            recent_files=tuple(str(p) for p in self.recent_files)[:MAX_RECENT],
        )

    def with_recent(self, path: str) -> "AppSettings":
        recent = [path] + [p for p in self.recent_files if p != path]
        return replace(self, recent_files=tuple(recent[:MAX_RECENT]))
