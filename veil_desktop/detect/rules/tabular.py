"""Values split over the cells of a CSV/TSV row (issue 26 class 5).

Korean spreadsheet exports often keep a number in pieces, one per column: ``주민번호 앞자리,주민번호 뒷자리``
(``851203,1234567``), a phone in ``국번,앞,뒤`` or ``전화1,전화2,전화3`` (``010,4821,7395``; the spreadsheet may
have dropped the leading zero: ``10,4821,7395``), a card in four columns, an account in three. No single cell
is a value, so the other finders see nothing. This finder reads each row (cells separated by ``,``, ``;`` or
a tab; quoted cells, ``""`` escapes) with the header above it and joins adjacent all-digit cells:

- ``RRN`` / ``FOREIGNER_RN``: 6 + 7 digits, a valid birth date and sex digit, and either a header word
  (주민, 등록번호, 앞자리, 뒷자리, 생년월일, RRN …) or, in a table without a header line, a valid check digit;
- ``PHONE``: a mobile prefix (010, 011, 016–019) + 3–4 + 4 digits, or with a phone header word (전화, 연락처,
  휴대폰, 국번, 앞/뒤, phone, tel …) any area code (also without its leading zero);
- ``CARD``: 4 × 4 digits under a card header word, or (no header line) a card prefix 3–6 passing Luhn;
- ``ACCOUNT``: 2–4 cells, 10–14 digits in all, under an account header word (계좌, account);
- ``EMAIL``: a local part and a domain in adjacent cells (``minjun.kim | example.com``, an ``@`` cell between
  or ``@example.com``), under an e-mail header word (메일, 아이디, 도메인, email) or with the ``@`` written.

One span per cell piece, same label, so masking hides every piece. Ordinary numeric columns (prices,
counts, quantities, dates, codes) do not join: each pattern needs its lengths and prefixes, and the looser
ones a header word over those very columns.
"""
from __future__ import annotations

import re

from ..span import Span

__all__ = ["find_split_cells", "find_labelled_columns", "find_labelled_rows", "TABULAR_FINDERS", "split_row"]

_DELIMS = ("\t", ";", ",")
#: a line with two adjacent all-digit cells: the cheap test before any row is parsed
_ADJACENT = re.compile(r'(?m)(?:^|[,;\t])[ ]*"?-?[0-9]{1,8}(?:-[0-9]{1,8})?-?"?[ ]*[,;\t][ ]*"?-?[0-9]{1,8}'
                       r'(?:-[0-9]{1,8})?-?"?[ ]*(?:[,;\t]|\r?$)'
                       r'|(?:^|[,;\t])[ ]*"?[A-Za-z0-9._%+-]+"?[ ]*[,;\t][ ]*"?(?:@[ ]*"?[ ]*[,;\t]?[ ]*"?)?'
                       r'[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"?[ ]*(?:[,;\t]|\r?$)')
_LOCAL_CELL = re.compile(r"[A-Za-z0-9._%+-]*[A-Za-z][A-Za-z0-9._%+-]*")
_DOMAIN_CELL = re.compile(r"@?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_EMAIL_HINT = re.compile(r"메일|이메일|아이디|도메인|e-?mail|mail|\bid\b|domain", re.I)
_DIGIT_CELL = re.compile(r"-?([0-9]{1,8}(?:-[0-9]{1,8})?)-?")  # ``4821-7395`` is one piece of a phone

_RRN_HINT = re.compile(r"주민|등록번호|앞자리|뒷자리|생년월일|외국인|RRN|jumin|SSN", re.I)
_PHONE_HINT = re.compile(r"전화|연락처|휴대|핸드폰|폰|국번|지역번호|앞|중간|뒤|끝"
                         r"|\b(?:phone|tel|mobile|cell|HP|H\.P)(?:[0-9_ .-]|\b)", re.I)
_CARD_HINT = re.compile(r"카드|card", re.I)
_ACCOUNT_HINT = re.compile(r"계좌|account|acct", re.I)

_MOBILE = {"010", "011", "016", "017", "018", "019"}
_AREA = {"02", "031", "032", "033", "041", "042", "043", "044", "051", "052", "053", "054", "055", "061",
         "062", "063", "064", "070", "050", "0502", "0503", "0504", "0505", "0506", "0507", "0508", "080"}


def split_row(text: str, a: int, b: int, delim: str) -> list[tuple[int, int]]:
    """The cells of the line ``text[a:b]``: content ranges (surrounding spaces and quotes removed)."""
    cells = []
    i = a
    while i <= b:
        j = i
        while j < b and text[j] == " ":
            j += 1
        if j < b and text[j] == '"':
            k = j + 1
            while k < b:
                if text[k] == '"':
                    if k + 1 < b and text[k + 1] == '"':
                        k += 2
                        continue
                    break
                k += 1
            content = (j + 1, k)
            k += 1
            while k < b and text[k] != delim:
                k += 1
        else:
            k = j
            while k < b and text[k] != delim:
                k += 1
            e = k
            while e > j and text[e - 1] == " ":
                e -= 1
            content = (j, e)
        cells.append(content)
        i = k + 1
    return cells


def _delimiter(line: str) -> str | None:
    outside = re.sub(r'"(?:[^"]|"")*"', "", line)
    best = max(_DELIMS, key=outside.count)
    return best if outside.count(best) else None


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    a = text.rfind("\n", 0, pos) + 1
    b = text.find("\n", pos)
    b = len(text) if b < 0 else b
    if b > a and text[b - 1] == "\r":
        b -= 1
    return a, b


def _header(text: str, a: int, delim: str, memo: dict[int, list[str] | None],
            lines_back: int = 200) -> list[str] | None:
    """The nearest line above ``a`` that splits into ≥ 2 cells with no all-digit cell and some letter.
    ``memo`` (line start -> its header) makes a long table cost one step per row: the row above already
    knows its header."""
    end = a - 1  # the line break before the line at ``a``
    for _ in range(lines_back):
        if end < 0:
            break
        la = text.rfind("\n", 0, end) + 1
        if la in memo:
            memo[a] = memo[la]
            return memo[a]
        lb = end - 1 if end >= 1 and text[end - 1] == "\r" else end
        cells = [text[x:y] for x, y in split_row(text, la, lb, delim)]
        if len(cells) >= 2 and not any(_DIGIT_CELL.fullmatch(c) for c in cells) and any(
                ch.isalpha() for c in cells for ch in c):
            memo[a] = cells
            return cells
        end = la - 1
    memo[a] = None
    return None


def _valid_date(d6: str) -> bool:
    mm, dd = int(d6[2:4]), int(d6[4:6])
    return 1 <= mm <= 12 and 1 <= dd <= 31


def _rrn_checksum(d13: str) -> bool:
    w = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
    s = sum(int(c) * k for c, k in zip(d13[:12], w))
    return (11 - s % 11) % 10 == int(d13[12])


def _luhn(d: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(d)):
        n = int(c)
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def _match(digits: list[str], hint: str | None) -> tuple[int, str, float] | None:
    """(cells used, label, score) for the pieces starting at ``digits[0]``, or None. ``hint``: the header
    cells over those columns (``None``: no header line above)."""
    n = len(digits)
    header_hint = hint
    hint = hint or ""
    if n >= 2 and len(digits[0]) == 6 and len(digits[1]) == 7 and _valid_date(digits[0]) and digits[1][0] in "12345678":
        d = digits[0] + digits[1]
        hinted = bool(_RRN_HINT.search(hint))
        if hinted or (header_hint is None and _rrn_checksum(d)):  # other headers: other numbers
            return 2, ("FOREIGNER_RN" if d[6] in "5678" else "RRN"), 0.95 if hinted else 0.9
    if n >= 4 and all(len(x) == 4 for x in digits[:4]):
        # a card: under a card header word, or (no header at all) a card prefix and a valid Luhn digit;
        # four 4-digit numbers under other headers (years, amounts) are not a card (Luhn passes 1 in 10)
        hinted = bool(_CARD_HINT.search(hint))
        if hinted or (header_hint is None and digits[0][0] in "3456" and _luhn("".join(digits[:4]))):
            return 4, "CARD", 0.95 if hinted else 0.85
    if n >= 3 and 3 <= len(digits[1]) <= 4 and len(digits[2]) == 4:
        p = digits[0]
        phone_hinted = bool(_PHONE_HINT.search(hint)) and not _ACCOUNT_HINT.search(hint)
        if p in _MOBILE and (len(digits[1]) == 4 or p != "010"):
            return 3, "PHONE", 0.95 if phone_hinted else 0.9
        if phone_hinted and (p in _AREA or "0" + p in _MOBILE or "0" + p in _AREA):
            return 3, "PHONE", 0.95
    if n >= 2 and 7 <= len(digits[1]) <= 8 and 2 <= len(digits[0]) <= 4:
        p = digits[0]
        phone_hinted = bool(_PHONE_HINT.search(hint)) and not _ACCOUNT_HINT.search(hint)
        if (p in _MOBILE and len(digits[1]) == 8) or (phone_hinted and (p in _AREA or "0" + p in _MOBILE)):
            return 2, "PHONE", 0.95 if phone_hinted else 0.9
    if _ACCOUNT_HINT.search(hint):
        for k in (4, 3, 2):
            if n >= k and all(len(x) >= 2 for x in digits[:k]) and 10 <= sum(map(len, digits[:k])) <= 14:
                return k, "ACCOUNT", 0.9
    return None


def find_split_cells(t: str, ctx=None) -> list[Span]:
    """Spans over the pieces of values split across adjacent cells (see the module docstring)."""
    if "," not in t and ";" not in t and "\t" not in t:
        return []
    out: list[Span] = []
    done_lines: set[int] = set()
    headers: dict[int, list[str] | None] = {}
    for m in _ADJACENT.finditer(t):
        a, b = _line_bounds(t, m.start() + 1 if t[m.start()] in ",;\t\n" else m.start())
        if a in done_lines:
            continue
        done_lines.add(a)
        delim = _delimiter(t[a:b])
        if delim is None:
            continue
        cells = split_row(t, a, b, delim)
        if len(cells) < 2:
            continue
        header = _header(t, a, delim, headers)
        i = 0
        while i < len(cells):
            run = []
            j = i
            while j < len(cells):
                mm = _DIGIT_CELL.fullmatch(t[cells[j][0]:cells[j][1]])
                if not mm:
                    break
                run.append((j, mm.group(1).replace("-", "")))
                j += 1
            if len(run) < 2:
                i = j + 1 if j == i else j
                continue
            k = 0
            while k < len(run) - 1:
                idx = [c for c, _ in run[k:]]
                hint = None if header is None else " ".join(header[c] for c in idx[:4] if c < len(header))
                got = _match([d for _, d in run[k:]], hint)
                if got is None:
                    k += 1
                    continue
                used, label, score = got
                for c, _ in run[k:k + used]:
                    s, e = cells[c]
                    out.append(Span(s, e, label, score, "rule"))
                k += used
            i = j
        out.extend(_split_emails(t, cells, header))
    return out


def _split_emails(t: str, cells: list[tuple[int, int]], header: list[str] | None) -> list[Span]:
    """``minjun.kim | example.com`` (or ``| @ |`` between, or ``@example.com``) in adjacent cells: a local
    part, then a domain, under an e-mail header word (or with the ``@`` written in its own cell)."""
    out = []
    k = 0
    while k < len(cells) - 1:
        a0, b0 = cells[k]
        if not _LOCAL_CELL.fullmatch(t, a0, b0):
            k += 1
            continue
        nxt = k + 1
        at_cell = t[cells[nxt][0]:cells[nxt][1]] == "@" and nxt + 1 < len(cells)
        dom = nxt + 1 if at_cell else nxt
        a1, b1 = cells[dom]
        if not _DOMAIN_CELL.fullmatch(t, a1, b1):
            k += 1
            continue
        hint = " ".join(header[c] for c in range(k, dom + 1) if header is not None and c < len(header))
        if not (at_cell or t[a1] == "@" or _EMAIL_HINT.search(hint)):
            k += 1
            continue
        out.extend(Span(a, b, "EMAIL", 0.95, "rule") for a, b in (cells[k], cells[dom]))
        k = dom + 1
    return out


# ---------------------------------------------------------------------------------------------------------
# a whole cell under a header that names what it holds (red team 6 5c: an Excel round trip)
#
# A spreadsheet saved as CSV keeps a number the way its cell showed it: ``8.90613E+12`` for an RRN typed as a
# number, ``1098994962`` for a phone whose leading zero the number format dropped, ``4.96736E+13`` for an
# account; a romanised name sits in ``영문 성`` / ``영문 이름`` columns. No finder that reads the value's own
# shape sees any of them, but the header says what the column is: every cell under a header that names a
# personal value is that value when its content could be one (a number with enough digits, or written in
# scientific notation, under a number header; a word of a name's length under a name header; some text under
# an address header). Default deny: a column that says it holds RRNs is masked, whatever a cell's format
# made of it. A header cell that names an amount, a count, a date or a yes/no (``계좌 잔액``, ``전화 횟수``)
# names no value.

#: (label, header words) in the order they are tried: the first that the header cell holds wins
_COLUMN_KINDS = (
    ("FOREIGNER_RN", re.compile(r"외국인\s*등록", re.I)),
    ("RRN", re.compile(r"주민|\b(?:rrn|ssn|jumin)\b", re.I)),
    ("PASSPORT", re.compile(r"여권|passport", re.I)),
    ("CARD", re.compile(r"카드\s*번호|\bcard\s*(?:no|number|num)\b", re.I)),
    ("ACCOUNT", re.compile(r"계좌|통장|\b(?:account|acct)\b", re.I)),
    ("PHONE", re.compile(r"전화|연락처|휴대|핸드폰|팩스|\b(?:phone|tel|mobile|cell|fax)\b", re.I)),
    ("EMAIL", re.compile(r"메일|\be-?mail\b", re.I)),
    ("ADDRESS", re.compile(r"^(?:[가-힣]{0,4}\s?)?(?:주소|주소지|거주지|배송지|수령지|실거주지)$|^(?:home |mailing )?(?:address|addr)$",
                           re.I)),
    ("PERSON", re.compile(r"^(?:(?:영문|한글|국문|영어)\s?)?(?:성|성씨|이름|성명|명)$"
                          r"|^[가-힣]{0,5}\s?성명$"
                          r"|^(?:신청인|민원인|보호자|환자|고객|대표자|예금주|수령인|수취인|받는\s?분|보내는\s?분|작성자|담당자"
                          r"|의뢰인|피해자|가해자|학생|직원|회원|성)\s?(?:명|이름)?$"
                          r"|^(?:(?:english|korean|full|last|first|given|family|middle)\s?)?name$|^surname$", re.I)),
)
#: header words that make a column something other than the value (an amount, a count, a date, a flag, a code)
_NOT_A_VALUE = re.compile(r"잔액|금액|합계|건수|횟수|개수|여부|일자|일시|날짜|시간|종류|구분|유형|코드|은행|수$|\b(?:count|amount|date"
                          r"|time|type|code|bank|flag)\b", re.I)
#: a cell as a number: digits with separators, or scientific notation (``8.90613E+12``)
_NUMBERISH = re.compile(r"[+]?[0-9][0-9 .,()\-]*?(?:[Ee][+]?(?P<exp>[0-9]{1,2}))?")
_MIN_DIGITS_IN = {"RRN": 6, "FOREIGNER_RN": 6, "PHONE": 7, "ACCOUNT": 8, "CARD": 12}
_PASSPORT_CELL = re.compile(r"[A-Za-z]{1,2}[0-9]{7,8}|[0-9]{8,9}")
_EMAIL_CELL = re.compile(r"[A-Za-z0-9._%+-]*[A-Za-z][A-Za-z0-9._%+-]*(?:[ ]?@[ ]?[A-Za-z0-9.-]+)?")
_NAME_CELL = re.compile(r"[가-힣]{1,5}|[가-힣]{1,4} [가-힣]{1,4}|[\u4e00-\u9fff]{2,4}"
                        r"|[A-Za-z][A-Za-z'.-]{0,24}(?: [A-Za-z][A-Za-z'.-]{0,24}){0,3}")
#: words a name column holds when there is no name
_NO_NAME = frozenset(("없음", "미상", "해당없음", "공란", "익명", "본인", "비공개", "미정", "기타", "합계", "소계", "계", "공석",
                      "none", "n/a", "na", "unknown", "total", "-"))
_ADDRESS_CELL = re.compile(r"(?=.*[가-힣].*[가-힣]).{4,}|(?=.*[0-9])(?=.*[A-Za-z]{3}).{8,}")
#: a cell that may be such a header (the cheap gate): a header word in a short cell, a delimiter or the line's
#: end right after it; only lines with such a cell are read as headers, only rows below a header as rows
_COLUMN_GATE = re.compile(r'(?im)(?:^|[,;\t])[ \t"]*[^,;\t\n]{0,8}?(?:외국인|주민|여권|카드|계좌|통장|전화|연락처|휴대|핸드폰|팩스|메일|주소'
                          r'|거주지|배송지|수령지|성명|이름|성|명|rrn|ssn|jumin|passport|card|account|acct|phone|tel|mobile'
                          r'|cell|fax|mail|address|addr|name)[^,;\t\n]{0,10}(?=[,;\t]|\r?$)')


#: a line that ends like a sentence (``… 적어 주세요.``, ``… 입니다``) is no header, whatever words it holds (a row
#: may end so: a hostile notes column must not take its row out of the table)
_SENTENCE_END = re.compile(r"(?:[.?!。]|[가-힣](?:니다|어요|아요|세요|해요|습니까))[ \t\r\"']*$")


def _column_kind(cell: str) -> str | None:
    key = " ".join(re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", cell.strip().strip('"')).split())
    if not key or len(key) > 16 or key.count(" ") > 2 or _NOT_A_VALUE.search(key):  # a label, not a sentence
        return None
    for label, rx in _COLUMN_KINDS:
        if rx.search(key):
            return label
    return None


def _cell_value(label: str, cell: str) -> bool:
    """Whether ``cell`` (content, stripped) can hold a ``label`` value under a header that names it."""
    if label in _MIN_DIGITS_IN:
        m = _NUMBERISH.fullmatch(cell)
        if m is None:
            return False
        if m.group("exp") is not None and int(m.group("exp")) >= 5:
            return True  # a long number shown in scientific notation: its digits are gone from view, not from the file
        return sum(c.isdigit() for c in cell) >= _MIN_DIGITS_IN[label]
    if label == "PASSPORT":
        return _PASSPORT_CELL.fullmatch(cell) is not None
    if label == "EMAIL":
        return _EMAIL_CELL.fullmatch(cell) is not None and cell.lower() not in _NO_NAME
    if label == "PERSON":
        return _NAME_CELL.fullmatch(cell) is not None and cell.lower() not in _NO_NAME
    return _ADDRESS_CELL.fullmatch(cell) is not None  # ADDRESS


def find_labelled_columns(t: str, ctx=None) -> list[Span]:
    """Whole cells under a header cell that names a personal value (see above): CSV/TSV rows (``,``, ``;``
    or tab; quoted cells) below such a header, up to a blank line, a line of another shape or the next
    header. Linear: each line is read once (header candidates come from the gate, rows follow them)."""
    out: list[Span] = []
    pos = 0
    while True:
        g = _COLUMN_GATE.search(t, pos)
        if g is None:
            return out
        a, b = _line_bounds(t, g.start() + 1 if t[g.start()] in ",;\t\n" else g.start())
        pos = _next_line(t, b)
        header = _column_header(t, a, b)
        if header is None:
            continue
        cols, delim, width = header
        if set(cols) == {0} and _in_sheet(t, a, b, delim, width):
            continue  # a row of a record sheet laid out downwards (find_labelled_rows reads it): no header
        while pos < len(t):  # the rows below it
            a, b = _line_bounds(t, pos)
            if a >= b:
                break  # a blank line ends the table
            cells = split_row(t, a, b, delim) if delim in t[a:b] else []
            if len(cells) != width:
                break  # a table's rows have its header's cells (prose with commas has not)
            if _column_header(t, a, b, (delim, cells)) is not None:
                break  # the next table's header: the gate finds it again
            for i, label in cols.items():
                x, y = cells[i]
                if y > x and _cell_value(label, t[x:y]):
                    # the header is the evidence, and a strong one: a model span across cells (``PARK,SEOYEON``
                    # read as one organisation) loses to the cells and is cut at them: the row keeps its columns
                    out.append(Span(x, y, label, 0.97 if label != "ADDRESS" else 0.9, "rule"))
            pos = _next_line(t, b)


def _next_line(t: str, b: int) -> int:
    """The start of the line after the one that ends at ``b`` (its ``\\r`` excluded), or ``len(t)``."""
    n = t.find("\n", b)
    return len(t) if n < 0 else n + 1


def _column_header(t: str, a: int, b: int, split: tuple[str, list[tuple[int, int]]] | None = None
                   ) -> tuple[dict[int, str], str, int] | None:
    """``(column -> label, delimiter, cells)`` when the line ``t[a:b]`` is a header naming personal values:
    some cell names one, no cell holds a number, and it does not end like a sentence. ``split``: the line's
    cells already split at a delimiter (a table row), used when that is the line's own delimiter."""
    d = _delimiter(t[a:b])
    if d is None or _SENTENCE_END.search(t, a, b):
        return None
    cells = split[1] if split is not None and split[0] == d else split_row(t, a, b, d)
    if len(cells) < 2 or any(sum(ch.isdigit() for ch in t[x:y]) >= 4 for x, y in cells):
        return None
    kinds = {i: k for i, (x, y) in enumerate(cells) if (k := _column_kind(t[x:y])) is not None}
    return (kinds, d, len(cells)) if kinds else None


TABULAR_FINDERS = {
    "split_cells": (("RRN", "FOREIGNER_RN", "PHONE", "CARD", "ACCOUNT", "EMAIL"), find_split_cells),
    "labelled_columns": (("RRN", "FOREIGNER_RN", "PHONE", "CARD", "ACCOUNT", "EMAIL", "PASSPORT", "ADDRESS",
                          "PERSON"), find_labelled_columns),
}


# ---------------------------------------------------------------------------------------------------------
# a record sheet laid out downwards (red team 8 5a): labels in the first column, one record per column
#
# ``성,탁`` / ``이름,지안`` / ``주민등록번호(앞),970204`` / ``주민등록번호(뒤),2516834`` / ``연락처(국번),010`` /
# ``연락처(앞),3861`` / ``연락처(뒤),2947``: the header is the first cell of each row, not the line above, and a
# value is split over consecutive rows, not adjacent cells. A block of lines of one shape (same delimiter, same
# cell count, ≥ 2 cells) whose first cells name ≥ 2 personal values (the header words of the columns above, a
# row header that is a row-wise header line - its other cells naming values too - does not count) is a
# labelled-rows table: every other column is a record. Per record, the cells of consecutive rows of one kind
# are read as the pieces of one value: numbers joined as ``find_split_cells`` joins cells (RRN 6 + 7 with a date,
# phone prefixes and lengths, card, account), then the pieces left over in rows whose label names a piece
# (앞/뒤/국번 …) by their own shape; 성 + 이름 rows are names whatever their length; address rows (시도 / 시군구 /
# 도로명) are parts of one address, checked joined. Labels that name an amount, a count, a date (``합계``, ``수량``,
# ``전화 횟수``) name no value, so a transposed budget table gives nothing.

#: a label that names a piece of a value (the row's kind comes from its own words or the row above)
_PIECE = re.compile(r"앞자리|뒷자리|앞|뒤|국번|지역번호|식별번호|중간|가운데|끝자리|끝|마지막|첫째|둘째|셋째|[0-9]"
                    r"|\b(?:front|back|first|second|third|middle|last|area|prefix|part|line)\b", re.I)
_PIECE_ONLY = re.compile(r"[( ]*(?:앞자리|뒷자리|앞|뒤|국번|지역번호|식별번호|중간|가운데|끝자리|끝|마지막|[0-9]{1,2}"
                         r"|front|back|middle|last|area code|prefix)[) ]*", re.I)
_ADDRESS_PART = re.compile(r"^(?:주소|주소지|거주지|배송지|address|addr)\b|^(?:시도|시군구|읍면동|도로명|상세\s?주소|번지|동호수)$", re.I)
#: (a row number first: the label word must open its cell, or every ``1,김성민,…`` line of a list would be read)
_ROW_GATE = re.compile(r'(?im)^[\ufeff \t"]*(?:(?:[0-9]{1,4}\.?|No\.?|번호|순번|#)[ \t"]*[,;\t][ \t"]*|[^,;\t\n]{0,8}?)(?:외국인|주민|여권|카드|계좌|통장|전화|연락처|휴대|핸드폰|팩스|메일|주소'
                       r'|거주지|배송지|성명|이름|성|rrn|ssn|jumin|passport|card|account|acct|phone|tel|mobile|cell|fax'
                       r'|mail|address|addr|name)[^,;\t\n]{0,14}[,;\t]')
#: row labels that name an amount or a measure besides those of ``_NOT_A_VALUE`` (``전화 요금``, ``카드 사용액``)
_ROW_NOT_A_VALUE = re.compile(r"요금|비용|단가|수량|평균|비율|점수|기간|사용액|한도|\b(?:fee|cost|price|qty|quantity|total|sum|rate"
                              r"|limit|bill)\b", re.I)
_INDEX_CELL = re.compile(r"[0-9]{1,4}\.?|No\.?|번호|순번|#", re.I)
_NUMBER_KINDS = ("RRN", "FOREIGNER_RN", "PHONE", "CARD", "ACCOUNT")


def _row_kind(label: str, before: str | None) -> tuple[str, bool] | None:
    """``(kind, piece)`` for a first cell: what its row holds and whether the label names a piece of it.
    ``before``: the kind of the row above (a bare ``뒷자리`` / ``국번`` row continues it)."""
    key = label.strip().strip('"').lstrip("\ufeff").strip()
    if not key or len(key) > 24 or _ROW_NOT_A_VALUE.search(key) or _NOT_A_VALUE.search(
            re.sub(r"(?i)\barea\s?code\b", "area", key)):
        return None  # (``area code`` names a piece of a phone, not a code)
    if before is not None and _PIECE_ONLY.fullmatch(key):
        return before, True
    kind = _column_kind(re.sub(r"(?i)\barea\s?code\b", "area", key))
    if kind is None and _ADDRESS_PART.search(" ".join(re.sub(r"[()\[\]]", " ", key).split())):
        kind = "ADDRESS"
    if kind is None:
        return None
    return kind, bool(_PIECE.search(key))


def _labelled_row(t: str, a: int, b: int, d: str, width: int) -> bool:
    """Whether the line ``t[a:b]`` has ``width`` cells, a first cell that names a value and no other that does."""
    cells = split_row(t, a, b, d) if b > a and d in t[a:b] else []
    return (len(cells) == width and _row_kind(t[cells[0][0]:cells[0][1]], "PHONE") is not None
            and not any(_column_kind(t[x:y]) is not None for x, y in cells[1:]))


def _in_sheet(t: str, a: int, b: int, d: str, width: int) -> bool:
    """Whether the line ``t[a:b]`` and the line above or below it are rows of a record sheet laid out downwards."""
    if not _labelled_row(t, a, b, d, width):
        return False
    if a > 0 and _labelled_row(t, *_line_bounds(t, a - 1), d, width):
        return True
    n = _next_line(t, b)
    return n < len(t) and _labelled_row(t, *_line_bounds(t, n), d, width)


def _is_placeholder(v: str) -> bool:
    return not v or v.lower() in _NO_NAME or all(c in "-_.~/ " for c in v)


def find_labelled_rows(t: str, ctx=None) -> list[Span]:
    """Cells of a record sheet laid out downwards (see above). Linear: a block is read once, from the first
    line whose first cell names a value, and the search goes on after it."""
    out: list[Span] = []
    pos = 0
    while True:
        g = _ROW_GATE.search(t, pos)
        if g is None:
            return out
        a, b = _line_bounds(t, g.start() if t[g.start()] != "\n" else g.start() + 1)
        pos = _next_line(t, b)
        d = _delimiter(t[a:b])
        if d is None:
            continue
        first = split_row(t, a, b, d)
        if len(first) < 2:
            continue
        if _row_kind(t[first[0][0]:first[0][1]], None) is not None:
            lc = 0
        elif len(first) >= 3 and _INDEX_CELL.fullmatch(t, *first[0]) and _row_kind(t[first[1][0]:first[1][1]], None):
            lc = 1  # a row number (``1``, ``No.``) before the label
        else:
            continue
        width = len(first)
        if not _labelled_near(t, a, b, d, width, lc):
            continue  # a row-wise header (``번호,이름,부서``) over a long list: its rows are not read twice
        rows = [(a, b, first)]
        up = a  # lines above of the same shape belong to the block
        while up > 0:
            pa, pb = _line_bounds(t, up - 1)
            cells = split_row(t, pa, pb, d) if pb > pa and d in t[pa:pb] else []
            if len(cells) != width:
                break
            rows.insert(0, (pa, pb, cells))
            up = pa
        while pos < len(t):
            na, nb = _line_bounds(t, pos)
            cells = split_row(t, na, nb, d) if nb > na and d in t[na:nb] else []
            if len(cells) != width:
                break
            rows.append((na, nb, cells))
            pos = _next_line(t, nb)
        out.extend(_read_sheet(t, rows, width, lc))


def _labelled_near(t: str, a: int, b: int, d: str, width: int, lc: int, reach: int = 4) -> bool:
    """Whether one of the ``reach`` lines above or below ``t[a:b]`` (of its shape) has a label naming a value in
    column ``lc``: a record sheet's labels are close together, a row-wise header's next rows hold values."""
    for step in (-1, 1):
        x, y = a, b
        for _ in range(reach):
            if step < 0:
                if x == 0:
                    break
                x, y = _line_bounds(t, x - 1)
            else:
                n = _next_line(t, y)
                if n >= len(t):
                    break
                x, y = _line_bounds(t, n)
            cells = split_row(t, x, y, d) if y > x and d in t[x:y] else []
            if len(cells) != width:
                break
            if _row_kind(t[cells[lc][0]:cells[lc][1]], "PHONE") is not None:
                return True
    return False


def _read_sheet(t: str, rows: list, width: int, lc: int = 0) -> list[Span]:
    """The spans of a block of lines of one shape whose column ``lc`` holds the labels."""
    kinds: list[tuple[str, bool] | None] = []
    before = None
    for _, _, cells in rows:
        k = _row_kind(t[cells[lc][0]:cells[lc][1]], before)
        if k is not None and any(_column_kind(t[x:y]) is not None for x, y in cells[lc + 1:]):
            k = None  # a row-wise header line (``이름,전화,주소``): its cells are labels, not values
        kinds.append(k)
        before = k[0] if k is not None else None
    if sum(k is not None for k in kinds) < 2:
        return []
    out: list[Span] = []
    i = 0
    while i < len(rows):  # groups: consecutive rows of one kind
        if kinds[i] is None:
            i += 1
            continue
        kind = kinds[i][0]
        j = i
        while j < len(rows) and kinds[j] is not None and kinds[j][0] == kind:
            j += 1
        group = list(range(i, j))
        labels = [t[rows[r][2][lc][0]:rows[r][2][lc][1]] for r in group]
        for c in range(lc + 1, width):
            cells = [rows[r][2][c] for r in group]
            pieces = [kinds[r][1] for r in group]
            out.extend(_read_record(t, kind, cells, pieces, labels))
        i = j
    return out


def _read_record(t: str, kind: str, cells: list[tuple[int, int]], pieces: list[bool], labels: list[str]
                 ) -> list[Span]:
    """One record's cells in a group of rows of ``kind`` (``pieces``: whether each row's label names a piece)."""
    vals = [t[x:y] for x, y in cells]
    out: list[Span] = []
    if kind in _NUMBER_KINDS:
        used = [False] * len(cells)
        k = 0
        while k < len(cells):  # runs of number cells joined, as split cells are
            run = []
            j = k
            while j < len(cells) and (m := _DIGIT_CELL.fullmatch(vals[j].lstrip("'"))):  # ``'010``: Excel's text mark
                run.append(m.group(1).replace("-", ""))
                j += 1
            q = 0
            while q < len(run):
                # at most 4 pieces make a value (a card): a long group costs one step per row
                got = _match(run[q:q + 4], " ".join(labels[k + q:k + q + 4])) if len(run) - q >= 2 else None
                if got is None:
                    q += 1
                    continue
                n, label, score = got
                for r in range(k + q, k + q + n):
                    used[r] = True
                    out.append(Span(cells[r][0], cells[r][1], label, score, "rule"))
                q += n
            k = j + 1 if j == k else j
        for r, (x, y) in enumerate(cells):  # a whole value, or a piece of one whose other pieces are missing
            if used[r] or y <= x:
                continue
            v = vals[r]
            if _cell_value(kind, v) or (pieces[r] and _DIGIT_CELL.fullmatch(v.lstrip("'")) and sum(ch.isdigit() for ch in v) >= 2):
                out.append(Span(x, y, kind, 0.9, "rule"))
        return out
    live = [r for r, v in enumerate(vals) if not _is_placeholder(v)]
    if not live:
        return out
    if kind == "PERSON":
        for r in live:
            if _cell_value("PERSON", vals[r]):
                out.append(Span(cells[r][0], cells[r][1], "PERSON", 0.97, "rule"))
        return out
    if kind == "ADDRESS":
        if _ADDRESS_CELL.fullmatch(" ".join(vals[r] for r in live)):
            out.extend(Span(cells[r][0], cells[r][1], "ADDRESS", 0.9, "rule") for r in live)
        return out
    if kind == "EMAIL":
        if len(live) >= 2 and _LOCAL_CELL.fullmatch(vals[live[0]]) and _DOMAIN_CELL.fullmatch(vals[live[-1]]):
            return [Span(cells[r][0], cells[r][1], "EMAIL", 0.95, "rule") for r in (live[0], live[-1])]
    for r in live:  # PASSPORT, EMAIL whole
        if _cell_value(kind, vals[r]):
            out.append(Span(cells[r][0], cells[r][1], kind, 0.95, "rule"))
    return out


TABULAR_FINDERS["labelled_rows"] = (("RRN", "FOREIGNER_RN", "PHONE", "CARD", "ACCOUNT", "EMAIL", "PASSPORT",
                                     "ADDRESS", "PERSON"), find_labelled_rows)
