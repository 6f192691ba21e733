"""Structured PII: phone (also +82, foreign numbers in international form and numbers read out in Korean
numerals), RRN / foreigner RN (also masked, cut to birth date + sex digit, or with a spaced hyphen; post-2020
numbers without a check digit by format + birth date + sex digit + context), e-mail, card (Luhn), account,
business / corporate registration (check digits), passport (Korean shapes; nine digits after a passport word),
driver's licence, vehicle plate (also ``92차 4470``), IPv4 / IPv6 address.

All finders take the *folded* text (``normalize.fold``: full-width digits are ASCII, same offsets) and
yield ``Span(start, end, label, score, "rule")``. Finders may propose overlapping candidates; the
``RuleDetector`` keeps the best one per region.

Scores say how sure a match is:
  0.99  a check digit / Luhn sum validates it;
  0.90–0.97  a distinctive format, or a format plus a context word (``주민등록번호``, ``계좌``, ``사업자`` …);
  0.70–0.85  format only (still reported: a redaction tool prefers a review item to a leak).
Shapes that are too ambiguous without context (bare 10–16 digit runs, 4-4-4 groups …) are only reported
with a matching context word; a ``NEG`` context (order / case / prescription / version numbers) vetoes
ambiguous shapes.

Number boundaries: a candidate never starts or ends inside a longer run of digits, nor inside a longer
hyphen/dot-joined digit sequence (``(?<![0-9][-.])`` / ``(?![-.][0-9])``), so an order number
``2024-0512-0001-23`` never yields a phone or card inside it. Korean particles glued to the end
(``010-1234-5678로``) are outside every pattern, so they never enter a span.
"""
from __future__ import annotations

import re
from typing import Iterator

from ..span import Span
from .context import ContextIndex

# ---------------------------------------------------------------------------------------------
# validators


def luhn_ok(digits: str) -> bool:
    total, parity = 0, len(digits) % 2
    for i, ch in enumerate(digits):
        d = ord(ch) - 48
        if i % 2 == parity:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_RRN_W = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)


def rrn_check_ok(digits: str) -> bool:
    """Pre-October-2020 RRN check digit."""
    s = sum((ord(c) - 48) * w for c, w in zip(digits[:12], _RRN_W))
    return (11 - s % 11) % 10 == ord(digits[12]) - 48


def frn_check_ok(digits: str) -> bool:
    """Pre-October-2020 foreigner registration number check digit."""
    s = sum((ord(c) - 48) * w for c, w in zip(digits[:12], _RRN_W))
    return ((11 - s % 11) % 10 + 2) % 10 == ord(digits[12]) - 48


def birth_date_ok(yymmdd: str) -> bool:
    mm, dd = int(yymmdd[2:4]), int(yymmdd[4:6])
    return 1 <= mm <= 12 and 1 <= dd <= (29 if mm == 2 else 30 if mm in (4, 6, 9, 11) else 31)


_BRN_W = (1, 3, 7, 1, 3, 7, 1, 3, 5)


def brn_check_ok(digits: str) -> bool:
    """Business registration number (사업자등록번호) check digit."""
    d = [ord(c) - 48 for c in digits]
    s = sum(a * w for a, w in zip(d[:9], _BRN_W)) + (d[8] * 5) // 10
    return (10 - s % 10) % 10 == d[9]


def corp_check_ok(digits: str) -> bool:
    """Corporate registration number (법인등록번호) check digit: weights 1,2,1,2,…"""
    d = [ord(c) - 48 for c in digits]
    s = sum(a * (1 if i % 2 == 0 else 2) for i, a in enumerate(d[:12]))
    return (10 - s % 10) % 10 == d[12]


# ---------------------------------------------------------------------------------------------
# patterns (compiled once)

# Every pattern starts with ONE plain character class, so ``re`` skips non-candidates with its fast
# first-character scan; the "not inside a longer number" checks are lookbehinds placed *after* that
# first character (a leading lookbehind would disable the fast scan: ~2x slower on Korean text).
_D1 = r"[0-9](?<![0-9A-Za-z][0-9])(?<![0-9][-.][0-9])"   # first digit, not inside a longer number/id
_NA = r"(?![0-9])(?![-.][0-9])"                          # not followed by more of the number

#: hyphen-joined digit groups (or one bare digit run) of 8+ characters: RRN, card, account, licence …
_TOKEN = re.compile(_D1 + r"(?<![A-Za-z]-[0-9])(?=[0-9-]{7})[0-9]*(?:-[0-9]+)*(?![0-9A-Za-z])(?![-.][0-9])")
#: the same with single spaces between groups (card / RRN typed with spaces)
_SPACED = re.compile(_D1 + r"[0-9]{1,5}(?: [0-9]{2,7}){1,4}(?![0-9A-Za-z])(?![-. ][0-9])")

_PHONE_TAIL = (r"(?P<area>1[016789]|2|[3-6][1-5]|70|50[2-8]|80)"
               r"(?:\)[ ]?|(?P<s1>[-. ]?))"
               r"(?P<mid>[0-9]{3,4})(?P<s2>[-. ]?)(?P<last>[0-9]{4})" + _NA)
#: domestic numbers start with 0 (an opening "(" before the area code is added in Python)
_PHONE = re.compile(r"0(?<![0-9A-Za-z+]0)(?<![0-9][-.]0)" + _PHONE_TAIL)
_PHONE_INTL = re.compile(r"\+82[-. ]?(?:\(0\)[-. ]?)?" + _PHONE_TAIL)
#: any other country: "+81-80-1234-5678", "+1 (415) 555-0100", "+86 138 1234 5678", "+44 20 7946 0958";
#: a country code (1-3 digits), then 2-5 groups of digits (one may be bracketed) joined by one separator each
_PHONE_FOREIGN = re.compile(r"\+(?<![0-9A-Za-z+]\+)(?P<cc>[1-9][0-9]{0,2})"
                            r"(?P<rest>(?:[-. ]?\(?[0-9]{1,5}\)?){1,5})(?![0-9])(?![-.][0-9])")
_GROUP = re.compile(r"[0-9]+")

#: phone numbers read out in Sino-Korean digits (speech-to-text): "공일공 사팔이구 일공오삼"
_KDIGIT = {"공": "0", "영": "0", "일": "1", "이": "2", "삼": "3", "사": "4", "오": "5", "육": "6", "륙": "6",
           "칠": "7", "팔": "8", "구": "9"}
_KD = "공영일이삼사오육륙칠팔구0-9"
_PHONE_KO = re.compile(rf"[공영0](?<![{_KD}][공영0])[ ]?[일1][ ]?[공영육칠팔구0-9](?:[ -]?[{_KD}]){{7,8}}(?![{_KD}])")

_MASK = "*xX●○■"
#: one pass for both "920514-2******" (masked) and "880514-2" (birth date + sex digit only)
_RRN_PARTIAL = re.compile(_D1 + rf"[0-9]{{5}}(?:(?P<masked>[- ]?(?:[0-9][{_MASK}]{{4,8}}|[{_MASK}]{{7}})(?![{_MASK}0-9]))"
                          r"|-[1-8](?![0-9A-Za-z*●○■])(?!-[0-9]))")
#: "4518-****-1234-9081"
_MASKED_CARD = re.compile(_D1 + r"[0-9]{3}-(?:[0-9]{4}|[*xX]{4})-(?:[0-9]{4}|[*xX]{4})-[0-9]{4}" + _NA)

_EMAIL = re.compile(
    r"[A-Za-z0-9](?<![A-Za-z0-9._%+-][A-Za-z0-9])[A-Za-z0-9._%+-]{0,63}@"
    r"[A-Za-z0-9가-힣](?:[A-Za-z0-9가-힣-]{0,61}[A-Za-z0-9가-힣])?"
    r"(?:\.[A-Za-z0-9가-힣](?:[A-Za-z0-9가-힣-]{0,61}[A-Za-z0-9가-힣])?)*"
    r"\.[A-Za-z]{2,24}(?![A-Za-z0-9-])")

_IPV4 = re.compile(r"[0-9](?<![0-9A-Za-z.][0-9])[0-9]{0,2}\.(?:[0-9]{1,3}\.){2}[0-9]{1,3}(?![0-9])(?!\.[0-9])")

#: IPv6: full 8-group form or compressed with "::"; only searched when the cheap gate (a literal ":" start,
#: so ``re`` scans fast) sees two colon-separated hex groups in the text
_IPV6_GATE = re.compile(r":[0-9A-Fa-f]{0,4}:[0-9A-Fa-f]{1,4}")
_H4 = r"[0-9A-Fa-f]{1,4}"
_IPV6 = re.compile(
    rf"(?<![0-9A-Za-z:.])(?:(?:{_H4}:){{7}}{_H4}|(?:{_H4}:){{1,6}}(?::{_H4}){{1,6}}|(?:{_H4}:){{1,7}}:|::(?:{_H4}:){{0,6}}{_H4})"
    r"(?![0-9A-Za-z:])")

_PASSPORT = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])(?:[A-Z]?[0-9]{7,8}|(?<=[MSRODG])[0-9]{3}[A-Z][0-9]{4})"
                       r"(?![A-Za-z0-9])")
_PASSPORT_KR = re.compile(r"[MSRODG](?:[0-9]{8}|[0-9]{3}[A-Z][0-9]{4})")
#: nine bare digits: many countries' passport numbers (US, CN E-less, …); only after a passport word
_PASSPORT_DIGITS = re.compile(_D1 + r"[0-9]{8}(?![0-9A-Za-z])(?![-.][0-9])")
#: part of a longer code: "M12345678-01", "AB-M12345678", "SKU/M12345678"
_CODE_JOIN_BEFORE = frozenset("-/_.#")

_PLATE_CHARS = "가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주아바사자배하허호차"
# 차 is no issued plate syllable but is typed for one ("92차 4470"); 차 also counts rounds ("12차 회의"), so
# without a vehicle word it is taken only with the space before the four digits and scored lower
_VEHICLE = re.compile(r"[0-9](?<![0-9][0-9])[0-9]{1,2} ?[" + _PLATE_CHARS + r"] ?[0-9]{4}" + _NA
                      + r"(?![ ]?(?:개|원|명|건|회|년|월|일|시|분|%|kg|km|억|만|천|조|엔|달러|위안|유로|톤|배|표|점))")
# "12가 3456개" is a count, "55조2344억엔" an amount
#: what may stand right before a plate: "서울 12가 3456", "제12가 3456"
_VEHICLE_PREFIX = re.compile(r"(?:(?:서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|전북|전남|경북|경남|제주) ?)?"
                             r"(?:제 ?)?$")
_HANGUL_OR_DIGIT = re.compile(r"[0-9가-힣]")
_ROUND_PLATE = re.compile(r"[0-9]{2,3}차 [0-9]{4}")

_DL_REGION = re.compile(  # starts with literal region names: fast scan
    r"(?:서울|부산|경기|강원|충북|충남|전북|전남|경북|경남|제주|대구|인천|광주|대전|울산|세종) ?"
    r"[0-9]{2}-[0-9]{6}-[0-9]{2}" + _NA)

#: bank account group shapes (hyphenated), after the banks' published formats
_BANK_SHAPES = {
    (3, 2, 6), (3, 3, 6), (3, 6, 5), (3, 6, 2, 3), (3, 4, 4, 2), (3, 2, 4, 3), (4, 3, 6), (4, 2, 7),
    (6, 2, 6), (3, 2, 5), (4, 4, 4), (3, 3, 5), (3, 4, 6), (4, 2, 6), (4, 2, 6, 1), (3, 3, 7), (7, 2, 6),
    (4, 3, 7), (3, 6, 3), (3, 4, 5),
}
#: "110-452-987654 (예금주: …)" / "… 계좌로": an account word right after the number
_ACCOUNT_AFTER = re.compile(r"[ \t]{0,2}[(\[]?[ \t]{0,2}(?:예금주|계좌|통장|[가-힣]{1,6}은행)")
_DL_FIRST = {str(n) for n in range(11, 29)}


def _span(a: int, b: int, label: str, score: float) -> Span:
    return Span(a, b, label, score, "rule")


# ---------------------------------------------------------------------------------------------
# finders


def find_phone(text: str, cx: ContextIndex) -> Iterator[Span]:
    for intl, rx in ((False, _PHONE), (True, _PHONE_INTL)):
        for m in rx.finditer(text):
            a, b = m.span()
            area, mid = m.group("area"), m.group("mid")
            paren_close = text[m.end("area"):m.start("mid")].startswith(")")
            if not intl and paren_close and a > 0 and text[a - 1] == "(":
                a -= 1  # "(02) 123-4567": the parenthesis belongs to the number
            sep = bool(m.group("s1") or m.group("s2") or paren_close)
            if area[0] == "1":  # mobile
                if area == "10" and len(mid) != 4:
                    continue
                score = 0.97 if (sep or intl or len(mid) == 4) else 0.85
            else:
                ctx = cx.before(a)
                if sep or intl:
                    score = 0.96 if ctx == "PHONE" else 0.93
                elif ctx == "PHONE":  # a bare 9-11 digit run needs a phone word
                    score = 0.88
                else:
                    continue
            s1, s2 = m.group("s1") or "", m.group("s2") or ""
            if s1 and s2 and s1 != s2 and " " in (s1 + s2):
                score -= 0.1  # "010 1234-5678" mixes are rarer; keep but less sure
            yield _span(a, b, "PHONE", score)


def find_phone_foreign(text: str, cx: ContextIndex) -> Iterator[Span]:
    """Foreign numbers in international form (``+81-80-1234-5678``, ``+1 (415) 555-0100``). The leading ``+``
    and a country code make them distinctive; vetoes: fewer than 8 or more than 15 digits (E.164), a group of
    one digit after the first (``+1 2 3``: arithmetic), unbalanced brackets, and a NEG context. ``+82`` is
    ``find_phone``'s (its own patterns). Public service numbers never start with ``+``."""
    if "+" not in text:
        return
    for m in _PHONE_FOREIGN.finditer(text):
        cc, rest = m.group("cc"), m.group("rest")
        if cc.startswith("82"):
            continue
        groups = _GROUP.findall(rest)
        digits = len(cc) + sum(len(g) for g in groups)
        if not 8 <= digits <= 15 or rest.count("(") != rest.count(")") or len(groups) < 2 and digits < 10:
            continue
        if any(len(g) < 2 for g in groups[1:]) or len(groups[-1]) < (2 if len(groups) >= 4 else 3):
            continue
        if rest[:1] not in " -.(" and len(groups) > 1:
            continue  # "+8180-1234" glued country code with groups after it: ambiguous
        ctx = cx.before(m.start())
        if ctx == "NEG":
            continue
        yield _span(m.start(), m.end(), "PHONE", 0.96 if ctx == "PHONE" else 0.9)


def find_phone_spoken(text: str, cx: ContextIndex) -> Iterator[Span]:
    """Mobile numbers spoken digit by digit (``공일공 사팔이구 일공오삼``), possibly mixed with digits."""
    for m in _PHONE_KO.finditer(text):
        raw = m.group(0)
        digits = "".join(_KDIGIT.get(c, c) for c in raw if c not in " -")
        if not any(c in _KDIGIT for c in raw) or not digits.startswith("01"):
            continue  # all-ASCII numbers belong to find_phone
        if len(digits) == 11 or (len(digits) == 10 and digits[2] != "0"):
            yield _span(m.start(), m.end(), "PHONE", 0.9)


def find_email(text: str, cx: ContextIndex) -> Iterator[Span]:
    if "@" not in text:
        return
    for m in _EMAIL.finditer(text):
        yield _span(m.start(), m.end(), "EMAIL", 0.98)


def find_ip(text: str, cx: ContextIndex) -> Iterator[Span]:
    for m in _IPV4.finditer(text):
        parts = m.group(0).split(".")
        if any(int(p) > 255 or (len(p) > 1 and p[0] == "0") for p in parts):
            continue
        ctx = cx.before(m.start())
        if ctx == "NEG":
            continue
        if ctx == "IP":
            yield _span(m.start(), m.end(), "IP", 0.97)
        elif int(parts[0]) >= 1 and not all(len(p) == 1 for p in parts):
            # all single digits ("1.2.3.4") reads as a version / section number without context
            yield _span(m.start(), m.end(), "IP", 0.9)


def find_ipv6(text: str, cx: ContextIndex) -> Iterator[Span]:
    if _IPV6_GATE.search(text) is None:
        return
    for m in _IPV6.finditer(text):
        raw = m.group(0)
        if raw.count(":") < 2 or not any(c.isdigit() for c in raw):
            continue
        ctx = cx.before(m.start())
        if ctx == "NEG":
            continue
        if ctx == "IP" or raw.count(":") == 7 or raw.lower().startswith(("fe80:", "2001:", "2002:", "fc", "fd")):
            yield _span(m.start(), m.end(), "IP", 0.95 if ctx == "IP" else 0.85)


def find_passport(text: str, cx: ContextIndex) -> Iterator[Span]:
    """Korean passports (``M12345678``; since 2021 ``M123A4567``) by shape, other letter + 7-8 digit ones and
    nine bare digits only after a passport word (``여권``, ``Passport No.``). Vetoes: a NEG context (order,
    invoice, model, serial numbers …) and a code the candidate is part of (``M12345678-01``, ``SKU/M1234…``)."""
    for m in _PASSPORT.finditer(text):
        a, b = m.span()
        if (a > 0 and text[a - 1] in _CODE_JOIN_BEFORE) or (text[b:b + 1] in ("-", "/", "_")
                                                            and text[b + 1:b + 2].isalnum()):
            continue
        ctx = cx.before(a)
        if ctx == "PASSPORT":
            yield _span(a, b, "PASSPORT", 0.95)
        elif ctx != "NEG" and _PASSPORT_KR.fullmatch(m.group(0)):
            yield _span(a, b, "PASSPORT", 0.75)
    if "여권" not in text and "assport" not in text and "ASSPORT" not in text:
        return  # nine bare digits need a passport word: skip the digit scan without one (memchr-fast)
    for m in _PASSPORT_DIGITS.finditer(text):
        a, b = m.span()
        if cx.before(a) == "PASSPORT" and text[b:b + 1] not in ("원", "개", "명"):
            yield _span(a, b, "PASSPORT", 0.93)


def find_vehicle(text: str, cx: ContextIndex) -> Iterator[Span]:
    for m in _VEHICLE.finditer(text):
        a, b = m.span()
        pre = _VEHICLE_PREFIX.search(text, max(0, a - 5), a)
        if pre is not None and pre.start() < a:
            a = pre.start()
        if a > 0 and _HANGUL_OR_DIGIT.match(text, a - 1):
            continue  # glued to a word or number: "3층12가" is not a plate
        ctx = cx.before(a)
        if ctx == "NEG":
            continue
        if "차" in text[m.start():b] and ctx != "VEHICLE":
            if (not _ROUND_PLATE.fullmatch(text, m.start(), b) or text[b:b + 1] in (".", ",")
                    or text[a:a + 1] == "제" or text[max(0, a - 1):a] == "제"):
                continue  # "3차2024", "12차 1234." (a list): too loose without a vehicle word
            yield _span(a, b, "VEHICLE", 0.8)
            continue
        yield _span(a, b, "VEHICLE", 0.95 if ctx == "VEHICLE" else 0.85)


def find_masked_rrn(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``920514-2******`` / ``920514-2`` (with an RRN word): birth date + sex digit still identify."""
    for m in _RRN_PARTIAL.finditer(text):
        a, b = m.span()
        if m.group("masked"):
            ctx = cx.before(a)
            if ctx == "NEG" or not (birth_date_ok(text[a:a + 6]) or ctx in ("RRN", "FOREIGNER_RN", "ID_CARD")):
                continue
            yield _span(a, b, "FOREIGNER_RN" if ctx == "FOREIGNER_RN" else "RRN", 0.9)
        else:
            ctx = cx.before(a, 40)
            if ctx in ("RRN", "FOREIGNER_RN", "ID_CARD") and birth_date_ok(text[a:a + 6]):
                yield _span(a, b, "RRN" if ctx == "ID_CARD" else ctx, 0.85)


#: "900101 - 1234567", "900101 -1234567": the hyphen typed with spaces around it
_RRN_SPACED_DASH = re.compile(_D1 + r"[0-9]{5}(?: -|- | - )[0-9]{7}(?![0-9A-Za-z])(?![-.][0-9])")


def find_rrn_spaced_dash(text: str, cx: ContextIndex) -> Iterator[Span]:
    """RRN / foreigner RN whose hyphen has spaces around it, classified like ``900101-1234567``."""
    if " -" not in text and "- " not in text:
        return
    for m in _RRN_SPACED_DASH.finditer(text):
        raw = m.group(0)
        digits = raw.replace(" ", "").replace("-", "")
        res = _classify_rrn(digits, True, cx.before(m.start()))
        if res is not None and res[0] in ("RRN", "FOREIGNER_RN"):
            yield _span(m.start(), m.end(), *res)


#: six digits alone: the birth-date half of an RRN ("주민번호 앞자리 920514")
_SIX = re.compile(_D1 + r"[0-9]{5}(?![0-9A-Za-z])(?![-.][0-9])")


def find_rrn_front(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``주민번호 앞자리 920514``: a valid birth date right after an RRN word is the number's first half."""
    for m in _SIX.finditer(text):
        a, b = m.span()
        if birth_date_ok(text[a:b]) and cx.before(a, 20) in ("RRN", "ID_CARD"):
            yield _span(a, b, "RRN", 0.85)


def find_masked_card(text: str, cx: ContextIndex) -> Iterator[Span]:
    if "****" not in text and "xxxx" not in text and "XXXX" not in text:
        return  # substring tests are memchr-fast: skip the regex pass on the (usual) unmasked text
    for m in _MASKED_CARD.finditer(text):
        if "*" in m.group(0) or "x" in m.group(0).lower():
            if cx.before(m.start()) == "CARD":
                yield _span(m.start(), m.end(), "CARD", 0.9)


def find_driver_license_region(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``서울 12-345678-90`` (region name instead of the two-digit region code)."""
    for m in _DL_REGION.finditer(text):
        yield _span(m.start(), m.end(), "DRIVER_LICENSE",
                    0.95 if cx.before(m.start()) == "DRIVER_LICENSE" else 0.85)


def _classify_rrn(digits: str, hyph: bool, ctx: str | None) -> tuple[str, float] | None:
    if ctx == "NEG" and not hyph:
        return None  # a bare 13-digit barcode / serial passes a check digit one time in ten
    if ctx == "CORP_REG":
        return "CORP_REG", 0.97 if corp_check_ok(digits) else 0.92
    date_ok = birth_date_ok(digits[:6])
    g7 = digits[6]
    if g7 in "5678":
        if date_ok and frn_check_ok(digits):
            return "FOREIGNER_RN", 0.99 if hyph else 0.9
        if ctx in ("FOREIGNER_RN", "RRN", "ID_CARD"):
            return "FOREIGNER_RN", 0.93 if date_ok else 0.8
        if hyph and date_ok and ctx not in ("NEG", "ACCOUNT"):
            return "FOREIGNER_RN", 0.85
        return None
    if date_ok and rrn_check_ok(digits):
        return "RRN", 0.99 if hyph else 0.9
    if ctx in ("RRN", "FOREIGNER_RN", "ID_CARD"):  # the resident card's own number is the RRN
        return "RRN", 0.93 if date_ok else 0.8
    if ctx == "NEG" or not hyph:
        return None
    if date_ok and g7 in "1234":
        # post-2020 RRNs have no check digit: a hyphenated 6-7 with a birth date is an RRN
        return "RRN", 0.85
    return None


def _classify(text: str, cx: ContextIndex, a: int, b: int, tok: str, sep: str) -> tuple[str, float] | None:
    """Label + score for a separated digit-group token ``tok`` at ``text[a:b]`` (phones excluded)."""
    groups = tuple(len(g) for g in tok.split(sep)) if sep else (len(tok),)
    digits = tok.replace(sep, "") if sep else tok
    n = len(digits)
    if n < 10 or n > 20:
        return None  # every shape below has 10+ digits (dates, amounts, short ids leave here, cheaply)
    if digits[0] == "0" and n <= 11 and groups[-1] == 4 and len(groups) in (1, 3):
        return None  # phone-shaped: find_phone owns it
    ctx = cx.before(a)
    hyph = len(groups) > 1

    # RRN / foreigner RN / corporate registration number: 6-7 (or 13 bare digits)
    if groups in ((6, 7), (13,)):
        res = _classify_rrn(digits, hyph, ctx)
        if res is not None:
            return res

    # card numbers: 4-4-4-4 (16) or Amex 4-6-5 (15)
    if groups in ((4, 4, 4, 4), (16,)) or (groups in ((4, 6, 5), (15,)) and digits[:2] in ("34", "37")):
        if ctx == "NEG":
            return None
        if luhn_ok(digits):
            return "CARD", 0.99 if (hyph or ctx == "CARD") else 0.85
        if ctx == "CARD":
            return "CARD", 0.92
        if hyph and ctx != "ACCOUNT":
            return "CARD", 0.8
        if ctx != "ACCOUNT":
            return None

    # business registration number: 3-2-5
    if groups in ((3, 2, 5), (10,)):
        valid = brn_check_ok(digits)
        if ctx == "BUSINESS_REG":
            return "BUSINESS_REG", 0.99 if valid else 0.93
        if ctx not in ("ACCOUNT", "NEG") and hyph:
            return "BUSINESS_REG", 0.95 if valid else 0.75

    # driver's licence: 2-2-6-2 with a region code 11..28 (other shapes only with context)
    if groups == (2, 2, 6, 2) and digits[:2] in _DL_FIRST and ctx != "NEG":
        return "DRIVER_LICENSE", 0.97 if ctx == "DRIVER_LICENSE" else 0.9
    if ctx == "DRIVER_LICENSE" and hyph and 10 <= n <= 16:
        return "DRIVER_LICENSE", 0.85
    if ctx == "ID_CARD" and hyph and 10 <= n <= 16:
        # "신분증 번호 12-15-402-118-392": an identity-document number; a licence is the usual one
        return "DRIVER_LICENSE", 0.8
    if groups == (12,) and ctx == "DRIVER_LICENSE":
        return "DRIVER_LICENSE", 0.85

    # corporate registration number without the 6-7 shape (e.g. with a trailing check group)
    if ctx == "CORP_REG" and n in (13, 14):
        return "CORP_REG", 0.9

    # bank accounts: context word before (계좌, 은행 …) or after (예금주 …)
    if 10 <= n <= 16:
        if ctx != "ACCOUNT" and _ACCOUNT_AFTER.match(text, b):
            ctx = "ACCOUNT"
        if ctx == "ACCOUNT":
            if hyph:
                return "ACCOUNT", 0.92 if groups in _BANK_SHAPES else 0.88
            return "ACCOUNT", 0.85
        if hyph and ctx is None and n >= 12 and groups in _BANK_SHAPES and len(groups) >= 3:
            # default deny: a 12+ digit number in a bank's published group shape with no keyword near (a
            # table whose header is far above, a list item): an account until a reviewer says otherwise
            return "ACCOUNT", 0.6
    return None


def find_tokens(text: str, cx: ContextIndex) -> Iterator[Span]:
    """Hyphen-joined (or bare) digit tokens classified by group shape + context."""
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if len(tok) < 8:
            continue
        res = _classify(text, cx, m.start(), m.end(), tok, "-" if "-" in tok else "")
        if res:
            yield _span(m.start(), m.end(), *res)
    for m in _SPACED.finditer(text):
        res = _classify(text, cx, m.start(), m.end(), m.group(0), " ")
        if res and res[0] in ("CARD", "RRN", "FOREIGNER_RN", "ACCOUNT"):
            yield _span(m.start(), m.end(), *res)


#: digit groups joined by commas, dots, spaces or hyphens in a grouping no other finder reads — an RRN
#: typed ``830,719,1628545`` or ``830-719-1628545``, a mobile number ``010,3947,2816`` (red team 5: a CSV
#: under ``sep=;`` keeps the commas inside its cells). Thousands grouping (1-3 digits, then groups of 3
#: after commas) is an amount, never read here.
_REGROUPED = re.compile(r"(?<![0-9.,])[0-9]{1,7}(?:[,. -][0-9]{1,7}){1,4}(?![0-9]|[.,][0-9])")
_THOUSANDS = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+")


def find_regrouped(text: str, cx: ContextIndex) -> Iterator[Span]:
    """An RRN / foreigner number (13 digits; a birth date and its check digit, or an RRN word before it)
    or a mobile number (``01x`` + 3/4 + 4 digits, joined by commas) written in an odd grouping."""
    for m in _REGROUPED.finditer(text):
        raw = m.group(0)
        if _THOUSANDS.fullmatch(raw):
            continue
        groups = re.split(r"[,. -]", raw)
        digits = "".join(groups)
        a, b = m.span()
        if len(digits) == 13 and [len(g) for g in groups] != [6, 7]:
            ctx = cx.before(a)
            res = _classify_rrn(digits, False, ctx)
            if res is not None and res[0] in ("RRN", "FOREIGNER_RN") and (
                    ctx in ("RRN", "FOREIGNER_RN", "ID_CARD") or birth_date_ok(digits[:6])):
                yield _span(a, b, *res)
        elif ("," in raw and len(groups) == 3 and groups[0] in ("010", "011", "016", "017", "018", "019")
              and len(groups[1]) in (3, 4) and len(groups[2]) == 4):
            yield _span(a, b, "PHONE", 0.9)


#: family name -> (labels, finder)
NUMBER_FINDERS = {
    "regrouped": (("RRN", "FOREIGNER_RN", "PHONE"), find_regrouped),
    "phone": (("PHONE",), find_phone),
    "phone_spoken": (("PHONE",), find_phone_spoken),
    "phone_foreign": (("PHONE",), find_phone_foreign),
    "email": (("EMAIL",), find_email),
    "ip": (("IP",), find_ip),
    "ipv6": (("IP",), find_ipv6),
    "passport": (("PASSPORT",), find_passport),
    "vehicle": (("VEHICLE",), find_vehicle),
    "masked_rrn": (("RRN", "FOREIGNER_RN"), find_masked_rrn),
    "rrn_front": (("RRN",), find_rrn_front),
    "rrn_spaced_dash": (("RRN", "FOREIGNER_RN"), find_rrn_spaced_dash),
    "masked_card": (("CARD",), find_masked_card),
    "driver_license_region": (("DRIVER_LICENSE",), find_driver_license_region),
    "numbers": (("RRN", "FOREIGNER_RN", "CORP_REG", "CARD", "BUSINESS_REG", "DRIVER_LICENSE", "ACCOUNT"),
                find_tokens),
}
