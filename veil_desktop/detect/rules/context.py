"""Context words: what kind of number does the text just before (or after) a candidate announce?

One compiled alternation with a named group per kind; the match *closest* to the candidate wins, so in
``주민등록번호 880412-2145678, 연락처 010-…`` each number gets its own keyword. ``NEG`` marks identifiers
that look like PII but are not (order, case, document, prescription, version numbers …).
"""
from __future__ import annotations

import re

_KINDS = {
    "FOREIGNER_RN": r"외국인",
    "RRN": r"주민|생년월일|RRN",
    "CORP_REG": r"법인",
    "BUSINESS_REG": r"사업자",
    "ACCOUNT": r"계좌|은행|뱅크|입금|예금|이체|송금|환불|환급|출금|통장|농협|신협|수협|우체국|새마을금고|(?<![a-z])account",
    "CARD": r"카드|(?<![a-z])card|결제",
    "DRIVER_LICENSE": r"면허",
    "ID_CARD": r"신분증",
    "PASSPORT": r"여권|passport",
    "PHONE": r"전화|연락|휴대|핸드폰|폰|(?<![a-z])tel(?![a-z])|팩스|(?<![a-z])fax|문의|내선|대표번호|콜센터|고객센터|☎",
    "IP": r"(?<![a-z])ip(?![a-z])|아이피|서버|접속",
    "VEHICLE": r"차량|번호판|자동차",
    "POSTAL_CODE": r"우편|\(우\)|우\s?[:)]|〒|(?<![a-z])zip|postal|포스탈|포스트\s?코드",
    "NEG": (r"(?:주문|송장|운송장|접수|사건|문서|일련|관리|신청|인증|승인|거래|예약|회원|증권|처방|처방전|등기|특허|"
            r"출원|상품|제품|모델|품|보험증|청구|시행|공고|고시|과제|계약)[ ]?번호|의료보험|건강보험|보험증|보험[ ]?번호|학번|사번|군번|시리얼|serial|버전|"
            r"(?<![a-z])ver(?:sion)?(?![a-z])|no\.|#"),
}
_CTX = re.compile("|".join(f"(?P<{k}>{v})" for k, v in _KINDS.items()), re.IGNORECASE)

#: how far before a candidate we look for its keyword (characters)
BEFORE = 24
AFTER = 14


def kind_before(text: str, start: int, width: int = BEFORE) -> str | None:
    """The kind of the keyword closest before ``start`` (within ``width`` chars), or None."""
    last = None
    for last in _CTX.finditer(text, max(0, start - width), start):
        pass
    return last.lastgroup if last is not None else None


def kind_after(text: str, end: int, width: int = AFTER) -> str | None:
    """The kind of the first keyword within ``width`` chars after ``end`` (e.g. ``(예금주: …)``)."""
    m = _CTX.search(text, end, min(len(text), end + width))
    return m.lastgroup if m is not None else None
