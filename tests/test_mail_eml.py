""".eml input (issue 26 follow-up): a mail saved as .eml is read as the decoded mail (documents.mail, as a
mail saved as .txt) and exported as a NEW mail rebuilt from the reviewed content: shown headers masked,
one text/plain UTF-8 body, no original header or attachment. The written file is read back here by the
standard library's parser and, where perl is installed, by perl's own MIME decoders (Encode MIME-Header,
MIME::Base64, MIME::QuotedPrint) — readers this project did not write."""
from __future__ import annotations

import base64
import email
import email.policy
import hashlib
import json
import shutil
import subprocess
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest

from tests.test_mail_text import ACCOUNT, MAIL, NAME, PDF_SECRET, PHONE, RRN, build_mail, ew, spans_of
from veil_desktop.documents import EXPORTS, export_document, open_document, output_name, supported_suffixes
from veil_desktop.documents import formats
from veil_desktop.documents.errors import DocumentError
from veil_desktop.documents.matching import ValueMatcher
from veil_desktop.masking import Masker

VALUES = (NAME, RRN, PHONE, MAIL, ACCOUNT, "1607595", "9899-4962", "149361")


def saved_eml() -> bytes:
    """The mail of test_mail_text with the headers a mail client keeps in a saved .eml."""
    data = build_mail()
    extra = (b"Received: from mx.example.org (10.1.2.3) by mail.example.go.kr; Mon, 3 Nov 2025 14:12:10 +0900\r\n"
             b"X-Mailer: Microsoft Outlook 16.0\r\nX-Originating-IP: [10.1.2.3]\r\n")
    return extra + data


def export_eml(tmp_path: Path, data: bytes, name: str = "saved.eml"):
    src = tmp_path / name
    src.write_bytes(data)
    doc = open_document(src)
    (tmp_path / "out").mkdir(exist_ok=True)
    out = tmp_path / "out" / name
    res = export_document(doc, Masker().plan(doc.text, spans_of(doc.text)), out)
    return src, doc, out, res


def parsed(out: Path):
    msg = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
    headers = {k: str(v) for k, v in msg.items()}
    return msg, headers


def test_eml_is_a_registered_format_read_as_the_decoded_mail(tmp_path):
    assert ".eml" in supported_suffixes() and EXPORTS["eml"] == ("eml", "txt")
    assert formats.CHECK_KIND["eml"] == "eml"
    assert output_name(Path("a.eml"), beside_source=True) == Path("a.masked.eml")
    assert output_name(Path("in/a.eml")) == Path("in/a.eml")
    data = saved_eml()
    (tmp_path / "m.eml").write_bytes(data)
    (tmp_path / "m.txt").write_bytes(data)
    eml, txt = open_document(tmp_path / "m.eml"), open_document(tmp_path / "m.txt")
    assert eml.format == "eml" and eml.extra.get("mail") and not eml.needs_review
    assert eml.text == txt.text                 # one reader: documents.mail, not a copy of it
    assert f"연락처: {PHONE}\n" in eml.text and "X-Mailer" not in eml.text and "Received" not in eml.text


def test_export_is_a_new_mail_of_the_masked_content(tmp_path):
    data = saved_eml()
    src, doc, out, res = export_eml(tmp_path, data)
    assert res.leak_check["result"] == "clean" and res.leak_check["method"] == "eml"
    assert res.leak_check["values_checked"] >= 5 and out.name == "saved.eml"
    assert src.read_bytes() == data and hashlib.sha256(data).hexdigest() == doc.sha256   # original untouched
    msg, headers = parsed(out)
    assert not msg.defects and not msg.is_multipart()
    assert set(headers) == {"From", "To", "Subject", "Date", "MIME-Version", "Content-Type",
                            "Content-Transfer-Encoding"}
    assert msg.get_content_type() == "text/plain" and msg.get_content_charset() == "utf-8"
    assert headers["Content-Transfer-Encoding"] in ("base64", "quoted-printable")
    assert headers["Subject"] == "민원 회신 자료" and headers["Date"] == "Mon, 03 Nov 2025 14:12:09 +0900"
    assert "[PERSON]" in headers["From"] and "[EMAIL]" in headers["From"]
    # the masked address is no address: written as encoded text, read back whole (quoted as a name)
    assert headers["To"] == '"민원지원팀 <[EMAIL]>"' and headers["From"] == '"\\"[PERSON]\\" <[EMAIL]>"'
    body = msg.get_content().replace("\r\n", "\n")        # the canonical form of text in a mail: CRLF
    assert "연락처: [PHONE]" in body and "주민등록번호: [RRN]" in body and "국민 [ACCOUNT]" in body
    assert body.startswith("안녕하십니까.")
    assert "── Attachment 1 ──\n신청인.txt\n민원 신청인 정보" in body
    assert "── Attachment 2 (removed) ──\nscan.pdf (application/pdf, 30 bytes)" in body
    raw = out.read_bytes()
    everything = "\n".join(headers.values()) + "\n" + body + raw.decode("ascii")
    for value in VALUES:
        assert value not in everything, value
    # nothing of the original: no trace header, no Message-ID, no attachment bytes, no 8-bit byte
    for gone in (b"secret-trace", b"Message-ID", b"Received", b"X-Mailer", b"10.1.2.3", b"%PDF",
                 base64.b64encode(PDF_SECRET)[:16], b"900101"):
        assert gone not in raw, gone
    assert max(raw) < 128 and b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    report = json.loads((out.parent / "saved.eml.report.json").read_text("utf-8"))
    assert report["output"]["name"] == "saved.eml" and report["leak_check"]["method"] == "eml"


def _perl_read(path: Path) -> str:
    """The mail decoded by perl's core modules: headers via Encode's MIME-Header, the body by its
    transfer encoding (MIME::Base64 / MIME::QuotedPrint), printed as UTF-8."""
    script = r'''
use strict; use Encode qw(decode encode); use MIME::Base64; use MIME::QuotedPrint;
local $/; open(my $f, '<:raw', $ARGV[0]) or die; my $m = <$f>;
my ($h, $b) = split(/\r\n\r\n/, $m, 2); $h =~ s/\r\n([ \t])/$1/g;
my %h; for my $l (split(/\r\n/, $h)) { my ($n, $v) = split(/:\s*/, $l, 2); $h{lc $n} = $v;
  print encode('UTF-8', "$n: " . decode('MIME-Header', $v)), "\n"; }
my $cte = lc($h{'content-transfer-encoding'} // '7bit');
my $bytes = $cte eq 'base64' ? decode_base64($b) : $cte eq 'quoted-printable' ? decode_qp($b) : $b;
print "\n", $bytes;
'''
    return subprocess.run(["perl", "-e", script, str(path)], capture_output=True, check=True,
                          timeout=60).stdout.decode("utf-8")


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_a_reader_we_did_not_write_reads_the_same_masked_mail(tmp_path):
    _, _, out, _ = export_eml(tmp_path, saved_eml())
    text = _perl_read(out)
    msg, headers = parsed(out)
    assert f"Subject: {headers['Subject']}\n" in text and "From: \"[PERSON]\" <[EMAIL]>\n" in text
    assert text.split("\n\n", 1)[1] == msg.get_content()
    assert "── Attachment 2 (removed) ──" in text and "[RRN]" in text
    for value in VALUES:
        assert value not in text, value


def test_only_a_mail_is_read_as_eml_and_the_refusal_is_translated(tmp_path):
    from veil_desktop.ui.i18n import document_error_text

    cases = {"memo.eml": "회의록\n김민준 010-2345-6789\n".encode(),
             "outlook.eml": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600,     # an Outlook .msg renamed
             "empty.eml": b""}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(DocumentError, match="is not an e-mail") as e:
            open_document(tmp_path / name)
        ko = document_error_text(str(e.value), "ko")
        assert ko != str(e.value) and "메일" in ko and name in ko, ko
    # a mail that cannot be decoded exactly: refused (the .txt route holds it for review)
    bad = build_mail(binary=False).replace(b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: x-uuencode")
    (tmp_path / "bad.eml").write_bytes(bad)
    with pytest.raises(DocumentError, match="cannot be decoded exactly") as e:
        open_document(tmp_path / "bad.eml")
    ko = document_error_text(str(e.value), "ko")
    assert "해독" in ko and "TXT" in ko and "bad.eml" in ko
    (tmp_path / "bad.txt").write_bytes(bad)
    assert open_document(tmp_path / "bad.txt").needs_review


def test_a_plain_rfc5322_mail_without_mime_is_a_mail_in_eml_only(tmp_path):
    data = f"From: kim@example.org\r\nTo: lee@example.org\r\nSubject: meeting\r\n\r\n연락처 {PHONE}\r\n".encode()
    (tmp_path / "plain.eml").write_bytes(data)
    (tmp_path / "plain.txt").write_bytes(data)
    doc = open_document(tmp_path / "plain.eml")
    assert doc.extra.get("mail") and "Subject: meeting\n" in doc.text and f"연락처 {PHONE}" in doc.text
    assert not open_document(tmp_path / "plain.txt").extra.get("mail")   # .txt keeps its stricter rule


def test_headers_that_cannot_stay_headers_go_into_the_body(tmp_path):
    msg = MIMEMultipart()
    msg["From"] = f'"{ew(NAME)}" <{MAIL}>'
    msg["Subject"] = "first"
    msg["Cc"] = "team@example.go.kr"
    msg.attach(MIMEText(f"본문 {PHONE}\n", "plain", "utf-8"))
    data = msg.as_bytes().replace(b"Cc:", b"Subject: =?utf-8?B?" + base64.b64encode("두번째 제목".encode())
                                  + b"?=\nCc:")
    src, doc, out, res = export_eml(tmp_path, data, "two.eml")
    m, headers = parsed(out)
    assert headers["Subject"] == "first" and headers["Cc"] == '"[EMAIL]"'
    body = m.get_content().replace("\r\n", "\n")
    assert body.startswith("Subject: 두번째 제목\n\n") and "본문 [PHONE]" in body
    assert len(m.get_all("Subject")) == 1


def test_leak_check_decodes_the_mail_it_checks():
    from veil_desktop.documents.leakcheck import check_eml_bytes, check_text_bytes
    from veil_desktop.documents.second_opinion import text_views

    matcher = ValueMatcher([RRN, NAME])
    hidden = MIMEText(f"주민등록번호 {RRN}\n", "plain", "utf-8")
    hidden["Subject"] = ew(NAME, "utf-8")
    data = hidden.as_bytes()
    assert RRN.encode() not in data and NAME.encode() not in data
    assert check_text_bytes(data, ValueMatcher([RRN])).clean           # read as text the base64 hides it
    rep = check_eml_bytes(data, ValueMatcher([RRN]))
    assert not rep.clean and "mail part 0 (text/plain)" in rep.hits[0]
    rep = check_eml_bytes(data, ValueMatcher([NAME]))
    assert not rep.clean and "Subject" in rep.hits[0]                  # the RFC 2047 header decoded
    clean = MIMEText("안녕하십니까 [RRN]\n", "plain", "utf-8")
    clean["Subject"] = "x"
    assert check_eml_bytes(clean.as_bytes(), matcher).clean
    withatt = MIMEMultipart()
    withatt.attach(MIMEText("본문\n", "plain", "utf-8"))
    withatt.attach(MIMEApplication(b"%PDF-1.4 nothing personal", "pdf"))
    rep = check_eml_bytes(withatt.as_bytes(), matcher)
    assert not rep.clean and "not text" in rep.hits[0]                 # default deny: no attachment out
    views = {v.place: v for v in text_views(data, "eml")}
    assert f"주민등록번호 {RRN}" in views["mail part 0 (text/plain)"].text
    assert views["mail part 0 (text/plain)"].visible and NAME in views["mail headers"].text
    assert not views["mail headers (other)"].visible


def test_veil_redact_writes_a_checked_eml(tmp_path):
    from veil_desktop.cli import main

    src = tmp_path / "in"
    src.mkdir()
    data = saved_eml()
    (src / "saved.eml").write_bytes(data)
    assert main(["redact", str(src), "--out", str(tmp_path / "out"), "--quiet", "--threads", "1"]) == 0
    out = tmp_path / "out" / "saved.eml"
    report = json.loads((tmp_path / "out" / "saved.eml.report.json").read_text("utf-8"))
    assert report["input"]["format"] == "eml" and report["leak_check"]["method"] == "eml"
    assert report["leak_check"]["result"] == "clean" and "second_opinion" in report
    msg, headers = parsed(out)
    body = msg.get_content()
    assert not msg.is_multipart() and "Received" not in headers and "Message-ID" not in headers
    assert "── Attachment 2 (removed) ──" in body and "%PDF" not in body
    for value in (RRN, PHONE, MAIL, ACCOUNT):
        assert value not in body and value not in "\n".join(headers.values()), value
    assert (src / "saved.eml").read_bytes() == data
