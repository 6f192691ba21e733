"""Context fixes around the model (rules/refine.py): model spans relabelled / demoted (never dropped, never
reshaped), entities added by the rule stage, and both wired into the default detector's detect and stream paths."""
import pytest

from veil_desktop.detect.events import SpansFound
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.rules.refine import (DEMOTED_SCORE, find_context_entities, refine_model_span,
                                              refine_model_spans)
from veil_desktop.detect.span import DEFAULT_MIN_SCORE, Span


def model(text: str, value: str, label: str, nth: int = 0) -> Span:
    i = -1
    for _ in range(nth + 1):
        i = text.index(value, i + 1)
    return Span(i, i + len(value), label, 0.8, "model")


def refined(text: str, value: str, label: str):
    """(value, label) of a kept span, ``"demoted"`` for a demoted one (same boundaries and label, checked)."""
    m = model(text, value, label)
    r = refine_model_span(text, m)
    assert r is not None and (r.start, r.end, r.source) == (m.start, m.end, m.source)  # never dropped or reshaped
    if r.score != m.score:
        assert r.score == DEMOTED_SCORE and r.label == m.label
        return "demoted"
    return (text[r.start:r.end], r.label)


def test_demoted_score_is_below_the_default_threshold():
    assert DEMOTED_SCORE == 0.2 < DEFAULT_MIN_SCORE == 0.5


# -- relabel: Latin-script names -------------------------------------------------------------------

@pytest.mark.parametrize("text, name", [
    ("근로자 NGUYEN THI HOA (베트남) 고용계약", "NGUYEN THI HOA"),
    ("신청인 TRAN VAN DUC 은 다음과 같이", "TRAN VAN DUC"),
    ("성명: Maria Santos Reyes", "Maria Santos Reyes"),
    ("보호자 James Wilson 연락처", "James Wilson"),
    ("Applicant: LEE JAEHOON, passport", "JAEHOON"),   # a given name after a romanised surname
    ("담당 Park Minjun 주무관", "Minjun"),
])
def test_latin_personal_names_tagged_organization_become_person(text, name):
    assert refined(text, name, "ORGANIZATION") == (name, "PERSON")


@pytest.mark.parametrize("text, org", [
    ("협력사 SAMSUNG ELECTRONICS 와 계약", "SAMSUNG ELECTRONICS"),
    ("제조 KIM SAMSUNG ELECTRONICS", "SAMSUNG ELECTRONICS"),   # after a surname, but no given-name shape
    ("발주처 Global Tech Solutions Inc 담당", "Global Tech Solutions Inc"),
    ("서울대학교 산학협력단", "서울대학교 산학협력단"),
    ("거래처 HOA BINH CORP 대표", "HOA BINH CORP"),
    ("신청인 Nguyen Trading Co 는", "Nguyen Trading Co"),
])
def test_real_organisations_keep_their_label(text, org):
    assert refined(text, org, "ORGANIZATION") == (org, "ORGANIZATION")


# -- demote: PERSON spans that are not names ---------------------------------------------------------------

@pytest.mark.parametrize("text, word", [
    ("국적: 베트남\n체류자격: E-9", "베트남"),
    ("국적(필리핀)", "필리핀"),
    ("채권자는 채무자에게 다음과 같이 청구한다", "채권자"),
    ("피고는 원고에게 금 5,000,000원을 지급하라", "원고"),
    ("이   유\n1. 기초사실", "이   유"),
    ("주문\n1. 피고는", "주문"),
    ("심지어 연락도 없었다", "심지어"),
    ("차종: 그랜저 (흰색)", "그랜저"),
    ("담당자 변경 시 즉시 통보", "변경 시"),
    ("임차인은 보증금을", "임차인"),
    ("처방약: 아모크라 625mg, 3일분", "아모크라"),
    ("한미약품 노자르탄정 50mg 1일 1회", "노자르탄"),
    ("타이레놀 복용 후", "타이레놀"),
    ("연도별 점검 건수", "연도별"),                 # a chart title's breakdown, tagged PERSON 0.96
    ("지역별 신청 현황", "지역별"),
])
def test_words_that_are_not_names_are_demoted_not_dropped(text, word):
    assert refined(text, word, "PERSON") == "demoted"


@pytest.mark.parametrize("text, name", [
    ("신청인 김서윤은 다음과 같이", "김서윤"),
    ("국적: 대한민국, 성명: 이민호", "이민호"),   # a name after the nationality field stays
    ("이유진 님께", "이유진"),                   # starts with 이유 but is a name
    ("원고 박지훈", "박지훈"),
    ("김정민 2명, 이서준 3정목", "김정민"),       # a count is not a dose
    ("근로자 홍길동 주 5일 근무", "홍길동"),       # 주 (week) after a name, not a dosage form
    ("담당 김철수 정 교수와", "김철수"),
    ("담당 김한별 주무관", "김한별"),               # 별 ends given names: only the breakdown words are listed
])
def test_names_are_kept(text, name):
    assert refined(text, name, "PERSON") == (name, "PERSON")


def test_a_trailing_phrase_word_is_never_trimmed_and_a_name_before_it_never_demoted():
    assert refined("김민준 등 3명이 참석", "김민준 등", "PERSON") == ("김민준 등", "PERSON")
    assert refined("담당자 변경 시 즉시", "변경 시", "PERSON") == "demoted"


def test_an_address_line_before_a_line_starting_with_a_title_is_kept():
    text = "주소: 경기도 성남시 분당구\n시장 상가 1층"
    assert refined(text, "경기도 성남시 분당구", "ADDRESS") == ("경기도 성남시 분당구", "ADDRESS")


# -- demote: an issuing authority is not an address --------------------------------------------------------

def test_issuing_authority_region_is_not_an_address():
    text = "성남시 분당구 공고 제2024-123호"
    assert refined(text, "성남시 분당구", "ADDRESS") == "demoted"
    text2 = "서울특별시 고시 제2024-5호"
    assert refined(text2, "서울특별시", "ADDRESS") == "demoted"


def test_real_addresses_are_kept():
    text = "주소: 경기도 성남시 분당구 판교역로 235 공고문 게시"
    assert refined(text, "경기도 성남시 분당구 판교역로 235", "ADDRESS") == ("경기도 성남시 분당구 판교역로 235", "ADDRESS")
    text2 = "주소: 경기도 성남시 분당구\n연락처"
    assert refined(text2, "경기도 성남시 분당구", "ADDRESS") == ("경기도 성남시 분당구", "ADDRESS")


def test_drug_tagged_organization_is_demoted():
    assert refined("처방약: 아모크라 625mg, 3일분", "아모크라", "ORGANIZATION") == "demoted"
    assert refined("(주)한빛제약 납품", "(주)한빛제약", "ORGANIZATION") == ("(주)한빛제약", "ORGANIZATION")


def test_refine_spans_is_span_by_span_and_keeps_every_span():
    text = "채권자 김서윤, 국적: 베트남"
    spans = [model(text, "채권자", "PERSON"), model(text, "김서윤", "PERSON"), model(text, "베트남", "PERSON")]
    assert [(text[s.start:s.end], s.label, s.score) for s in refine_model_spans(text, spans)] == [
        ("채권자", "PERSON", DEMOTED_SCORE), ("김서윤", "PERSON", 0.8), ("베트남", "PERSON", DEMOTED_SCORE)]


def test_a_span_already_below_the_demoted_score_is_not_raised():
    text = "채권자는"
    s = Span(0, 3, "PERSON", 0.1, "model")
    assert refine_model_span(text, s) == s


# -- add: surname + title, letters, Latin names in name fields, gazetteers ------------------------------------

def entities(text: str) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.label) for s in find_context_entities(text, None)]


@pytest.mark.parametrize("text, expected", [
    ("경찰은 변 씨를 상대로", [("변", "PERSON")]),
    ("장 회장은 이날", [("장", "PERSON")]),
    ("김씨 검거를 위해", [("김", "PERSON")]),
    ("문 후보 측 대변인", [("문", "PERSON")]),
    ("A씨(37)에 대한 항소심", [("A", "PERSON")]),
    ("배우 K모 기자의 회견", [("K", "PERSON")]),
    ("성명: NGUYEN THI HOA\n국적", [("NGUYEN THI HOA", "PERSON")]),
    ("성명: 김서윤\n주소", [("김서윤", "PERSON")]),
    ("성함: 이서연님 확인", [("이서연", "PERSON")]),
    ("신청인: 박지훈 (인)", [("박지훈", "PERSON")]),
    ("성명 남궁민수, 연락처", [("남궁민수", "PERSON")]),
    ("근로자 TRAN VAN DUC 와 계약", [("TRAN VAN DUC", "PERSON")]),
    ("성명: 김서윤 (KIM SEO YUN)", [("김서윤", "PERSON"), ("KIM SEO YUN", "PERSON")]),
    ("시진핑 국가주석과 리커창 총리는", [("시진핑", "PERSON"), ("리커창", "PERSON")]),
    ("기재부는 한전의 요금 인상을", [("기재부", "ORGANIZATION"), ("한전", "ORGANIZATION")]),
    ("유엔 안보리는 결의안을", [("유엔 안보리", "ORGANIZATION")]),
    ("맨유와 넥센 히어로즈 경기", [("맨유", "ORGANIZATION"), ("넥센 히어로즈", "ORGANIZATION")]),
    ("애슐리 주드는 모건 프리먼과 함께", [("애슐리 주드", "PERSON"), ("모건 프리먼", "PERSON")]),
    ("카사블랑카의 험프리 보가트는", [("험프리 보가트", "PERSON")]),
    ("리암 니슨이 출연하고 브라이언 싱어가 연출", [("리암 니슨", "PERSON"), ("브라이언 싱어", "PERSON")]),
    ("이호중 서강대 교수, 곽동수 교수", [("서강대", "ORGANIZATION")]),
    ("구글과 네이버는 KBS 보도에", [("구글", "ORGANIZATION"), ("네이버", "ORGANIZATION"), ("KBS", "ORGANIZATION")]),
])
def test_context_entities(text, expected):
    assert entities(text) == expected


@pytest.mark.parametrize("text", [
    "이 회장은 지난해",           # this chairman
    "전 대표는 사퇴했다",          # former CEO
    "고 회장의 유지를",            # the late chairman
    "한 대표가 말했다",            # one representative
    "여 의원들은",                # ruling-party lawmakers
    "김 모 씨(26)와",             # already anonymised: nothing for 모
    "이사장 인사말, 공사장 안전",   # glued words
    "솜씨와 날씨와 아가씨",        # words ending in 씨
    "김 팀장님께 보고",            # office titles are not taken
    "'피플'은 기자가 미리",         # a particle after a quote, not the surname 은
    "한전KDN 과 기재부처",          # not whole words
    "중국 정부와 삼성 제품",        # ambiguous countries / company names are left to the model
    "LE MONDE 보도, HOA BINH CORP 납품, General Electric 엔진",  # one name token, or a company word
    "타이틀곡 LA SONG 발표, 권투 GO GO",                          # short or repeated tokens
    "예금주: 강남구청)입니다, 예금주: 주식회사 넥스트",               # an office or a company
    "제 이름이랑 주민번호, 담당자 이메일(sj.kim), 성명: 김 과장",     # no separator / a second word
    "빅토리아 대학 석사 과정",       # a foreign given name before a place word
    "크리스 감독의 신작",            # ... or before a title
    "에밀리 아파트 101동, 마리아 병원",  # ... or a building
    "존 레논, 톰 행크스",            # one-syllable given names are words too: left to the model
    "신세대 교수법, 현대 교수",       # 세대 / 현대 are not universities
    "사진을 트위터에 올렸다, 신세계로",  # a platform as a medium, 신세계 = new world
])
def test_context_entities_negatives(text):
    assert entities(text) == []


def test_rule_detector_entities_are_opt_in():
    text = "경찰은 변 씨를 상대로 기재부 010-1234-5678"
    assert [s.label for s in RuleDetector().detect(text)] == ["PHONE"]
    on = RuleDetector(entities=True)
    assert "PERSON" in on.labels and "ORGANIZATION" in on.labels
    assert [(text[s.start:s.end], s.label) for s in on.detect(text)] == [
        ("변", "PERSON"), ("기재부", "ORGANIZATION"), ("010-1234-5678", "PHONE")]


# -- wired into the default detector (detect and stream agree) ---------------------------------------------

def test_default_detector_applies_refine_in_detect_and_stream(tmp_path):
    """A real (tiny, per-character lookup) ONNX model tags the strings below; the default detector must
    demote / relabel them through refine and add the rule-stage entities, identically in detect and stream."""
    from tests.fixtures.tiny_model import build_tiny_model
    from veil_desktop.detect.default import build_default_detector

    folder = build_tiny_model(tmp_path / "m", entities={
        "수원시 장안구": "ADDRESS", "채권자": "PERSON", "김서윤": "PERSON", "LE VAN": "ORGANIZATION",
        "베트남": "PERSON"}, score=0.9)
    text = "수원시 장안구 공고\n채권자 김서윤은 직원 LE VAN 와 계약하였다. 국적: 베트남. 경찰은 변 씨를 조사했다."
    det = build_default_detector(folder, threads=1)
    raw = {(text[s.start:s.end], s.label) for s in det.model.detect(text)}
    assert raw == {("수원시 장안구", "ADDRESS"), ("채권자", "PERSON"), ("김서윤", "PERSON"),
                   ("LE VAN", "ORGANIZATION"), ("베트남", "PERSON")}  # what the model says
    got = {(text[s.start:s.end], s.label, "demoted" if s.score == DEMOTED_SCORE else "kept")
           for s in det.detect(text)}
    assert got == {("수원시 장안구", "ADDRESS", "demoted"), ("채권자", "PERSON", "demoted"),
                   ("김서윤", "PERSON", "kept"), ("LE VAN", "PERSON", "kept"), ("베트남", "PERSON", "demoted"),
                   ("변", "PERSON", "kept")}
    streamed = {(text[s.start:s.end], s.label, "demoted" if s.score == DEMOTED_SCORE else "kept")
                for ev in det.stream(text) if isinstance(ev, SpansFound) for s in ev.spans}
    assert streamed == got
    # what the batch CLI masks at its default --min-score: the demoted spans are left for the reviewer
    assert {text[s.start:s.end] for s in det.detect(text) if s.score >= DEFAULT_MIN_SCORE} == {"김서윤", "LE VAN", "변"}


def test_rules_on_output_contains_every_rules_off_model_span(tmp_path):
    """Issue 15's contract on a real tiny ONNX model: every span of the bare model that overlaps no rule span
    is in the rules-on output with the same start and end (and the same label, but for the documented
    ORGANIZATION → PERSON relabel of Latin names); rule spans only add on top. Checked in detect and stream."""
    from tests.fixtures.tiny_model import build_tiny_model
    from veil_desktop.detect.default import build_default_detector

    entities = {"수원시 장안구": "ADDRESS", "채권자": "PERSON", "김서윤": "PERSON", "LE VAN": "ORGANIZATION",
                "베트남": "PERSON", "이유": "PERSON", "그랜저": "PERSON", "아모크라": "ORGANIZATION",
                "박지훈": "PERSON", "한빛상사": "ORGANIZATION", "심지어": "PERSON"}
    folder = build_tiny_model(tmp_path / "m", entities=entities, score=0.9)
    text = ("수원시 장안구 공고 제2024-12호\n이유\n채권자 김서윤은 직원 LE VAN 와 계약하였다. 국적: 베트남. "
            "차종: 그랜저, 처방: 아모크라 625mg. 피고 박지훈은 한빛상사에 근무한다. 심지어 연락처 010-1234-5678도 "
            "남겼다. 경찰은 변 씨를 조사했다.")
    off = build_default_detector(folder, threads=1, rules=False)
    on = build_default_detector(folder, threads=1)
    model_spans = off.detect(text)
    assert set(entities) <= {text[s.start:s.end] for s in model_spans}  # the model tags every one of them
    rule_spans = on.rule_spans(text)
    assert any(r.label == "PHONE" for r in rule_spans)
    for output in (on.detect(text),
                   [s for ev in on.stream(text) if isinstance(ev, SpansFound) for s in ev.spans]):
        by_pos = {(s.start, s.end): s for s in output}
        for m in model_spans:
            if any(r.overlaps(m) for r in rule_spans):
                continue
            got = by_pos.get((m.start, m.end))
            assert got is not None, f"model span {text[m.start:m.end]!r} missing with rules on"
            assert got.label == m.label or (m.label, got.label) == ("ORGANIZATION", "PERSON"), text[m.start:m.end]
        # and the rule stage added the surname + title on top
        assert ("변", "PERSON") in {(text[s.start:s.end], s.label) for s in output}


def test_batch_cli_leaves_a_demoted_span_unmasked_and_counts_it_below_the_threshold(tmp_path):
    """What a demoted span means for ``veil-redact redact`` at its default --min-score: the value stays in
    clear, the report lists it as ``below_threshold`` (score 0.2) and counts it in ``pending_below_threshold``."""
    import json

    from tests.fixtures.tiny_model import build_tiny_model
    from veil_desktop.cli import main

    folder = build_tiny_model(tmp_path / "m", entities={"채권자": "PERSON", "김서윤": "PERSON"}, score=0.9)
    src = tmp_path / "a.txt"
    src.write_text("채권자 김서윤은 청구한다", encoding="utf-8")
    out = tmp_path / "o"
    assert main(["redact", str(src), "--out", str(out), "--model", str(folder), "--threads", "1", "--quiet"]) == 0
    assert (out / "a.txt").read_text("utf-8") == "채권자 [인명]은 청구한다"
    report = json.loads((out / "a.txt.report.json").read_text("utf-8"))
    assert [(d["start"], d["end"], d["label"], d["score"], d["decision"]) for d in report["decisions"]] == [
        (0, 3, "PERSON", DEMOTED_SCORE, "below_threshold"), (4, 7, "PERSON", pytest.approx(0.9, abs=1e-3),
                                                              "accepted")]
    assert report["review"]["pending_below_threshold"] == 1


def test_window_review_state_shows_a_demoted_span_as_pending_below_the_default_threshold(tmp_path):
    """What a demoted span means for the window (its review core, no Qt): at the default threshold it is a
    hidden pending suggestion, counted per label, and no pending policy lets it out unseen."""
    from tests.fixtures.tiny_model import build_tiny_model
    from veil_desktop.detect.default import build_default_detector
    from veil_desktop.review import PendingPolicy, PendingSpansError, ReviewState, spans_to_mask
    from veil_desktop.review.settings import AppSettings

    folder = build_tiny_model(tmp_path / "m", entities={"채권자": "PERSON", "김서윤": "PERSON"}, score=0.9)
    text = "채권자 김서윤은 청구한다"
    st = ReviewState(text)
    st.add_detected(build_default_detector(folder, threads=1).detect(text))
    st.set_threshold(AppSettings().threshold)
    assert [text[it.start:it.end] for it in st.hidden_pending()] == ["채권자"]
    assert st.hidden_counts() == {"PERSON": 1} and st.pending_count() == 1  # 김서윤 is visible and pending
    for policy in PendingPolicy:
        with pytest.raises(PendingSpansError) as err:
            spans_to_mask(st, policy)
        assert err.value.below_threshold == 1


@pytest.mark.parametrize("text, word", [
    ("신데렐라의 따뜻한 마음씨가 정말 힐링이 되었어요", "마음"),
    ("레이시만 슈퍼스타가 되지 못했다", "슈퍼스타"),
    ("양측은 중재안을 받아들였다", "중재안"),
    ("정부 관계자는 이날 기자들에게", "관계자"),
    ("지난 8일 호흡곤란으로 병원에 이송돼", "호흡곤란"),
    ("조카 김민수와 함께 왔다", "조카"),
    ("며느리 박지은이 간병했다", "며느리"),
    ("97년작 볼케이노가 훨씬 낫다", "볼케이노"),
    ("줄거리: 한 남자가", "줄거리"),
])
def test_news_and_web_words_that_are_not_names_are_demoted(text, word):
    assert refined(text, word, "PERSON") == "demoted"


@pytest.mark.parametrize("text, name", [
    ("조카 김민수와 함께 왔다", "김민수"),        # a kinship word right before a name: the name stays
    ("며느리 박지은이 간병했다", "박지은"),
    ("정부 관계자 이재민 씨는", "이재민"),        # 이재민 (displaced people) is also a full name: never listed
    ("지원이는 마음이 따뜻하다", "지원"),          # a common given name stays
    ("김종영 조각가와 종영 씨", "종영"),
    ("장모님 댁에 간 장동건은", "장동건"),
    ("장 회장은 이날", "장"),                      # a lone surname not glued into 장모님
    ("베테랑 투수 이대호랑 함께", "이대호"),       # a name followed by the particle 랑 stays
])
def test_names_next_to_news_words_are_kept(text, name):
    assert refined(text, name, "PERSON") == (name, "PERSON")


@pytest.mark.parametrize("text, word", [
    ("정수기 필터를 교체하세요", "필터"),                      # red team 7: PERSON 0.61 by the model
    ("한영키를 누르고 다시 입력", "한영키"),                   # red team 7: PERSON 0.98
    ("키보드와 마우스를 연결", "키보드"),
    ("(그림)", "그림"),                                        # red team 8: a picture placeholder, PERSON 0.75
])
def test_device_words_are_no_person(text, word):
    assert refined(text, word, "PERSON") == "demoted"


def test_a_name_beside_a_device_word_is_kept():
    assert refined("담당자 한영수 주무관이 키보드를 교체", "한영수", "PERSON") == ("한영수", "PERSON")


@pytest.mark.parametrize("text, piece", [
    ("정성호씨는 장모님께 좀 잘하셔야할듯", "장"),
    ("테드 릴리 베테랑 투수들이", "베테"),
    ("레스토랑이라도 열고", "레스토"),
    ("하정우 오라버님의 출연", "오라버"),
    ("차승원도 덩달아 우웩", "덩달"),
])
def test_a_span_cut_out_of_an_ordinary_word_is_demoted(text, piece):
    assert refined(text, piece, "PERSON") == "demoted"


# -- issue 27: file-format / tech acronyms and English words are no organisation ---------------------

@pytest.mark.parametrize("text, value, label", [
    ("첨부된 PDF 파일을 확인", "PDF", "ORGANIZATION"),
    ("HWP로 저장한 문서", "HWP", "ORGANIZATION"),
    ("HWPX 변환", "HWPX", "ORGANIZATION"),
    ("ZIP 파일로 압축", "ZIP", "ORGANIZATION"),
    ("URL을 복사", "URL", "ORGANIZATION"),
    ("ID 입력 후", "ID", "ORGANIZATION"),
    ("OCR 결과", "OCR", "PERSON"),
    ("Even so, the", "Even", "ORGANIZATION"),
    ("the Ones who", "Ones", "PERSON"),
    ("버스정류장 앞 CCTV와 같은", "CCTV", "ORGANIZATION"),
    ('{"status": "OK", "code": 200}', "OK", "ORGANIZATION"),     # red team 7: a JSON status word
    ("검사 결과 NG 판정", "NG", "ORGANIZATION"),
    ('"deleted": TRUE,', "TRUE", "ORGANIZATION"),
])
def test_acronyms_and_english_words_are_demoted(text, value, label):
    assert refined(text, value, label) == "demoted"


@pytest.mark.parametrize("text, value, label", [
    ("PDF Association 회원사", "PDF", "ORGANIZATION"),   # a company word after it
    ("(주)ID 대표", "ID", "ORGANIZATION"),
    ("HWP협회 발표", "HWP", "ORGANIZATION"),
    ("중국 관영 CCTV는 보도했다", "CCTV", "ORGANIZATION"),  # China Central Television
    ("IS가 전투 상황에", "IS", "ORGANIZATION"),            # all capitals: the Islamic State, not "is"
    ("A씨는 지난 10일", "A", "PERSON"),                    # a letter standing for a person
    ("KBS 뉴스", "KBS", "ORGANIZATION"),
    ("EVEN 코리아", "EVEN", "ORGANIZATION"),
    ("OK캐쉬백 포인트 적립", "OK캐쉬백", "ORGANIZATION"),      # more than the bare word: kept
])
def test_organisation_acronyms_and_context_are_kept(text, value, label):
    assert refined(text, value, label) == (value, label)
