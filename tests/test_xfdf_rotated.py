"""XFDF on turned pages (issue 24): a redaction annotation is written in PDF user space (unrotated), where
Acrobat puts it, whatever the page's /Rotate — checked against pdfium's own character boxes — and reading
the XFDF back finds the same characters."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from lxml import etree

from tests.test_ui_pdf_view_zoom import build
from veil_desktop.documents import open_document
from veil_desktop.documents.xfdf import NS, read_xfdf_redactions, xfdf_bytes


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_xfdf_rect_is_in_unrotated_user_space(tmp_path, rotation):
    path = build(tmp_path / f"r{rotation}.pdf", rotation)
    data = path.read_bytes()
    doc = open_document(path)
    start = doc.text.find("홍길동")
    assert start >= 0, doc.text
    xml = xfdf_bytes(doc, data, [(start, start + 3, "PERSON", "")])
    el = etree.fromstring(xml).find(f".//{{{NS}}}redact")
    x0, y0, x1, y1 = (float(v) for v in el.get("rect").split(","))
    pdf = pdfium.PdfDocument(data)
    try:
        tp = pdf[0].get_textpage()
        k = tp.get_text_range().find("홍")
        left, bottom, right, top = tp.get_charbox(k)
    finally:
        pdf.close()
    cx, cy = (left + right) / 2, (bottom + top) / 2
    assert x0 <= cx <= x1 and y0 <= cy <= y1, (rotation, (x0, y0, x1, y1), (left, bottom, right, top))
    assert x1 - x0 < 120 and y1 - y0 < 40            # the value's line, not a page-sized box
    assert read_xfdf_redactions(doc, data, xml) == [(start, start + 3, "PERSON")]
