"""The ``txt`` writer every format shares: UTF-8 text of the masked reviewable text (part headers
included), removed parts left out, caption details naming a person dropped."""
from __future__ import annotations

from ...masking import Replacement, apply_replacements
from ..model import Document


def plain_text_export(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    """Any document -> UTF-8 text of the masked reviewable text (part headers included). Parts marked
    ``removed`` (tracked deletions, author fields: shown for review, never written) are left out."""
    # a caption naming a person (a comment's author) is shown for review only: like the author attribute
    # in the document itself, it is not written ("[Comment 박지성]" -> "[Comment]")
    from ..model import caption_text

    taken = sorted((r.start, r.end) for r in plan)
    extra = []
    for c in getattr(doc, "captions", ()):
        if c.detail and not c.detail.isdigit() and not any(a < c.end and c.start < b for a, b in taken):
            extra.append(Replacement(c.start, c.end, caption_text(c.key, ""), ""))
    if extra:
        plan = sorted(list(plan) + extra, key=lambda r: r.start)
    removed = sorted((p.start, p.end) for p in doc.parts if p.removed)
    if removed:
        keep, pos = [], 0
        for a, b in removed:
            if a > pos:
                keep.append((pos, a))
            pos = max(pos, b)
        if pos < len(doc.text):
            keep.append((pos, len(doc.text)))
        pieces = []
        for a, b in keep:
            local = [Replacement(max(r.start, a) - a, min(r.end, b) - a, r.text, r.label)
                     for r in plan if r.start < b and r.end > a]
            pieces.append(apply_replacements(doc.text[a:b], local))
        text = "".join(pieces)
    else:
        text = apply_replacements(doc.text, plan)
    return text.replace("\n", "\r\n" if doc.newline == "\r\n" else "\n").encode("utf-8")
