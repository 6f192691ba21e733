"""Structured PII rules: every family in every separator variant, checksums, near-misses, particles.

Check digits in these tests are computed by the test's own implementations (not the module's), so a
wrong validator in the code cannot make its own test pass.
"""
import pytest

from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.rules import numbers as N
from veil_desktop.detect.rules.context import kind_before

RULES = RuleDetector()


from veil_desktop.detect.rules.identifiers import IDENTIFIER_LABELS  # noqa: E402


def found(text: str, detector: RuleDetector = RULES) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.label) for s in detector.detect(text)]


def labels_of(text: str) -> dict[str, str]:
    return {t: lab for t, lab in found(text)}


# -- independent check-digit helpers ------------------------------------------------------------

def rrn_with_check(first12: str) -> str:
    s = sum(int(c) * w for c, w in zip(first12, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)))
    return first12 + str((11 - s % 11) % 10)


def frn_with_check(first12: str) -> str:
    s = sum(int(c) * w for c, w in zip(first12, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)))
    return first12 + str(((11 - s % 11) % 10 + 2) % 10)


def luhn_complete(first15: str) -> str:
    digits = [int(c) for c in first15 + "0"]
    for i in range(len(digits) - 2, -1, -2):
        digits[i] = digits[i] * 2 - 9 if digits[i] * 2 > 9 else digits[i] * 2
    return first15 + str((10 - sum(digits) % 10) % 10)


def brn_with_check(first9: str) -> str:
    w = (1, 3, 7, 1, 3, 7, 1, 3, 5)
    d = [int(c) for c in first9]
    s = sum(a * b for a, b in zip(d, w)) + (d[8] * 5) // 10
    return first9 + str((10 - s % 10) % 10)


def dash(d: str, groups: tuple[int, ...], sep: str = "-") -> str:
    out, i = [], 0
    for g in groups:
        out.append(d[i:i + g])
        i += g
    return sep.join(out)


# -- validators -----------------------------------------------------------------------------------

def test_validators_agree_with_independent_implementations():
    rrn = rrn_with_check("880412214567")
    assert N.rrn_check_ok(rrn)
    assert not N.rrn_check_ok(rrn[:-1] + str((int(rrn[-1]) + 1) % 10))
    frn = frn_with_check("950101512345")
    assert N.frn_check_ok(frn) and not N.frn_check_ok(frn[:-1] + str((int(frn[-1]) + 3) % 10))
    card = luhn_complete("451288013342109")
    assert N.luhn_ok(card) and not N.luhn_ok(card[:-1] + str((int(card[-1]) + 1) % 10))
    assert N.luhn_ok("4111111111111111") and not N.luhn_ok("4111111111111112")
    brn = brn_with_check("220816251")
    assert brn == "2208162517"  # a real, published business registration number
    assert N.brn_check_ok(brn) and not N.brn_check_ok("2208162518")
    assert N.birth_date_ok("880229") and not N.birth_date_ok("881301") and not N.birth_date_ok("880431")


# -- phones -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("phone", [
    "010-1234-5678", "010.1234.5678", "010 1234 5678", "01012345678", "+82 10-1234-5678", "+82-10-1234-5678",
    "+821012345678", "+82 (0)10 1234 5678", "011-123-4567", "02-123-4567", "02-3471-8829", "(02) 123-4567",
    "02)3471-8829", "031-228-9012", "044.201.8832", "070-1234-5678", "０１０－１２３４－５６７８",
])
def test_phone_every_separator_variant(phone):
    text = f"담당자 연락처는 {phone}로 주세요."
    assert found(text) == [(phone, "PHONE")]


@pytest.mark.parametrize("text,phone", [
    ("고객: 공일공 사팔이구 일공오삼 이에요.", "공일공 사팔이구 일공오삼"),
    ("번호는 공일공-1234-5678", "공일공-1234-5678"),
    ("영일영 이삼사오 육칠팔구로 주세요", "영일영 이삼사오 육칠팔구"),
])
def test_phone_read_out_in_korean_numerals(text, phone):
    assert found(text) == [(phone, "PHONE")]


@pytest.mark.parametrize("text", ["일이삼 사오육", "오늘 공일공 회의", "구일일 신고", "공일공 사팔"])
def test_korean_numeral_near_misses(text):
    assert found(text) == []


def test_phone_full_width_offsets_point_into_the_original():
    text = "전화：０１０－２３４５－６７８９입니다"
    [s] = RULES.detect(text)
    assert (text[s.start:s.end], s.label) == ("０１０－２３４５－６７８９", "PHONE")


def test_phone_landline_without_separators_needs_a_phone_word():
    assert found("전화 0212345678로") == [("0212345678", "PHONE")]
    assert found("코드 0212345678 입력") == []


@pytest.mark.parametrize("text", [
    "주문번호 2024-0512-0001-23 확인",    # longer hyphenated id: no phone inside it
    "금액 010,123,456원",                  # commas
    "제품 코드 A010-1234-5678",             # letter-prefixed code
    "0101234567890123 접수",               # longer digit run
    "2024-05-12 회의",                      # date
])
def test_phone_near_misses(text):
    assert [lab for _, lab in found(text) if lab == "PHONE"] == []


def test_particles_stay_outside():
    assert found("010-1234-5678로 연락") == [("010-1234-5678", "PHONE")]
    assert found("sy.kim@gov.kr으로 송신") == [("sy.kim@gov.kr", "EMAIL")]
    assert found("주민등록번호 880412-2145678과 주소") == [("880412-2145678", "RRN")]


# -- RRN / foreigner RN ----------------------------------------------------------------------------

def test_rrn_checksum_valid_found_without_context():
    rrn = rrn_with_check("880412214567")
    [s] = RULES.detect(f"대상자 {rrn[:6]}-{rrn[6:]} 확인")
    assert s.label == "RRN" and s.score == pytest.approx(0.99)
    [s] = RULES.detect(f"대상자 {rrn} 확인")       # 13 bare digits: a barcode passes a check digit 1 in 10
    assert s.label == "RRN" and s.score == pytest.approx(0.9)
    assert found(f"바코드 {rrn}") == []


def test_post_2020_rrn_without_check_digit_found_by_format_and_context():
    rrn = rrn_with_check("021015412345")
    bad = rrn[:-1] + str((int(rrn[-1]) + 1) % 10)  # issued after Oct 2020: no valid check digit
    with_ctx = RULES.detect(f"주민등록번호 {bad[:6]}-{bad[6:]} 제출")
    assert [(s.label, s.score) for s in with_ctx] == [("RRN", 0.93)]
    # hyphenated + valid birth date + sex digit: still an RRN without context, less sure
    [s] = RULES.detect(f"김서윤({bad[:6]}-{bad[6:]}) 님")
    assert s.label == "RRN" and s.score < 0.93
    # 13 bare digits with neither check digit nor context: not reported
    assert found(f"코드 {bad} 입력") == []


def test_rrn_near_misses():
    assert found("주문번호 240512-1234567 확인") == []          # order number (NEG context)
    assert found("일련번호 881301-1234567") == []
    assert found("값 881301-1234567") == []                     # month 13: not a birth date


def test_masked_and_partial_rrns_still_reported():
    assert found("주민번호 920514-2******") == [("920514-2******", "RRN")]
    assert found("환자 김지안(920514-2XXXXXX)") == [("920514-2XXXXXX", "RRN")]
    assert found("주민등록번호 앞자리와 뒷자리 첫 글자(880514-2)") == [("880514-2", "RRN")]


def test_foreigner_registration_number():
    frn = frn_with_check("950101512345")
    [s] = RULES.detect(f"등록번호 {frn[:6]}-{frn[6:]}")
    assert (s.label, s.score) == ("FOREIGNER_RN", pytest.approx(0.99))
    assert labels_of("외국인등록번호 951112-5012345") == {"951112-5012345": "FOREIGNER_RN"}


# -- cards ----------------------------------------------------------------------------------------------

def test_card_luhn_valid_in_every_separator_variant():
    card = luhn_complete("451288013342109")
    for sep in ("-", " ", ""):
        v = dash(card, (4, 4, 4, 4), sep)
        [s] = RULES.detect(f"결제 {v} 승인")
        assert (v, "CARD") == (f"결제 {v} 승인"[s.start:s.end], s.label)
        assert s.score >= 0.95


def test_card_luhn_invalid_needs_grouping_or_context():
    card = luhn_complete("451288013342109")
    bad = card[:-1] + str((int(card[-1]) + 1) % 10)
    assert labels_of(f"카드번호 {dash(bad, (4, 4, 4, 4))}") == {dash(bad, (4, 4, 4, 4)): "CARD"}
    assert found(f"번호 {bad} 입력") == []                      # 16 bare digits, no Luhn, no context
    assert found(f"모델번호 {dash(card, (4, 4, 4, 4))}") == []    # NEG context vetoes even a Luhn match


def test_masked_card():
    assert found("카드번호 4518-****-1234-9081") == [("4518-****-1234-9081", "CARD")]


# -- accounts -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,acct", [
    ("신한은행 110-452-987654로 입금", "110-452-987654"),
    ("농협은행 302-1145-0823-41 계좌번호와 예금주", "302-1145-0823-41"),
    ("입금 계좌: 우리은행 1002-384-927104", "1002-384-927104"),
    ("국민은행 1102938475610 (예금주 홍길동)", "1102938475610"),
    ("저번에 주신 110-452-987654 (신한은행) 맞죠", "110-452-987654"),
    ("카카오뱅크 3333-01-1234567로 송금", "3333-01-1234567"),
    ("신한 110-452-987654 으로 보내 주세요", "110-452-987654"),
])
def test_account_with_bank_context(text, acct):
    assert labels_of(text) == {acct: "ACCOUNT"}


def test_account_shape_without_context_is_a_low_score_account():
    # default deny (red team 6, 2c: a combo box item "국민 496736-02-149361" far below its "계좌" label): a
    # 12+ digit number in a bank's group shape is an account at a low score until a reviewer rejects it
    spans = RULES.detect("참고 110-452-987654 항목")
    assert [(s.label, s.score) for s in spans] == [("ACCOUNT", 0.6)]
    assert found("참고 12-345-6789 항목") == []                 # 9 digits, no bank shape: not an account
    assert found("[목록] 국민 496736-02-149361") == [("496736-02-149361", "ACCOUNT")]
    # a policy number is not an account: it is an insurance number (rules/identifiers.py)
    assert found("증권번호: 8201-9382-1102") == [("8201-9382-1102", "HEALTH_INSURANCE")]


# -- business / corporate registration ------------------------------------------------------------------

def test_business_registration_checksum_and_context():
    valid = dash(brn_with_check("214861234"), (3, 2, 5))
    [s] = RULES.detect(f"번호 {valid} 기재")
    assert (s.label, s.score) == ("BUSINESS_REG", pytest.approx(0.95))
    invalid = valid[:-1] + str((int(valid[-1]) + 1) % 10)
    [s] = RULES.detect(f"사업자등록번호 {invalid}")
    assert (s.label, s.score) == ("BUSINESS_REG", 0.93)
    # health insurance numbers share the 3-2-5 shape: never a business number, but an insurance number
    assert found(f"의료보험번호 {invalid}") == [(invalid, "HEALTH_INSURANCE")]


def test_corporate_registration_number_by_context():
    assert labels_of("법인등록번호 110111-1234567 확인") == {"110111-1234567": "CORP_REG"}
    assert labels_of("법인번호: 110111-0045678") == {"110111-0045678": "CORP_REG"}


# -- passport, driver's licence, vehicle, IP, e-mail ---------------------------------------------------

def test_passport():
    assert labels_of("여권번호 M12345678을") == {"M12345678": "PASSPORT"}
    assert labels_of("여권번호: M123A4567") == {"M123A4567": "PASSPORT"}
    assert labels_of("passport AB1234567") == {"AB1234567": "PASSPORT"}
    assert found("시리얼 S12345678") == []
    assert found("상품코드 X12345678") == []


@pytest.mark.parametrize("text,lic", [
    ("운전면허번호 11-20-123456-12", "11-20-123456-12"),
    ("면허: 11-24-103948-12", "11-24-103948-12"),
    ("운전면허증 서울 12-345678-90", "서울 12-345678-90"),
    ("운전면허번호 11-20-45-12-345-67을", "11-20-45-12-345-67"),
])
def test_driver_license(text, lic):
    assert labels_of(text) == {lic: "DRIVER_LICENSE"}


@pytest.mark.parametrize("plate", ["12가 3456", "123가4567", "경기 21가 8842", "서울12가3456", "제12가 3456"])
def test_vehicle_plate(plate):
    assert found(f"차량번호 {plate}로 등록") == [(plate, "VEHICLE")]


def test_vehicle_near_misses():
    assert found("재고 12가 3456개") == []
    assert found("층수 3층12가3456") == []


@pytest.mark.parametrize("text,ip", [
    ("IP 주소 192.168.0.114에서", "192.168.0.114"), ("서버 10.124.55.182 접속", "10.124.55.182"),
    ("접속 기록 211.234.15.89", "211.234.15.89"),
])
def test_ip(text, ip):
    assert labels_of(text) == {ip: "IP"}


@pytest.mark.parametrize("text,ip", [
    ("IPv6 주소 2001:db8:85a3::8a2e:370:7334 에서", "2001:db8:85a3::8a2e:370:7334"),
    ("접속 fe80::1ff:fe23:4567:890a", "fe80::1ff:fe23:4567:890a"),
    ("로그 2001:0db8:85a3:0000:0000:8a2e:0370:7334", "2001:0db8:85a3:0000:0000:8a2e:0370:7334"),
])
def test_ipv6(text, ip):
    assert labels_of(text) == {ip: "IP"}


@pytest.mark.parametrize("text", ["시간 12:30:45 회의", "비율 1:2:3:4", "a::b 표기", "C++ std::map::at"])
def test_ipv6_near_misses(text):
    assert found(text) == []


@pytest.mark.parametrize("text", ["버전 1.2.3.4 배포", "v2.10.3.1 릴리스", "값 300.1.2.3", "섹션 1.2.3.4", "2024.05.12.1 빌드"])
def test_ip_near_misses(text):
    assert found(text) == []


@pytest.mark.parametrize("email", ["sy.kim@gov.kr", "dy.kim_official@korea-mail.net", "a+b@x.co.kr",
                                   "jh_park@넥스트코어.co.kr"])
def test_email(email):
    assert found(f"메일({email})로") == [(email, "EMAIL")]


# -- amounts, dates, versions, serials: nothing ----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "총 금액은 1,234,567원이며 2024년 5월 12일에 지급합니다.",
    "회의는 2024-05-12 14:00, 장소는 3층 회의실입니다.",
    "소프트웨어 버전 10.2.3 및 빌드 20240512.",
    "주문번호 20240512123456 배송 준비 중",
    "처방전 번호 RX-20231105-01, 접수번호 ACC-20231114-09",
    "증권번호: POL-2023-991042",
    "S/N 4512-8801-3342-1097 제품",
    "제조번호 880412-2145678",
    "바코드 8801234567890",
])
def test_no_false_positives_on_everyday_numbers(text):
    # the structured finders take none of these (prescription / receipt / policy numbers are the other
    # identifiers' job: tests/test_rules_identifiers.py)
    assert [(t, lab) for t, lab in found(text) if lab not in IDENTIFIER_LABELS] == []



def test_context_keyword_closest_before_the_candidate_wins():
    text = "주민등록번호 880412-2145678, 연락처 010-1234-5678, 신한은행 계좌 110-452-987654, 주문번호 X"
    assert kind_before(text, text.index("880412")) == "RRN"
    assert kind_before(text, text.index("010-")) == "PHONE"
    assert kind_before(text, text.index("110-452")) == "ACCOUNT"
    assert kind_before(text, len(text) - 1) == "NEG"
    assert kind_before(text, text.index("880412"), width=3) is None       # keyword outside the window
    assert kind_before("zip IP 1.2.3.4", 7) == "IP" and kind_before("zipcode 1", 8) is None  # Latin words whole


def test_numbers_under_a_resident_card_word():
    # 주민등록증 (the card) outranks 주민 (the number): its other numbers are identity-document numbers
    assert found("신분증 사본(주민등록증 1234-5678-9012)과") == [("1234-5678-9012", "DRIVER_LICENSE")]
    assert found("신분증(주민등록증 12-14-0982731)의 진위") == [("12-14-0982731", "DRIVER_LICENSE")]
    # ... while an RRN written after it is still an RRN, with or without hyphen / check digit / full length
    assert found("주민등록증 880412-2145678 확인") == [("880412-2145678", "RRN")]
    assert found("주민등록증 8804122145679 확인") == [("8804122145679", "RRN")]
    assert found("주민등록증 번호는 880412-2 입니다") == [("880412-2", "RRN")]
    assert found("주민등록증(번호: 123456-1002345)과") == [("123456-1002345", "RRN")]  # a placeholder date


def test_birth_date_half_of_an_rrn_after_an_rrn_word():
    assert found("주민번호 앞자리 920514 적으라고") == [("920514", "RRN")]
    assert found("주민등록번호 앞 6자리(880412)") == [("880412", "RRN")]
    assert found("주민번호 앞자리 921340") == []           # not a date
    assert found("접수번호 920514, 주문 880412") == []     # no RRN word


def test_amounts_in_jo_and_eok_are_not_vehicle_plates():
    assert found("차입금은 55조2344억엔, 정부단기증권은 113조6285억엔이다.") == []
    assert found("차량번호 55조 2344 주차") == [("55조 2344", "VEHICLE")]
