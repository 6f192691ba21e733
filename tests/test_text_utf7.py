"""UTF-7 text files (RFC 2152; red team 7 5a): every value of a memo in UTF-7 shifted blocks (``+vQnMRLmw-``).

Strict UTF-8 decodes such a file (it is all ASCII), so the detector read base64 and masked pieces of it,
leaving the name readable to any viewer that decodes UTF-7. It is now read as UTF-7 (by its byte-order mark,
or because its shifted blocks decode to Hangul) and written back as UTF-8. ASCII text with plus signs is left
alone.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from veil_desktop.cli import main
from veil_desktop.documents.textfile import decode_bytes

MEMO = "민원 상담 메모\n신청인 한지민\n주민등록번호 920415-2345678\n연락처 010-4821-7395\n회신 메일 jimin.han@example.com\n"


@pytest.mark.parametrize("bom", [True, False])
def test_utf7_memo_is_read_and_published_as_utf8_masked(tmp_path: Path, capsys, bom):
    data = (("\ufeff" if bom else "") + MEMO).encode("utf-7")
    assert data.isascii() and b"\xed" not in data
    text, codec, had_bom = decode_bytes(data)
    assert text == MEMO and codec == "utf-7" and had_bom == bom
    src = tmp_path / "in"
    src.mkdir()
    (src / "memo.txt").write_bytes(data)
    out = tmp_path / "out"
    assert main(["redact", str(src), "--out", str(out), "--threads", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert (src / "memo.txt").read_bytes() == data                     # the original is untouched
    result = (out / "memo.txt").read_bytes().decode("utf-8")          # written as UTF-8
    assert result.startswith("민원 상담 메모\n신청인 [인명]\n"), result
    for v in ("한지민", "지민", "920415", "2345678", "4821", "7395", "jimin", "example.com"):
        assert v not in result, (v, result)
    # and nothing of it in UTF-7 either
    assert "한지민" not in (out / "memo.txt").read_bytes().decode("utf-7", errors="replace")


@pytest.mark.parametrize("data", [
    b"C++ and a+b-c; call +82-10-4821-7395 or +821048217395\n",
    b"score +abc- +Zm9v- +YmFy- results\n",                    # blocks that decode to no Hangul
    b"plain ASCII text without any shift\n",
])
def test_ascii_with_plus_signs_is_not_utf7(data):
    text, codec, _ = decode_bytes(data)
    assert codec == "utf-8" and text == data.decode("ascii")


def test_broken_utf7_after_its_bom_is_refused_with_a_message():
    from veil_desktop.documents.errors import DocumentError
    from veil_desktop.ui.i18n import document_error_text

    with pytest.raises(DocumentError) as e:
        decode_bytes(b"+/v8-+AGE\xff-")
    assert "UTF-7" in str(e.value)
    assert "UTF-7" in document_error_text(str(e.value), "ko") and "올바른" in document_error_text(str(e.value), "ko")
