"""Context words: what kind of number does the text just before (or after) a candidate announce?

The keyword closest to the candidate wins, so in ``주민등록번호 880412-2145678, 연락처 010-…`` each number
gets its own keyword. ``NEG`` marks identifiers that look like PII but are not (order, case, document,
prescription, insurance, version numbers …): it vetoes ambiguous shapes.

Speed: the keyword regex is a character trie of literals (``trie.literal_alternation``: no leading lookbehind,
so ``re`` can skip non-candidate characters with its first-character set); the kind is looked up from the
matched word.
Latin keywords are listed in their usual casings and must not touch other Latin letters (``ip`` in ``zip``).
"""
from __future__ import annotations

import re

from ..trie import literal_alternation

_KINDS: dict[str, list[str]] = {
    "FOREIGNER_RN": ["외국인", "Alien Registration", "Alien Registration Card", "ALIEN REGISTRATION CARD", "alien registration", "ALIEN REGISTRATION", "Alien Reg",
                     "ARC", "Foreigner ID", "foreigner ID", "Foreigner Registration", "foreigner registration",
                     "FOREIGNER", "Foreigner No", "Residence Card", "residence card", "Foreign Resident"],
    "RRN": ["주민", "생년월일", "RRN", "Resident Registration", "resident registration", "RESIDENT REGISTRATION"],
    "CORP_REG": ["법인"],
    "BUSINESS_REG": ["사업자"],
    "ACCOUNT": ["계좌", "은행", "뱅크", "입금", "예금", "이체", "송금", "환불", "환급", "출금", "통장", "농협", "신협",
                "수협", "우체국", "새마을금고", "신한", "토스", "씨티", "SC제일", "account", "Account", "ACCOUNT",
                # bank names as written before an account in forms and combo boxes ("국민 496736-02-149361")
                "국민", "KB", "하나", "우리", "기업", "IBK", "카카오", "케이뱅크", "K뱅크", "농축협", "NH", "KDB",
                "산업", "BNK", "DGB", "iM뱅크", "광주", "전북", "제주", "경남", "부산", "대구"],
    "CARD": ["카드", "card", "Card", "CARD", "결제"],
    "DRIVER_LICENSE": ["면허"],
    "ID_CARD": ["신분증", "주민등록증"],  # 주민등록증 outranks 주민: the card's own numbers are not RRN-shaped
    "PASSPORT": ["여권", "passport", "Passport", "PASSPORT", "Passport No", "여권번호"],
    "PHONE": ["전화", "연락", "휴대", "핸드폰", "폰", "tel", "Tel", "TEL", "팩스", "fax", "Fax", "FAX", "문의", "내선",
              "대표번호", "콜센터", "고객센터", "☎"],
    "IP": ["ip", "IP", "Ip", "아이피", "서버", "접속"],
    "VEHICLE": ["차량", "번호판", "자동차"],
    "POSTAL_CODE": ["우편", "(우)", "우:", "우 :", "우)", "〒", "zip", "ZIP", "Zip", "postal", "Postal", "포스탈",
                    "포스트코드", "포스트 코드"],
    "NEG": [w + sep + "번호" for w in ("주문", "송장", "운송장", "접수", "사건", "문서", "일련", "관리", "신청", "인증",
                                      "승인", "거래", "예약", "회원", "증권", "처방", "처방전", "등기", "특허", "출원",
                                      "상품", "제품", "모델", "품", "보험증", "보험", "청구", "시행", "공고", "고시",
                                      "과제", "계약")
            for sep in ("", " ")]
    + ["의료보험", "건강보험", "보험증", "학번", "사번", "군번", "시리얼", "serial", "Serial", "SERIAL", "S/N", "s/n",
       "제조번호", "바코드", "tracking", "Tracking", "버전",
       "ver", "Ver", "VER", "version", "Version", "no.", "No.", "NO.", "#",
       "Order", "order", "ORDER", "Invoice", "invoice", "INVOICE", "SKU", "Model", "model", "MODEL", "품번",
       "Item", "item", "Lot", "LOT", "Batch", "batch"],
}
_KIND_OF: dict[str, str] = {w: k for k, ws in _KINDS.items() for w in ws}
_CTX = re.compile(literal_alternation(_KIND_OF))  # a character trie, longest match first (detect/trie.py)
_LATIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LONGEST = max(map(len, _KIND_OF))

#: how far before a candidate we look for its keyword (characters)
BEFORE = 24


def _kind(text: str, m: re.Match) -> str | None:
    w = m.group(0)
    if w[0] in _LATIN:
        a, b = m.span()
        if (a > 0 and text[a - 1] in _LATIN) or (b < len(text) and text[b] in _LATIN):
            return None
    return _KIND_OF[w]


#: generic number words ("No.", "#") vetoing alone, but only naming the slot of a keyword right before them:
#: "Passport No.: M1234…", "Alien Registration No. 900101-5…", "여권 #" keep the keyword's kind
_GENERIC_NEG = frozenset(("no.", "No.", "NO.", "#"))
#: at most this many characters (spaces, brackets, a colon) between a keyword and the generic word after it
_GENERIC_GAP = 3


def kind_before(text: str, start: int, width: int = BEFORE) -> str | None:
    """The kind of the keyword closest before ``start`` (within ``width`` chars), or None."""
    found, found_end = None, -100
    lo = start - width
    # a long English label ("Resident Registration No.") counts when it ends inside the window; every other
    # keyword must start inside it (a Korean NEG word just before the window must not veto: measured)
    scan = lo
    if lo > 0 and (text[lo - 1] in _LATIN or text[lo - 1] == " " and text[lo:lo + 1] in _LATIN):
        scan = max(0, lo - _LONGEST)  # Latin letters across the window's edge: maybe a long label (rare)
    for m in _CTX.finditer(text, max(0, scan), start):
        if m.start() < lo and (m.end() <= lo or m.group(0)[0] not in _LATIN):
            continue
        k = _kind(text, m)
        if k is None or (k == "NEG" and m.start() < lo):
            continue
        if (k == "NEG" and found not in (None, "NEG") and m.group(0) in _GENERIC_NEG
                and m.start() - found_end <= _GENERIC_GAP and not text[found_end:m.start()].strip(" ()[]:")):
            found_end = m.end()
            continue  # "Passport No.": the number word names the keyword's slot
        found, found_end = k, m.end()
    return found



class ContextIndex:
    """Keyword look-ups for one text, handed to every finder of a ``RuleDetector.detect`` call.

    ``before(start, width)`` == ``kind_before(text, start, width)``. It scans only the ``width`` characters
    before each candidate: measured on the ko-pii corpus, one whole-text scan plus binary search was ~10 %
    slower (keywords are dense there and each needs a Python-level check), so no global index is built.
    The class keeps the finders' signature stable should a faster index be added later.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def before(self, start: int, width: int = BEFORE) -> str | None:
        return kind_before(self.text, start, width)
