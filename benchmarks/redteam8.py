"""Eighth red-team corpus (issue 26, "keep the red-team corpus honest"): a fresh batch of 18 files, three per
class 1-6 of the issue, written from the file-format specifications (HWP 5.0 (한글 문서 파일 형식 5.0: the
compound file, FileHeader, DocInfo/BodyText records, field and hidden-comment controls, BinData, PrvText /
PrvImage, HwpSummaryInformation), MS-CFB, MS-OLEPS, ECMA-376 incl. the Office 2016 SVG blip extension, DrawingML
picture effects and VML signature lines, OWPML, ISO 32000 (CIDFontType2 / Identity-H, the ' and " operators, text
state), PNG, TIFF 6.0, BMP, RFC 5322 / 2045 / 2047 / 2231 / 1557 / 8098, RFC 4180, Unicode) and from what a
hostile author or a careless office could do -- never from the product's readers, writers or leak check -- to
be measured once at HEAD before anything is fixed.

    nice .venv/bin/python benchmarks/redteam8.py generate DIR            # DIR/in/* + DIR/manifest.json
    nice .venv/bin/python benchmarks/redteam8.py selfcheck DIR           # the oracle sees every planted value
    nice .venv/bin/python benchmarks/redteam8.py run DIR [--base PATH]   # generate, redact, judge, figures
    nice .venv/bin/python benchmarks/redteam8.py judge DIR [--base PATH] # judge DIR/out again (DIR/summary.txt)

Plumbing is redteam4's (imported, not copied): ``redteam2.redact`` runs the CLI of ``--base`` (the embedded
default detector, no review), ``redteam4.write_corpus/selfcheck/report/cli`` write the files and print the
verdicts, and ``benchmarks/redteam8_oracle.py`` judges every published output (redteam7_oracle's views plus
the views the tricks below need: HWP 5.0 compound files opened stream by stream, records inflated and read,
summary properties, BinData and preview pictures OCR'd; mails walked part by part with RFC 2231 parameters
joined and HTML links read; DrawingML bi-level effects applied; descreened, relief and deblurred copies of
scans; dingbat digits and English number words read as digits). Verdicts per file: published clean / published
LEAK (which value, where) / held (needs review) / refused; a control (class 6, no personal data) that is not
published is a false alarm.

New planted values (a name and its romanisation, an RRN and a foreigner registration number with valid check
digits, a phone, an address, an e-mail, a bank account, a passport number M + 8 digits; no 4-digit run shared
between any two of them nor with the values of adversarial_corpus, batches 2-7 and the picture batches, the
phone's leading "010" aside). Every trick is new relative to adversarial_corpus, attack_text_class,
redteam2..7, redteam_pictures and redteam_pictures2 (no earlier batch has an .hwp or an .eml input at all):
  1 pictures/metadata inside packages: HWP 5.0: a picture stream in the BinData storage (declared by a DocInfo
    BIN_DATA record, deflated like the other streams) and a first-page preview (PrvImage) that shows other text
    than the body; DOCX: a picture whose a:blip carries the Office 2016 SVG extension (asvg:svgBlip, the SVG
    is what Word shows; its text written with XML character references, one tspan per character) behind a
    harmless PNG fallback, and a picture whose pixels are a faint grey a DrawingML a:biLevel effect (ECMA-376
    20.1.8.13) turns to black text as displayed; HWPX: a picture cropped by hp:imgClip (the crop shows a
    title, the clipped-off part the values) and an OS/2 1.x BMP (12-byte BITMAPCOREHEADER) with no extension;
  2 hidden places / attribute values: HWP 5.0: a click-here field (%clk) whose command string holds the help
    text, a hyperlink field (%hlk) whose command is a mailto:, a hidden comment control (tcmt, 숨은 설명)
    holding a paragraph list, and the HwpSummaryInformation property set (author, comments: MS-OLEPS
    VT_LPWSTR); DOCX: a VML signature line (o:signatureline o:suggestedsigner / o:suggestedsigneremail), a
    numbering level text literal (w:lvlText, shown before every item) and the hyperlink cache of
    docProps/app.xml (HLinks vt:vector, a tel: link); .eml: an attachment named by an RFC 2231 continued,
    percent-encoded filename* parameter, a Disposition-Notification-To header (RFC 8098) and a tel: link in
    the HTML alternative;
  3 PDF ink outside the text layer: a CIDFontType2 font (Identity-H, /CIDToGIDMap /Identity) embedded as a
    TrueType subset without a cmap table, no ToUnicode, no glyph names (the text layer cannot map a glyph to
    a character; the page shows the values); glyphs of a correctly mapped Hangul font shown one by one with
    absolute text matrices in a shuffled order (the text layer reads scrambled, the page reads in order);
    text shown by the ' and " operators (ISO 32000 9.4.3) with text rise (Ts), horizontal scaling (Tz),
    character spacing and a sheared text matrix;
  4 scans OCR reads badly: an embossed bank card (raised characters, no ink: only highlight and shadow); a
    pencil note on ruled notebook paper photographed in low light with camera shake (motion blur, noise);
    an AM-halftoned (rotated CMYK screens, rosettes) tinted form scanned at 150 dpi to TIFF (moire);
  5 text the detector does not read: a CSV record sheet laid out downwards (labels in column A, one record
    per column) with the values split over rows (성 / 이름, 주민등록번호 앞 / 뒤, 국번 / 앞 / 뒤, 시도 / 시군구 /
    도로명); a memo with dingbat circled digits (❶ U+2776.., ➀ U+2780.., ➊ U+278A..: NFKC keeps them), the
    phone spelled in English number words, the name with ideographic spaces, the e-mail as "at" / "dot";
    an .eml whose text part is ISO-2022-KR (RFC 1557: 7-bit escape + SO/SI shifts) and whose HTML part
    writes the FRN as numeric character references, one span per digit;
  6 controls: an HWP 5.0 notice with a click-here field, an https hyperlink field, a hidden comment, summary
    properties of an office, a BinData logo and a preview; a DOCX with an SVG-blip chart, a bi-level picture,
    a signature line for a title, numbered articles (제%1조) and an https HLinks cache; an .eml in ISO-2022-KR
    with an HTML alternative (character references) and an attachment named by RFC 2231.

``selfcheck``: the oracle sees every planted value in the 15 attack inputs (checked in two passes on 4
December: classes 1-3 and 4a in a full selfcheck, then 4b, 4c and 5a-5c after the local-threshold and
relief-thresholded scan views were added -- the pencil note and the embossed card were readable by eye but
not by the first views); a full ``selfcheck /tmp/rt8s`` at 22:05 UTC then: the oracle is blind on 0 of 15).

Measured once at bc1b413 (product code as at e46843a), before anything was fixed (``run /tmp/rt8 --base
WORKTREE``, default detector, the batch CLI, no review; 4 December 21:50 UTC; redaction 19 s, judging ~12
min): **3 of 15 published with a leak**, 7 published clean, 5 held (needs review), 0 refused; **2 of 3
controls held** (false alarms).
  leaks: 3b ADDR + PHONE + NAME (glyphs in shuffled stream order: the text layer reads scrambled, nothing was
         masked, the rasterised page shows all three in order; checked by eye);
         5a NAME (지안 in the 이름 row), RRN (the 뒤 row 2516834), PHONE (the 앞/뒤 rows 3861, 2947): a record sheet
         laid out downwards, only the 앞 row of the RRN and the address rows were masked;
         5b ACCOUNT (dingbat digits ➑-➐➐-➌➒🄌➍➊➑ left after a partial [기관] mask) and PHONE (English number
         words untouched); the RRN in ❶.. digits was masked, the name with ideographic spaces lost 탁지 (안
         left: one syllable, not a leak), the at/dot e-mail was masked;
  held:  1a and 2a (HWP) and 6a: "the second opinion found ... PERSON in FileHeader" (the 256-byte HWP
         FileHeader, "HWP Document File" + version + flags, is read as a name: a false alarm on the format's
         own bytes, so these attacks were held for a spurious reason and their field commands / hidden comment /
         summary / BinData were never tested on their merits; 1a and 6a also "PERSON in BinData/BIN0001.png");
         1b and 6b: "picture 1 cannot be read as text"; 4a, 4b: "page(s) 1 cannot be read as text";
  clean (outputs looked at by hand too): 1c (both pictures burned), 2b (signer, e-mail, lvlText, HLinks
         masked), 2c (headers rewritten, attachment dropped, filename masked), 3a (탁지 boxed, 안 left), 3c, 4c,
         5c (ISO-2022-KR decoded and masked, the HTML part dropped);
  false alarms: 6a (HWP FileHeader and the logo "청주시 민원실" as PERSON), 6b (picture 1 unreadable); 6c
         published (4 PERSON + 2 EMAIL masks in a mail with no personal data: over-masking, not counted).

After the fixes (tuned on these files: HWP streams read by format in the second opinion 6447351, PDF visual
order 6516558, record sheets dacee4a/e8fe6e3/fe48dae, English and dingbat digits 2e59078, spaced names 69fb8f5,
SVG fallbacks and picture effects 23f92ed, caption words e9bfdc5), at ac768f0, 4 December 23:00 UTC: **0 of 15**
published with a leak, 13 published clean (1a and 2a, now judged on their merits, clean), 2 held (4a the
embossed card, 4b the pencil note: pages OCR cannot read), 0 refused; **0 of 3** controls held.
"""
from __future__ import annotations

import io
import math
import random
import re
import struct
import sys
import zipfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import adversarial_corpus as ac  # noqa: E402  (its values, for the no-shared-run check)
import redteam2 as r2  # noqa: E402  (pictures, escaping, HWPX parts, the CLI runner)
import redteam3 as r3  # noqa: E402  (DOCX/HWPX/PDF builders)
import redteam4 as r4  # noqa: E402  (rezip/sub, draw_lines, photo, write_corpus/selfcheck/cli)
import redteam5 as r5  # noqa: E402  (values)
import redteam6 as r6  # noqa: E402  (values, emu, utf16_hex)
import redteam7 as r7  # noqa: E402  (values)
import redteam_pictures as rp  # noqa: E402  (values)
import redteam_pictures2 as rp2  # noqa: E402  (values)
from redteam2 import DECL, canvas, enc, font, xesc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

NAME = "탁지안"
NAME_EN = "TAK JIAN"              # romanisation (surname, given name)
RRN = "970204-2516834"            # valid check digit (11 - sum % 11) % 10
FRN = "781026-5372069"            # foreigner registration number, valid check digit (13 - sum % 11) % 10
PHONE = "010-3861-2947"
ADDR = "충청북도 청주시 상당구 상당로 155"
EMAIL = "jian_tak97@example.org"
ACCOUNT = "302158-77-390418"
PASSPORT = "M64309851"
VALUES = {"NAME": NAME, "RRN": RRN, "PHONE": PHONE, "ADDR": ADDR, "EMAIL": EMAIL, "ACCOUNT": ACCOUNT,
          "FRN": FRN, "PASSPORT": PASSPORT, "NAME_EN": NAME_EN}
PLAIN = "이 문서는 12월 민원 접수 현황을 정리한 내부 자료입니다."
draw_lines, photo, emu = r4.draw_lines, r4.photo, r6.emu


def _check_values() -> None:
    """Check digits valid; no 4-digit run shared between two values or with the earlier batches (the
    phone's "010x" prefix runs aside: every batch's phone starts so)."""
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    for v, k in ((RRN, 11), (FRN, 13)):
        d = v.replace("-", "")
        assert int(d[-1]) == (k - sum(int(a) * b for a, b in zip(d, w)) % 11) % 10, v
    runs: dict[str, str] = {}
    nums = {k: re.sub(r"\D", "", v) for k, v in VALUES.items() if k in ("RRN", "FRN", "PHONE", "ACCOUNT", "PASSPORT")}
    old = [re.sub(r"\D", "", v) for m in (ac, r2, r3, r4, r5, r6, r7, rp, rp2) for v in m.VALUES.values()]
    for k, d in nums.items():
        for i in range(1 if k == "PHONE" else 0, len(d) - 3):
            q = d[i:i + 4]
            assert runs.setdefault(q, k) == k, (q, k, runs[q])
            assert not any(q in o for o in old), (q, k)


# =============================================================================================== HWP 5.0
ENDOFCHAIN, FREESECT, FATSECT, NOSTREAM = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF


def cfb(streams: dict[str, bytes]) -> bytes:
    """A compound file (MS-CFB version 3: 512-byte sectors, 64-byte mini sectors below the 4096-byte cutoff)
    holding ``streams`` ("Storage/Stream" paths, one storage level)."""
    ents = [{"name": "Root Entry", "type": 5, "kids": []}]
    idx = {"": 0}
    for p in streams:
        if "/" in p and p.split("/")[0] not in idx:
            idx[p.split("/")[0]] = len(ents)
            ents.append({"name": p.split("/")[0], "type": 1, "kids": []})
            ents[0]["kids"].append(idx[p.split("/")[0]])
    for p, d in streams.items():
        parent, _, nm = p.rpartition("/")
        ents.append({"name": nm, "type": 2, "kids": [], "data": d})
        ents[idx[parent]]["kids"].append(len(ents) - 1)
    sectors: list[bytes] = []
    chains: list[tuple[int, int]] = []                         # (first sector, count) of every regular chain

    def put(data: bytes) -> int:
        n = max(1, -(-len(data) // 512))
        first = len(sectors)
        sectors.extend(data[i * 512:(i + 1) * 512].ljust(512, b"\0") for i in range(n))
        chains.append((first, n))
        return first
    mini, minifat = bytearray(), []
    for e in ents:
        if e["type"] != 2:
            continue
        d = e["data"]
        e["size"] = len(d)
        if len(d) >= 4096:
            e["start"] = put(d)
        else:
            n = max(1, -(-len(d) // 64))
            e["start"] = len(minifat)
            minifat += [len(minifat) + i + 1 for i in range(n - 1)] + [ENDOFCHAIN]
            mini += d.ljust(n * 64, b"\0")
    ents[0]["start"] = put(bytes(mini)) if mini else ENDOFCHAIN
    ents[0]["size"] = len(mini)
    mf_start = put(b"".join(struct.pack("<I", x) for x in minifat)) if minifat else ENDOFCHAIN
    mf_n = -(-len(minifat) * 4 // 512) if minifat else 0
    for e in ents:                                             # siblings as a right-linked chain (a valid tree)
        kids = sorted(e["kids"], key=lambda i: (len(ents[i]["name"]), ents[i]["name"].upper()))
        e["child"] = kids[0] if kids else NOSTREAM
        for a, b in zip(kids, kids[1:]):
            ents[a]["right"] = b

    def dirent(e) -> bytes:
        nm = e["name"].encode("utf-16-le") + b"\0\0"
        return (nm.ljust(64, b"\0") + struct.pack("<HBB", len(nm), e["type"], 1)
                + struct.pack("<III", e.get("left", NOSTREAM), e.get("right", NOSTREAM), e["child"])
                + b"\0" * 16 + b"\0" * 4 + b"\0" * 16
                + struct.pack("<IQ", e.get("start", 0) if e["type"] != 1 else 0, e.get("size", 0)))
    dir_bytes = b"".join(dirent(e) for e in ents)
    dir_bytes += b"".join(dirent({"name": "", "type": 0, "child": NOSTREAM}) for _ in range((-len(ents)) % 4))
    dir_start = put(dir_bytes)
    n_fat = 1
    while (len(sectors) + n_fat) > n_fat * 128:
        n_fat += 1
    fat_first = len(sectors)
    fat = [FREESECT] * (n_fat * 128)
    for first, n in chains:
        for i in range(n):
            fat[first + i] = first + i + 1 if i < n - 1 else ENDOFCHAIN
    for i in range(n_fat):
        fat[fat_first + i] = FATSECT
    fat_bytes = b"".join(struct.pack("<I", x) for x in fat)
    difat = [fat_first + i for i in range(n_fat)] + [FREESECT] * (109 - n_fat)
    hdr = (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 16 + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6) + b"\0" * 6
           + struct.pack("<IIIIIIIII", 0, n_fat, dir_start, 0, 4096, mf_start, mf_n, ENDOFCHAIN, 0)
           + b"".join(struct.pack("<I", x) for x in difat))
    assert len(hdr) == 512
    return hdr + b"".join(sectors) + fat_bytes


def rec(tag: int, level: int, payload: bytes) -> bytes:
    """An HWP record: TagID (10 bits), Level (10 bits), Size (12 bits; 0xFFF = a DWORD size follows)."""
    if len(payload) >= 0xFFF:
        return struct.pack("<II", tag | (level << 10) | (0xFFF << 20), len(payload)) + payload
    return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload


def records(b: bytes):
    i = 0
    while i + 4 <= len(b):
        h = struct.unpack("<I", b[i:i + 4])[0]
        i += 4
        sz = h >> 20
        if sz == 0xFFF:
            sz = struct.unpack("<I", b[i:i + 4])[0]
            i += 4
        yield h & 0x3FF, (h >> 10) & 0x3FF, b[i:i + sz]
        i += sz


TAG_BIN_DATA, TAG_ID_MAPPINGS = 0x12, 0x11
PARA_HEADER, PARA_TEXT, PARA_CHAR_SHAPE, PARA_LINE_SEG, CTRL_HEADER, LIST_HEADER = 0x42, 0x43, 0x44, 0x45, 0x47, 0x48
LINE_SEG = struct.pack("<iiiiiiiiI", 0, 0, 1000, 1000, 850, 600, 0, 42520, 0x60000)


def chid(s: str) -> bytes:
    """MAKE_4CHID(a, b, c, d) stored as a little-endian UINT32: the bytes of the id reversed."""
    return s[::-1].encode("ascii")


def ext_ctrl(code: int, cid: str) -> str:
    """An extended control character in PARA_TEXT: 8 WCHARs (the code, the control id, 8 bytes, the code)."""
    return (struct.pack("<H", code) + chid(cid) + b"\0" * 8 + struct.pack("<H", code)).decode("utf-16-le")


def para(text: str, level: int = 0, last: bool = False, ctrls: bytes = b"", mask: int = 0) -> bytes:
    """A paragraph: PARA_HEADER, PARA_TEXT (``text`` + paragraph end), one char shape, one line segment, then
    the control records ``ctrls`` (level + 1)."""
    t = (text + "\r").encode("utf-16-le")
    n = len(t) // 2
    hdr = struct.pack("<IIHBBHHHIH", n | (0x80000000 if last else 0), mask, 0, 0, 0, 1, 0, 1, 0, 0)
    return (rec(PARA_HEADER, level, hdr) + rec(PARA_TEXT, level + 1, t) + rec(PARA_CHAR_SHAPE, level + 1, b"\0" * 8)
            + rec(PARA_LINE_SEG, level + 1, LINE_SEG) + ctrls)


def wstr(s: str) -> bytes:
    return struct.pack("<H", len(s)) + s.encode("utf-16-le")


def field(cid: str, command: str, shown: str, level: int = 1, fid: int = 1) -> tuple[str, bytes]:
    """A field (%clk click-here, %hlk hyperlink ...): its text in PARA_TEXT (field begin = extended control 3,
    the shown text, field end = inline control 4) and its CTRL_HEADER (ctrl id, property, extra property,
    command, field id)."""
    text = ext_ctrl(3, cid) + shown + (struct.pack("<H", 4) + chid(cid) + b"\0" * 8 + struct.pack("<H", 4)).decode("utf-16-le")
    body = chid(cid) + struct.pack("<IB", 1, 0) + wstr(command) + struct.pack("<I", fid)
    return text, rec(CTRL_HEADER, level, body)


def hidden_comment(text: str, level: int = 1) -> tuple[str, bytes]:
    """숨은 설명: extended control 15 in PARA_TEXT; CTRL_HEADER 'tcmt', LIST_HEADER, a paragraph list."""
    body = (rec(CTRL_HEADER, level, chid("tcmt")) + rec(LIST_HEADER, level + 1, struct.pack("<hI", 1, 0) + b"\0" * 2)
            + para(text, level + 1, last=True))
    return ext_ctrl(15, "tcmt"), body


def clickhere_command(guide: str, help_: str) -> str:
    rest = f"Direction:wstring:{len(guide)}:{guide} HelpState:wstring:{len(help_)}:{help_} "
    return f"Clickhere:set:{len(rest)}:{rest}"


def property_set(props: dict[int, str]) -> bytes:
    """An MS-OLEPS property set stream with one section (the HWP summary FMTID) and the
    given VT_LPWSTR properties (no code page, as Hancom writes them) (2 title, 3 subject, 4 author, 5 keywords, 6 comments, 8 last author)."""
    fmtid = bytes.fromhex("60B6A29F6110D411B4C6006097C09D8C")      # {9FA2B660-1061-11D4-B4C6-006097C09D8C}
    vals = [(0, struct.pack("<I", 0))]                         # an empty dictionary (PID 0), no code page, as Hancom writes
    for pid, s in props.items():
        d = (s + "\0").encode("utf-16-le")
        v = struct.pack("<II", 0x1F, len(d) // 2) + d
        vals.append((pid, v + b"\0" * (-len(v) % 4)))
    off = 8 + 8 * len(vals)
    table, data = b"", b""
    for pid, v in vals:
        table += struct.pack("<II", pid, off + len(data))
        data += v
    section = struct.pack("<II", off + len(data), len(vals)) + table + data
    head = struct.pack("<HHI", 0xFFFE, 0, 0x00020206) + fmtid + struct.pack("<I", 1) + fmtid + struct.pack("<I", 48)
    return head + section


HWP_TEMPLATE = Path("/work/shared/data/hwp-samples/sample_hwp_target.hwp")


def _template() -> tuple[bytes, bytes]:
    """DocInfo and the first paragraph (section and column definitions) of a real Hancom file, inflated, if
    the shared samples are here (``../shared``); else a minimal DocInfo and a bare section paragraph."""
    import olefile
    for p in (ROOT.parent / "shared/data/hwp-samples/sample_hwp_target.hwp", HWP_TEMPLATE):
        if p.exists() and p.stat().st_size:
            o = olefile.OleFileIO(str(p))
            di = zlib.decompress(o.openstream("DocInfo").read(), -15)
            sec = zlib.decompress(o.openstream("BodyText/Section0").read(), -15)
            o.close()
            first = []
            for tag, lvl, pl in records(sec):
                if tag == PARA_HEADER and lvl == 0 and first:
                    break
                first.append((tag, lvl, pl))
            out = b""
            for tag, lvl, pl in first:
                if tag == PARA_TEXT:
                    # keep the section/column controls (8 WCHARs each), drop the sample's own words
                    u = pl.decode("utf-16-le")
                    ctl = "".join(u[i:i + 8] for i in range(0, len(u) - 1, 8) if u[i] == "\x02")[:16]
                    pl = (ctl + PLAIN + "\r").encode("utf-16-le")
                    nchars = len(pl) // 2
                if tag == PARA_HEADER:
                    hdr = pl
                    continue
                if tag == PARA_CHAR_SHAPE:
                    pl = pl[:8]
                if tag == PARA_LINE_SEG:
                    pl = pl[:36]
                out += rec(tag, lvl, pl)
            hdr = struct.pack("<I", nchars) + hdr[4:12] + struct.pack("<HHH", 1, 0, 1) + hdr[18:]
            return di, rec(PARA_HEADER, 0, hdr) + out
    di = (rec(0x10, 0, struct.pack("<7H3I", 1, 1, 1, 1, 1, 1, 1, 0, 0, 0))
          + rec(TAG_ID_MAPPINGS, 0, struct.pack("<18i", 0, *([1] * 7), 1, 1, 1, 0, 0, 1, 1, 0, 0, 0)))
    return di, para(PLAIN)


def hwp(body: bytes, *, bindata: list[tuple[str, bytes]] = (), summary: dict[int, str] | None = None,
        prv_text: str = "", prv_image: bytes | None = None) -> bytes:
    """An HWP 5.0 file: FileHeader (compressed), DocInfo (the template's, with a BIN_DATA record per
    ``bindata`` (extension, bytes) and the ID_MAPPINGS count raised), BodyText/Section0 (the template's first
    paragraph then ``body``), BinData/BIN000n.ext (deflated), HwpSummaryInformation, PrvText, PrvImage."""
    di, first = _template()
    out_di = b""
    for tag, lvl, pl in records(di):
        if tag == TAG_ID_MAPPINGS:
            pl = struct.pack("<i", len(bindata)) + pl[4:]
            out_di += rec(tag, lvl, pl)
            for i, (ext, _) in enumerate(bindata, 1):
                out_di += rec(TAG_BIN_DATA, 1, struct.pack("<HH", 1, i) + wstr(ext))   # EMBEDDING, default compression
            continue
        if tag == TAG_BIN_DATA:
            continue
        out_di += rec(tag, lvl, pl)
    fh = (b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000500, 1)).ljust(256, b"\0")

    def z(b: bytes) -> bytes:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        return c.compress(b) + c.flush()
    streams = {"FileHeader": fh, "DocInfo": z(out_di), "BodyText/Section0": z(first + body)}
    for i, (ext, data) in enumerate(bindata, 1):
        streams[f"BinData/BIN{i:04X}.{ext}"] = z(data)
    streams["\x05HwpSummaryInformation"] = property_set(summary or {2: "문서", 4: "작성자"})
    streams["PrvText"] = (prv_text or PLAIN).encode("utf-16-le")
    if prv_image is not None:
        streams["PrvImage"] = prv_image
    return cfb(streams)


# ------------------------------------------------------------------------------------------- class 1
def svg_text(lines: list[str], w: int = 900, h: int = 220) -> str:
    """An SVG whose text is written with character references, one tspan per character."""
    def refs(s: str) -> str:
        return "".join(f'<tspan>&#x{ord(c):X};</tspan>' for c in s)
    body = "".join(f'<text x="30" y="{70 + i * 80}" font-family="NanumGothic, sans-serif" font-size="44">{refs(t)}</text>'
                   for i, t in enumerate(lines))
    return (f'<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" width="{w}" '
            f'height="{h}" viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="#ffffff"/>{body}</svg>')


SVG_EXT = "{96DAC541-7B7A-43D3-8B79-37D633B846F1}"
ASVG = "http://schemas.microsoft.com/office/drawing/2016/SVG/main"


def drawing_fx(rid: str, n: int, cx: int, cy: int, blip_inner: str = "") -> str:
    """redteam3.drawing with content inside a:blip (effects, extension list)."""
    d = r3.drawing(rid, n, cx, cy)
    return d.replace(f'<a:blip r:embed="{rid}"/>', f'<a:blip r:embed="{rid}">{blip_inner}</a:blip>', 1)


def faint_picture(lines: list[str], w: int, h: int, ink: int = 247, px: int = 40):
    from PIL import ImageDraw
    im = canvas(w, h, (255, 255, 255)).convert("L")
    d = ImageDraw.Draw(im)
    for i, t in enumerate(lines):
        d.text((30, 30 + i * int(px * 1.7)), t, fill=ink, font=font(px))
    return im


def os2_bmp(img) -> bytes:
    """A 24-bit OS/2 1.x bitmap: BITMAPFILEHEADER + BITMAPCOREHEADER (12 bytes), rows bottom-up, 4-aligned."""
    im = img.convert("RGB")
    w, h = im.size
    b, g, r = im.split()[::-1]
    from PIL import Image
    bgr = Image.merge("RGB", (b, g, r)).transpose(Image.FLIP_TOP_BOTTOM).tobytes()
    stride = (w * 3 + 3) & ~3
    rows = b"".join(bgr[y * w * 3:(y + 1) * w * 3].ljust(stride, b"\0") for y in range(h))
    core = struct.pack("<IHHHH", 12, w, h, 1, 24)
    return b"BM" + struct.pack("<IHHI", 14 + 12 + len(rows), 0, 0, 26) + core + rows


def class1() -> list[tuple]:
    """Pictures inside HWP/DOCX/HWPX in containers and display settings earlier batches did not use."""
    out = []
    # 1a: HWP: a BinData picture (phone, e-mail) and a PrvImage preview (name, RRN)
    pic = enc(draw_lines(canvas(1100, 220, (252, 252, 248)), [f"연락처 {PHONE}", f"회신 메일 {EMAIL}"], px=42, x=30,
                         y0=30, step=90), "PNG")
    prv = enc(draw_lines(canvas(720, 300, "white"), ["민원 접수증", f"신청인 {NAME}", f"주민등록번호 {RRN}"], px=36, x=30,
                         y0=30, step=80), "PNG")
    body = para("첨부 사진을 참조하십시오.") + para("끝.", last=True)
    out.append(("1", "a", "c1_hwp_bindata_picture_prvimage.hwp",
                hwp(body, bindata=[("png", pic)], prv_text=PLAIN + "\r\n첨부 사진을 참조하십시오.", prv_image=prv),
                ["PHONE", "EMAIL", "NAME", "RRN"],
                {"PHONE": "HWP BinData/BIN0001.png (deflated stream)", "EMAIL": "HWP BinData/BIN0001.png (deflated stream)",
                 "NAME": "HWP PrvImage (first-page preview)", "RRN": "HWP PrvImage (first-page preview)"}))

    # 1b: DOCX: an SVG blip (name, account) behind a harmless PNG fallback; a faint picture a:biLevel shows black
    svg = svg_text([f"신청인 {NAME}", f"환급 계좌 {ACCOUNT}"])
    fallback = enc(draw_lines(canvas(900, 220), ["(그림)"], px=40, x=30, y0=60), "PNG")
    faint = faint_picture([f"PASSPORT {PASSPORT}", f"외국인등록번호 {FRN}"], 1000, 200)
    body = (r3.para(PLAIN)
            + drawing_fx("rIdF", 1, emu(900), emu(220),
                         f'<a:extLst><a:ext uri="{SVG_EXT}"><asvg:svgBlip xmlns:asvg="{ASVG}" r:embed="rIdS"/></a:ext></a:extLst>')
            + r3.para("여권 사본 (흑백 처리):")
            + drawing_fx("rIdB", 2, emu(1000), emu(200), '<a:biLevel thresh="99000"/>') + r3.para("끝."))
    out.append(("1", "b", "c1_docx_svgblip_behind_png_bilevel_effect.docx", r3.docx(
        body, rels=[("rIdF", "image", "media/image1.png", False), ("rIdS", "image", "media/image2.svg", False),
                    ("rIdB", "image", "media/image3.png", False)],
        parts={"word/media/image1.png": fallback, "word/media/image2.svg": svg, "word/media/image3.png": enc(faint, "PNG")},
        defaults={"svg": "image/svg+xml"}),
        ["NAME", "ACCOUNT", "PASSPORT", "FRN"],
        {"NAME": "asvg:svgBlip SVG (character references) behind a PNG fallback",
         "ACCOUNT": "asvg:svgBlip SVG (character references) behind a PNG fallback",
         "PASSPORT": "faint picture shown black by a:biLevel thresh", "FRN": "faint picture shown black by a:biLevel thresh"}))

    # 1c: HWPX: a picture cropped by hp:imgClip to its title row; an OS/2 BMP with no extension
    tall = draw_lines(canvas(1100, 420, (250, 250, 250)), ["민원 처리 결과 통지", "", f"주소 {ADDR}", f"연락처 {PHONE}"],
                      px=42, x=30, y0=30, step=90)
    bmp = os2_bmp(draw_lines(canvas(1000, 130, (255, 255, 255)), [f"주민등록번호 {RRN}"], px=42, x=30, y0=40))
    clip_pic = r2.hpic("img1", 42000, 3600).replace(
        "</hp:imgRect>", '</hp:imgRect><hp:imgClip left="0" right="82500" top="0" bottom="9000"/>'
        '<hp:imgDim dimwidth="82500" dimheight="31500"/>', 1)
    out.append(("1", "c", "c1_hwpx_imgclip_cropped_os2_bmp_no_extension.hwpx", r3.hwpx(
        [r2.hrun(PLAIN), clip_pic, r2.hrun("주민등록증 사본:"), r2.hpic("img2", 40000, 5200), r2.hrun("끝.")],
        bindata={"img1.png": (enc(tall, "PNG"), "image/png"), "img2": (bmp, "image/bmp")}),
        ["ADDR", "PHONE", "RRN"],
        {"ADDR": "picture part clipped off by hp:imgClip", "PHONE": "picture part clipped off by hp:imgClip",
         "RRN": "OS/2 1.x BMP (BITMAPCOREHEADER), no extension"}))
    return out


# ------------------------------------------------------------------------------------------- class 2
VML = 'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"'
CT_NUM = "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"


def signature_line(signer: str, title: str, email: str, n: int = 1) -> str:
    return (f'<w:p><w:r><w:pict {VML}><v:shape id="sig{n}" style="width:192pt;height:96pt" o:spid="_x0000_s{1025 + n}">'
            f'<o:signatureline v:ext="edit" id="{{6E2C1A3B-0F5D-4C8E-9A1B-{n:012d}}}" provid="{{00000000-0000-0000-0000-000000000000}}" '
            f'o:suggestedsigner="{xesc(signer)}" o:suggestedsigner2="{xesc(title)}" o:suggestedsigneremail="{xesc(email)}" '
            'issignatureline="t"/></v:shape></w:pict></w:r></w:p>')


def numbering(lvl_text: str) -> str:
    return (DECL + f'<w:numbering {r2.NS}><w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="singleLevel"/>'
            f'<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="{xesc(lvl_text)}"/>'
            '<w:lvlJc w:val="left"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
            '</w:numbering>')


def numbered(text: str) -> str:
    return r3.para(text, ppr='<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>')


def app_hlinks(links: list[str]) -> str:
    """docProps/app.xml with the HLinks cache: 6 variants per link (hash, 0, 0, action, address, subaddress)."""
    v = "".join(f"<vt:variant><vt:i4>{1000 + i}</vt:i4></vt:variant><vt:variant><vt:i4>0</vt:i4></vt:variant>"
                f"<vt:variant><vt:i4>0</vt:i4></vt:variant><vt:variant><vt:i4>5</vt:i4></vt:variant>"
                f"<vt:variant><vt:lpwstr>{xesc(u)}</vt:lpwstr></vt:variant><vt:variant><vt:lpwstr></vt:lpwstr></vt:variant>"
                for i, u in enumerate(links))
    return (DECL + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" '
            'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
            f'<Application>Microsoft Office Word</Application><HLinks><vt:vector size="{6 * len(links)}" '
            f'baseType="variant">{v}</vt:vector></HLinks></Properties>')


def eml(headers: list[tuple[str, str]], parts: list[bytes], boundary: str = "=_veil8_boundary") -> bytes:
    """An RFC 5322 message, multipart/mixed of ``parts`` (each with its own MIME headers)."""
    h = "".join(f"{k}: {v}\r\n" for k, v in headers)
    h += f'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="{boundary}"\r\n\r\n'
    body = b"This is a multi-part message in MIME format.\r\n"
    for p in parts:
        body += f"\r\n--{boundary}\r\n".encode() + p
    body += f"\r\n--{boundary}--\r\n".encode()
    return h.encode("ascii") + body


def b64_lines(b: bytes) -> bytes:
    import base64
    s = base64.b64encode(b)
    return b"\r\n".join(s[i:i + 76] for i in range(0, len(s), 76))


def rfc2231(name: str, chunk: int = 10) -> str:
    """filename*0*=UTF-8''..; filename*1*=..: the UTF-8 bytes percent-encoded (RFC 2231 4.), continued over
    numbered parameters (3.) of ``chunk`` bytes each: the cuts land inside characters' byte sequences."""
    b = name.encode("utf-8")
    segs = ["".join(f"%{x:02X}" if not (chr(x).isascii() and chr(x).isalnum()) else chr(x) for x in b[i:i + chunk])
            for i in range(0, len(b), chunk)]
    return ";\r\n ".join(f"filename*{k}*={'UTF-8' + chr(39) * 2 if k == 0 else ''}{s}" for k, s in enumerate(segs))


def alt_part(plain: bytes, plain_cs: str, html: str, boundary: str = "=_veil8_alt") -> bytes:
    return (f'Content-Type: multipart/alternative; boundary="{boundary}"\r\n\r\n--{boundary}\r\n'
            f"Content-Type: text/plain; charset={plain_cs}\r\nContent-Transfer-Encoding: 7bit\r\n\r\n").encode() + plain + (
            f"\r\n--{boundary}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
           ).encode() + b64_lines(html.encode("utf-8")) + f"\r\n--{boundary}--\r\n".encode()


def class2() -> list[tuple]:
    """Hidden places and attribute values: HWP records and properties, DOCX VML/numbering/app.xml, mail headers."""
    out = []
    # 2a: HWP: click-here help text (phone), hyperlink command (e-mail), hidden comment (RRN), summary (name, address)
    t1, c1 = field("%clk", clickhere_command("연락처를 입력하세요", f"담당 {PHONE} 으로 문의"), "연락처 입력")
    t2, c2 = field("%hlk", f"mailto\\:{EMAIL};1;0;0;", "메일 보내기", fid=2)
    t3, c3 = hidden_comment(f"주민등록번호 {RRN} 확인 완료")
    body = (para("연락처: " + t1, ctrls=c1, mask=(1 << 3) | (1 << 4)) + para("회신: " + t2, ctrls=c2, mask=(1 << 3) | (1 << 4))
            + para("본인 확인: " + t3 + "완료", ctrls=c3, mask=1 << 15) + para("끝.", last=True))
    out.append(("2", "a", "c2_hwp_field_commands_hidden_comment_summary.hwp",
                hwp(body, summary={2: "민원 접수 현황", 4: NAME, 6: f"신청인 주소 {ADDR}", 8: NAME}),
                ["PHONE", "EMAIL", "RRN", "NAME", "ADDR"],
                {"PHONE": "HWP %clk field command (HelpState)", "EMAIL": "HWP %hlk field command (mailto)",
                 "RRN": "HWP hidden comment control (tcmt)", "NAME": "HwpSummaryInformation author",
                 "ADDR": "HwpSummaryInformation comments"}))

    # 2b: DOCX: signature line (name, e-mail), numbering level text (account), HLinks tel: (phone)
    body = (r3.para(PLAIN) + numbered("환급금은 아래 계좌로 지급합니다.") + numbered("지급일은 12월 20일입니다.")
            + r3.para("확인자 서명:") + signature_line(NAME, "신청인", EMAIL) + r3.para("끝."))
    data = r3.docx(body, rels=[("rIdN", "numbering", "numbering.xml", False)],
                   parts={"word/numbering.xml": numbering(f"계좌 {ACCOUNT} - %1.")}, overrides={"/word/numbering.xml": CT_NUM})
    data = r4.rezip(data, replace={"docProps/app.xml": lambda b: app_hlinks([f"tel:{PHONE}", "https://www.example.go.kr/"]).encode()})
    out.append(("2", "b", "c2_docx_signature_line_lvltext_hlinks_cache.docx", data,
                ["NAME", "EMAIL", "ACCOUNT", "PHONE"],
                {"NAME": "VML o:signatureline o:suggestedsigner", "EMAIL": "VML o:signatureline o:suggestedsigneremail",
                 "ACCOUNT": "numbering w:lvlText literal", "PHONE": "docProps/app.xml HLinks tel:"}))

    # 2c: .eml: RFC 2231 attachment name (name, RRN), Disposition-Notification-To (e-mail), tel: in the HTML part
    html = ('<html><body><p>민원 처리 결과를 첨부합니다.</p><p><a href="tel:' + PHONE.replace("-", "")
            + '">담당자에게 전화</a></p></body></html>')
    att = (f"Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
           f"Content-Disposition: attachment;\r\n {rfc2231(f'{NAME}_{RRN}_주민등록등본.txt')}\r\n\r\n").encode()
    att += b64_lines("민원 처리 결과: 접수 완료\r\n".encode("utf-8"))
    data = eml([("From", "=?UTF-8?B?" + __import__("base64").b64encode("민원실".encode()).decode() + "?= <minwon@example.go.kr>"),
                ("To", "office@example.go.kr"), ("Subject", "=?UTF-8?B?" + __import__("base64").b64encode("민원 처리 결과".encode()).decode() + "?="),
                ("Date", "Thu, 04 Dec 2025 10:12:00 +0900"), ("Message-ID", "<20251204101200.8a@example.go.kr>"),
                ("Disposition-Notification-To", f"<{EMAIL}>")],
               [alt_part("민원 처리 결과를 첨부합니다.".encode("iso2022_kr"), "iso-2022-kr", html), att])
    out.append(("2", "c", "c2_eml_rfc2231_filename_notification_to_tel_link.eml", data,
                ["NAME", "RRN", "EMAIL", "PHONE"],
                {"NAME": "RFC 2231 continued filename*", "RRN": "RFC 2231 continued filename*",
                 "EMAIL": "Disposition-Notification-To header (RFC 8098)", "PHONE": "tel: href in the HTML part"}))
    return out


# ------------------------------------------------------------------------------------------- class 3
FONT = r2.FONT


def cid_font(text: str, first_obj: int, drop_cmap: bool, to_unicode: bool) -> tuple[list[bytes], dict[str, int]]:
    """A Type0 font (Identity-H) over a CIDFontType2 of NanumGothic subset to ``text``'s glyphs; CIDs are the
    subset's GIDs (/CIDToGIDMap /Identity). ``drop_cmap``: the subset has no cmap table and post format 3 (no
    glyph names). Objects first_obj.. : Type0, CIDFont, descriptor, FontFile2[, ToUnicode]."""
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    f = TTFont(str(FONT))
    opt = subset.Options()
    opt.glyph_names = False
    opt.notdef_outline = True
    sub = subset.Subsetter(opt)
    sub.populate(text=text)
    sub.subset(f)
    cmap = f.getBestCmap()
    order = f.getGlyphOrder()
    gid = {ch: order.index(cmap[ord(ch)]) for ch in set(text) if ord(ch) in cmap}
    if drop_cmap:
        del f["cmap"]
        f["post"].formatType = 3.0
    b = io.BytesIO()
    f.save(b)
    ff = b.getvalue()
    upm = f["head"].unitsPerEm
    widths = " ".join(f"{g} [{int(f['hmtx'][order[g]][0] * 1000 / upm)}]" for g in sorted(set(gid.values())))
    n0 = first_obj
    objs = [(f"<< /Type /Font /Subtype /Type0 /BaseFont /VEILAA+NanumGothic /Encoding /Identity-H "
             f"/DescendantFonts [{n0 + 1} 0 R]" + (f" /ToUnicode {n0 + 4} 0 R" if to_unicode else "") + " >>").encode(),
            (f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /VEILAA+NanumGothic /CIDSystemInfo << /Registry (Adobe) "
             f"/Ordering (Identity) /Supplement 0 >> /FontDescriptor {n0 + 2} 0 R /CIDToGIDMap /Identity /DW 1000 "
             f"/W [{widths}] >>").encode(),
            (f"<< /Type /FontDescriptor /FontName /VEILAA+NanumGothic /Flags 4 /FontBBox [-100 -250 1100 950] "
             f"/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 {n0 + 3} 0 R >>").encode(),
            r3.stream(b"/Length1 %d /Filter /FlateDecode" % len(ff), zlib.compress(ff))]
    if to_unicode:
        pairs = "".join(f"<{g:04X}> <{ord(c):04X}>\n" for c, g in sorted(gid.items(), key=lambda t: t[1]))
        cm = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) "
              "/Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def 1 "
              "begincodespacerange <0000> <FFFF> endcodespacerange "
              f"{len(gid)} beginbfchar\n{pairs}endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
        objs.append(r3.stream(b"", cm.encode()))
    return objs, gid


def hexs(s: str, gid: dict[str, int]) -> bytes:
    return b"<" + "".join(f"{gid[c]:04X}" for c in s).encode() + b">"


def class3() -> list[tuple]:
    """PDF glyphs a text layer cannot map, shows out of order, or shows through less common operators."""
    out = []
    vis = b"BT /F1 12 Tf 60 800 Td (Civil petition receipt, December) Tj ET\n"
    # 3a: a CID font with no cmap, no ToUnicode, no glyph names (name, RRN)
    lines = [f"신청인 {NAME}", f"주민등록번호 {RRN}"]
    objs, gid = cid_font("".join(lines), 5, drop_cmap=True, to_unicode=False)
    cs = vis + b"".join(b"BT /F2 26 Tf 60 %d Td %s Tj ET\n" % (720 - 50 * i, hexs(t, gid)) for i, t in enumerate(lines))
    pdf = r3.pdf([(cs, f"<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> /F2 5 0 R >> >>")], objs)
    out.append(("3", "a", "c3_cid_font_no_cmap_no_tounicode.pdf", pdf, ["NAME", "RRN"],
                {"NAME": "CIDFontType2 Identity-H, subset without cmap, no ToUnicode",
                 "RRN": "CIDFontType2 Identity-H, subset without cmap, no ToUnicode"}))

    # 3b: glyphs of a mapped font shown one by one in shuffled order with absolute matrices (address, phone, name)
    lines = [(f"주소: {ADDR}", 700), (f"연락처: {PHONE}", 650), (f"성명: {NAME}", 600)]
    objs, gid = cid_font("".join(t for t, _ in lines), 5, drop_cmap=False, to_unicode=True)
    from fontTools.ttLib import TTFont
    f = TTFont(str(FONT))
    hm, cm, upm = f["hmtx"], f.getBestCmap(), f["head"].unitsPerEm
    glyphs = []
    for t, y in lines:
        x = 60.0
        for c in t:
            if c != " ":
                glyphs.append((x, y, c))
            x += hm[cm[ord(c)]][0] * 20 / upm
    random.Random(88).shuffle(glyphs)
    cs = vis + b"BT /F2 20 Tf\n" + b"".join(b"1 0 0 1 %.2f %d Tm %s Tj\n" % (x, y, hexs(c, gid)) for x, y, c in glyphs) + b"ET\n"
    pdf = r3.pdf([(cs, f"<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> /F2 5 0 R >> >>")], objs)
    out.append(("3", "b", "c3_glyphs_shown_in_shuffled_order.pdf", pdf, ["ADDR", "PHONE", "NAME"],
                {k: "glyphs shown one by one in shuffled order (absolute Tm)" for k in ("ADDR", "PHONE", "NAME")}))

    # 3c: ' and " operators, text rise, horizontal scaling, char spacing, a sheared matrix (account, passport, e-mail)
    cs = (vis + b"BT /F1 16 Tf 20 TL 1 0 0.35 1 60 740 Tm (Refund details:) Tj\n"
          b"5 Ts 140 Tz (Account " + ACCOUNT.encode() + b") '\n"
          b"-3 Ts 70 Tz 1.5 0.8 (Passport " + PASSPORT.encode() + b") \"\n"
          b"0 Ts 100 Tz 0 0 (Mail " + EMAIL.encode() + b") \"\nET\n")
    pdf = r3.pdf([(cs, "<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>")])
    out.append(("3", "c", "c3_quote_operators_rise_scaling_shear.pdf", pdf, ["ACCOUNT", "PASSPORT", "EMAIL"],
                {"ACCOUNT": "' operator, Ts rise, Tz 140, sheared Tm", "PASSPORT": "\" operator (word/char spacing), Tz 70",
                 "EMAIL": "\" operator"}))
    return out


# ------------------------------------------------------------------------------------------- class 4
def class4() -> list[tuple]:
    """Scans OCR reads badly: relief without ink, camera shake on pencil, halftone screens."""
    import numpy as np
    from PIL import Image, ImageChops, ImageDraw, ImageFilter
    out = []
    # 4a: an embossed bank card: the characters are raised (light from the top left), no ink at all
    W, H = 1400, 860
    nr = np.random.default_rng(81)
    base = np.zeros((H, W, 3), dtype=np.float32)
    yy, xx = np.mgrid[0:H, 0:W]
    for c, (a, b) in enumerate(((150, 60), (160, 70), (175, 90))):
        base[..., c] = a + b * (xx / W) * (1 - yy / H)
    base += nr.normal(0, 4, base.shape)
    card = Image.fromarray(base.clip(0, 255).astype("uint8"))
    d = ImageDraw.Draw(card)
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=60, outline=(120, 120, 130), width=4)
    d.text((80, 70), "VEIL BANK  체크카드", fill=(240, 240, 245), font=font(52))       # the printed logo
    d.rectangle((110, 230, 280, 350), fill=(200, 170, 90))                               # the chip
    height = Image.new("L", (W, H), 0)
    hd = ImageDraw.Draw(height)
    hd.text((110, 420), ACCOUNT.replace("-", " "), fill=255, font=font(92))
    hd.text((110, 600), NAME_EN, fill=255, font=font(70))
    hb = height.filter(ImageFilter.GaussianBlur(2.2))
    h = np.asarray(hb, dtype=np.float32) / 255
    shade = (np.roll(np.roll(h, 3, 0), 3, 1) - np.roll(np.roll(h, -3, 0), -3, 1))      # lit from the top left
    arr = np.asarray(card, dtype=np.float32) + shade[..., None] * 70
    out.append(("4", "a", "c4_embossed_bank_card_no_ink.png", enc(Image.fromarray(arr.clip(0, 255).astype("uint8")), "PNG"),
                ["ACCOUNT", "NAME_EN"],
                {"ACCOUNT": "embossed digits (relief, no ink)", "NAME_EN": "embossed letters (relief, no ink)"}))

    # 4b: pencil on ruled notebook paper, low light, camera shake
    rnd = random.Random(82)
    W, H = 1500, 900
    paper = Image.new("RGB", (W, H), (238, 236, 226))
    d = ImageDraw.Draw(paper)
    for y in range(120, H, 62):
        d.line((0, y, W, y), fill=(160, 190, 220), width=2)
    d.line((140, 0, 140, H), fill=(220, 150, 150), width=2)
    layer = Image.new("RGB", (W, H), (0, 0, 0))
    for i, t in enumerate([f"{NAME} 님 연락처", PHONE, f"주소: {ADDR}"]):
        r7.jitter_text(layer, (170, 118 + i * 124 - 56), t, 54, (255, 255, 255), rnd)
    layer = layer.convert("L")
    grain = Image.fromarray((nr.random((H, W)) > 0.2).astype("uint8") * 255)
    layer = ImageChops.multiply(layer, grain).filter(ImageFilter.GaussianBlur(0.6))
    g = np.asarray(layer, dtype=np.float32) / 255 * 0.7
    arr = np.asarray(paper, dtype=np.float32) * (1 - g[..., None]) + np.array([70, 70, 78]) * g[..., None]
    k = np.zeros(7, dtype=np.float32) + 1 / 7                                                # shake: 7 px, diagonal
    blur = np.zeros_like(arr)
    for i, wt in enumerate(k):
        blur += np.roll(np.roll(arr, i - 3, 1), (i - 3) // 3, 0) * wt
    vig = 1 - 0.45 * ((np.linspace(-1, 1, W)[None, :] ** 2 + np.linspace(-1, 1, H)[:, None] ** 2) / 2)
    dark = blur * vig[..., None] * 0.72 + nr.normal(0, 4, blur.shape)
    out.append(("4", "b", "c4_pencil_notebook_low_light_camera_shake.jpg",
                enc(Image.fromarray(dark.clip(0, 255).astype("uint8")), "JPEG", quality=80), ["NAME", "PHONE", "ADDR"],
                {k: "pencil on ruled paper, low light, motion blur" for k in ("NAME", "PHONE", "ADDR")}))

    # 4c: a tinted form printed with AM halftone screens (C 15, M 75, Y 0, K 45 degrees), scanned at 150 dpi
    W, H = 2400, 1300
    form = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(form)
    d.rectangle((0, 0, W, 190), fill=(120, 160, 210))
    d.text((60, 50), "건강보험 자격 확인서", fill=(255, 255, 255), font=font(90))
    d.rectangle((40, 260, W - 40, H - 60), fill=(225, 235, 250))
    for i, t in enumerate([f"주민등록번호  {RRN}", f"이메일  {EMAIL}"]):
        d.text((90, 360 + i * 330), t, fill=(70, 80, 120), font=font(120))
    rgb = np.asarray(form, dtype=np.float32) / 255
    kk = 1 - rgb.max(-1)
    cmyk = [(1 - rgb[..., i] - kk) / np.maximum(1 - kk, 1e-3) for i in range(3)] + [kk]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    inks = np.ones((H, W, 3), dtype=np.float32)
    cell = 9.0
    for v, ang, col in zip(cmyk, (15, 75, 0, 45), ((0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 1, 1))):
        a = math.radians(ang)
        u = (xx * math.cos(a) + yy * math.sin(a)) / cell
        w_ = (-xx * math.sin(a) + yy * math.cos(a)) / cell
        dist = np.hypot(u - np.round(u), w_ - np.round(w_))
        dot = dist < np.sqrt(np.clip(v, 0, 1) / math.pi)
        for c in range(3):
            if col[c]:
                inks[..., c] *= np.where(dot, 0.08, 1.0)
    scan = Image.fromarray((inks * 255).astype("uint8")).resize((W * 150 // 400, H * 150 // 400), Image.BILINEAR)
    b = io.BytesIO()
    scan.save(b, "TIFF", compression="tiff_lzw", dpi=(150, 150))
    out.append(("4", "c", "c4_halftone_rosette_form_scan_150dpi.tif", b.getvalue(), ["RRN", "EMAIL"],
                {"RRN": "AM halftone rosette, 150 dpi scan", "EMAIL": "AM halftone rosette, 150 dpi scan"}))
    return out


# ------------------------------------------------------------------------------------------- class 5
EN_DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def class5() -> list[tuple]:
    """Text the detector does not read: records laid out downwards, dingbat digits and number words, old mail."""
    out = []
    # 5a: a record sheet laid out downwards (one record per column), the values split over rows
    sur, given = NAME[0], NAME[1:]
    rrn_a, rrn_b = RRN.split("-")
    p = PHONE.split("-")
    a = ADDR.split(" ")
    rows = [["항목", "신청 1", "신청 2"], ["접수번호", "2025-1204-01", "2025-1204-02"], ["성", sur, "-"], ["이름", given, "-"],
            ["주민등록번호(앞)", rrn_a, "-"], ["주민등록번호(뒤)", rrn_b, "-"], ["연락처(국번)", p[0], "-"],
            ["연락처(앞)", p[1], "-"], ["연락처(뒤)", p[2], "-"], ["주소(시도)", a[0], "-"], ["주소(시군구)", " ".join(a[1:3]), "-"],
            ["주소(도로명)", " ".join(a[3:]), "-"], ["처리 상태", "접수", "반려"]]
    csv = "\r\n".join(",".join(f'"{c}"' if "," in c else c for c in r) for r in rows) + "\r\n"
    out.append(("5", "a", "c5_csv_record_sheet_downwards_values_split_over_rows.csv", ("\ufeff" + csv).encode("utf-8"),
                ["NAME", "RRN", "PHONE", "ADDR"],
                {k: "one record per column, the value split over labelled rows" for k in ("NAME", "RRN", "PHONE", "ADDR")}))

    # 5b: dingbat digits, English number words, ideographic spaces, at/dot
    zero = {0x2776: "\u24ff", 0x278A: "\U0001f10c"}       # ⓿ negative circled zero, 🄌 dingbat negative sans-serif zero

    def dd(s: str, base: int) -> str:
        return "".join((chr(base + int(c) - 1) if c != "0" else zero[base]) if c.isdigit() else c for c in s)
    words = " ".join(EN_DIGITS[int(c)] if c.isdigit() else "dash" for c in PHONE)
    memo = ("[상담 메모 - 12월 4일]\n"
            f"신청인: {chr(0x3000).join(NAME)}\n"
            f"주민등록번호: {dd(RRN, 0x2776)}\n"
            f"환급 계좌: {dd(ACCOUNT, 0x278A)}\n"
            f"연락처 (영어로 불러 주심): {words}\n"
            f"메일: {EMAIL.replace('@', ' at ').replace('.', ' dot ')}\n"
            "처리: 서류 보완 요청 예정.\n")
    out.append(("5", "b", "c5_memo_dingbat_digits_number_words_spaced_name.txt", memo.encode("utf-8"),
                ["NAME", "RRN", "ACCOUNT", "PHONE", "EMAIL"],
                {"NAME": "ideographic spaces between syllables", "RRN": "dingbat negative circled digits (U+2776..)",
                 "ACCOUNT": "dingbat negative circled sans-serif digits (U+278A..)",
                 "PHONE": "English number words", "EMAIL": "' at ' / ' dot ' spelled"}))

    # 5c: .eml: the text part in ISO-2022-KR (name, address), the HTML part with the FRN as character references
    plain = (f"안녕하십니까.\r\n신청인 {NAME} 님의 서류를 보내 드립니다.\r\n주소: {ADDR}\r\n감사합니다.\r\n").encode("iso2022_kr")
    frn_html = "".join(f"<span>&#{ord(c)};</span>" for c in FRN)
    html = ("<html><body><p>서류를 보내 드립니다.</p><table><tr><td>외국인등록번호</td><td>" + frn_html
            + "</td></tr></table></body></html>")
    import base64
    data = eml([("From", "=?ISO-2022-KR?B?" + base64.b64encode("민원실".encode("iso2022_kr")).decode() + "?= <minwon@example.go.kr>"),
                ("To", "office@example.go.kr"), ("Subject", "=?ISO-2022-KR?B?" + base64.b64encode("서류 송부".encode("iso2022_kr")).decode() + "?="),
                ("Date", "Thu, 04 Dec 2025 11:02:00 +0900"), ("Message-ID", "<20251204110200.8c@example.go.kr>")],
               [alt_part(plain, "iso-2022-kr", html)])
    out.append(("5", "c", "c5_eml_iso2022kr_text_html_char_references.eml", data, ["NAME", "ADDR", "FRN"],
                {"NAME": "ISO-2022-KR text part (RFC 1557)", "ADDR": "ISO-2022-KR text part (RFC 1557)",
                 "FRN": "HTML numeric character references, a span per digit"}))
    return out


# ------------------------------------------------------------------------------------------- class 6
def class6() -> list[tuple]:
    """Controls: the same structures holding no personal data."""
    import base64
    out = []
    # 6a: HWP notice: click-here field, https hyperlink field, hidden comment, summary of an office, logo, preview
    logo = enc(draw_lines(canvas(600, 120, (240, 246, 252)), ["청주시 민원실"], px=44, x=30, y0=30), "PNG")
    prv = enc(draw_lines(canvas(720, 200, "white"), ["민원실 이전 안내", "본관 1층 -> 별관 2층"], px=36, x=30, y0=30, step=80), "PNG")
    t1, c1 = field("%clk", clickhere_command("부서명을 입력하세요", "예: 민원과"), "부서명")
    t2, c2 = field("%hlk", "https\\://www.example.go.kr/notice;1;0;0;", "안내 페이지", fid=2)
    t3, c3 = hidden_comment("게시 기간: 12월 한 달")
    body = (para("민원실 이전 안내: 12월 8일부터 별관 2층에서 접수합니다.") + para("담당 부서: " + t1, ctrls=c1, mask=24)
            + para("자세한 내용: " + t2, ctrls=c2, mask=24) + para("게시 " + t3 + "안내", ctrls=c3, mask=1 << 15)
            + para("끝.", last=True))
    out.append(("6", "a", "c6_hwp_notice_fields_comment_summary_logo.hwp",
                hwp(body, bindata=[("png", logo)], summary={2: "민원실 이전 안내", 4: "총무과", 6: "게시용", 8: "총무과"},
                    prv_text="민원실 이전 안내", prv_image=prv), [], {}))

    # 6b: DOCX: SVG-blip chart, a bi-level picture, a signature line for a title, numbered articles, https HLinks
    svg = svg_text(["월별 민원 접수", "9월 412  10월 438  11월 395"])
    faint = faint_picture(["본관 출입구 공사 중", "별관 출입구를 이용해 주십시오"], 1000, 200)
    fallback = enc(draw_lines(canvas(900, 220), ["(차트)"], px=40, x=30, y0=60), "PNG")
    body = (r3.para("민원실 운영 규정 개정 안내") + numbered("운영 시간은 평일 09시부터 18시까지로 한다.")
            + numbered("점심시간에도 접수 창구 1곳을 운영한다.")
            + drawing_fx("rIdF", 1, emu(900), emu(220),
                         f'<a:extLst><a:ext uri="{SVG_EXT}"><asvg:svgBlip xmlns:asvg="{ASVG}" r:embed="rIdS"/></a:ext></a:extLst>')
            + drawing_fx("rIdB", 2, emu(1000), emu(200), '<a:biLevel thresh="99000"/>')
            + r3.para("결재:") + signature_line("민원실장", "민원실", "") + r3.para("끝."))
    data = r3.docx(body, rels=[("rIdN", "numbering", "numbering.xml", False), ("rIdF", "image", "media/image1.png", False),
                               ("rIdS", "image", "media/image2.svg", False), ("rIdB", "image", "media/image3.png", False)],
                   parts={"word/numbering.xml": numbering("제%1조"), "word/media/image1.png": fallback,
                          "word/media/image2.svg": svg, "word/media/image3.png": enc(faint, "PNG")},
                   overrides={"/word/numbering.xml": CT_NUM}, defaults={"svg": "image/svg+xml"})
    data = r4.rezip(data, replace={"docProps/app.xml": lambda b: app_hlinks(["https://www.example.go.kr/rules"]).encode()})
    out.append(("6", "b", "c6_docx_svgblip_bilevel_signature_title_numbering.docx", data, [], {}))

    # 6c: .eml in ISO-2022-KR with an HTML alternative (character references) and an RFC 2231 attachment name
    plain = "안녕하십니까.\r\n12월 민원 회의 자료를 보내 드립니다.\r\n회의: 12월 10일 14시, 별관 2층 회의실\r\n".encode("iso2022_kr")
    html = ("<html><body><p>" + "".join(f"&#{ord(c)};" for c in "12월 민원 회의 자료")
            + '</p><p><a href="https://www.example.go.kr/meeting">회의 안내</a></p></body></html>')
    att = (f"Content-Type: text/csv; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n"
           f"Content-Disposition: attachment;\r\n {rfc2231('12월_민원_회의_안건_목록.csv')}\r\n\r\n").encode()
    att += b64_lines("번호,안건\r\n1,민원실 이전\r\n2,대기 시간 단축\r\n".encode("utf-8"))
    data = eml([("From", "=?ISO-2022-KR?B?" + base64.b64encode("민원과".encode("iso2022_kr")).decode() + "?= <minwon@example.go.kr>"),
                ("To", "office@example.go.kr"), ("Subject", "=?ISO-2022-KR?B?" + base64.b64encode("회의 자료".encode("iso2022_kr")).decode() + "?="),
                ("Date", "Thu, 04 Dec 2025 13:30:00 +0900"), ("Message-ID", "<20251204133000.8e@example.go.kr>")],
               [alt_part(plain, "iso-2022-kr", html), att])
    out.append(("6", "c", "c6_eml_iso2022kr_html_refs_rfc2231_attachment.eml", data, [], {}))
    return out


# --------------------------------------------------------------------------------------------- driver
def generate(dest: Path) -> list[dict]:
    _check_values()
    return r4.write_corpus(dest, class1() + class2() + class3() + class4() + class5() + class6(), VALUES)


def main(argv: list[str]) -> int:
    import redteam8_oracle as o8
    return r4.cli(argv, generate, o8)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
