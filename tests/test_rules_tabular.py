"""Issue 26 class 5: values split over CSV/TSV cells (rules/tabular.py), Hanja-only names (rules/hanja.py).

End to end with the embedded default detector (the compact ONNX model + the rule stage), masked through
``veil_desktop.masking.Masker``, then checked with the leak rule of KOREAN_MASKING.md: no 4-digit run of the
number survives (separators and cell delimiters removed), no 2 syllables of a name. Hard negatives:
ordinary numeric CSVs (prices, counts, dates, codes) and Hanja words are not tagged. Last, ``veil-redact
redact`` on a real CSV file in tmp_path.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from veil_desktop.cli import main
from veil_desktop.detect.default import build_default_detector
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.rules.hanja import find_hanja_names
from veil_desktop.detect.rules.tabular import find_split_cells, split_row
from veil_desktop.masking import Masker, apply_replacements


@pytest.fixture(scope="module")
def det():
    return build_default_detector(threads=1)


def mask(det, text: str) -> str:
    spans = det.detect(text)
    return apply_replacements(text, Masker(lang="ko").plan(text, spans))


def digit_leak(masked: str, value: str) -> str | None:
    """A run of ≥ 4 digits of the masked text (separators removed) that is a piece of ``value``'s digits."""
    digits = re.sub(r"\D", "", value)
    flat = re.sub(r"[\s,;\t\"'=&()\-.]", "", masked)
    for m in re.finditer(r"\d{4,}", flat):
        if m.group() in digits:
            return m.group()
    return None


def name_leak(masked: str, name: str) -> str | None:
    flat = re.sub(r"\s", "", masked)
    return next((name[i:i + 2] for i in range(len(name) - 1) if name[i:i + 2] in flat), None)


def pieces(text: str, spans, label: str) -> list[str]:
    return [text[s.start:s.end] for s in spans if s.label == label]


# ---------------------------------------------------------------------------------------- split values
SPLIT = [
    ("번호,성명,주민번호 앞자리,주민번호 뒷자리,부서\r\n1,고객A,851203,1234567,영업팀\r\n",
     "RRN", ["851203", "1234567"]),
    ("no;주민등록번호(앞);주민등록번호(뒤);비고\n7;930415;2345678;재직\n", "RRN", ["930415", "2345678"]),
    ("사번\t생년월일\t뒷자리\t입사\nA-17\t880722\t1456789\t신입\n", "RRN", ["880722", "1456789"]),
    ('이름,"주민번호(앞)","주민번호(뒤)"\n고객A,"851203","1234567"\n', "RRN", ["851203", "1234567"]),
    ("고객,국번,앞,뒤\nA,010,4821,7395\n", "PHONE", ["010", "4821", "7395"]),
    ("상호,전화1,전화2,전화3\n한빛상사,02,6313,8842\n", "PHONE", ["02", "6313", "8842"]),
    ("고객,휴대폰1,휴대폰2,휴대폰3\nA,10,5573,2049\n", "PHONE", ["10", "5573", "2049"]),   # leading 0 dropped
    ("성명\t전화1\t전화2\t전화3\n고객B\t031\t778\t2914\n", "PHONE", ["031", "778", "2914"]),
    ("id,a,b,c\n1,010,4821,7395\n", "PHONE", ["010", "4821", "7395"]),       # mobile prefix: no header needed
    ("카드번호1,카드번호2,카드번호3,카드번호4,유효기간\n4563,1789,5521,0932,12/29\n", "CARD",
     ["4563", "1789", "5521", "0932"]),
    ("은행,계좌번호1,계좌번호2,계좌번호3\n신한,110,432,918273\n", "ACCOUNT", ["110", "432", "918273"]),
    ("성명,연락처(국번),연락처\n고객,010,4821-7395\n", "PHONE", ["010", "4821-7395"]),
]

EMAILS = [
    ("이름,이메일 아이디,이메일 도메인\n고객A,minjun.kim,example.com\n", ["minjun.kim", "example.com"]),
    ("이름,메일1,메일2,메일3\n고객A,minjun.kim,@,example.com\n", ["minjun.kim", "example.com"]),
    ("a,b,c\nx,minjun.kim,@example.co.kr\n", ["minjun.kim", "@example.co.kr"]),
]


@pytest.mark.parametrize("text,values", EMAILS)
def test_email_split_over_cells(det, text, values):
    assert [(text[s.start:s.end], s.label) for s in find_split_cells(text)] == [(v, "EMAIL") for v in values]
    masked = mask(det, text)
    assert "minjun" not in masked and "kim" not in masked, masked


@pytest.mark.parametrize("text", ["회사,홈페이지\n한빛,www,example.com\n", "제품,사이트\nA,shop,naver.com\n"])
def test_host_and_domain_cells_are_not_an_email(text):
    assert find_split_cells(text) == []


@pytest.mark.parametrize("text,label,values", SPLIT)
def test_split_cells_one_span_per_piece(text, label, values):
    spans = find_split_cells(text)
    assert [(text[s.start:s.end], s.label) for s in spans] == [(v, label) for v in values]
    # exact offsets: each span is the whole content of its cell (quotes excluded)
    for s, v in zip(spans, values):
        assert text[s.start:s.end] == v and text[s.start - 1] in ',;\t"\n' and text[s.end] in ',;\t"\r\n'


@pytest.mark.parametrize("text,label,values", SPLIT)
def test_split_cells_end_to_end_masked_without_leak(det, text, label, values):
    spans = det.detect(text)
    for v in values:
        assert any(text[s.start:s.end] == v for s in spans if s.label == label), (v, spans)
    masked = mask(det, text)
    assert digit_leak(masked, "".join(values)) is None, masked
    for v in values:
        assert not re.search(rf"(?<!\d){v}(?!\d)", masked), masked


def test_two_values_in_one_row(det):
    text = "성명,주민번호 앞자리,주민번호 뒷자리,국번,앞,뒤\n고객A,851203,1234567,010,4821,7395\n"
    spans = det.detect(text)
    assert pieces(text, spans, "RRN") == ["851203", "1234567"]
    assert pieces(text, spans, "PHONE") == ["010", "4821", "7395"]
    masked = mask(det, text)
    assert masked.splitlines()[1] == "고객A,[주민등록번호],[주민등록번호],[전화번호],[전화번호],[전화번호]"


def test_header_far_above_and_many_rows(det):
    rows = "\n".join(f"{i},고객{i},9{i % 10}0{1 + i % 9}1{i % 10},1{i:06d}" for i in range(1, 40))
    text = "번호,성명,주민번호 앞자리,주민번호 뒷자리\n" + rows + "\n"
    spans = [s for s in det.detect(text) if s.label == "RRN"]
    assert len(spans) == 2 * 39
    masked = mask(det, text)
    assert not re.search(r",\d{6},\d{7}", masked)


NEGATIVES = [
    "상품,수량,단가,금액\n사과,3,1200,3600\n배,10,2500,25000\n귤,120,400,48000\n",
    "연도,월,일,매출\n2024,03,15,125000\n2024,04,01,98000\n",
    "date,open,high,low,close\n2024-03-15,3200,3350,3180,3300\n",
    "지점,코드,재고,입고,출고\n강남,1021,5678,1234,4321\n",
    "x,y,z\n851203,1234567,5\n",                     # 6 + 7 digits, no header word, invalid check digit
    "학년,반,번호,점수\n3,02,1234,5678\n",               # 02 + 4 + 4 but no phone header word
    "품번,규격1,규격2,규격3,규격4\nA1,1200,3400,5600,7800\n",   # 4 x 4 digits, no card word, Luhn fails
    "id,lat,lon\n1,37,5665\n",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_ordinary_numeric_csv_is_not_tagged(det, text):
    assert find_split_cells(text) == []
    spans = det.detect(text)
    assert [(text[s.start:s.end], s.label) for s in spans
            if s.label in ("RRN", "PHONE", "CARD", "ACCOUNT", "FOREIGNER_RN")] == []


def test_split_row_quotes_and_escapes():
    line = '"a, b",  "x""y" ,c,,"010"'
    cells = split_row(line, 0, len(line), ",")
    assert [line[a:b] for a, b in cells] == ["a, b", 'x""y', "c", "", "010"]


# ------------------------------------------------------------------------------------------ Hanja names
HANJA = [
    ("성명: 金民俊\n소속: 영업부\n", "金民俊"),
    ("번호,성명(한자),직위\n1,李瑞妍,과장\n", "李瑞妍"),
    ("崔志勳 님께서 신청하신 서류입니다.", "崔志勳"),
    ("대표자 (한자) 南宮玟 / 법인", "南宮玟"),
    ("신청인: 朴敏\n", "朴敏"),
    ("\uf9e1瑞妍 씨", "\uf9e1瑞妍"),                      # compatibility ideograph 李 (U+F9E1)
    ("성명: 김민준(金民俊)\n", "金民俊"),                   # the Hangul reading between field and Hanja
]


@pytest.mark.parametrize("text,name", HANJA)
def test_hanja_name_found_and_masked(det, text, name):
    assert [(text[s.start:s.end], s.label) for s in find_hanja_names(text)] == [(name, "PERSON")]
    spans = det.detect(text)
    assert any(s.label == "PERSON" and s.start <= text.index(name) and text.index(name) + len(name) <= s.end
               for s in spans), spans
    assert name_leak(mask(det, text), name) is None


@pytest.mark.parametrize("text", [
    "大韓民國 憲法", "安全 第一", "高等學校 金額 明日", "韓國 님께", "성명: 大韓民國", "全國 經濟人 聯合會",
    "高麗(고려) 時代", "成長(성장)과 安定(안정)",    # a Hanja word with its Hangul gloss
    "柳成龍은 조선의 재상이다",                 # a historical name in prose, no field or title: not ours to guess
])
def test_hanja_words_are_not_names(text):
    assert find_hanja_names(text) == []
    assert [s for s in RuleDetector(entities=True).detect(text) if text[s.start:s.end][:1] >= "\u3400"
            and s.label == "PERSON"] == []


# ------------------------------------------------------------------------------------------- the CLI
def test_cli_redacts_split_cells_in_a_csv(tmp_path: Path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    planted = {"851203", "1234567", "4821", "7395", "李瑞妍"}
    data = ("번호,성명(한자),주민번호 앞자리,주민번호 뒷자리,국번,앞,뒤,금액\r\n"
            "1,李瑞妍,851203,1234567,010,4821,7395,35000\r\n").encode("utf-8")
    (src / "staff.csv").write_bytes(data)
    out = tmp_path / "out"
    code = main(["redact", str(src), "--out", str(out), "--threads", "1", "--quiet"])
    capsys.readouterr()
    assert code == 0
    assert (src / "staff.csv").read_bytes() == data                      # original untouched
    result = (out / "staff.csv").read_bytes().decode("utf-8")
    for v in planted:
        assert v not in result, result
    assert digit_leak(result, "8512031234567") is None and digit_leak(result, "01048217395") is None
    assert result.endswith(",35000\r\n")                                    # the price stays


def test_partial_masking_of_pieces_reveals_no_digits(det):
    """The partial style keeps an RRN's birth date and a phone's prefix for a whole value; a piece of a
    value split over cells is masked whole (else the 뒷자리 piece would keep six of its digits)."""
    text = "성명,주민번호 앞자리,주민번호 뒷자리,국번,앞,뒤\n고객A,851203,1234567,010,4821,7395\n"
    spans = det.detect(text)
    masked = apply_replacements(text, Masker({"RRN": "partial", "PHONE": "partial"}).plan(text, spans))
    assert masked.splitlines()[1] == "고객A,******,*******,***,****,****"
    m = Masker(default="partial")
    assert m.mask_value("851203-1234567", "RRN") == "851203-*******"     # a whole value: as before
    assert m.mask_value("010-4821-7395", "PHONE") == "010-****-****"


def test_random_numeric_tables_with_a_header_are_not_tagged():
    """2,000 rows each of five ordinary numeric tables (amounts, quarters, stock moves, coordinates,
    prices) with random values of 1-7 digits: under headers that name no identifier, nothing joins."""
    import random

    rnd = random.Random(7)
    for head in ["상품,수량,단가,금액,재고", "연도,1분기,2분기,3분기,4분기", "지점,코드,입고,출고,잔량",
                 "id,x,y,z,w", "날짜,시가,고가,저가,종가"]:
        rows = [head] + [",".join([f"r{i}"] + [str(rnd.choice([rnd.randint(0, 99), rnd.randint(100, 9999),
                                                               rnd.randint(1000, 9999), rnd.randint(10000, 9999999)]))
                                               for _ in range(4)]) for i in range(2000)]
        text = "\n".join(rows) + "\n"
        assert find_split_cells(text) == [], head


# ------------------------------------------------------------------- whole cells under a labelled header
# An Excel round trip (red team 6 5c): numbers typed as numbers come back in scientific notation or without
# their leading zero, a romanised name sits in two columns. The header says what each column holds.
COLUMNS = [
    ("연번,영문 성,영문 이름,주민등록번호,휴대전화,환급계좌,비고\n1,PARK,SEOYEON,9.20415E+12,1048217395,1.10482E+13,사본\n",
     {"PERSON": ["PARK", "SEOYEON"], "RRN": ["9.20415E+12"], "PHONE": ["1048217395"], "ACCOUNT": ["1.10482E+13"]}),
    ("no;성명;연락처;여권번호\n7;한지민;1048217395;M48217395\n", {"PERSON": ["한지민"], "PHONE": ["1048217395"],
                                                           "PASSPORT": ["M48217395"]}),
    ("이름\t주민번호\t주소\n최하늘\t920415123456\t대전 유성구 대학로 99\n",
     {"PERSON": ["최하늘"], "RRN": ["920415123456"], "ADDRESS": ["대전 유성구 대학로 99"]}),
    ('"Name","Mobile","E-mail"\r\n"Kim Minjun","1048217395","minjun.kim"\r\n',
     {"PERSON": ["Kim Minjun"], "PHONE": ["1048217395"], "EMAIL": ["minjun.kim"]}),
]


@pytest.mark.parametrize("text,want", COLUMNS)
def test_labelled_columns_mask_whole_cells(det, text, want):
    from veil_desktop.detect.rules.tabular import find_labelled_columns

    got: dict[str, list[str]] = {}
    for s in find_labelled_columns(text):
        got.setdefault(s.label, []).append(text[s.start:s.end])
    assert got == want
    masked = mask(det, text)
    for label, values in want.items():
        for v in values:
            assert v not in masked, (v, masked)
    # the masked file keeps its columns: every row has the header's cells
    rows = [r for r in masked.replace("\r", "").split("\n") if r]
    delim = "\t" if "\t" in text else (";" if ";" in text else ",")
    assert len({len(split_row(r, 0, len(r), delim)) for r in rows}) == 1, masked


@pytest.mark.parametrize("text", [
    "상품,수량,단가,계좌 잔액\n사과,3,1200,12345678\n",            # an amount under an account word
    "이름,수량\n사과,3\n배,10\n",                                   # only a count beside a name column? row has 2 cells
    "성명, 주소, 전화번호를 적어 주세요.\n그리고 다음, 회의는, 화요일입니다 정말로.\n",   # prose with commas
    "전화 횟수,통화 시간\n12345678,3600\n",
    "주소,비고\n-,-\n",
])
def test_labelled_columns_leave_other_columns(text):
    from veil_desktop.detect.rules.tabular import find_labelled_columns

    got = [(text[s.start:s.end], s.label) for s in find_labelled_columns(text)]
    if text.startswith("이름,수량"):
        assert got == [("사과", "PERSON"), ("배", "PERSON")]  # a name column is a name column: default deny
    else:
        assert got == []


def test_a_row_that_ends_like_a_sentence_stays_in_its_table():
    from veil_desktop.detect.rules.tabular import find_labelled_columns

    text = "성명,휴대전화,비고\n한지민,1048217395,사본 제출함.\n최하늘,1073952482,확인했습니다\n"
    got = [(text[s.start:s.end], s.label) for s in find_labelled_columns(text)]
    assert got == [("한지민", "PERSON"), ("1048217395", "PHONE"), ("최하늘", "PERSON"), ("1073952482", "PHONE")]
