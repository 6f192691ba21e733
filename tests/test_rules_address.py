"""Korean address grammar: one span per address (unit included), region forms, lot numbers, postal codes,
spacing-split addresses mapped back over the spaces, and words that must not become addresses."""
import pytest

from veil_desktop.detect.rules import RuleDetector

RULES = RuleDetector()


def found(text: str, detector: RuleDetector = RULES) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.label) for s in detector.detect(text)]


def addresses(text: str) -> list[str]:
    return [t for t, lab in found(text) if lab == "ADDRESS"]


@pytest.mark.parametrize("addr", [
    "서울특별시 강남구 테헤란로 427",
    "서울특별시 강남구 테헤란로 42길 15-3, 102동 405호",
    "경기도 성남시 분당구 정자일로 123번길 45-7(정자동)",
    "세종특별자치시 도움6로 11, 정부세종청사 5동 3층",
    "서울시 마포구 독막로 12길 34-5번지",
    "경기 수원시 팔달구 효원로 12-45, 푸른마을 아파트 102동 704호",
    "부산광역시 해운대구 센텀중앙로 79",
    "서울 종로구 세종대로 209 정부서울청사",
    "경기도 양평군 용문면 다목길 42-11",
    "서울특별시 강남구 테헤란로 지하 427",
    "서울특별시 강남구 테헤란로 42길 15, 7층 사무실",
    "서울특별시 강남구 테헤란로 42길 15-3 (포스텔로빌딩 4층)",
    "강남구 테헤란로 426",
    "서울특별시 서초구 강남대로 123-45번길 12-3",
])
def test_road_name_addresses_are_one_span(addr):
    assert addresses(f"현재 거주지는 {addr}이며, 연락처는 없습니다.") == [addr]


@pytest.mark.parametrize("addr", [
    "서울특별시 송파구 오금동 142-12번지",
    "서울특별시 관악구 대학동 128-4번지 그린빌라 302호",
    "서울특별시 성동구 성수동2가 128-14번지 성수팰리스 402호",
    "강원도 춘천시 석사동 412-15번지 202호",
    "경기도 양평군 용문면 다문리 산 12-3",
    "정자동 45-12번지",
])
def test_lot_number_addresses(addr):
    assert addresses(f"소재지: {addr}, 매매가 협의") == [addr]


@pytest.mark.parametrize("addr", [
    "서울시 송파구 올림픽로 300-12-402호",                 # building number and unit as one dash chain
    "경기도 성남시 분당구 정자동 102-504호",               # lot number + unit
    "세종특별자치시 도움6로 11, 301-1204 (보람동)",        # 동-호 without the words 동/호
])
def test_dash_written_units_stay_inside_the_address(addr):
    assert addresses(f"기존 주소인 {addr}에서 이사했습니다. 연락처 010-4592-1038") == [addr]


def test_dash_unit_rule_does_not_swallow_phones_or_dates():
    assert found("서울특별시 강남구 테헤란로 427, 010-1234-5678") == [
        ("서울특별시 강남구 테헤란로 427", "ADDRESS"), ("010-1234-5678", "PHONE")]
    assert addresses("테헤란로 12, 2024-05-12 방문") == ["테헤란로 12"]


def test_unit_numbers_are_inside_the_span():
    text = "배송지: 서울특별시 송파구 올림픽로 24길 12-5, 102동 704호(우편번호 05561)"
    spans = RULES.detect(text)
    addr = next(s for s in spans if s.label == "ADDRESS")
    assert text[addr.start:addr.end].endswith("102동 704호")
    assert [(text[s.start:s.end], s.label) for s in spans if s.label == "POSTAL_CODE"] == [("05561", "POSTAL_CODE")]


@pytest.mark.parametrize("text,code", [
    ("서울특별시 강남구 테헤란로 427, 15층 (06159) 근무", "06159"),
    ("우편번호 06234 맞으시죠?", "06234"),
    ("(우: 13487) 연락처", "13487"),
    ("(06234) 서울특별시 강남구 테헤란로 42길 15", "06234"),
    ("포스탈코드: 06234로", "06234"),
])
def test_postal_code_in_address_context(text, code):
    assert ("POSTAL_CODE" in [lab for t, lab in found(text) if t == code])


def test_five_digit_numbers_outside_an_address_context_are_not_postal_codes():
    assert found("재고 06234개, 주문 12345건") == []
    assert found("총 50000원을 입금했습니다") == []


@pytest.mark.parametrize("text,span", [
    ("주소는 정 릉로 77길 12에 있어요", "정 릉로 77길 12"),
    ("서울 정 릉로 77길 12", "서울 정 릉로 77길 12"),
    ("강남 구 테헤란로 42길 15-3에 산다", "강남 구 테헤란로 42길 15-3"),
    ("서울시 중 구 세종대로 110", "서울시 중 구 세종대로 110"),
    ("경기도 성남시 분당 구 정자 동 123-4번지", "경기도 성남시 분당 구 정자 동 123-4번지"),
])
def test_spacing_split_addresses_are_one_span_covering_the_spaces(text, span):
    assert addresses(text) == [span]


def test_spacing_can_be_switched_off():
    text = "현재 강남 구 테헤란로 42길 15-3에 산다"
    assert addresses(text) == ["강남 구 테헤란로 42길 15-3"]
    plain = RuleDetector(spacing=False)
    assert [t for t, lab in found(text, plain) if lab == "ADDRESS"] == ["테헤란로 42길 15-3"]


@pytest.mark.parametrize("text", [
    "앞으로 3년 동안 주로 2시에 만나서 서로 5명씩 이야기했습니다.",
    "전화로 2회 연락했고 메일로 10건을 보냈습니다.",
    "계좌로 110-452-987654 입금",
    "반드시 12시까지 제출",
    "연구 100건, 활동 3회, 친구 2명",
    "그 방법으로 1차 검토를 마쳤다.",
    "이번 사고로 35~40명이 사망했다.",          # a range, not a house number
    "주민 신고로 119구조대가 출동했다.",         # the number runs into a word
    "동료로 6·25전쟁 시기를 보냈다.",
    "매일 별도로 1∼2시간 연습한다.",
    "행진은 을지로 2가, 퇴계로 2가를 지났다.",   # N가 is a dong name, not a building number
])
def test_words_that_are_not_addresses(text):
    assert addresses(text) == []


def test_prose_after_the_address_is_not_a_building_name():
    assert addresses("서울시 강남구 테헤란로 42길 15-3 소재의 본사 7층에서 근무") == ["서울시 강남구 테헤란로 42길 15-3"]
    assert addresses("세종특별자치시 도움6로 11의 3층 대회의실") == ["세종특별자치시 도움6로 11"]
    assert addresses("서울특별시 강남구 테헤란로 42길 15, 르네상스빌 302호") == ["서울특별시 강남구 테헤란로 42길 15, 르네상스빌 302호"]


def test_address_followed_by_particles_stops_before_them():
    assert addresses("테헤란로 427에서 만나요") == ["테헤란로 427"]
    assert addresses("주소지는 서울특별시 강남구 테헤란로 42길 15-3인데 찾기 쉬워요") == [
        "서울특별시 강남구 테헤란로 42길 15-3"]


@pytest.mark.parametrize("text", [
    "서울 서초구 내곡동 52사단 예비군 훈련장", "토고를 상대로 2–1를 기록했다", "이란을 상대로 3-1 첫 승을", "현지 주민의 휴대전화로 112에 신고했다",
])
def test_particle_forms_before_scores_and_emergency_numbers_are_not_roads(text):
    from veil_desktop.detect.rules import RuleDetector

    assert RuleDetector().detect(text) == []
