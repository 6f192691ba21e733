"""A second opinion on every export (issue 26): detection run again over every text view of the OUTPUT,
so a value the reviewer's detector missed — and the fail-closed leak check therefore never looked for —
can still be caught. No Qt.

The views are read here from the output bytes by a path of their own (not the readers'): a text output as
text; every XML member of a DOCX/HWPX package as the text of its elements and, separately, the values of
its attributes and what its markup holds (unknown namespace URIs, comments, PIs, declarations, names);
plain-text members (``Preview/PrvText.txt``); the paragraph-text records of every HWP section and the other
HWP streams' UTF-16 text; a mail output (``.eml``) through the standard library's mail parser (shown
headers and text bodies decoded, visible; other headers and non-text parts hidden). Rasterised outputs (PDF, images) carry no text: their
scanned pages are read again by OCR in the leak check.

Each view is *visible* (a reader of the output sees it as the document's text: body, headers, footers,
notes, comments) or *hidden* (metadata, settings, custom XML, attribute values, previews). Findings:

- **blocking** (the export fails closed, *needs review*, naming the place): in a hidden view, a validated
  personal identifier (``RuleDetector``; ``BLOCKING_RULE_LABELS``: phone, RRN, card, account, e-mail, …), a digit run that reads
  as an RRN (13 digits), a mobile number (01x + 8 digits) or a card (16 digits) with or without
  separators, or a model finding of PERSON / ADDRESS / ORGANIZATION at or above ``HIDDEN_MIN_SCORE``
  — in element text; in attribute values only an e-mail or a phone/RRN written with separators (a
  package's attributes are full of numeric codes, and font and style names are too often read as names);
- **possible misses** (listed in the export summary and the report, not blocking): findings in visible
  views at or above ``VISIBLE_MIN_SCORE`` (a low threshold) — the reviewer saw that text and decided.

A finding that is one of the output's own replacement texts (``[인명]``, ``인물1``) is ignored. Places are
named (member / stream and label), never the value.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Callable, Iterable

from .errors import DocumentError

HIDDEN_MIN_SCORE = 0.5
VISIBLE_MIN_SCORE = 0.3
MAX_VIEW_CHARS = 2_000_000
MODEL_LABELS = frozenset({"PERSON", "ADDRESS", "ORGANIZATION"})
#: structured identifiers that block in a hidden view: personal numbers and addresses of a person. URLs,
#: postal codes, document/case numbers and the like are left out: a package's own structure is full of
#: schema URLs and numbers (the false alarms of issue 26 class 6)
BLOCKING_RULE_LABELS = frozenset({"PHONE", "RRN", "FOREIGNER_RN", "EMAIL", "CARD", "ACCOUNT", "PASSPORT",
                                  "DRIVER_LICENSE", "HEALTH_INSURANCE", "MEDICAL_ID"})

_RUN_TEXT = frozenset({"t", "delText", "instrText", "char"})
_ATTRIBUTE_LABELS = frozenset({"EMAIL", "PHONE", "RRN", "FOREIGNER_RN"})
#: digit runs that need no separator or check digit
_DIGITS = re.compile(r"(?<![0-9])(?:[0-9][ .\-]?){9,19}[0-9](?![0-9])")
_VISIBLE_MEMBERS = re.compile(
    r"^(?:word/(?:document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml"
    r"|Contents/(?:section\d+|header\d*|footer\d*)\.xml)$")


@dataclass(frozen=True)
class View:
    place: str
    text: str
    visible: bool
    attributes: bool = False


@dataclass(frozen=True)
class Finding:
    place: str
    label: str
    visible: bool
    score: float
    how: str          # "rule", "model" or "digits"


def _digit_kind(run: str) -> str | None:
    d = re.sub(r"[^0-9]", "", run)
    if len(d) == 13 and d[6] in "12345678":
        return "RRN"
    if len(d) in (10, 11) and d.startswith("01"):
        return "PHONE"
    if len(d) == 16:
        return "CARD"
    return None


def _xml_views(name: str, data: bytes) -> list[View]:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return [View(name, data.decode("utf-8", "replace")[:MAX_VIEW_CHARS], False)]
    if root is None:
        return []
    texts, attrs = [], []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        local = el.tag.rsplit("}", 1)[-1]
        if el.text:
            # runs of one paragraph (w:t, a:t, hp:t) join as written; any other element's text is a value
            # of its own (a chart cache point, a formula reference): kept apart, never glued to its neighbour
            texts.append(el.text if local in _RUN_TEXT else f"\n{el.text}\n")
        if local in ("p", "tc", "br", "tab", "cr", "t") and texts and not texts[-1].endswith("\n"):
            texts.append("\n" if local != "t" else "")
        for v in el.attrib.values():
            if v.strip():
                attrs.append(v)
        if el.tail and el.getparent() is not None:
            texts.append(el.tail)
    visible = bool(_VISIBLE_MEMBERS.match(name))
    return [View(name, "".join(texts)[:MAX_VIEW_CHARS], visible),
            View(name + " (attributes)", "\n".join(attrs)[:MAX_VIEW_CHARS], False, attributes=True),
            _markup_view(name, data.decode("utf-8", "replace"))]


_NS_DECL = re.compile(r"""\sxmlns(?::[^\s=]+)?\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_HIDDEN_MARKUP = re.compile(r"<!--(.*?)-->|<\?(?!xml[\s?])(.*?)\?>|<!(?!--|\[CDATA\[)([^<>]*)", re.S)


def _markup_view(name: str, text: str) -> View:
    """What the markup itself holds (issue 26, class 2), a hidden view: namespace URIs the formats do not
    define, comments, processing instructions, DOCTYPE/ENTITY declarations, names that could be text
    (``<acct:정하람/>``). The writers leave none of these in an output, so anything here is a miss."""
    from .leakcheck import _personal_names
    from .namespaces import known_namespace

    found = [a or b for a, b in _NS_DECL.findall(text) if not known_namespace(a or b)]
    found += [x or y or z for x, y, z in _HIDDEN_MARKUP.findall(text)]
    found.append(_personal_names(text))
    return View(name + " (markup)", "\n".join(f for f in found if f.strip())[:MAX_VIEW_CHARS], False)


def _zip_views(data: bytes) -> list[View]:
    from .safezip import iter_members

    out: list[View] = []
    for name, payload in iter_members(data, "output", nested=True):
        head = payload[:64].lstrip()
        if name.lower().endswith((".xml", ".rels", ".hpf")) or head.startswith(b"<"):
            out += _xml_views(name, payload)
        elif name.lower().endswith(".txt"):
            out.append(View(name, _decode_text(payload)[:MAX_VIEW_CHARS], _is_preview_text(name)))
    return out


def _hwp_views(data: bytes) -> list[View]:
    import olefile

    from .leakcheck_hwp import _inflate, _para_text, _records

    out: list[View] = []
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except (OSError, ValueError) as e:
        raise DocumentError(f"the HWP output cannot be re-read ({e})") from None
    with ole:
        for parts in ole.listdir(streams=True, storages=False):
            name = "/".join(parts)
            raw = ole.openstream(parts).read()
            content = _inflate(raw)
            stream = content if isinstance(content, bytes) else raw
            recs = _records(stream)
            if recs is not None and name.startswith(("BodyText/", "DocInfo")):
                text = "\n".join(_para_text(p) for tag, p in recs if tag == 0x43)
                out.append(View(name, text[:MAX_VIEW_CHARS], name.startswith("BodyText/")))
            else:
                out.append(View(name, stream.decode("utf-16-le", "ignore")[:MAX_VIEW_CHARS],
                                _is_preview_text(name)))
    return out


def _is_preview_text(name: str) -> bool:
    """The preview text (HWPX ``Preview/PrvText.txt``, HWP ``PrvText``) is the body's text again, rebuilt
    from the masked body by the writer: it counts as visible, like the body it repeats."""
    return name.rsplit("/", 1)[-1].lower() in ("prvtext.txt", "prvtext")


def _decode_text(data: bytes) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", "replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp949", "replace")


def text_views(data: bytes, kind: str) -> list[View]:
    """The output's text views for a leak-check ``kind`` ("text", "zip", "hwp", "eml"; others: none)."""
    if kind == "text":
        for codec in ("utf-8-sig", "utf-16", "cp949"):
            try:
                return [View("text", data.decode(codec)[:MAX_VIEW_CHARS], True)]
            except UnicodeDecodeError:
                continue
        return [View("text", data.decode("utf-8", "replace")[:MAX_VIEW_CHARS], True)]
    if kind == "zip":
        return _zip_views(data)
    if kind == "hwp":
        return _hwp_views(data)
    if kind == "eml":
        return _eml_views(data)
    return []


#: the headers a mail program shows (the others of an output are the MIME headers the writer adds)
_SHOWN_MAIL_HEADERS = frozenset({"from", "sender", "reply-to", "to", "cc", "bcc", "date", "subject"})


def _eml_views(data: bytes) -> list[View]:
    """A mail output read through the standard library's parser (not the tool's mail reader): the shown
    headers (decoded) and every text part's decoded body are visible; any other header and the bytes of
    a part that is not text are hidden views."""
    import email
    import email.policy

    try:
        msg = email.message_from_bytes(data, policy=email.policy.default)
        shown, other = [], []
        for name, value in msg.items():
            (shown if name.lower() in _SHOWN_MAIL_HEADERS else other).append(f"{name}: {value}")
        views = [View("mail headers", "\n".join(shown)[:MAX_VIEW_CHARS], True),
                 View("mail headers (other)", "\n".join(other)[:MAX_VIEW_CHARS], False)]
        for i, part in enumerate(msg.walk()):
            if part.is_multipart():
                continue
            place = f"mail part {i} ({part.get_content_type()})"
            if part.get_content_maintype() == "text":
                views.append(View(place, part.get_content()[:MAX_VIEW_CHARS], True))
            else:
                views.append(View(place, _decode_text(part.get_payload(decode=True) or b"")[:MAX_VIEW_CHARS],
                                  False))
        return views
    except Exception:  # noqa: BLE001 - the leak check already failed closed on an unparsable mail
        return [View("mail (raw)", _decode_text(data)[:MAX_VIEW_CHARS], False)]


def _read_as_shown(rules: Callable[[str], list]) -> Callable[[str], list]:
    """``rules`` over the text as written and over its detection view (what a reader sees: keycap, Hanja and
    superscript digits, compatibility jamo, markup, bidi display order, box-table rows …), the view's spans
    mapped back to the text. The default detector (``detect``) reads the view itself; the bare rule stage
    handed in here does not."""
    from ..detect.normalize import detection_view

    def run(text: str) -> list:
        spans = list(rules(text))
        view = detection_view(text, spaced_digits=True)
        if view.changed:
            spans += view.spans_to_original(rules(view.text))
        return spans

    return run


def _digit_runs(text: str) -> list[str]:
    """Digit runs of ``text`` and of its detection view (``٠١٠``, ``〇一〇``, ``⁰¹⁰``, ``0️⃣1️⃣0️⃣`` read as digits)."""
    from ..detect.normalize import detection_view

    runs = [m.group(0) for m in _DIGITS.finditer(text)]
    view = detection_view(text, spaced_digits=True)
    if view.text != text:
        runs += [m.group(0) for m in _DIGITS.finditer(view.text)]
    return runs


def second_opinion(views: Iterable[View], detect: Callable[[str], list], rules: Callable[[str], list],
                   masks: Iterable[str] = ()) -> tuple[list[Finding], list[Finding]]:
    """``(blocking, possible_misses)`` over ``views``; ``detect(text)`` = the default detector's spans,
    ``rules(text)`` = the structured rule stage's (read here over each view's text and its detection view);
    ``masks``: the output's replacement texts."""
    masks = {m.strip() for m in masks if m and m.strip()}
    rules = _read_as_shown(rules)
    blocking: list[Finding] = []
    possible: list[Finding] = []
    for v in views:
        if not v.text.strip():
            continue

        def own(s) -> bool:
            value = v.text[s.start:s.end].strip()
            return not value or value in masks or any(value in m for m in masks)

        if not v.visible and v.attributes:
            # attribute values: a package is full of numeric codes (font signatures, panose, ids), so only
            # identifiers written the way people write them count: an e-mail, or a number with separators
            for s in rules(v.text):
                value = v.text[s.start:s.end]
                if s.label in _ATTRIBUTE_LABELS and ("@" in value or "-" in value) and not own(s):
                    blocking.append(Finding(v.place, s.label, False, float(s.score), "rule"))
        elif not v.visible:
            for s in rules(v.text):
                if s.label in BLOCKING_RULE_LABELS and not own(s):
                    blocking.append(Finding(v.place, s.label, False, float(s.score), "rule"))
            for run in _digit_runs(v.text):
                kind = _digit_kind(run)
                if kind:
                    blocking.append(Finding(v.place, kind, False, 1.0, "digits"))
            if True:  # element text of a hidden part: the model too
                for s in detect(v.text):     # the model's own finding, not the rule grammar's
                    if (s.label in MODEL_LABELS and s.source == "model" and s.score >= HIDDEN_MIN_SCORE
                            and not own(s)):
                        blocking.append(Finding(v.place, s.label, False, float(s.score), "model"))
        else:
            for s in detect(v.text):
                if s.score >= VISIBLE_MIN_SCORE and not own(s):
                    possible.append(Finding(v.place, s.label, True, float(s.score), s.source))
    return _dedupe(blocking), _dedupe(possible)


def _dedupe(found: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in found:
        key = (f.place, f.label, f.how)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def summary(blocking: list[Finding], possible: list[Finding]) -> dict:
    """The report's ``second_opinion`` section: places and labels only."""
    return {"blocking": [{"place": f.place, "label": f.label, "how": f.how} for f in blocking],
            "possible_misses": [{"place": f.place, "label": f.label, "score": round(f.score, 3)}
                                for f in possible],
            "result": "hit" if blocking else ("possible_misses" if possible else "clean")}
