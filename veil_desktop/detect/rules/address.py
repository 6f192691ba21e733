"""Korean address grammar: road-name and lot-number addresses as ONE span, apartment unit included.

Grammar (spaces between parts optional, at most two):

    address   = [시/도] [시/군/구]{0,2} [읍/면/동]? ( road | lot ) tail*
    road      = 도로명(…로|…길) [N(-N)(번)길] [지하] 건물번호(N[-N]) [번지]
    lot       = 읍/면/동/리/N가 [읍/면/동/리/N가] [N번길] [산] 번지(N[-N]) [번지]
    tail      = [,] [건물명] 동·층·호 units [회의실|…센터]  |  (법정동[, 건물명])  |  (건물명 [units])
              | [,] …타워/빌딩/청사/아파트 …  |  -N호 (300-12-402호)  |  , N-NNN(N) (동-호 without the words)

시/도 accepts full and short names (서울특별시, 서울시, 서울, 경기도, 경기 …). A road address without any
region word (``테헤란로 427``) is kept with a lower score when the road word is not a common noun or a
particle form (``…으로``, ``주로``, ``서로``) and its number ends cleanly (not ``사고로 35~40명``, not
``신고로 119구조대``); a lot address needs a region word or ``번지``. A building number followed by a counter
(``3년``, ``2시``, ``5명``), a range (``1~2``) or ``N가`` (a dong name: ``을지로2가``) is not a house number.

Speed: the full grammar is never run at every position. A cheap anchor regex finds "road/lot word +
number" (``로 4``, ``동 12``); the grammar is then tried only at the few word starts up to ``_LOOKBACK``
characters before each anchor. Postal codes are found afterwards, next to the addresses (or after a
``우편번호`` keyword).
"""
from __future__ import annotations

import re
from typing import Iterator, Sequence

from ..span import Span
from .context import ContextIndex

_S = r"[ \t]{0,2}"
_SIDO_FULL = (r"(?:서울[ ]?특별시|(?:부산|대구|인천|광주|대전|울산)[ ]?광역시|세종[ ]?특별자치시|"
              r"(?:제주|강원|전북)[ ]?특별자치도|경기도|강원도|충청[ ]?[남북]도|전라[ ]?[남북]도|경상[ ]?[남북]도|제주도)")
_SIDO_SHORT = r"(?:(?:서울|부산|대구|인천|광주|대전|울산|세종)시?|경기|강원|충[남북]|전[남북]|경[남북]|제주)"
_SIDO = rf"(?:{_SIDO_FULL}|{_SIDO_SHORT})(?![가-힣])"
# 시/군/구: 2-5 syllables + suffix; single-syllable names exist only for the five 구 below
_SGG_STOP = r"(?!(?:반드시|지역구|선거구|무조건시|여러시|보행구|비상구|통풍구|배수구|분화구)(?![가-힣]))"
_SGG = rf"(?:{_SGG_STOP}[가-힣]{{1,4}}[가-힣](?:시|군|구)|[중동서남북]구)(?![가-힣])"
_EMD = r"(?:[가-힣]{1,5}[0-9]{1,2}가|[가-힣]{1,6}[0-9]{0,2}(?:읍|면|동|리))(?![가-힣])"  # 가 only as in 종로1가, 성수동2가
_ROAD = r"(?P<road>[가-힣][가-힣A-Za-z0-9·.]{0,14}?(?:로|길))"
_ROAD_EXT = r"(?:[ ]?[0-9]{1,4}(?:-[0-9]{1,4})?(?:번가길|번길|가길|길|로))?"
_COUNTER = (r"(?!(?:사단|여단|연대|대대|중대|군단|전대|"
            r"년|월|일|시|분|초|명|개|원|회|차|건|번째|번(?![지길])|%|세|살|대|위|등|장|권|배|층|kg|km|cm|mm|"
            r"시간|주|개월|만|천|억|점|단계|항|조|부|박|가지|퍼센트|평|㎡|m|가|호))")
# (N가 right after a number is a 가-dong name: 을지로2가; N호 is a unit, not a building number)
#: a number range or list ("6·25", "1~2시간") is not a house number; "-N호" may follow (300-12-402호)
_NUMEND = r"(?![0-9])(?!\.[0-9])(?!-(?![0-9]{1,5}호)[0-9])(?![~∼〜·])"
_BLDG = rf"(?P<bldg>(?:지하[ ]?)?[0-9]{{1,5}}(?:-[0-9]{{1,5}})?{_NUMEND}(?:[ ]?번지)?){_COUNTER}"
_LOT = rf"(?P<lot>(?:산[ ]?)?[0-9]{{1,5}}(?:-[0-9]{{1,5}})?{_NUMEND}(?P<beonji>[ ]?번지)?){_COUNTER}"

_UNIT = (r"(?:제[ ]?)?(?:(?:[0-9]{1,4}|[A-Za-z][0-9]{0,3}|[가나다라마바사아자차카타파하])동(?![가-힣])"
         r"|(?:지하[ ]?|[Bb])?[0-9]{1,3}층|[A-Za-z]?[0-9]{1,5}(?:-[0-9]{1,4})?호(?:실)?)")
_UNITS = rf"{_UNIT}(?:[ ]?,?[ ]?{_UNIT}){{0,3}}"
#: building-name words before a unit; a word ending in the genitive 의 ("11의 3층", "소재의 본사") is prose
_BNAME = r"(?:[가-힣A-Za-z][가-힣A-Za-z0-9]{0,19}(?<!의)[ ]?){1,2}"
#: a building name recognisable on its own (no unit after it)
_BSUFFIX = (r"(?:[가-힣A-Za-z0-9]{1,15}(?:타워|빌딩|청사|센터|아파트|빌라|오피스텔|맨션|프라자|플라자|상가|회관|"
            r"스퀘어|캐슬|팰리스|자이|푸르지오|래미안|힐스테이트|아이파크|더샵|빌))")  # a particle may follow
#: a room after the units: "3층 회의실", "7층 사무실"
_ROOM = r"(?:[ ]?(?:대회의실|소회의실|회의실|사무실|강당|민원실|상담실|접견실))"
_PAREN = (r"\((?:[가-힣0-9]{1,10}(?:동|가|리|읍|면)(?:,[ ]?[가-힣A-Za-z0-9 ]{1,20})?"
          r"|(?!우편|우[ :)])[가-힣A-Za-z][가-힣A-Za-z ]{1,15})\)")
_TAIL = (rf"(?:(?:[ \t]{{0,2}},?[ \t]{{0,2}}(?:{_BNAME})?{_UNITS}(?:{_ROOM}|[ ]?{_BSUFFIX})?)"
         rf"|(?:[ \t]{{0,2}}(?:{_PAREN}|\((?:{_BNAME})?{_UNITS}\)))"
         rf"|(?:[ \t]{{0,2}},?[ \t]{{0,2}}{_BSUFFIX})"
         rf"|(?:-{_UNIT})"                                        # 300-12-402호, 102-504호
         rf"|(?:,[ ]?[0-9]{{1,4}}-[0-9]{{3,4}}(?![0-9-])(?!호)))*")  # ", 301-1204": 동-호 without the words

_PREFIX = rf"(?:(?P<sido>{_SIDO}){_S})?(?:(?P<sgg>{_SGG}){_S}){{0,2}}"
_ADDRESS = re.compile(
    rf"{_PREFIX}(?:"
    rf"(?:(?:{_EMD}){_S})?{_ROAD}{_ROAD_EXT}{_S}{_BLDG}"
    rf"|(?P<emd>{_EMD})(?:{_S}{_EMD})?{_S}(?:[0-9]{{1,4}}번길{_S})?{_LOT}"
    rf"){_TAIL}")

#: a road/lot word directly followed by a number: where an address can end its core
_ANCHOR = re.compile(r"[로길동리가읍면][ \t]{0,2}(?:지하[ ]?|산[ ]?)?[0-9]")
#: words starting with a Hangul syllable (not preceded by a syllable / letter / digit)
_WORD = re.compile(r"[가-힣](?<![가-힣A-Za-z0-9][가-힣])[가-힣A-Za-z0-9·.]*")
_START_LAST = frozenset("시도군구동읍면리가로길")
_SIDO_PREFIXES = ("서울", "부산", "대구", "인천", "광주", "대전", "울산", "세종", "경기", "강원", "충북", "충남", "충청",
                  "전북", "전남", "전라", "경북", "경남", "경상", "제주")
_LOOKBACK = 48

#: road words that are common nouns or particle forms, never a road name on their own
_ROAD_STOP = frozenset(
    "경로 진로 통로 항로 회로 도로 선로 수로 철로 활로 기로 미로 공로 과로 노로 육로 해로 행로 대로 가로 세로 "
    "주로 서로 바로 별로 새로 실로 절로 홀로 날로 따로 그대로 제대로 멋대로 맘대로 마음대로 곧바로 스스로 "
    "대체로 비교적으로 위로 아래로 뒤로 앞길 뒷길 오솔길 지름길 갈림길 빗길 눈길 밤길 귀갓길 출근길 퇴근길 "
    "하굣길 등굣길 산길 물길 뱃길 하늘길 꽃길 가시밭길 먼길 이길 저길 그길 한길 외길 첫길 샛길 골목길 "
    "지난번으로 최종적으로 메일로 전화로 문자로 우편으로 계좌로 카드로 현금으로 서면으로 팩스로 "
    "이메일로 번호로 주소로 사무실로 본사로 지사로 회사로 집으로 학교로 병원으로 "
    "상대로 휴대전화로 휴대폰로 핸드폰로 결과로 이유로 명의로 단위로 차례로 순서로 비율로 스코어로 점수로 표차로 "
    "골차로 세트스코어로 득표로 연장으로 승부차기로".split())


_PARTICLE = re.compile(r"(?:에서|에|이며|이고|이다|이나|인데|입니다|으로|로|은|는|이|가|을|를|의|과|와|까지|부터|쪽|앞|근처|인근)")


def _accept(m: re.Match) -> float | None:
    """Score for a grammar match, or None when it is too weak to be an address."""
    region = m.group("sido") or m.group("sgg")
    if m.group("road"):
        if region:
            return 0.93
        road = m.group("road")
        if road.endswith("으로") or road in _ROAD_STOP or len(road) < 3 or not road[-2].isalnum():
            return None
        # without a region word, "신고로 119구조대" / "사고로 35명" look alike: the house number must end
        # the match cleanly (end of text, space, punctuation, a unit or a particle), not run into a word
        after = m.string[m.end():m.end() + 3]
        if after and "가" <= after[0] <= "힣" and not _PARTICLE.match(after):
            return None
        return 0.8
    # lot-number address: needs a region word or 번지
    if region:
        return 0.9
    if m.group("beonji"):
        return 0.8
    return None


def find_addresses(text: str) -> list[Span]:
    """ADDRESS spans in ``text`` (folded), sorted, non-overlapping."""
    out: list[Span] = []
    covered = -1
    for an in _ANCHOR.finditer(text):
        p = an.start()
        if p < covered:
            continue
        lo = max(0, p - _LOOKBACK, covered)
        for w in _WORD.finditer(text, lo, p + 1):
            word = w.group(0)
            # an address starts with a region / road / lot word: skip other words without running the grammar
            if word[-1] not in _START_LAST and not word.startswith(_SIDO_PREFIXES):
                continue
            m = _ADDRESS.match(text, w.start())
            if m is None or m.end() <= p:
                continue
            score = _accept(m)
            if score is None:
                continue
            a, b = m.span()
            while b > a and text[b - 1] in " \t,":
                b -= 1
            out.append(Span(a, b, "ADDRESS", score, "rule"))
            covered = b
            break
    return out


# ---------------------------------------------------------------------------------------------
# postal codes: 5 digits (since 2015) in an address context; 6-digit ``123-456`` after a keyword

_POSTAL = re.compile(r"[0-9](?<![0-9A-Za-z][0-9])(?<![0-9][-.,][0-9])"
                     r"(?:(?<=[0-6])[0-9]{4}|(?<=[1-7])[0-9]{2}-[0-9]{3})(?![0-9])(?![-.,][0-9])")
_POSTAL_OPEN = re.compile(r"[ \t]{0,2}[,(]?[ \t]{0,2}(?:\(?(?:우편번호|우)[ \t]?[:)]?[ \t]{0,2})?")


_POSTAL_WORD_AFTER = re.compile(r"[가-힣]{0,3}[ \t]{0,2}우편")


def find_postal_codes(text: str, addresses: Sequence[Span], context: ContextIndex | None = None
                      ) -> Iterator[Span]:
    context = context if context is not None else ContextIndex(text)
    ends = {s.end: s for s in addresses}
    starts = {s.start for s in addresses}
    for m in _POSTAL.finditer(text):
        a, b = m.span()
        five = "-" not in m.group(0)
        ctx = context.before(a, 14)
        if ctx != "POSTAL_CODE" and five and _POSTAL_WORD_AFTER.match(text, b):
            ctx = "POSTAL_CODE"  # "06230으로 우편 보내면 …"
        if ctx == "POSTAL_CODE":
            yield Span(a, b, "POSTAL_CODE", 0.95, "rule")
            continue
        if not five:
            continue
        # "…302호 (13486)", "…302호, 06234", "(06234) 서울특별시 …"
        near_end = any((a - k) in ends and _POSTAL_OPEN.fullmatch(text, a - k, a) for k in range(0, 8))
        near_start = any((b + k) in starts for k in range(1, 4)) and text[b:b + 1] in (" ", ")", ",", "]")
        if near_end or near_start:
            yield Span(a, b, "POSTAL_CODE", 0.9, "rule")
