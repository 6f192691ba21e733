"""TXT/CSV documents: encoding cascade, line endings, atomic export, fail-closed leak check, report."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import time
from pathlib import Path

import pytest

from veil_desktop.detect.span import Span
from veil_desktop.documents import (DocumentError, LeakDetected, UnsupportedFormat, export_document,
                                    find_unmasked_copies, open_document, propagate_spans,
                                    supported_suffixes)
from veil_desktop.documents import export as export_mod
from veil_desktop.documents.matching import ValueMatcher, checkable
from veil_desktop.masking import Masker, MaskStyle


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def spans_for(text: str, *values_labels: tuple[str, str]) -> list[Span]:
    out = []
    for value, label in values_labels:
        i = text.find(value)
        while i >= 0:
            out.append(Span(i, i + len(value), label, 0.9, "rule"))
            i = text.find(value, i + len(value))
    return out


KO = "담당자 홍길동 (tel 010-1234-5678), e-mail hong@example.com\r\n주소: 서울특별시 강남구 테헤란로 123\r\n"


def test_cp949_mixed_ascii_korean_round_trip(tmp_path):
    src = tmp_path / "memo.txt"
    src.write_bytes(KO.encode("cp949"))
    before = sha(src)
    doc = open_document(src)
    assert doc.encoding == "cp949"
    assert doc.newline == "\r\n"
    assert doc.text == KO.replace("\r\n", "\n")
    assert [p.name for p in doc.parts] == ["본문"]
    spans = spans_for(doc.text, ("홍길동", "PERSON"), ("010-1234-5678", "PHONE"),
                      ("hong@example.com", "EMAIL"))
    masker = Masker({"PHONE": "partial"}, default="tag")
    (tmp_path / "out").mkdir()
    res = export_document(doc, masker.plan(doc.text, spans), tmp_path / "out" / "memo.txt", styles=masker,
                          detector_id="test-det", threshold=0.5)
    out = (tmp_path / "out" / "memo.txt").read_bytes()
    assert out == ("담당자 [PERSON] (tel 010-****-****), e-mail [EMAIL]\r\n"
                   "주소: 서울특별시 강남구 테헤란로 123\r\n").encode("cp949")
    assert sha(src) == before
    assert res.counts == {"EMAIL": 1, "PERSON": 1, "PHONE": 1}
    assert res.leak_check["result"] == "clean" and res.leak_check["values_checked"] == 3
    report = json.loads(res.report.read_text("utf-8"))
    assert report["input"]["sha256"] == before
    assert report["output"]["sha256"] == hashlib.sha256(out).hexdigest()
    assert report["detector"] == "test-det" and report["threshold"] == 0.5
    # the Masker that built the plan (English tags: Masker's own default) is recorded with its tag language
    assert report["masking"] == {"default": "tag", "per_label": {"PHONE": "partial"}, "tag_language": "en"}
    assert [d["label"] for d in report["decisions"]] == ["PERSON", "PHONE", "EMAIL"]
    raw = res.report.read_text("utf-8")
    for value in ("홍길동", "1234", "5678", "hong@", "example"):
        assert value not in raw


@pytest.mark.parametrize("encoding,bom", [("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"),
                                          ("utf-16-be", b"\xfe\xff"), ("utf-8", b""),
                                          ("utf-16-le", b"")])
def test_unicode_encodings_and_bom_kept(tmp_path, encoding, bom):
    text = "이름,전화\n김철수,010-9876-5432\n"
    src = tmp_path / "list.csv"
    src.write_bytes(bom + text.encode(encoding))
    doc = open_document(src)
    assert doc.text == text and doc.bom == bool(bom) and doc.format == "csv"
    spans = spans_for(text, ("김철수", "PERSON"), ("010-9876-5432", "PHONE"))
    export_document(doc, Masker().plan(text, spans), tmp_path / "list.out.csv")
    assert (tmp_path / "list.out.csv").read_bytes() == bom + "이름,전화\n[PERSON],[PHONE]\n".encode(encoding)


def test_encoding_override_and_bad_override(tmp_path):
    src = tmp_path / "a.txt"
    src.write_bytes("가나다 abc".encode("euc-kr"))
    assert open_document(src, encoding="euc-kr").text == "가나다 abc"
    with pytest.raises(DocumentError, match="not valid utf-8"):
        open_document(src, encoding="utf-8")
    with pytest.raises(DocumentError, match="Unknown text encoding"):
        open_document(src, encoding="no-such-codec")


def test_mixed_line_endings_kept_raw(tmp_path):
    src = tmp_path / "mixed.txt"
    src.write_bytes(b"a 010-1111-2222\r\nb\nc\r")
    doc = open_document(src)
    assert doc.newline is None and doc.text == "a 010-1111-2222\r\nb\nc\r"
    spans = spans_for(doc.text, ("010-1111-2222", "PHONE"))
    export_document(doc, Masker().plan(doc.text, spans), tmp_path / "o.txt")
    assert (tmp_path / "o.txt").read_bytes() == b"a [PHONE]\r\nb\nc\r"


def test_empty_file(tmp_path):
    src = tmp_path / "empty.txt"
    src.write_bytes(b"")
    doc = open_document(src)
    assert doc.text == "" and doc.parts == () and doc.segments == ()
    res = export_document(doc, [], tmp_path / "empty.out.txt")
    assert (tmp_path / "empty.out.txt").read_bytes() == b""
    assert res.replacements == 0 and res.leak_check["values_checked"] == 0


def test_binary_and_unsupported_files_get_clear_errors(tmp_path):
    b = tmp_path / "bin.txt"
    b.write_bytes(b"\x00\x01\x02\xff\xfe\x00\x00\x13" * 100)
    with pytest.raises(DocumentError, match="binary"):
        open_document(b)
    with pytest.raises(UnsupportedFormat, match=r"\.xlsx"):
        open_document(tmp_path / "x.xlsx")
    with pytest.raises(DocumentError, match="does not exist"):
        open_document(tmp_path / "missing.txt")
    assert ".docx" in supported_suffixes() and ".hwp" in supported_suffixes()


def test_refuses_to_overwrite_source_even_via_hard_link(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text("홍길동", encoding="utf-8")
    doc = open_document(src)
    plan = Masker().plan(doc.text, [Span(0, 3, "PERSON")])
    with pytest.raises(DocumentError, match="overwrite the original"):
        export_document(doc, plan, src)
    os.link(src, tmp_path / "link.txt")
    with pytest.raises(DocumentError, match="overwrite the original"):
        export_document(doc, plan, tmp_path / "link.txt")
    assert src.read_text("utf-8") == "홍길동"


def test_source_changed_since_open_is_refused(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text("홍길동 010-1234-5678", encoding="utf-8")
    doc = open_document(src)
    src.write_text("김철수 010-1234-5678", encoding="utf-8")
    with pytest.raises(DocumentError, match="changed on disk"):
        export_document(doc, Masker().plan(doc.text, [Span(0, 3, "PERSON")]), tmp_path / "o.txt")
    assert not (tmp_path / "o.txt").exists()


def test_unmasked_copy_in_text_is_refused_and_propagation_fixes_it(tmp_path):
    text = "홍길동이 왔다. 나중에 홍 길동에게 연락. 번호 010 1234 5678 / 01012345678"
    src = tmp_path / "a.txt"
    src.write_text(text, encoding="utf-8")
    doc = open_document(src)
    spans = [Span(0, 3, "PERSON"), Span(text.index("010 1234"), text.index("010 1234") + 13, "PHONE")]
    plan = Masker().plan(text, spans)
    copies = find_unmasked_copies(text, plan)
    assert [text[a:b] for a, b in copies] == ["홍 길동", "01012345678"]
    with pytest.raises(LeakDetected) as ei:
        export_document(doc, plan, tmp_path / "o.txt")
    assert ei.value.locations[0] == f"본문 at character {copies[0][0]}"
    assert not (tmp_path / "o.txt").exists() and not list(tmp_path.glob(".veil-*"))
    full = propagate_spans(text, spans)
    export_document(doc, Masker().plan(text, full), tmp_path / "o.txt")
    assert (tmp_path / "o.txt").read_text("utf-8") == \
        "[PERSON]이 왔다. 나중에 [PERSON]에게 연락. 번호 [PHONE] / [PHONE]"


def test_writer_leak_is_caught_and_output_deleted(tmp_path, monkeypatch):
    """Fail closed: a (simulated) broken writer that leaves a value in is caught by the re-read."""
    src = tmp_path / "a.txt"
    src.write_text("주민번호 900101-1234567 입니다", encoding="utf-8")
    before = sha(src)
    doc = open_document(src)
    plan = Masker().plan(doc.text, [Span(5, 19, "RRN")])

    def broken_writer(src_fmt, out_fmt):
        # writes the masked text, but in UTF-16 with the value spelled without its hyphen appended
        return lambda d, p, s: ("[RRN] 입니다 " + "9001011234567").encode("utf-16-le")

    monkeypatch.setattr(export_mod, "writer_for", broken_writer)
    with pytest.raises(LeakDetected) as ei:
        export_document(doc, plan, tmp_path / "o.txt")
    assert "utf-16le" in ei.value.locations[0]
    assert "9001011234567" not in str(ei.value)
    assert not (tmp_path / "o.txt").exists() and not (tmp_path / "o.txt.report.json").exists()
    assert not list(tmp_path.glob(".veil-*")) and sha(src) == before


def test_unwritable_output_folder_gives_clear_error_and_writes_nothing(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text("홍길동", encoding="utf-8")
    doc = open_document(src)
    plan = Masker().plan(doc.text, [Span(0, 3, "PERSON")])
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    with pytest.raises(DocumentError, match="not a folder"):
        export_document(doc, plan, not_a_dir / "o.txt")
    (tmp_path / "dir.txt").mkdir()
    with pytest.raises(DocumentError, match="is a folder"):
        export_document(doc, plan, tmp_path / "dir.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "dir.txt", "file"]


def test_disk_full_on_replace_leaves_nothing(tmp_path, monkeypatch):
    src = tmp_path / "a.txt"
    src.write_text("홍길동", encoding="utf-8")
    doc = open_document(src)
    out_dir = tmp_path / "out"
    out_dir.mkdir()

    def full(a, b):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(export_mod.os, "replace", full)
    with pytest.raises(DocumentError, match="disk is full"):
        export_document(doc, Masker().plan(doc.text, [Span(0, 3, "PERSON")]), out_dir / "o.txt")
    assert list(out_dir.iterdir()) == []
    assert src.read_text("utf-8") == "홍길동"


def test_unencodable_replacement_in_source_encoding(tmp_path):
    src = tmp_path / "a.txt"
    src.write_bytes("name: Park".encode("latin-1"))
    doc = open_document(src, encoding="latin-1")
    plan = Masker(default=MaskStyle.PSEUDONYM).plan(doc.text, [Span(6, 10, "PERSON")])  # 인물1
    with pytest.raises(DocumentError, match="latin-1"):
        export_document(doc, plan, tmp_path / "o.txt")
    assert not (tmp_path / "o.txt").exists()


def test_short_values_are_masked_but_counted_unverifiable(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text("김 선생과 이민호 선생", encoding="utf-8")
    doc = open_document(src)
    plan = Masker().plan(doc.text, [Span(0, 1, "PERSON"), Span(6, 9, "PERSON")])
    res = export_document(doc, plan, tmp_path / "o.txt")
    assert (tmp_path / "o.txt").read_text("utf-8") == "[PERSON] 선생과 [PERSON] 선생"
    assert res.leak_check["unverifiable"] == 1 and res.leak_check["values_checked"] == 1


def test_value_matcher_rules():
    m = ValueMatcher(["010-1234-5678", "Kim", "홍길동", "김"])
    assert m.unverifiable == 1  # "김": one syllable
    assert m.search("call 010 1234 5678 now") is not None
    assert m.search("call 0101234-5678") is not None
    assert m.search("x 9010-1234-5678") is None          # digit boundary
    assert m.search("Kimberly") is None and m.search("Mr Kim.") is not None
    assert m.search("홍길동은") is not None and m.search("홍\n길동") is not None
    assert m.search("홍길순") is None
    assert not checkable("12") and checkable("1234") and checkable("이수") and not checkable("Ab")
    # overlapping copies are all reported; a longer value failing a boundary falls back to a shorter one
    assert list(ValueMatcher(["사무", "무관"]).finditer("행정사무관")) == [(2, 4), (3, 5)]
    assert list(ValueMatcher(["무관", "무관0"]).finditer("무관02")) == [(0, 2)]


def test_leak_check_reads_xml_text_and_attributes_not_markup():
    from veil_desktop.documents.leakcheck import LeakReport, _scan_text

    m = ValueMatcher(["schemas", "홍길동", "010-1234-5678"])
    xml = ('<w:document xmlns:w="http://schemas.example/main"><w:p><w:r><w:t>홍</w:t></w:r>'
           '<w:r><w:t>길동</w:t></w:r></w:p></w:document>')
    rep = LeakReport()
    _scan_text("part", xml, m, rep, xml=True)
    assert rep.hits == ["part (text, character 0)"]        # split runs joined; "schemas" URI ignored
    rep = LeakReport()
    _scan_text("part", '<a x="tel:010&#45;1234-5678"/>', m, rep, xml=True)
    assert rep.hits == ["part (attributes, character 4)"]   # attribute value, entity unescaped


def test_ten_megabyte_text_file(tmp_path):
    # one line with PII per 50 lines of ordinary text; 10 MB = 4.4 M characters, under the 5 M limit
    line = "고객 홍길동 님, 연락처 010-2345-6789, 주문번호 A1234 처리 완료.\n"
    filler = "일반 문장이 이어집니다. 회의는 오후 세 시에 시작합니다.\n" * 49
    block = line + filler
    n = 10 * 1024 * 1024 // len(block.encode("utf-8")) + 1
    src = tmp_path / "big.txt"
    src.write_bytes((block * n).encode("utf-8"))
    assert src.stat().st_size >= 10 * 1024 * 1024
    before = sha(src)
    t0 = time.perf_counter()
    doc = open_document(src)
    # spans on the first line; propagation masks every copy (as the batch CLI does)
    spans = propagate_spans(doc.text, spans_for(line, ("홍길동", "PERSON"), ("010-2345-6789", "PHONE")))
    assert len(spans) == 2 * n
    res = export_document(doc, Masker().plan(doc.text, spans), tmp_path / "big.out.txt")
    out = (tmp_path / "big.out.txt").read_bytes()
    assert out == (("고객 [PERSON] 님, 연락처 [PHONE], 주문번호 A1234 처리 완료.\n" + filler)
                   * n).encode("utf-8")
    assert res.leak_check["result"] == "clean" and sha(src) == before
    print(f"10 MB text: open+propagate+export {time.perf_counter() - t0:.1f} s")


def test_mask_copies_option_masks_them_consistently(tmp_path):
    text = "홍길동(010-1234-5678)과 홍길동, 그리고 010 1234 5678"
    src = tmp_path / "a.txt"
    src.write_text(text, encoding="utf-8")
    doc = open_document(src)
    masker = Masker(default=MaskStyle.PSEUDONYM)
    plan = masker.plan(text, [Span(0, 3, "PERSON"), Span(4, 17, "PHONE")])
    res = export_document(doc, plan, tmp_path / "o.txt", mask_copies=True)
    assert (tmp_path / "o.txt").read_text("utf-8") == "인물1(전화1)과 인물1, 그리고 전화1"
    report = json.loads(res.report.read_text("utf-8"))
    assert report["propagated"] == [{"start": 20, "end": 23, "label": "PERSON"},
                                    {"start": 29, "end": 42, "label": "PHONE"}]
    assert res.counts == {"PERSON": 2, "PHONE": 2}


def test_mask_copies_with_overlapping_copies(tmp_path):
    text = "사무 담당, 무관 인원, 행정사무관"
    src = tmp_path / "a.txt"
    src.write_text(text, encoding="utf-8")
    doc = open_document(src)
    plan = Masker().plan(text, [Span(0, 2, "ORGANIZATION"), Span(7, 9, "ORGANIZATION")])
    export_document(doc, plan, tmp_path / "o.txt", mask_copies=True)
    out = (tmp_path / "o.txt").read_text("utf-8")
    assert out == "[ORGANIZATION] 담당, [ORGANIZATION] 인원, 행정[ORGANIZATION]관"
    assert "사무" not in out and "무관" not in out
