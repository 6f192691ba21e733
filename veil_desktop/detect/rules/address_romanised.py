"""Korean addresses written in the Latin alphabet (English forms, letterheads, shipping labels).

The Revised Romanization writes the Korean address words as hyphenated suffixes, and an English address
runs from the small part to the large one:

    284 Uchi-ro, Buk-gu, Gwangju               12, Sejong-daero 209beon-gil, Jung-gu, Seoul
    Apt 101-1203, 45 Banpo-daero 23-gil, Seocho-gu          Haeundae-gu, Busan 48094
    123-45 Yeoksam-dong, Gangnam-gu, Seoul     Seoul, Gangnam-gu, Teheran-ro 152 (the Korean order)

Parts (a capitalised or all-capital romanised name, then the suffix in any case):
- road: ``Name-ro`` / ``-gil`` / ``-daero``, with a branch ``23-gil`` / ``209beon-gil`` / ``5-ro``;
- district: ``Name-gu`` / ``-gun`` / ``-si`` / ``-dong`` / ``-eup`` / ``-myeon`` / ``-ri``, ``Name 1-ga``;
  a province ``Gyeonggi-do`` … (the nine provinces only: ``Taekwon-do`` is no province);
- a city or province named alone: Seoul, Busan, Incheon, Daegu, Daejeon, Gwangju, Ulsan, Sejong, Jeju,
  Gyeonggi …, optionally ``Metropolitan City`` / ``Special City`` / ``Province``;
- numbers: a building number (``284``, ``12-3``), a unit (``Apt 101-1203``, ``Unit 5``, ``Room 301``,
  ``#1203``, ``101-dong 1203-ho``, ``3F``), a postal code (5 digits after the last part: left to
  ``address.find_postal_codes``).
Parts joined by a comma or spaces form a chain (across one line break too; the span is cut per line).
A chain is an address when it holds a road with a building number next to it, or a district with a lot
number next to it (``123-45 Yeoksam-dong``), or — districts and cities only — two of them with one
hyphenated district and a postal code after, an address word before (``Address:``, ``Mailing address``,
``주소``), a unit, or three of them with a ``-dong``/``-eup``/``-myeon``/``-ri``. So ``Gangnam Style``, the
``Busan International Film Festival``, ``Seoul, Busan and Daegu``, ``offices in Gangnam-gu and
Seocho-gu`` stay prose; a company's HQ line in an English letterhead is an address (masked, as it should).
The span runs from the first part (units included) to the last road/district/city part: the country
(``Republic of Korea``) and the postal code are not in it.
"""
from __future__ import annotations

import re
from typing import Iterator

from ..span import Span

_NAME = r"(?:[A-Z][a-z]+|[A-Z]{2,})"
_ROAD = (rf"{_NAME}-(?i:daero|ro|gil)(?![A-Za-z])"
         r"(?:[ ]?[0-9]{1,4}(?:-?(?i:beon))?-(?i:gil|ro)(?![A-Za-z])|[ ]?[0-9]{1,4}(?i:beon-?gil|gil)(?![A-Za-z]))?")
_ADMIN = rf"{_NAME}(?P<gadigit>[ ]?[0-9]{{1,2}})?-(?P<suffix>(?i:gun|gu|si|dong|do|eup|myeon|ri|ga))(?![A-Za-z])"
_PROVINCES = ("Gyeonggi", "Gangwon", "Chungcheongbuk", "Chungcheongnam", "Chungbuk", "Chungnam", "Jeollabuk",
              "Jeollanam", "Jeonbuk", "Jeonnam", "Gyeongsangbuk", "Gyeongsangnam", "Gyeongbuk", "Gyeongnam", "Jeju")
_CITIES = ("Seoul", "Busan", "Incheon", "Daegu", "Daejeon", "Gwangju", "Ulsan", "Sejong", "Jeju")
_PLACE_NAMES = "|".join(sorted({*_CITIES, *_PROVINCES, *(c.upper() for c in (*_CITIES, *_PROVINCES))},
                               key=len, reverse=True))
_CITY = (rf"(?:{_PLACE_NAMES})(?![A-Za-z-])(?:[ ](?:Metropolitan City|Special City|Special Self-Governing City"
         r"|Special Self-Governing Province|State|Province|City)(?![A-Za-z]))?")
_UNIT = (r"(?:(?i:apt|apartment|unit|suite|ste|room|rm|flat|bldg|building)\.?[ ]?#?[A-Z]?[0-9]{1,5}(?:-[0-9]{1,5})?"
         r"|#[0-9]{1,5}(?:-[0-9]{1,5})?"
         r"|[0-9]{1,4}-(?i:dong)(?:[ ]?,?[ ]?[0-9]{1,5}-(?i:ho))?|[0-9]{1,5}-(?i:ho)"
         r"|[0-9]{1,3}(?:F|(?i:st|nd|rd|th)[ ](?i:floor)))(?![A-Za-z0-9])")
_NUM = r"(?:(?i:san)[ ])?[0-9]{1,5}(?:-[0-9]{1,5})?(?![0-9A-Za-z])(?!-[0-9])"
_TOKEN = re.compile(rf"(?<![A-Za-z0-9#-])(?:(?P<unit>{_UNIT})|(?P<road>{_ROAD})|(?P<admin>{_ADMIN})|(?P<city>{_CITY})"
                    rf"|(?P<num>{_NUM}))")
#: what may stand between two parts of one address
_GAP = re.compile(r"[ \t]*,?[ \t]*(?:\r?\n[ \t]*)?")
#: a cheap gate: a romanised address word (or a city name) somewhere in the text
_GATE = re.compile(r"[a-zA-Z]-(?i:daero|ro|gil|gun|gu|si|dong|do|eup|myeon|ri|ga)(?![A-Za-z])")
_ADDRESS_WORD = re.compile(r"(?i:address|addr\.?|residence|domicile|located at|lives? (?:at|in)|ship to)"
                           r"|주소|거주지|소재지|본점|사업장")
_SUB_DISTRICT = frozenset(("dong", "eup", "myeon", "ri", "ga"))


def _tokens(text: str) -> list[tuple[str, int, int, str]]:
    """``(kind, start, end, suffix)`` of the address parts of ``text``: unit / road / admin / city / num."""
    out = []
    for m in _TOKEN.finditer(text):
        kind = "num"
        for k in ("unit", "road", "admin", "city", "num"):
            if m.group(k) is not None:
                kind = k
                break
        suffix = ""
        if kind == "admin":
            suffix = m.group("suffix").lower()
            name = m.group("admin").split("-")[0].rstrip(" 0123456789")
            if suffix == "do" and name.capitalize() not in _PROVINCES:
                continue          # Taekwon-do, To-do
            if suffix == "ga" and not m.group("gadigit"):
                continue          # only ``Jongno 1-ga``
        out.append((kind, m.start(), m.end(), suffix))
    return out


def _chains(text: str, toks):
    """Runs of tokens joined by :data:`_GAP` only."""
    chain: list = []
    for t in toks:
        if chain and _GAP.fullmatch(text, chain[-1][2], t[1]) is None:
            yield chain
            chain = []
        chain.append(t)
    if chain:
        yield chain


def _next_to(chain, i: int, kind: str) -> bool:
    return (i > 0 and chain[i - 1][0] == kind) or (i + 1 < len(chain) and chain[i + 1][0] == kind)


def _accept(text: str, chain) -> tuple[int, int, float] | None:
    kinds = [t[0] for t in chain]
    places = [t for t in chain if t[0] in ("admin", "city")]
    core = None
    for i, t in enumerate(chain):
        if t[0] == "road" and _next_to(chain, i, "num"):
            core = 0.93 if places else 0.85
            break
        if t[0] == "admin" and t[3] in _SUB_DISTRICT and _next_to(chain, i, "num"):
            nums = [chain[j] for j in (i - 1, i + 1) if 0 <= j < len(chain) and chain[j][0] == "num"]
            if len(places) >= 2:
                core = 0.9
            elif any("-" in text[n[1]:n[2]] for n in nums):
                core = 0.8
    # the span: first part to the last road / place / building-number part (not a postal code after them)
    last = max((i for i, k in enumerate(kinds) if k in ("road", "admin", "city")), default=None)
    if last is None:
        return None
    end_i = last
    if last + 1 < len(chain) and kinds[last + 1] == "num" and kinds[last] == "road":
        end_i = last + 1      # ``Teheran-ro 152``: the building number after the road
    elif (last + 1 < len(chain) and kinds[last + 1] == "num" and kinds[last] == "admin"
          and chain[last][3] in _SUB_DISTRICT):
        end_i = last + 1      # ``Yeoksam-dong 123-45``
    postal = (end_i + 1 < len(chain) and kinds[end_i + 1] == "num"
              and re.fullmatch(r"[0-9]{5}", text[chain[end_i + 1][1]:chain[end_i + 1][2]]) is not None)
    if core is None:
        if len(places) < 2 or not any(t[0] == "admin" for t in places):
            return None
        line_start = max(text.rfind("\n", 0, chain[0][1]), text.rfind("\r", 0, chain[0][1])) + 1
        labelled = _ADDRESS_WORD.search(text, max(line_start, chain[0][1] - 32), chain[0][1]) is not None
        specific = len(places) >= 3 and any(t[3] in _SUB_DISTRICT for t in places)
        if not (postal or labelled or "unit" in kinds or specific):
            return None
        core = 0.85
    start_i = 0
    while start_i < end_i and kinds[start_i] == "num" and (start_i + 1 > end_i or kinds[start_i + 1] == "num"):
        start_i += 1          # stray numbers before the address (not its building number)
    return chain[start_i][1], chain[end_i][2], core


def find_romanised_addresses(text: str) -> Iterator[Span]:
    """ADDRESS spans of romanised Korean addresses in ``text`` (folded), one per line of an address."""
    if _GATE.search(text) is None:
        return
    for chain in _chains(text, _tokens(text)):
        if len(chain) < 2:
            continue
        got = _accept(text, chain)
        if got is None:
            continue
        a, b, score = got
        for line in re.finditer(r"[^\r\n]+", text[a:b]):
            la, lb = a + line.start(), a + line.end()
            while lb > la and text[lb - 1] in " \t,":
                lb -= 1
            while la < lb and text[la] in " \t,":
                la += 1
            if la < lb:
                yield Span(la, lb, "ADDRESS", score, "rule")
