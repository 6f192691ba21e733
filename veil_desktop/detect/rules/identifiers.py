"""Other personal identifiers: URL / domain, health-insurance, medical (prescription, patient, chart),
employee and student numbers, court-case numbers, petition / receipt / document numbers, dates of birth.

Most of these have no fixed shape (``RX-20231012-0045``, ``EMP-2024-0012``, ``2017123456``, ``제2024-123호``),
so they are found **keyword first**: a context word (``처방전 번호``, ``사번``, ``학번``, ``접수번호`` …) and then
the first ID-like token within a few characters after it, with nothing in between but separators, ``번호``
/ ``ID`` / ``No.`` and a topic particle (``처방전(ID: RX-…)``, ``건강보험공단 등록번호 102-…``, ``학번은 2017…``).
Two kinds have a shape of their own and need no keyword:

* court-case numbers ``2024가합12345`` — a year, a case-type code from the courts' published list (가합, 고단,
  노, 도, 나, 다, 구합 …) and a serial. A single-syllable code after a two-digit year (``98다1234``) has a
  vehicle plate's shape, so it is only taken after a case word (``사건``, ``판결``, ``법원`` …);
* URLs: ``http(s)://…`` and ``www.…`` always; a bare domain (``seoulclinic.kr``, ``kfbank.co.kr/terms``)
  only with a known top-level domain, and never the host part of an e-mail address.

Dates of birth are dates (``1982년 5월 14일``, ``1982.05.14``, ``82-05-14``, ``19820514``) right after a birth
word (``생년월일``, ``출생``, ``생일`` …) or right before ``생`` / ``출생`` (``1982-05-14생``); a date anywhere else is
not personal and is left alone. Values are validated (month 1–12, day within the month). There is no check
digit in any of these identifiers (the health-insurance card number has none published), so validation is
the shape plus the keyword.

**Not personal, never reported**: public service numbers (``1588-1234``, ``1330``, ``110``, ``112``, ``119``,
``120``): business and emergency lines, kept as written (``find_phone`` only takes numbers starting with 0).

Every finder takes the folded text (``normalize.fold``) and yields ``Span(…, source="rule")`` scored 0.9–0.97.
Speed: one flat literal alternation finds the keywords (``re``'s fast first-character scan; they are rare);
the value regex runs only on the few characters after each keyword.
"""
from __future__ import annotations

import re
from typing import Iterator

from ..span import Span
from ..trie import literal_alternation
from .context import ContextIndex
from .numbers import birth_date_ok

#: labels of this module, in catalogue order
IDENTIFIER_LABELS: tuple[str, ...] = (
    "URL", "HEALTH_INSURANCE", "MEDICAL_ID", "EMPLOYEE_ID", "STUDENT_ID", "CASE_NUMBER", "DOC_NUMBER",
    "BIRTH_DATE",
)

# ---------------------------------------------------------------------------------------------
# keywords -> label (longest match wins; the value must follow within a few characters)

_NO = ("번호", " 번호", "ID", " ID", "No", " No", "NO", " NO")


def _with_no(*stems: str) -> list[str]:
    return [s + n for s in stems for n in _NO]


_KEYWORDS: dict[str, list[str]] = {
    "HEALTH_INSURANCE": _with_no("보험", "보험 가입", "보험가입", "가입자", "증권", "보험증권", "증서", "보험증서")
    + ["건강보험", "의료보험", "국민건강보험", "보험증", "건보", "요양급여 자격",
                         "health insurance", "Health insurance", "Health Insurance"],
    "MEDICAL_ID": _with_no("처방전", "처방", "환자", "진료", "진료카드", "의무기록", "차트", "병록", "조제", "외래",
                           "입원", "검체", "수진자", "등록환자", "병원 등록", "진료 등록")
    + ["처방전", "차트 No.", "MRN", "Patient ID", "patient ID", "Patient No"],
    "EMPLOYEE_ID": ["사번", "사원번호", "사원 번호", "직원번호", "직원 번호", "직번", "교직원번호", "교직원 번호",
                    "임직원번호", "임직원 번호", "인사번호", "인사 번호", "사원ID", "사원 ID", "직원ID", "직원 ID",
                    "employee ID", "Employee ID", "Employee No", "employee no", "군번", "공무원번호", "공무원 번호"],
    "STUDENT_ID": ["학번", "학생번호", "학생 번호", "학적번호", "학적 번호", "수험번호", "수험 번호", "수험표 번호",
                   "학생ID", "학생 ID", "student ID", "Student ID", "Student No", "교번"],
    "CASE_NUMBER": _with_no("사건", "판결", "소송", "재판", "사건 조회") + ["사건", "사 건"],
    "DOC_NUMBER": _with_no("접수", "민원", "민원접수", "민원 접수", "문서", "신청", "청원", "발급", "증명서", "고지서",
                           "납부", "고지", "계약", "관리", "신고", "진정", "제보", "상담", "처리",
                           "등기", "공문", "결재", "시행문", "청구", "보험청구", "사고 접수", "사고접수", "진술서")
    + ["접수번호", "문서번호", "시행번호", "공문번호", "접수 No", "Ref.", "ref.", "Ref No"],
    "BIRTH_DATE": ["생년월일", "생 년 월 일", "출생일", "출생", "생일", "생신", "태어난", "태어났", "태어나", "DOB", "D.O.B",
                   "Date of birth", "date of birth", "Date of Birth", "Birth date", "birth date", "생년"],
}
_KIND_OF = {w: k for k, ws in _KEYWORDS.items() for w in ws}
_KW = re.compile(literal_alternation(_KIND_OF))
_LATIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

#: what may stand between the keyword and its value (at most _GAP characters): separators, a bracketed
#: type note, 번호 / ID / No., a topic/subject particle, a few agency words (공단, 등록, 가입자 …)
_GAP = 16
_FILLER = re.compile(
    r"(?:[ \t:：=#(\[\-]|번호|ID|No\.?|NO\.?|no\.|넘버|코드|\(주\)|공단|등록|가입자|가입|자격|카드|관리|조회|확인|기재|원본"
    r"|발급|부여|증서|증권|식별|고유|상태|정보|은|는|이|가|을|를|의|로|인|증|상|제(?=[ ]?[0-9A-Za-z]))*")

#: an ID-like token: alphanumeric groups joined by - _ / . (a Hangul group only *between* two groups:
#: ``2024-민원-0012``); particles glued to the end are outside it (``RX-2023-0045에`` -> ``RX-2023-0045``)
_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|[-_/.](?=[A-Za-z0-9])|-[가-힣]{1,4}-(?=[A-Za-z0-9]))*")
#: a document number led by the issuing office: "행정안전부-1234", "민원과-2024-0012"
_HTOKEN = re.compile(r"[가-힣]{1,12}(?:-[가-힣A-Za-z0-9]+)*-[0-9][0-9A-Za-z]*(?:-[0-9A-Za-z]+)*")
_DIGITS = re.compile(r"[0-9]")
_RRN_SHAPE = re.compile(r"[0-9]{6}-[1-8][0-9]{6}")
_PHONE_SHAPE = re.compile(r"0[0-9]{1,2}[-.]?[0-9]{3,4}[-.]?[0-9]{4}|1[5-9][0-9]{2}-?[0-9]{4}")
#: a counter right after a number: an amount, a count, a duration — not an identifier
_COUNTER_AFTER = re.compile(r"[ ]?(?:년대|년도|년간|년생|세기|개월|주년|원|개|명|회|건|번째|%|세|살|kg|cm|mm|일분|일간|일치|일|월|년"
                            r"|시|분|초|주|정|알|매|장|부|통)"
                            r"(?![가-힣])|[ ]?(?:mg|ml|mL|정|알)")

# ---------------------------------------------------------------------------------------------
# dates (birth dates)

_DATE = re.compile(
    r"[0-9](?<![0-9A-Za-z][0-9])(?<![0-9][-./][0-9])[0-9](?P<y34>[0-9]{2})?"  # year: 2 or 4 digits
    r"(?:[ ]?년[ ]?(?P<m1>[0-9]{1,2})[ ]?월[ ]?(?P<d1>[0-9]{1,2})[ ]?일"
    r"|(?P<sep>[./-])[ ]?(?P<m2>[0-9]{1,2})(?P=sep)[ ]?(?P<d2>[0-9]{1,2})(?![0-9])"
    r"|(?P<m3>[0-9]{2})(?P<d3>[0-9]{2})(?![0-9]))"
    r"(?![-.][0-9])")


def _date_ok(m: re.Match) -> bool:
    mm = m.group("m1") or m.group("m2") or m.group("m3")
    dd = m.group("d1") or m.group("d2") or m.group("d3")
    if m.group("y34") is not None:
        y = m.group(0)[:4]
        if not ("1900" <= y <= "2099"):
            return False
    mi, di = int(mm), int(dd)
    return 1 <= mi <= 12 and 1 <= di <= (29 if mi == 2 else 30 if mi in (4, 6, 9, 11) else 31)


#: "1982-05-14생", "1982년 5월 14일 출생", "(82.05.14생)"
_BIRTH_AFTER = re.compile(r"[ ]?(?:생(?![가-힣])|생\)|생,|생이|생으로|생인|출생|태어|년생)")

# ---------------------------------------------------------------------------------------------
# court-case numbers

#: case-type codes (법원 사건별 부호), longest first; single-syllable ones need a 4-digit year or a case word
_CASE_CODES_MULTI = ("가합", "가단", "가소", "가기", "고합", "고단", "고정", "고약", "구합", "구단", "드합", "드단",
                     "느합", "느단", "카합", "카단", "카기", "카명", "카확", "카담", "카열", "카공", "카경", "타경", "타채",
                     "하합", "하단", "하면", "회합", "회단", "개회", "개확", "형제", "재가합", "재나", "재다", "재고합",
                     "초기", "노", "도", "나", "다", "누", "두", "르", "므", "머", "마", "모", "허", "후", "즈", "초", "오",
                     "로", "그")
_SINGLE = frozenset(c for c in _CASE_CODES_MULTI if len(c) == 1)
_CASE = re.compile(
    r"[0-9](?<![0-9A-Za-z][0-9])[0-9]{1,3}[ ]?(?P<code>"
    + "|".join(sorted(_CASE_CODES_MULTI, key=len, reverse=True))
    + r")[ ]?(?P<serial>[0-9]{1,7})(?![0-9])(?![-.][0-9])")
_CASE_WORD = re.compile(r"사건|판결|법원|선고|소송|재판|항소|상고|원심|결정|고소|기소|공판|형사|민사|가사|행정|지원|고등|대법")
_CASE_AFTER_NOT = re.compile(r"[ ]?(?:원|개|명|회|건|번째|%|세|살|kg|km|년|월|일|시|분|층|호선|대|위|차)")

# ---------------------------------------------------------------------------------------------
# URLs

_TLDS = ("com", "net", "org", "kr", "co.kr", "go.kr", "or.kr", "ac.kr", "re.kr", "ne.kr", "pe.kr", "mil.kr",
         "hs.kr", "ms.kr", "es.kr", "sc.kr", "kg.kr", "seoul.kr", "io", "me", "info", "biz", "edu", "gov", "jp",
         "cn", "us", "uk", "de", "fr", "app", "dev", "ai", "tv", "ly", "page", "site", "xyz", "shop", "blog",
         "co", "asia", "int", "eu", "ca", "au", "vn", "ph", "in", "한국")
_URL_SCHEME = re.compile(r"h(?<![A-Za-z0-9]h)ttps?://[^\s<>\"'(){}\[\]가-힣]+|w(?<![A-Za-z0-9.@/]w)ww\.[^\s<>\"'(){}\[\]가-힣]+")
_URL_BARE = re.compile(
    r"[A-Za-z0-9](?<![A-Za-z0-9.@_%+\-/][A-Za-z0-9])[A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*\.(?:"
    + "|".join(re.escape(t) for t in sorted(_TLDS, key=len, reverse=True))
    + r")(?![A-Za-z0-9@-])(?:/[^\s<>\"'(){}\[\]가-힣]*)?")
_URL_TRAIL = ".,;:!?'\"·"


def _span(a: int, b: int, label: str, score: float) -> Span:
    return Span(a, b, label, score, "rule")


def _kw_kind(text: str, m: re.Match) -> str | None:
    w = m.group(0)
    a, b = m.span()
    if w[0] in _LATIN and a > 0 and text[a - 1] in _LATIN:
        return None
    if w[-1] in _LATIN and b < len(text) and text[b] in _LATIN:
        return None
    return _KIND_OF[w]


def _value_after(text: str, pos: int, allow_short: bool = False) -> tuple[int, int] | None:
    """The ID-like token right after a keyword ending at ``pos`` (only filler in between), or None."""
    f = _FILLER.match(text, pos, min(len(text), pos + _GAP))
    start = f.end()
    m = _TOKEN.match(text, start) or _HTOKEN.match(text, start)
    if m is None:
        return None
    a, b = m.span()
    tok = m.group(0)
    nd = len(_DIGITS.findall(tok))
    if nd < 4 and not (nd >= 2 and len(tok) >= 5 and not tok.isdigit()):
        return None  # "2매", "3일분", "A1", "112" (an emergency line): not an identifier
    if tok.isdigit() and len(tok) < 5 and not allow_short:
        return None  # a bare 4-digit number after "사건", "접수": a year or a count far more often than an id
    if _PHONE_SHAPE.fullmatch(tok):
        return None  # a phone number after "접수" / "상담": find_phone owns it
    if _COUNTER_AFTER.match(text, b):
        return None  # an amount or count: "3,000원", "30일"
    return a, b


def _is_date_token(tok: str) -> bool:
    m = _DATE.fullmatch(tok)
    return m is not None and _date_ok(m)


# ---------------------------------------------------------------------------------------------
# finders


def find_keyword_ids(text: str, cx: ContextIndex) -> Iterator[Span]:
    """Health-insurance, medical, employee, student, case, document numbers and dates of birth after their
    keyword."""
    for m in _KW.finditer(text):
        kind = _kw_kind(text, m)
        if kind is None:
            continue
        if kind == "BIRTH_DATE" and m.group(0) == "생일" and m.start() > 0 and text[m.start() - 1] == "발":
            continue  # 발생일 (date of occurrence) is not a birthday
        if kind == "BIRTH_DATE":
            d = _birth_date_after(text, m.end())
            if d is not None:
                yield _span(*d, "BIRTH_DATE", 0.95)
            continue
        v = _value_after(text, m.end(), allow_short=kind in ("EMPLOYEE_ID", "STUDENT_ID"))
        if v is None:
            continue
        a, b = v
        tok = text[a:b]
        if _is_date_token(tok):
            continue  # "처방전 발행일 2024-05-12", "접수 2024.05.12": a date, not the number
        if "@" in text[b:b + 1]:
            continue  # e-mail local part
        if _RRN_SHAPE.fullmatch(tok) and birth_date_ok(tok[:6]):
            # "사번: 920115-1058231", "학적 관리 번호는 981124-2093812": a resident number in an id slot
            yield _span(a, b, "FOREIGNER_RN" if tok[7] in "5678" else "RRN", 0.9)
            continue
        yield _span(a, b, kind, 0.95)


def _birth_date_after(text: str, pos: int) -> tuple[int, int] | None:
    f = _FILLER.match(text, pos, min(len(text), pos + _GAP))
    m = _DATE.match(text, f.end())
    if m is None or not _date_ok(m):
        return None
    if m.group("m3") is not None and text[m.end():m.end() + 2] in ("-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8"):
        return None  # "880412-1…": an RRN (find_masked_rrn / find_tokens own it)
    return m.span()


def find_birth_date_suffix(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``1982-05-14생``, ``1982년 5월 14일 출생``: a full date (year included) right before a birth word."""
    if "생" not in text and "태어" not in text:
        return
    for m in _DATE.finditer(text):
        if not _date_ok(m) or not _BIRTH_AFTER.match(text, m.end()):
            continue
        yield _span(m.start(), m.end(), "BIRTH_DATE", 0.93)


def find_case_numbers(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``2024가합12345``, ``2023고단1234``, ``2024노567`` (court-case numbers, 사건번호)."""
    for m in _CASE.finditer(text):
        a, b = m.span()
        year = text[a:m.start("code")].strip()
        if len(year) == 3:
            continue
        if len(year) == 4 and not ("1950" <= year <= "2099"):
            continue
        if a > 0 and text[a - 1] in "-.":
            continue
        if _CASE_AFTER_NOT.match(text, b):
            continue
        code = m.group("code")
        has_word = _CASE_WORD.search(text, max(0, a - 30), a) is not None
        if (code in _SINGLE or len(year) == 2) and not (len(year) == 4 and len(m.group("serial")) >= 2) \
                and not has_word:
            continue  # "98다1234" reads as a vehicle plate without a case word
        if code in _SINGLE and " " in text[a:b] and not has_word:
            continue  # "2024 나 1234" spaced: too loose without a case word
        yield _span(a, b, "CASE_NUMBER", 0.97 if has_word else 0.93)


def find_urls(text: str, cx: ContextIndex) -> Iterator[Span]:
    if "." not in text and "://" not in text:
        return
    taken: list[tuple[int, int]] = []
    for m in _URL_SCHEME.finditer(text):
        a, b = m.span()
        while b > a and text[b - 1] in _URL_TRAIL:
            b -= 1
        if b - a > 8:
            yield _span(a, b, "URL", 0.97)
            taken.append((a, m.end()))
    for m in _URL_BARE.finditer(text):
        a, b = m.span()
        if any(x < b and a < y for x, y in taken):
            continue
        while b > a and text[b - 1] in _URL_TRAIL:
            b -= 1
        host = text[a:b].split("/", 1)[0]
        first = host.split(".", 1)[0]
        if len(first) < 2 or first.isdigit():
            continue
        if a > 0 and text[a - 1] == "@":
            continue
        yield _span(a, b, "URL", 0.88)


#: family name -> (labels, finder); merged into ``NUMBER_FINDERS`` by ``RuleDetector``
IDENTIFIER_FINDERS = {
    "keyword_ids": (("HEALTH_INSURANCE", "MEDICAL_ID", "EMPLOYEE_ID", "STUDENT_ID", "CASE_NUMBER", "DOC_NUMBER",
                     "BIRTH_DATE", "RRN", "FOREIGNER_RN"), find_keyword_ids),  # RRN: a resident number in an id slot
    "birth_date_suffix": (("BIRTH_DATE",), find_birth_date_suffix),
    "case_numbers": (("CASE_NUMBER",), find_case_numbers),
    "urls": (("URL",), find_urls),
}
