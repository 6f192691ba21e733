"""Names the model misses in forms and tables, found from their layout (rule stage, issue 27).

Run by ``RuleDetector(entities=True)`` (the default detector turns it on) beside ``refine.find_context_entities``;
every span is ``PERSON`` and a rule span, so ``merge.merge_spans`` lets it win over an overlapping model span.
Pure ``re`` + hand-typed lists (no downloads, nothing learnt, nothing imported from ``training/``):

* a name after a job title or role (``전문의 김민수``, ``원장 이영희``, ``관리소장 박철수``, ``담당 정우성``) and a name
  before one (``김민수 원장``, ``박철수 관리소장님``). The name is a surname from ``SURNAMES`` and one or two more
  syllables, standing as a word of its own; vetoes: the common words of ``refine`` (roles, headings, words
  starting with a surname syllable) and ``_ROLE_STOP`` (``담당 공무원``, ``원장 선생님``, ``담당 부서``);
  two-syllable names (``담당 정민님``) only right before ``님`` / ``씨`` (``과장 승진``, ``회장 선거`` are words);
* table rows laid out with spaces or tabs under a header with a name column (``번호  성명  생년월일`` /
  ``1  김민준  1990-01-01``): the cell of that column in each following row, when it has a name's shape;
* a name in brackets right after an account number (``123-456-789012 (홍길동)``, ``(예금주: 홍길동)``);
* romanised Korean names: a surname romanisation (``Seo``, ``LEE``, ``Hwang``; ``ROMAN_SURNAMES``) with a
  given name of Korean syllable shape (``Ji-woo``, ``JAEHOON``, ``Tae-kyung``, ``Min Jun``), either order;
  capitalised as a name (``Seo Ji-woo``, ``LEE JAEHOON``, not ``lee jaehoon``); vetoes: common English words
  (``Go Home``, ``Park Hotel``) and a company / place word after it.

Scores: 0.9 for the layout rules, 0.88 for romanised names (a review item at worst).
"""
from __future__ import annotations

import re
from typing import Iterator

from ..span import Span
from ..trie import literal_alternation
from .context import ContextIndex
from .refine import _ENGLISH_WORDS, _FIELD_NAME_STOP, _NOT_PERSON, _ORG_TOKENS

#: Korean surnames (one syllable, then the compound ones), by frequency
SURNAMES_1 = ("김이박최정강조윤장임한오서신권황안송전홍유류고문양손배백허남심노하곽성차주우구나민진지엄채원천방공현함변염"
              "여추도소석선설마길연위표명기반왕금옥육인맹제탁국어은편용예경봉사부가복태목형계피두감음빈동온호범좌팽승")
SURNAMES_2 = ("남궁", "황보", "제갈", "선우", "독고", "사공", "서문")

#: job titles and roles a name follows or precedes in administrative documents
_ROLE_TITLES = """
전문의 주치의 집도의 담당의 의사 한의사 치과의사 간호사 수간호사 간호조무사 약사 원장 부원장 병원장 센터장 소장 관리소장
부소장 상담사 상담원 상담가 사회복지사 요양보호사 생활지도사 치료사 물리치료사 작업치료사 영양사 조리사 보육교사 교사
담임 담임교사 선생님 교수 부교수 조교수 강사 조교 연구원 책임연구원 선임연구원 수석연구원 담당 담당자 담당관 주무관
사무관 서기관 조사관 수사관 감독관 심사역 심사관 조사역 검사역 검사 판사 변호사 법무사 세무사 노무사 회계사 행정사 변리사 감정평가사 공인중개사
중개사 설계사 보험설계사 기술사 팀장 파트장 과장 차장 부장 실장 국장 본부장 상무 전무 대표이사 사장 부사장
회장 계장 주임 대리 매니저 코디네이터 반장 조장 총무 간사 위원 위원장 이장 동장 경비원 관리인 관리자 작성자
확인자 검토자 승인자 결재자 기안자 신고인 신청인 민원인 예금주 수령인 보호자 대리인 접수자 처리자 면담자 조사자
""".split()
_ROLE_TITLE_RX = literal_alternation(set(_ROLE_TITLES))
_SUR_RX = "(?:" + "|".join(SURNAMES_2) + "|[" + SURNAMES_1 + "])"
#: the end of a name word: a space, punctuation, a line end, an honorific or a particle
_NAME_END = (r"(?=$|[\s,.)(\[\]/·;:<>'\"]|(?:(?:님|씨|선생님?)(?:께서|께|은|는|이|가|의|을|를|과|와|도|에게)?|은|는|이|가|을"
             r"|를|의|에게|께서|께|과|와|도|이며|이고|입니다|이다)(?![가-힣]))")
#: role + name: "전문의 김민수", "관리소장: 박철수", "담당 정우성 주무관"
_ROLE_THEN_NAME = re.compile(
    r"(?P<role>" + _ROLE_TITLE_RX + r")(?:님)?(?:[ \t]+|[ \t]*[:：][ \t]*)(?P<name>" + _SUR_RX + r"(?:(?![님씨])[가-힣]){1,2})"
    + _NAME_END)
#: name + role: "김민수 원장", "박철수 관리소장님"
_NAME_THEN_ROLE = re.compile(
    r"(?P<name>" + _SUR_RX + r"[가-힣]{2})[ ](?P<role>" + _ROLE_TITLE_RX + r")(?:님)?" + r"(?=$|[^가-힣]|(?:은|는|이|가|을|를|의"
    r"|에게|께서|께|과|와|도|으로|로|입니다|이다)(?![가-힣]))")
#: roles that are also ordinary words before a noun ("대표 계좌", "통장 사본", "이사 날짜", "기사 내용"): only
#: taken when a name follows them, never before a name ("정우성 대표" is left to the model)
#: last syllables no name ends with but a particle or verb ending does ("계정의", "문의는", "하며", "선정된")
_ROLE_BEFORE_NOUN = frozenset(("담당", "대표", "통장", "이사", "기사", "위원", "사원", "담임"))
_NOT_NAME_END = frozenset("의는을를에며된고서면지게도데대사할될역")
#: words that look like surname + syllables after a role word but are not names
_ROLE_STOP = frozenset("""
공무원 선생님 선생 부서 부서장 부서명 업무 구역 지역 기관 기관명 주소 주민 정보 연락처 연락 전화 이메일 성명 이름 직원
부장 차장 과장 대리 주임 사원 원장 소장 실장 국장 팀장 위원 위원장 대표 회장 사장 이사 간사 총무 반장 교수 교사 강사
의사 약사 변호사 검사 판사 기사 조사 조사관 수사 수사관 확인 검토 승인 결재 처리 접수 안내 문의 상담 진료 치료 관리
경찰 경찰관 소방관 군인 주무관 사무관 전문의 간호사 신청 신고 제출 발급 변경 등록 해지 취소 예정 예약 일정 시간 장소
방문 사항 내용 결과 의견 소견 기록 보고 보고서 서류 서명 날인 도장 인감 직인 명의 본인 대리 대리인 가족 보호자 배우자
이상 이하 이내 이후 이전 현재 최근 전체 전부 일부 기타 성별 나이 연령 주민번호 생년월일 소속 직위 직급 직책 부서장님
유선 유무 여부 지정 지급 지원 지도 지시 지침 정도 정책 정기 정상 정리 정산 조정 조치 조회 주의 주간 주말 주요 주관
성함 마케팅 사본 계좌 사무소 사무실 사업 기업 선정 소속 전공 명단 안내 예약 진료 진단 검사 공고 공지 통지
고객 고객님 고객명 고객센터 환자 환자명 환자분 민원 민원인 신청인 신청자 수령인 예금주 담당 담당자 담당부서 담당관
""".split())
_STOP = _NOT_PERSON | _ROLE_STOP | frozenset(_ROLE_TITLES)

#: header cells that name a table's person column
_NAME_HEADERS = frozenset(("성명", "성 명", "이름", "이 름", "성함", "환자명", "고객명", "성명(한글)", "이름(한글)", "담당자",
                           "신청인", "신청자", "예금주", "수령인", "수취인", "보호자", "작성자", "대표자", "직원명", "학생명",
                           "참석자", "수강생", "응시자", "Name", "NAME", "name", "이름/성명", "성명/이름"))
_HEADER_WORD = re.compile(literal_alternation(_NAME_HEADERS))
_CELL_SPLIT = re.compile(r"\t+| {2,}|[ \t]*\|[ \t]*")
_KOREAN_NAME = re.compile(_SUR_RX + r"[가-힣]{1,3}")

#: account number then a bracketed name: "123-456-789012 (홍길동)", "110-452-987654(예금주: 박지훈)"
_ACCOUNT_NAME = re.compile(
    r"[0-9](?<![0-9A-Za-z][0-9])[0-9]{1,5}(?:-[0-9]{2,8}){1,4}[ \t]?[(\[][ \t]?(?:예금주[ \t]?[:：]?[ \t]?)?"
    r"(?P<name>" + _SUR_RX + r"[가-힣]{1,3}?)[ \t]?[)\]]")

# ---------------------------------------------------------------------------------------------
# romanised Korean names

#: romanisations of Korean surnames (Revised Romanisation and the usual passport spellings)
ROMAN_SURNAMES = frozenset("""
kim gim lee yi rhee rhie ri park pak bak bahk choi choe chey jung jeong chung cheong joung kang gang cho jo yoon yun
jang chang lim im rim han oh seo suh shin sin kwon gwon hwang ahn an song jeon jun chun hong yoo yu ryu ryoo ko go koh
moon mun yang son sohn bae pae baek paik baik back heo hur huh nam sim shim noh roh ha kwak gwak sung seong cha joo ju
chu woo koo gu ku na ra min jin chin ji eom um uhm chae won cheon bang pang gong kong hyun hyeon ham byun byeon pyun
yeom yum yeo yuh choo do so seok suk sun seon sul seol ma gil kil yeon wi pyo myung myeong ki gi ban wang geum keum
ok yook yuk maeng je tak guk kook eo pyeon yong ye kyung gyeong bong sa bu boo ga bok tae mok hyung gye kye pi doo gam
namgung hwangbo jegal sunwoo seonu dokgo sagong
""".split())
#: one romanised Korean syllable (onset, vowel, coda); a given name is one or two of them per word
_SYL = (r"(?:kk|tt|pp|ss|jj|ch|sh|g|k|n|d|t|r|l|m|b|p|s|j|h|w|y)?"
        r"(?:yeo|yae|wae|weo|ya|yo|yu|ye|eo|eu|ae|oe|wa|wo|we|wi|ui|oo|ee|ou|a|e|i|o|u)"
        r"(?:ng|k|n|l|m|p|t|g|b|r)?")
_ONE_SYL = re.compile(_SYL)
_TWO_SYL = re.compile(_SYL + _SYL)
_CAP = r"[A-Z][a-z]+|[A-Z]+"
#: Surname Given (Given may be "Ji-woo", "Jiwoo", "JI-WOO", "Min Jun"), or Given Surname
_ROMAN_NAME = re.compile(
    r"[A-Z](?<![A-Za-z0-9][A-Z])[A-Za-z]*(?:[ ][A-Z][A-Za-z]*(?:-[A-Za-z]+)?){1,2}(?![A-Za-z0-9-])")
#: words after a romanised name that make it a company, a place or a product
_ROMAN_AFTER_STOP = re.compile(
    r"[ ]?(?:Hotel|HOTEL|Street|Road|Station|Plaza|Tower|Center|Centre|Mall|River|Mountain|Park|Bridge|Building|Hall|"
    r"Church|Temple|Palace|Market|Airport|Line|Band|Restaurant|Cafe|Studio|Bank|Group)\b")
#: English words of a romanised Korean syllable shape that are never a given name here
_ROMAN_STOP = _ENGLISH_WORDS | frozenset("""
dear here hero home hope game sale base case mine line nine tone bone done gone none note rose pose nose hose sun moon song hang
bang ban tan man pan can fan ran son ton won yen gun run bus bug big dig pig wig jam ham yam ram dam sam tim kit
hit sit fit bit pit tip hip lip dip sip rip tap map cap nap gap lap sap yap top hop pop mop cop kid lid bid rid
maple table noble bible cable fable sable able hotel model panel label level novel camel jewel bagel angel
salon lemon melon demon baron canon tenor manor honor donor minor major mayor sugar solar polar lunar radar
open taken token women women yoga soda sofa data coma diva pizza pasta samba salsa mango tango banana
sauna tuna china korea japan seoul busan daegu incheon ulsan jeju gangnam hanok hangul kimchi bulgogi bibimbap
""".split())


def _given_ok(word: str) -> bool:
    """``word`` (one given-name word, maybe hyphenated) has the shape of a romanised Korean given name."""
    w = word.lower()
    if w in _ROMAN_STOP or w in ROMAN_SURNAMES and "-" not in w:
        return False
    if "-" in w:
        parts = w.split("-")
        return len(parts) == 2 and all(_ONE_SYL.fullmatch(p) for p in parts)
    return _TWO_SYL.fullmatch(w) is not None and len(w) >= 4


def _roman_name(tokens: list[str]) -> bool:
    """Surname + given (one or two words) or given + surname, capitalised consistently."""
    if any(not (re.fullmatch(_CAP, t.replace("-", "")) or re.fullmatch(r"[A-Z][a-z]+-[a-zA-Z][a-z]+", t))
           for t in tokens):
        return False
    low = [t.lower() for t in tokens]
    if any(t in _ENGLISH_WORDS for t in low) or any(t.upper() in _ORG_TOKENS for t in tokens):
        return False
    if len(tokens) == 2:
        a, b = tokens
        if low[0] in ROMAN_SURNAMES and _given_ok(b):
            return True
        return low[1] in ROMAN_SURNAMES and _given_ok(a) and ("-" in a or a.isupper() == b.isupper())
    # three words: surname + two one-syllable given-name words ("Kim Min Jun", "LEE HA NA")
    if low[0] in ROMAN_SURNAMES and all(_ONE_SYL.fullmatch(t) and t not in _ROMAN_STOP for t in low[1:]):
        return "-" not in "".join(tokens) and len({t.isupper() for t in tokens}) == 1
    return False


def _span(a: int, b: int, score: float = 0.9) -> Span:
    return Span(a, b, "PERSON", score, "rule")


def _name_ok(name: str) -> bool:
    return (name not in _STOP and name[:2] not in _STOP and name[-1] not in _NOT_NAME_END
            and not name.endswith(("님", "씨")) and _FIELD_NAME_STOP.search(name) is None)


#: a label, not a name: "성함: …", "담당자명 :"
_FIELD_AFTER = re.compile(r"[ \t]*[:：]")


# ---------------------------------------------------------------------------------------------
# finders


def _overlapping(rx: re.Pattern, text: str) -> Iterator[re.Match]:
    """Matches of ``rx`` where each next search starts at the previous match's name: in "담당 심사역 박소희" the
    rejected "담당 심사역" must not hide "심사역 박소희"."""
    pos = 0
    while True:
        m = rx.search(text, pos)
        if m is None:
            return
        yield m
        pos = m.start("name")


def find_role_names(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``전문의 김민수``, ``담당: 정우성``, ``김민수 원장``."""
    seen: set[int] = set()
    for m in _overlapping(_ROLE_THEN_NAME, text):
        a = m.start("role")
        if a > 0 and ("가" <= text[a - 1] <= "힣" or text[a - 1].isalnum()):
            continue  # "업무담당 …", "운전기사", "관리자": the role is the end of a longer word
        name = m.group("name")
        if not _name_ok(name) or _FIELD_AFTER.match(text, m.end("name")):
            continue
        if len(name) == 2 and not re.match(r"[ \t]?(?:님|씨)", text[m.end("name"):m.end("name") + 3]):
            continue  # a two-syllable candidate ("담당 정민님") only before an honorific: "과장 승진", "회장 선거"
        seen.add(m.start("name"))
        yield _span(m.start("name"), m.end("name"))
    for m in _NAME_THEN_ROLE.finditer(text):
        a = m.start("name")
        if a > 0 and ("가" <= text[a - 1] <= "힣" or text[a - 1].isalnum()):
            continue  # inside a longer word
        name = m.group("name")
        if name[-1] == "한":
            continue  # "명시한 소장을": an adnominal verb and the legal complaint (소장), not a name and a director
        if _name_ok(name) and m.group("role") not in _ROLE_BEFORE_NOUN and a not in seen:
            yield _span(a, m.end("name"))


def find_table_names(text: str, cx: ContextIndex) -> Iterator[Span]:
    """Cells of a name column in rows laid out with 2+ spaces, tabs or ``|`` under a header line."""
    if "  " not in text and "\t" not in text and "|" not in text:
        return
    h = _HEADER_WORD.search(text)
    if h is None:
        return
    col = ncols = None
    pos = text.rfind("\n", 0, h.start()) + 1  # from the line of the first header word on
    for line in text[pos:].split("\n"):
        start = pos
        pos += len(line) + 1
        if col is None and _HEADER_WORD.search(line) is None:
            continue  # outside a table: no need to split the line
        body = line.strip()
        if not body:
            col = None
            continue
        cells = list(_cells(line))
        if len(cells) < 2:
            col = None
            continue
        values = [line[s:e] for s, e in cells]
        if any(v in _NAME_HEADERS for v in values):
            col = next(i for i, v in enumerate(values) if v in _NAME_HEADERS)
            ncols = len(values)
            continue
        if col is None or len(values) != ncols:
            continue
        s, e = cells[col]
        v = values[col]
        if _KOREAN_NAME.fullmatch(v) and _name_ok(v):
            yield _span(start + s, start + e)


def _cells(line: str) -> Iterator[tuple[int, int]]:
    """(start, end) of the non-empty cells of ``line`` split at tabs, runs of 2+ spaces and ``|``."""
    pos = 0
    for sep in (*_CELL_SPLIT.finditer(line), None):
        s, e = pos, (sep.start() if sep is not None else len(line))
        while s < e and line[s] == " ":
            s += 1
        while e > s and line[e - 1] in " \r":
            e -= 1
        if e > s:
            yield s, e
        if sep is None:
            return
        pos = sep.end()


def find_account_holder_names(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``123-456-789012 (홍길동)``: the account holder's name in brackets after the number."""
    if "(" not in text and "[" not in text:
        return
    for m in _ACCOUNT_NAME.finditer(text):
        name = m.group("name")
        if sum(c.isdigit() for c in text[m.start():m.start("name")]) < 10 or name.endswith("요일"):
            continue  # "2024-05-12 (금요일)": a date, not an account
        if _name_ok(name):
            yield _span(m.start("name"), m.end("name"))


def find_romanised_names(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``Seo Ji-woo``, ``LEE JAEHOON``, ``Hwang Tae-kyung``, ``Jiwoo Seo``, ``Kim Min Jun``."""
    for m in _ROMAN_NAME.finditer(text):
        tokens = m.group(0).split(" ")
        best = None
        # surname first, longest first ("Dear Hwang Tae-kyung" -> "Hwang Tae-kyung"), then given name first
        for surname_first in (True, False):
            for i in range(len(tokens) - 1):
                if surname_first and tokens[i].lower() not in ROMAN_SURNAMES:
                    continue
                for j in range(min(len(tokens), i + 3), i + 1, -1):
                    sub = tokens[i:j]
                    if not _roman_name(sub):
                        continue
                    a = m.start() + sum(len(t) + 1 for t in tokens[:i])
                    b = a + len(" ".join(sub))
                    if not _ROMAN_AFTER_STOP.match(text, b):
                        best = (a, b)
                        break
                if best:
                    break
            if best:
                break
        if best:
            yield _span(*best, 0.88)


# ---------------------------------------------------------------------------------------------
# names split over a surname column and a given-name column; a surname glossed in Hanja (issue 26 class 5)

_SURNAME_HEADERS = frozenset(("성", "성씨", "姓", "성(한글)", "last name", "lastname", "last_name", "surname",
                              "family name", "familyname", "family_name"))
_GIVEN_HEADERS = frozenset(("이름", "명", "名", "이름(한글)", "first name", "firstname", "first_name", "given name",
                            "givenname", "given_name"))
#: a line that may be such a header: a surname header word alone in a cell
_SPLIT_HEADER_GATE = re.compile(r'(?im)(?:^|[,;\t])[ ]*"?[ ]*(?:성|성씨|姓|성\(한글\)|last[ _]?name|surname|family[ _]?name)'
                                r'[ ]*"?[ ]*(?:[,;\t]|\r?$)')
_GIVEN_KO = re.compile(r"[가-힣]{1,3}")
_GIVEN_LATIN = re.compile(r"[A-Z][a-z]{1,15}(?:[- ][A-Za-z][a-z]{1,15})?")
_SURNAME_KO = re.compile(_SUR_RX)


def _header_key(cell: str) -> str:
    return " ".join(cell.strip().strip('"').split()).lower()


def _split_header(text: str, a: int, b: int, split_row) -> tuple[str, int, int, int] | None:
    """(delimiter, surname column, given-name column, cells) when the line ``text[a:b]`` is a header with a
    surname cell and a given-name cell beside it."""
    for delim in ("\t", ";", ","):
        if delim not in text[a:b]:
            continue
        cells = split_row(text, a, b, delim)
        keys = [_header_key(text[x:y]) for x, y in cells]
        for sur, k in enumerate(keys):
            if k not in _SURNAME_HEADERS:
                continue
            for given in (sur + 1, sur - 1):
                if 0 <= given < len(keys) and keys[given] in _GIVEN_HEADERS:
                    return delim, sur, given, len(cells)
    return None


def find_split_column_names(text: str, cx: ContextIndex) -> Iterator[Span]:
    """``성,이름`` / ``last name,first name`` columns of a CSV/TSV: the given name alone in its cell is a
    person's name too (the model, reading ``윤,채원``, finds at most the surname). Both cells of every row
    under such a header, when the surname cell holds a Korean surname (or a romanised one) and the other
    cell a given name's shape."""
    if _SPLIT_HEADER_GATE.search(text) is None:
        return
    from .tabular import split_row  # noqa: PLC0415 - tabular is a sibling; imported late to keep the graph flat

    pos = 0
    cols = None  # (delimiter, surname column, given column, number of cells) of the header above
    for line in text.split("\n"):
        a, pos = pos, pos + len(line) + 1
        b = a + len(line) - (1 if line.endswith("\r") else 0)
        if not line.strip():
            cols = None  # a blank line ends the table
            continue
        if _SPLIT_HEADER_GATE.search(line):
            header = _split_header(text, a, b, split_row)
            if header is not None:
                cols = header
                continue
        if cols is None:
            continue
        delim, sur, given, n = cols
        cells = split_row(text, a, b, delim)
        if len(cells) != n:
            continue
        (sa, sb), (ga, gb) = cells[sur], cells[given]
        s, g = text[sa:sb], text[ga:gb]
        if _SURNAME_KO.fullmatch(s) and _GIVEN_KO.fullmatch(g) and _name_ok(s + g):
            yield _span(sa, sb)
            yield _span(ga, gb)
        elif s.lower() in ROMAN_SURNAMES and s[:1].isupper() and _GIVEN_LATIN.fullmatch(g):
            yield _span(sa, sb, 0.88)
            yield _span(ga, gb, 0.88)


#: ``윤(尹) 채원``, ``남궁(南宮) 민``: a Hangul surname, its own Hanja in brackets, then the given name
_GLOSSED_NAME = re.compile(r"(?<![가-힣])(?P<sur>" + _SUR_RX + r")[ ]?\([ ]?(?P<han>[\u4e00-\u9fff\uf900-\ufaff]{1,2})[ ]?\)"
                           r"[ ]?(?P<given>[가-힣]{1,2})" + _NAME_END)


_HANJA_IN_BRACKETS = re.compile(r"\([ ]?[\u4e00-\u9fff\uf900-\ufaff]")


def find_glossed_surname_names(text: str, cx: ContextIndex) -> Iterator[Span]:
    """A surname with its Hanja in brackets before the given name (``윤(尹) 채원``): the whole name."""
    if "(" not in text or _HANJA_IN_BRACKETS.search(text) is None:
        return
    from .hanja import COMPOUND_SURNAMES, HANJA_SURNAMES  # noqa: PLC0415
    import unicodedata  # noqa: PLC0415

    for m in _GLOSSED_NAME.finditer(text):
        han = unicodedata.normalize("NFC", m.group("han"))
        if len(m.group("sur")) != len(han) or (han not in HANJA_SURNAMES and han not in COMPOUND_SURNAMES):
            continue
        if _name_ok(m.group("sur") + m.group("given")):
            yield _span(m.start(), m.end("given"))


#: family name -> (labels, finder); run by ``RuleDetector(entities=True)``
NAME_FINDERS = {
    "role_names": (("PERSON",), find_role_names),
    "table_names": (("PERSON",), find_table_names),
    "account_holder_names": (("PERSON",), find_account_holder_names),
    "romanised_names": (("PERSON",), find_romanised_names),
    "split_column_names": (("PERSON",), find_split_column_names),
    "glossed_surname_names": (("PERSON",), find_glossed_surname_names),
}
