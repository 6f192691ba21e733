"""Names written in Hanja only (``金民俊``, ``南宮玟``; issue 26 class 5).

Korean forms, registers and older documents give a name in Chinese characters (``성명(한자): 金民俊``); the
model, trained on Hangul, does not read them. A candidate is a Korean surname (the table below; compound
surnames too) followed by one or two Hanja, not glued to other Hanja. Many Hanja words start with a
surname character (``高等``, ``安全``, ``全國``, ``韓國``), so a candidate is a name only with context:

- a name field right before it (``성명``, ``이름``, ``성함``, ``한자``, ``姓名``, ``氏名``, ``대표자``, ``신청인``,
  ``Name`` …, a ``:`` / ``(`` / space between), or
- an honorific or title right after it (``님``, ``씨``, ``귀하``, ``氏``, ``先生``, ``선생``, ``여사``, ``君``), or
- it fills a cell of a CSV/TSV column whose header names a name (``성명``, ``이름``, ``한자``, ``name``).

Compatibility ideographs (U+F900–U+FAFF, the Korean duplicates such as U+F9E1 李) count as their unified
form. Offsets are into the text given (one character each: nothing is rewritten).
"""
from __future__ import annotations

import re
import unicodedata

from ..span import Span
from .tabular import split_row

__all__ = ["find_hanja_names", "HANJA_FINDERS", "HANJA_SURNAMES"]

#: single-character Korean surnames (the common ones first), and compound surnames
HANJA_SURNAMES = frozenset(
    "金李朴崔鄭姜趙尹張林韓吳徐申權黃安宋柳洪全高文梁孫裵白曺許劉南沈盧丁河郭成車朱禹具辛任田閔兪羅陳池嚴蔡"
    "元千方孔康玄咸卞廉楊邊呂秋魯都蘇愼石宣薛馬吉周延房魏表明奇潘王琴玉陸印孟諸卓秦鞠余片慶魚庾殷曹丘太芮"
    "奉夫程桂邢皮龍杜韋甘景睦")
COMPOUND_SURNAMES = ("南宮", "諸葛", "皇甫", "鮮于", "獨孤", "司空", "西門", "東方", "令狐")

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CAND = re.compile(f"(?<![{_HAN}])[{_HAN}]{{2,4}}(?![{_HAN}])")
_FIELD_BEFORE = re.compile(r"(?:성명|이름|성함|한자\s*성명|한자명|한자|姓名|氏名|대표자|대표이사|신청인|작성자|담당자|담당|책임자|검토자|확인자|민원인|수신인|발신인|환자|보호자|"
                           r"피보험자|예금주|수령인|Name|NAME|name)\s*(?:\(\s*(?:한자|漢字)\s*\))?\s*[:：=]?\s*"
                           r"(?:[가-힣]{2,4}\s*)?[(\[]?\s*$")  # ``성명: 김민준(金民俊)``: the reading between
_TITLE_AFTER = re.compile(r"\s*(?:님|씨|귀하|氏|先生|선생|여사|君|孃|女史|殿|군\b|양\b)")
_NAME_HEADER = re.compile(r"성명|이름|성함|한자|姓名|氏名|name", re.I)
#: Hanja words that a name field or a title could still precede/follow
_NOT_NAMES = frozenset({"韓國", "大韓", "全國", "安全", "高等", "文化", "金額", "明日", "成功", "王國", "周年", "方法",
                        "石油", "元年", "千年", "太陽", "東方", "南方", "西方", "高校", "全部", "明白"})


def _unified(s: str) -> str:
    return unicodedata.normalize("NFC", s)  # compatibility ideographs -> unified (singleton decompositions)


def _name_part(word: str) -> str | None:
    """The leading name in ``word`` (2–4 Hanja), or None when it does not start with a surname."""
    u = _unified(word)
    if any(u.startswith(c) for c in COMPOUND_SURNAMES):
        return word if 3 <= len(u) <= 4 else None
    if u[0] in HANJA_SURNAMES and 2 <= len(u) <= 3:
        return word
    return None


def _in_name_column(t: str, a: int, b: int) -> bool:
    ls = t.rfind("\n", 0, a) + 1
    le = t.find("\n", b)
    le = len(t) if le < 0 else le
    if le > ls and t[le - 1] == "\r":
        le -= 1
    line = t[ls:le]
    delim = next((d for d in ("\t", ";", ",") if d in line), None)
    if delim is None or ls == 0:
        return False
    cells = split_row(t, ls, le, delim)
    col = next((i for i, (x, y) in enumerate(cells) if x <= a and b <= y), None)
    if col is None or (cells[col][0], cells[col][1]) != (a, b):
        return False
    # the header: the first line of this block of delimited lines
    hs = ls
    while hs > 0:
        ps = t.rfind("\n", 0, hs - 1) + 1
        if delim not in t[ps:hs - 1]:
            break
        hs = ps
    if hs == ls:
        return False
    he = t.find("\n", hs)
    he = he - 1 if he > 0 and t[he - 1] == "\r" else he
    head = split_row(t, hs, he, delim)
    return col < len(head) and bool(_NAME_HEADER.search(t[head[col][0]:head[col][1]]))


def find_hanja_names(t: str, ctx=None) -> list[Span]:
    """PERSON spans over Hanja-only names with context (see the module docstring)."""
    out: list[Span] = []
    for m in _CAND.finditer(t):
        word = m.group()
        if _unified(word) in _NOT_NAMES or _name_part(word) is None:
            continue
        a, b = m.span()
        line_start = t.rfind("\n", 0, a) + 1
        before = t[max(line_start, a - 24):a]
        if _FIELD_BEFORE.search(before) or _TITLE_AFTER.match(t, b) or _in_name_column(t, a, b):
            out.append(Span(a, b, "PERSON", 0.9, "rule"))
    return out


HANJA_FINDERS = {"hanja_names": (("PERSON",), find_hanja_names)}
