"""XFDF redaction annotations for a PDF's review (issue 24): export them so Acrobat (or any XFDF reader)
shows every masked item as a *redact* annotation, and import them back as review spans. No Qt.

XFDF (ISO 19444-1) is XML in the namespace ``http://ns.adobe.com/xfdf/``; a redaction is an
``<annots><redact …/></annots>`` element with ``page`` (0-based), ``rect`` (x1,y1,x2,y2 in PDF user space,
origin bottom-left) and ``coords`` (quadrilaterals, 8 numbers each: x1,y1 x2,y2 x3,y3 x4,y4 = upper-left,
upper-right, lower-left, lower-right, as Acrobat writes them), ``name`` (unique), ``title`` (author),
``subject``, ``creationdate`` (``D:YYYYMMDDHHmmSS``), ``interior-color``, ``overlay-text``. We write the
label in ``subject`` as ``veil:LABEL`` and the disclosure reason as ``overlay-text`` (``(6호)``); the
value itself is never written. Boxes come from the reviewed PDF's character boxes
(``documents.pdf.char_boxes``/``span_rects``), so they sit where the value's glyphs are.
"""
from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Iterable

from lxml import etree

from .model import Document

NS = "http://ns.adobe.com/xfdf/"


def _pdf_date(t: float) -> str:
    return time.strftime("D:%Y%m%d%H%M%S", time.gmtime(t)) + "Z"


def xfdf_bytes(doc: Document, source: bytes, items: Iterable[tuple[int, int, str, str]], *,
               author: str = "", pdf_name: str | None = None) -> bytes:
    """XFDF with one ``redact`` annotation per item ``(start, end, label, overlay_text)`` that has boxes
    on a page (an item on no page gets none). ``source``: the PDF's bytes as reviewed."""
    from .pdf import char_boxes, span_rects

    pages = char_boxes(doc, source)
    size = {pb.page: (pb.width, pb.height) for pb in pages}
    root = etree.Element(f"{{{NS}}}xfdf", nsmap={None: NS})
    root.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    annots = etree.SubElement(root, f"{{{NS}}}annots")
    now = _pdf_date(time.time())
    for start, end, label, overlay in items:
        rects = span_rects(pages, start, end)
        if not rects:
            continue
        page = rects[0][0]
        on_page = [r for p, r in rects if p == page]
        h = size[page][1]
        quads, xs, ys = [], [], []
        for x0, y0, x1, y1 in on_page:       # top-left origin -> PDF user space (bottom-left)
            top, bottom = h - y0, h - y1
            quads += [x0, top, x1, top, x0, bottom, x1, bottom]
            xs += [x0, x1]
            ys += [top, bottom]
        el = etree.SubElement(annots, f"{{{NS}}}redact")
        el.set("page", str(page))
        el.set("rect", ",".join(f"{v:.2f}" for v in (min(xs), min(ys), max(xs), max(ys))))
        el.set("coords", ",".join(f"{v:.2f}" for v in quads))
        el.set("name", str(uuid.uuid4()))
        el.set("title", author)
        el.set("subject", f"veil:{label}")
        el.set("creationdate", now)
        el.set("date", now)
        el.set("interior-color", "#000000")
        el.set("color", "#FF0000")
        if overlay:
            el.set("overlay-text", overlay)
    if pdf_name:
        etree.SubElement(root, f"{{{NS}}}f", href=pdf_name)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def read_xfdf_redactions(doc: Document, source: bytes, data: bytes) -> list[tuple[int, int, str]]:
    """``(start, end, label)`` text spans under the ``redact`` annotations of an XFDF file: the characters
    whose box centre lies inside an annotation's quadrilaterals (or its rect), one span per annotation
    (label from ``subject`` ``veil:LABEL``, else ``OTHER``)."""
    from .pdf import char_boxes

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        from .errors import DocumentError

        raise DocumentError(f"XFDF 파일을 읽을 수 없습니다 / not a readable XFDF file ({e.msg})") from None
    pages = {pb.page: pb for pb in char_boxes(doc, source)}
    out = []
    for el in root.iter(f"{{{NS}}}redact"):
        try:
            pb = pages[int(el.get("page", "-1"))]
            nums = [float(v) for v in (el.get("coords") or el.get("rect") or "").split(",") if v.strip()]
        except (KeyError, ValueError):
            continue
        h = pb.height
        boxes = []
        if el.get("coords") and len(nums) % 8 == 0:
            for k in range(0, len(nums), 8):
                q = nums[k:k + 8]
                boxes.append((min(q[0::2]), h - max(q[1::2]), max(q[0::2]), h - min(q[1::2])))
        elif len(nums) == 4:
            boxes.append((nums[0], h - nums[3], nums[2], h - nums[1]))
        hit = [pb.start + k for k, b in enumerate(pb.boxes) if b is not None and pb.start >= 0
               and any(x0 <= (b[0] + b[2]) / 2 <= x1 and y0 <= (b[1] + b[3]) / 2 <= y1 for x0, y0, x1, y1 in boxes)]
        if hit:
            subject = el.get("subject") or ""
            label = subject[5:] if subject.startswith("veil:") and subject[5:] else "OTHER"
            out.append((min(hit), max(hit) + 1, label))
    return out


def write_xfdf(path: Path, data: bytes) -> None:
    from .export import _write_atomic

    _write_atomic(Path(path), data)
