"""The veil label order (config.json ``id2label``) and allowed-tag bitmasks used by the training loss."""
from __future__ import annotations

ENTITY_TYPES = ("PERSON", "ADDRESS", "ORGANIZATION")
#: id -> tag, exactly the veil model family's order: O; B/I/E/S-PERSON; B/I/E/S-ADDRESS; B/I/E/S-ORGANIZATION.
LABELS: tuple[str, ...] = ("O",) + tuple(f"{p}-{t}" for t in ENTITY_TYPES for p in "BIES")
N_LABELS = len(LABELS)


def tag_mask(prefix: str, label: str) -> int:
    return 1 << LABELS.index(f"{prefix}-{label}")


O_MASK = 1
ALL_ORG_MASK = sum(tag_mask(p, "ORGANIZATION") for p in "BIES")
ANY_MASK = (1 << N_LABELS) - 1
