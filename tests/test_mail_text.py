"""An e-mail saved as .txt (issue 26, red team 6 class 5a/6c): headers with RFC 2047 encoded-words in
ks_c_5601-1987 (CP949), a quoted-printable body with a soft line break inside a phone number, a base64
EUC-KR text attachment, a binary attachment. The file is read as the decoded mail, the detectors read the
decoded text, and the export is the decoded, masked text; ordinary text is not taken for a mail."""
from __future__ import annotations

import base64
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.mime.text import MIMEText

import pytest

from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.span import Span
from veil_desktop.documents import export_document, open_document
from veil_desktop.documents import mail as mail_mod
from veil_desktop.masking import Masker

NAME = "이똠희"                 # 똠: a CP949 syllable that strict EUC-KR cannot encode
RRN = "890613-1607595"
PHONE = "010-9899-4962"
MAIL = "bluepine.lim@example.org"
ACCOUNT = "496736-02-149361"
PDF_SECRET = b"%PDF-1.4 secret 900101-1234567"


def ew(text: str, charset: str = "ks_c_5601-1987") -> str:
    """An RFC 2047 B encoded-word; Korean labels carry CP949 bytes, as Outlook writes them."""
    codec = "cp949" if charset.lower().startswith(("ks_c", "euc")) else charset
    return f"=?{charset}?B?{base64.b64encode(text.encode(codec)).decode()}?="


def qp_with_soft_break_in(text: str, value: str) -> str:
    """``text`` in quoted-printable (UTF-8) with a soft line break ``=\\n`` in the middle of ``value``."""
    import quopri

    enc = quopri.encodestring(text.encode("utf-8")).decode()
    i = enc.index(value) + len(value) // 2
    return enc[:i] + "=\n" + enc[i:]


def build_mail(binary: bool = True) -> bytes:
    msg = MIMEMultipart()
    msg["From"] = f'"{ew(NAME)}" <{MAIL}>'
    msg["To"] = f"{ew('민원지원팀', 'utf-8')} <team@example.go.kr>"
    msg["Subject"] = ew("민원 회신 자료")
    msg["Date"] = "Mon, 3 Nov 2025 14:12:09 +0900"
    msg["Message-ID"] = "<20251103.secret-trace@mail.example.org>"
    body = MIMENonMultipart("text", "plain", charset="utf-8")
    body["Content-Transfer-Encoding"] = "quoted-printable"
    body.set_payload(qp_with_soft_break_in(f"안녕하십니까.\n연락처: {PHONE}\n계좌: 국민 {ACCOUNT}\n", PHONE))
    msg.attach(body)
    att = MIMENonMultipart("text", "plain", charset="euc-kr")
    att["Content-Transfer-Encoding"] = "base64"
    att.set_payload(base64.encodebytes(f"민원 신청인 정보\r\n주민등록번호: {RRN}\r\n".encode("cp949")).decode())
    att.add_header("Content-Disposition", "attachment", filename=ew("신청인.txt", "euc-kr"))
    msg.attach(att)
    if binary:
        pdf = MIMEApplication(PDF_SECRET, "pdf")
        pdf.add_header("Content-Disposition", "attachment", filename="scan.pdf")
        msg.attach(pdf)
    return msg.as_bytes().replace(b"\n", b"\r\n")


def spans_of(text: str) -> list[Span]:
    spans = [s for s in RuleDetector(entities=True).detect(text)]
    i = text.index(NAME)
    return spans + [Span(i, i + len(NAME), "PERSON")]


def test_strict_euc_kr_cannot_read_the_name_but_the_mail_reader_can():
    with pytest.raises(UnicodeDecodeError):
        NAME.encode("cp949").decode("euc_kr")          # Python's codec for both labels fails on it
    assert mail_mod.codec_for("ks_c_5601-1987") == mail_mod.codec_for("EUC-KR") == "cp949"
    assert mail_mod.decode_header_value(f'"{ew(NAME)}" <a@b.kr>'.encode()) == f'"{NAME}" <a@b.kr>'
    # adjacent encoded-words: the white space between them is not text (RFC 2047 6.2)
    assert mail_mod.decode_header_value(f"{ew('민원')} {ew('회신')}".encode()) == "민원회신"


def test_mail_is_read_decoded(tmp_path):
    src = tmp_path / "saved_mail.txt"
    src.write_bytes(build_mail())
    doc = open_document(src)
    assert not doc.needs_review, doc.unreadable
    assert doc.extra.get("mail") is True
    assert f'From: "{NAME}" <{MAIL}>' in doc.text
    assert "Subject: 민원 회신 자료" in doc.text and "To: 민원지원팀 <team@example.go.kr>" in doc.text
    assert f"연락처: {PHONE}\n" in doc.text                    # the QP soft break is gone
    assert f"주민등록번호: {RRN}" in doc.text and "신청인.txt\n" in doc.text
    assert "Message-ID" not in doc.text and "secret-trace" not in doc.text   # headers not shown
    assert "=?" not in doc.text and "PDF" not in doc.text.replace("application/pdf", "")
    assert "── Attachment 2 (removed) ──\nscan.pdf (application/pdf, 30 bytes)" in doc.text
    keys = [c.key for c in doc.captions]
    assert keys == ["mail_headers", "body", "attachment", "attachment_removed"]
    for c in doc.captions:
        assert doc.text[c.start:c.end] in ("Mail headers", "Body", "Attachment 1", "Attachment 2 (removed)")


def test_export_is_the_decoded_masked_text(tmp_path):
    src = tmp_path / "saved_mail.txt"
    data = build_mail()
    assert PHONE.encode() not in data and RRN.encode() not in data     # encoded in the source
    src.write_bytes(data)
    doc = open_document(src)
    spans = spans_of(doc.text)
    found = {doc.text[s.start:s.end] for s in spans}
    assert {PHONE, RRN, MAIL, NAME} <= found                  # the detectors read the decoded text
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "saved_mail.txt"
    res = export_document(doc, Masker().plan(doc.text, spans), out)
    assert res.leak_check["result"] == "clean" and res.leak_check["values_checked"] >= 5
    written = out.read_bytes()
    assert written.count(b"\r\n") > 5 and b"\n" not in written.replace(b"\r\n", b"")   # CRLF kept
    text = written.decode("utf-8")
    for value in (NAME, RRN, PHONE, MAIL, ACCOUNT, "1607595", "9899"):
        assert value not in text, value
    assert "민원 신청인 정보" in text and "Subject: 민원 회신 자료" in text
    # nothing encoded is published: no base64 of the attachment, no PDF bytes, no hidden header
    assert "=?" not in text and "secret" not in text and "900101" not in text
    assert base64.b64encode(PDF_SECRET)[:20].decode() not in text


def test_base64_hangul_attachment_no_longer_holds_an_ordinary_mail(tmp_path):
    """6c: a meeting notice whose base64 attachment decodes to Hangul is not a false alarm."""
    msg = MIMEMultipart()
    msg["From"] = f'"{ew("총무과")}" <admin@example.go.kr>'
    msg["Subject"] = ew("[공지] 운영회의 개최 안내")
    msg["Date"] = "Mon, 10 Nov 2025 09:30:00 +0900"
    msg.attach(MIMEText("운영회의를 아래와 같이 개최합니다.\n", "plain", "utf-8"))
    att = MIMENonMultipart("text", "plain", charset="euc-kr")
    att["Content-Transfer-Encoding"] = "base64"
    att.set_payload(base64.encodebytes("1. 4분기 민원 처리 실적 보고\r\n2. 기타 안건\r\n".encode("cp949")).decode())
    att.add_header("Content-Disposition", "attachment", filename="agenda.txt")
    msg.attach(att)
    src = tmp_path / "meeting.txt"
    src.write_bytes(msg.as_bytes())
    doc = open_document(src)
    assert not doc.needs_review
    assert "1. 4분기 민원 처리 실적 보고" in doc.text and "운영회의를 아래와 같이" in doc.text


def test_base64_inside_a_decoded_part_still_holds(tmp_path):
    hidden = base64.b64encode(f"주민등록번호 {RRN}".encode()).decode()
    msg = MIMEMultipart()
    msg["From"] = "a@example.org"
    msg["Subject"] = "note"
    msg["Date"] = "Mon, 10 Nov 2025 09:30:00 +0900"
    msg.attach(MIMEText(f"see {hidden}\n", "plain", "utf-8"))
    src = tmp_path / "m.txt"
    src.write_bytes(msg.as_bytes())
    doc = open_document(src)
    assert doc.extra.get("mail") and any(u.reason == "encoded_text" for u in doc.unreadable)


@pytest.mark.parametrize("damage", ["bad_base64", "bad_charset", "unknown_cte"])
def test_a_mail_that_cannot_be_decoded_is_held(tmp_path, damage):
    data = build_mail(binary=False)
    if damage == "bad_base64":
        head, sep, tail = data.rpartition(b"Content-Disposition")
        tail = tail.replace(b"\r\n\r\n", b"\r\n\r\n!!notbase64$$\r\n", 1)
        data = head + sep + tail
    elif damage == "bad_charset":
        data = data.replace(b'charset="euc-kr"', b'charset="x-made-up"')
    else:
        data = data.replace(b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: x-uuencode")
    src = tmp_path / "m.txt"
    src.write_bytes(data)
    doc = open_document(src)
    assert doc.needs_review and any(u.where == "mail" for u in doc.unreadable)
    assert not doc.extra.get("mail")


def test_ordinary_text_is_not_taken_for_a_mail(tmp_path):
    texts = [
        "From: 김민수\n이름: 김민수\n\n연락처 010-1234-5678\n",              # a memo with a From line
        "From: kim@example.org\nTo: lee@example.org\nSubject: 회의\n\n본문 김민수\n",   # nothing encoded
        "Subject: =?utf-8?B?7ZqM7J2Y?=\nTo: x\n\nbody\n",                    # no From
        "회의록\nFrom: a\nTo: b\nMIME-Version: 1.0\n\nbody\n",               # not at the start
    ]
    for i, t in enumerate(texts):
        src = tmp_path / f"plain{i}.txt"
        src.write_bytes(t.encode("utf-8"))
        doc = open_document(src)
        assert doc.text == t and not doc.extra.get("mail") and doc.captions == (), t
        assert not mail_mod.looks_like_mail(t)


def test_csv_is_never_read_as_a_mail(tmp_path):
    src = tmp_path / "m.csv"
    data = build_mail(binary=False)
    src.write_bytes(data)
    doc = open_document(src)
    assert doc.text == data.decode().replace("\r\n", "\n") and not doc.extra.get("mail")


def test_alternative_html_is_left_out_and_undeclared_cp949_header_is_read(tmp_path):
    msg = MIMEMultipart("alternative")
    msg["From"] = "a@example.org"
    msg["Date"] = "Mon, 10 Nov 2025 09:30:00 +0900"
    msg.attach(MIMEText(f"연락처 {PHONE}\n", "plain", "utf-8"))
    msg.attach(MIMEText(f"<p>연락처 {PHONE} <span style='display:none'>{RRN}</span></p>", "html", "utf-8"))
    data = msg.as_bytes().replace(b"From: a@example.org", "From: 김똠희 <a@example.org>".encode("cp949"))
    src = tmp_path / "alt.txt"
    src.write_bytes(data)
    doc = open_document(src)
    assert "From: 김똠희 <a@example.org>" in doc.text           # raw 8-bit CP949 header
    assert PHONE in doc.text and RRN not in doc.text and "<p>" not in doc.text
    assert "── Attachment 1 (removed) ──\n(text/html)" in doc.text


def test_forwarded_message_and_rfc2231_file_name(tmp_path):
    inner = MIMEMultipart()
    inner["From"] = f'"{ew(NAME)}" <{MAIL}>'
    inner["Subject"] = ew("원본 메일")
    inner.attach(MIMEText(f"주민등록번호 {RRN}\n", "plain", "utf-8"))
    att = MIMEText(f"연락처 {PHONE}\n", "plain", "utf-8")
    att.add_header("Content-Disposition", "attachment", filename=("utf-8", "", f"{NAME}_연락처.txt"))
    inner.attach(att)
    outer = MIMEMultipart()
    outer["From"] = "fw@example.org"
    outer["Subject"] = "Fwd: =?utf-8?B?7JuQ67O4?="
    outer["Date"] = "Mon, 10 Nov 2025 09:30:00 +0900"
    outer.attach(MIMEText("전달합니다.\n", "plain", "utf-8"))
    from email.mime.message import MIMEMessage
    outer.attach(MIMEMessage(inner))
    data = outer.as_bytes()
    assert b"filename*=" in data and NAME.encode() not in data
    src = tmp_path / "fwd.txt"
    src.write_bytes(data)
    doc = open_document(src)
    assert not doc.needs_review
    assert [c.key for c in doc.captions] == ["mail_headers", "body", "mail_forwarded", "body", "attachment"]
    assert f'From: "{NAME}" <{MAIL}>' in doc.text and "Subject: 원본 메일" in doc.text
    assert f"주민등록번호 {RRN}" in doc.text and f"{NAME}_연락처.txt\n연락처 {PHONE}" in doc.text
    assert "Subject: Fwd: 원본" in doc.text


def test_html_part_is_published_as_its_text_and_flowed_lines_are_joined(tmp_path):
    digits = "".join(f"&#{ord(c)};" for c in PHONE)            # 010-9899-4962 as character references
    msg = MIMEMultipart()
    msg["From"] = "a@example.org"
    msg["Subject"] = ew("안내")
    msg.attach(MIMEText(f"<html><style>p{{color:red}}</style><p>연락처 {digits}</p>"
                        f"<img alt='{NAME}' src='x.png'><p>끝</p></html>", "html", "utf-8"))
    flowed = MIMEText(f"주민등록번호 {RRN[:8]} \n{RRN[8:]}\n", "plain", "utf-8")
    flowed.set_param("format", "flowed")
    flowed.set_param("delsp", "yes")
    msg.attach(flowed)
    src = tmp_path / "h.txt"
    src.write_bytes(msg.as_bytes())
    doc = open_document(src)
    assert f"연락처 {PHONE}\n" in doc.text and NAME in doc.text and "&#" not in doc.text
    assert "<p>" not in doc.text and "color" not in doc.text
    assert f"주민등록번호 {RRN}\n" in doc.text


def test_mbox_of_several_messages_is_held(tmp_path):
    one = build_mail(binary=False)
    first = b"From a@example.org Mon Nov  3 14:12:09 2025\r\n" + one
    (tmp_path / "one.txt").write_bytes(first)
    doc = open_document(tmp_path / "one.txt")                    # one message after its envelope line
    assert doc.extra.get("mail") and not doc.needs_review and f"{PHONE}\n" in doc.text
    (tmp_path / "box.txt").write_bytes(first + b"\r\n\r\nFrom b@example.org Mon Nov  3 15:00:00 2025\r\n" + one)
    doc = open_document(tmp_path / "box.txt")                    # later messages would be lost: held
    assert doc.needs_review and any(u.where == "mail" for u in doc.unreadable)


def test_8bit_bodies_are_read_from_their_bytes(tmp_path):
    """An 8bit body is decoded from its own bytes: an undeclared UTF-8 body (a plain RFC 5322 mail) and an
    ``euc-kr`` 8bit body holding a CP949-only syllable came out as U+FFFD / were held before (the parser's
    ``get_payload(decode=False)`` replaces what its charset does not decode)."""
    head = "From: kim@example.org\r\nSubject: =?utf-8?B?7ZqM7J2Y?=\r\nDate: Mon, 10 Nov 2025 09:30:00 +0900\r\n"
    undeclared = (head + f"\r\n연락처 {PHONE}\r\n").encode()
    cp949 = (head + "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=euc-kr\r\n"
             "Content-Transfer-Encoding: 8bit\r\n\r\n").encode() + f"{NAME} 연락처 {PHONE}\r\n".encode("cp949")
    for i, data in enumerate((undeclared, cp949)):
        src = tmp_path / f"m{i}.txt"
        src.write_bytes(data)
        doc = open_document(src)
        assert doc.extra.get("mail") and not doc.needs_review, doc.unreadable
        assert f"연락처 {PHONE}\n" in doc.text and "\ufffd" not in doc.text
    assert f"{NAME} 연락처" in doc.text
