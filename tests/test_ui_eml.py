"""A mail saved as .eml in the real main window (offscreen, the tiny real model + rule stage through the
production factory): the open dialog offers .eml, the window opens it as the decoded mail, the reviewer
accepts every suggestion with the keyboard, exports, and the written .eml — read back by the standard
library's mail parser — holds the same masked mail as ``veil-redact redact`` writes for the same file with
the same model."""
from __future__ import annotations

import base64
import email
import email.policy
import quopri
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from veil_desktop.ui.dialogs import open_filters

PHONE = "010-2345-6789"
RRN = "880412-1234567"


def ks(text: str) -> str:
    return f"=?ks_c_5601-1987?B?{base64.b64encode(text.encode('cp949')).decode()}?="


def build_eml() -> bytes:
    msg = MIMEMultipart()
    msg["From"] = f'"{ks("김민준")}" <minjun.kim@example.org>'
    msg["To"] = f"{ks('강남구청')} <minwon@example.go.kr>"
    msg["Subject"] = ks("민원 회신 (이서연)")
    msg["Date"] = "Mon, 3 Nov 2025 14:12:09 +0900"
    msg["Message-ID"] = "<trace-8841@mail.example.org>"
    msg["X-Mailer"] = "Hancom Mail 2.0"
    body = MIMENonMultipart("text", "plain", charset="utf-8")
    body["Content-Transfer-Encoding"] = "quoted-printable"
    text = f"이서연 님께.\n담당자 김민준 연락처 {PHONE}\n주민등록번호 {RRN}\n강남구청 민원실 드림\n"
    enc = quopri.encodestring(text.encode("utf-8")).decode()
    i = enc.index(PHONE) + 5
    body.set_payload(enc[:i] + "=\n" + enc[i:])              # a soft line break inside the phone number
    msg.attach(body)
    pdf = MIMEApplication(b"%PDF-1.4 " + RRN.encode(), "pdf")
    pdf.add_header("Content-Disposition", "attachment", filename="scan.pdf")
    msg.attach(pdf)
    return msg.as_bytes().replace(b"\n", b"\r\n")


def read_back(path: Path) -> tuple[dict[str, str], str, email.message.EmailMessage]:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return {k: str(v) for k, v in msg.items()}, msg.get_content().replace("\r\n", "\n"), msg


def test_open_review_export_eml_matches_the_cli(qtbot, make_window, model_dir, tmp_path, monkeypatch):
    assert "*.eml" in open_filters("ko").split(";;")[0] and open_filters("ko").endswith(";;메일 (*.eml)")
    assert open_filters("en").endswith(";;Mail (*.eml)")
    src = tmp_path / "in" / "회신.eml"
    src.parent.mkdir()
    data = build_eml()
    src.write_bytes(data)

    w = make_window()
    seen = {}

    def fake_open(parent, caption, folder, filters):
        seen["filters"] = filters
        return str(src), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(fake_open))
    with qtbot.waitSignal(w.detectionFinished, timeout=30000):
        w.actions_by_id["open"].trigger()             # File > Open, through the dialog's filter
    assert "*.eml" in seen["filters"] and "메일 (*.eml)" in seen["filters"]
    doc = w.review.document
    assert doc.format == "eml" and doc.extra.get("mail") and f"연락처 {PHONE}" in doc.text
    values = {w.state.value(it) for it in w.state}
    assert {"김민준", "이서연", "강남구청", PHONE, RRN} <= values, values

    qtbot.keyClick(w.view, Qt.Key.Key_J)
    for _ in range(len(w.state)):
        if w.state.pending_count() == 0:
            break
        qtbot.keyClick(w.view, Qt.Key.Key_A)
    assert w.state.pending_count() == 0

    out = tmp_path / "ui" / "회신.eml"
    out.parent.mkdir()
    with qtbot.waitSignal(w.exportFinished, timeout=30000) as blocker:
        w.export_to(out, policy="block")
    assert blocker.args == [str(out)]
    headers, body, msg = read_back(out)
    assert not msg.is_multipart() and msg.get_content_type() == "text/plain"
    assert set(headers) == {"From", "To", "Subject", "Date", "MIME-Version", "Content-Type",
                            "Content-Transfer-Encoding"}
    shown = "\n".join(headers.values()) + "\n" + body
    for value in ("김민준", "이서연", "강남구청", PHONE, RRN, "minjun.kim", "trace-8841", "Hancom", "%PDF"):
        assert value not in shown, value
    assert "── Attachment 1 (removed) ──\nscan.pdf (application/pdf," in body
    assert src.read_bytes() == data                       # the original is untouched

    from veil_desktop.cli import main

    assert main(["redact", str(src), "--out", str(tmp_path / "cli"), "--model", str(model_dir),
                 "--threads", "1", "--quiet"]) == 0
    cli_headers, cli_body, _ = read_back(tmp_path / "cli" / "회신.eml")
    assert cli_body == body and cli_headers == headers     # the same masked mail
