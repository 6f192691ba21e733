"""Synthetic labelled Korean text: administrative documents and news-like sentences.

``Generator(seed, split)`` fills templates with gazetteer entities and records character spans while it
builds the text, so offsets are exact by construction. Templates are split into a *train* pool and a
*held-out* pool (every fifth template) so that the held-out synthetic documents used for evaluation
contain sentence shapes the model never saw; entity values are drawn from the same gazetteers with a
different seed (stated in the model card: the held-out synthetic score is therefore optimistic about
entity *values*, not about sentence shapes).

Labels: PERSON, ADDRESS, ORGANIZATION. Structured PII (phones, RRNs, e-mails, accounts) is emitted as
unlabelled text: the model should leave it to the rule stage.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from . import gazetteers as G

_HANGUL_BASE = 0xAC00


def has_final(syllable: str) -> bool:
    """True when a Hangul syllable ends in a final consonant (받침)."""
    c = ord(syllable[-1]) - _HANGUL_BASE
    return 0 <= c < 11172 and c % 28 != 0


def particle_for(word: str, pair: tuple[str, str]) -> str:
    """Pick the allomorph of a particle pair (after-consonant, after-vowel) for ``word``."""
    return pair[0] if has_final(word) else pair[1]


_PAIRS = [("은", "는"), ("이", "가"), ("을", "를"), ("과", "와"), ("이랑", "랑"), ("아", "야")]
_FIXED = ["의", "에게", "도", "께서", "한테", "에게서", "만", "부터", "까지", "에 대해"]


@dataclass
class Doc:
    text: str
    spans: list[tuple[int, int, str]] = field(default_factory=list)


class Builder:
    """Appends text pieces and records the spans of entity pieces (offsets exact by construction)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.n = 0
        self.spans: list[tuple[int, int, str]] = []

    def add(self, s: str, label: str | None = None) -> None:
        if not s:
            return
        if label:
            self.spans.append((self.n, self.n + len(s), label))
        self.parts.append(s)
        self.n += len(s)

    def doc(self) -> Doc:
        return Doc("".join(self.parts), self.spans)


class Generator:
    def __init__(self, seed: int = 0) -> None:
        self.r = random.Random(seed)
        sw = G.SURNAMES
        self._surnames = [s for s, _ in sw]
        self._sweights = [w for _, w in sw]

    # --- entity values -------------------------------------------------------------------------
    def korean_name(self) -> str:
        r = self.r
        sur = r.choices(self._surnames, self._sweights)[0]
        x = r.random()
        if x < 0.55:
            given = r.choice(G.GIVEN_NAMES)
        elif x < 0.93:
            given = r.choice(G.GIVEN_FIRST) + r.choice(G.GIVEN_SECOND)
        elif x < 0.97:
            given = r.choice(G.GIVEN_SECOND)
        else:
            given = r.choice(G.GIVEN_FIRST) + r.choice(G.GIVEN_SECOND) + r.choice(G.GIVEN_SECOND)
        return sur + given

    def foreign_name(self) -> str:
        r = self.r
        x = r.random()
        if x < 0.6:
            return r.choice(G.FOREIGN_GIVEN) + " " + r.choice(G.FOREIGN_FAMILY)
        if x < 0.8:
            return r.choice(G.FOREIGN_GIVEN) + r.choice(G.FOREIGN_FAMILY)
        return r.choice(G.FOREIGN_FAMILY + G.FOREIGN_GIVEN)

    def person(self) -> str:
        return self.foreign_name() if self.r.random() < 0.1 else self.korean_name()

    def hanja(self, name: str) -> str | None:
        out = [G.HANJA_OF.get(c) for c in name]
        return None if None in out else "".join(out)  # type: ignore[arg-type]

    def province(self) -> tuple[str, str]:
        full, shorts = self.r.choice(G.PROVINCES)
        shown = full if self.r.random() < 0.7 else self.r.choice(shorts)
        return full, shown

    def address(self) -> str:
        r = self.r
        full, shown = self.province()
        district = r.choice(G.DISTRICTS[full])
        head = " ".join(p for p in (shown, district) if p)
        if r.random() < 0.12:
            head = district or shown  # district only (province omitted)
        x = r.random()
        if x < 0.62:  # road-name address
            road = r.choice(G.ROAD_STEMS)
            kind = r.random()
            if kind < 0.5:
                road += "로"
            elif kind < 0.6:
                road += "대로"
            elif kind < 0.85:
                road += f"로{r.randint(1, 60)}길"
            else:
                road += f"{r.choice(['로', '길'])} {r.randint(1, 40)}길"
            num = str(r.randint(1, 350)) + (f"-{r.randint(1, 30)}" if r.random() < 0.25 else "")
            addr = f"{head} {road} {num}"
            y = r.random()
            if y < 0.35:
                addr += f", {r.randint(101, 120)}동 {r.randint(1, 25)}{r.randint(1, 9):02d}호"
            elif y < 0.55:
                addr += f" {r.randint(1, 20)}층"
            elif y < 0.7:
                addr += f", {r.randint(101, 1505)}호"
            if r.random() < 0.25:
                dong = r.choice(G.DONG_STEMS) + "동"
                if r.random() < 0.4:
                    dong += ", " + r.choice(G.APT_BRANDS) + r.choice(["", "아파트", str(r.randint(1, 9)) + "차"])
                addr += f" ({dong})"
            return addr
        if x < 0.9:  # lot-number address
            dong = r.choice(G.DONG_STEMS) + r.choice(["동", "동", "동", "읍", "면"])
            if dong.endswith("면") or dong.endswith("읍"):
                dong += " " + r.choice(G.DONG_STEMS) + "리"
            lot = f"{r.randint(1, 999)}" + (f"-{r.randint(1, 99)}" if r.random() < 0.6 else "")
            addr = f"{head} {dong} {lot}" + ("번지" if r.random() < 0.4 else "")
            if r.random() < 0.3:
                addr += " " + r.choice(G.APT_BRANDS) + r.choice(G.BUILDING_SUFFIXES) + f" {r.randint(1, 15)}0{r.randint(1, 9)}호"
            return addr
        # neighbourhood-level address (as in "거주지: 강남구 역삼동")
        return f"{head} {r.choice(G.DONG_STEMS)}동"

    def org(self) -> str:
        r = self.r
        x = r.random()
        if x < 0.3:
            name = r.choice(G.COMPANY_STEMS) + r.choice(G.COMPANY_SUFFIXES)
            y = r.random()
            if y < 0.3:
                name = r.choice(G.ORG_FORMS) + name
            elif y < 0.4:
                name = name + r.choice(["(주)", "㈜", " 주식회사"])
            return name
        if x < 0.45:
            return r.choice(G.MINISTRIES + G.PUBLIC_CORPS)
        if x < 0.6:
            full, shown = self.province()
            district = r.choice(G.DISTRICTS[full]) or shown
            base = district.split()[-1] if r.random() < 0.5 else district.split()[0]
            place = r.choice([shown.replace("특별시", "").replace("광역시", ""), base[:-1], base[:-1]])
            return place + r.choice(G.PLACE_BODIES)
        if x < 0.68:
            return r.choice(G.DONG_STEMS) + r.choice(["동", ""]) + r.choice(G.DONG_BODIES)
        if x < 0.78:
            stem = r.choice(G.UNIV_STEMS + G.DONG_STEMS[:60])
            return stem + r.choice(G.SCHOOL_KINDS)
        if x < 0.86:
            stem = r.choice(G.COMPANY_STEMS + G.DONG_STEMS[:80] + G.UNIV_STEMS)
            return stem + r.choice(G.HOSPITAL_KINDS)
        if x < 0.94:
            return r.choice(G.BANKS)
        return r.choice(G.MEDIA_AND_OTHERS)

    # --- unlabelled filler ---------------------------------------------------------------------
    def phone(self) -> str:
        r = self.r
        if r.random() < 0.7:
            return f"010-{r.randint(1000, 9999)}-{r.randint(1000, 9999)}"
        return f"0{r.choice([2, 31, 32, 42, 51, 53, 62, 64])}-{r.randint(100, 9999)}-{r.randint(1000, 9999)}"

    def rrn(self) -> str:
        r = self.r
        return f"{r.randint(50, 99):02d}{r.randint(1, 12):02d}{r.randint(1, 28):02d}-{r.randint(1, 4)}{r.randint(0, 999999):06d}"

    def email(self) -> str:
        r = self.r
        user = "".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(3, 8))) + str(r.randint(0, 99))
        return user + "@" + r.choice(["naver.com", "gmail.com", "daum.net", "korea.kr", "hanmail.net", "company.co.kr"])

    def date(self) -> str:
        r = self.r
        y, m, d = r.randint(1995, 2026), r.randint(1, 12), r.randint(1, 28)
        return r.choice([f"{y}년 {m}월 {d}일", f"{y}. {m}. {d}.", f"{y}-{m:02d}-{d:02d}", f"{m}월 {d}일"])

    def number(self) -> str:
        r = self.r
        return r.choice([f"제{r.randint(2020, 2026)}-{r.randint(100, 99999)}호", str(r.randint(1, 500)),
                         f"{r.randint(1, 999):,}만 원", f"{r.randint(1, 99)}명", f"{r.randint(10000, 9999999):,}원",
                         f"{r.randint(100, 999)}-{r.randint(10, 99)}-{r.randint(10000, 99999)}"])

    def account(self) -> str:
        r = self.r
        return f"{r.randint(100, 999)}-{r.randint(100000, 999999)}-{r.randint(10, 99)}-{r.randint(100, 999)}"

    # --- templates -----------------------------------------------------------------------------
    _SLOT = re.compile(r"\{(\w+)(?:\|([^}]*))?\}")

    def fill(self, b: Builder, template: str, memo: dict[str, str]) -> None:
        """Expand ``template`` into ``b``. Slots: {P}/{P2} person, {A} address, {O}/{O2} organisation,
        {D} date, {T} phone, {R} RRN, {E} e-mail, {N} number, {C} account, {U} org unit, {H} person with
        hanja. ``{P|이}`` appends the right allomorph of a particle pair (이/가, 은/는, ...) or a fixed
        particle/title; ``{P|*}`` a random particle or title."""
        pos = 0
        for m in self._SLOT.finditer(template):
            b.add(template[pos:m.start()])
            pos = m.end()
            slot, suffix = m.group(1), m.group(2)
            key = slot
            base = slot.rstrip("0123456789")
            if base in ("P", "A", "O", "H"):
                if key not in memo:
                    memo[key] = {"P": self.person, "H": self.korean_name, "A": self.address, "O": self.org}[base]()
                value = memo[key]
                label = {"P": "PERSON", "H": "PERSON", "A": "ADDRESS", "O": "ORGANIZATION"}[base]
                b.add(value, label)
                if base == "H":
                    hj = self.hanja(value)
                    if hj:
                        b.add(f"({hj})")
                if suffix:
                    b.add(self._suffix(value, suffix))
            else:
                b.add({"D": self.date, "T": self.phone, "R": self.rrn, "E": self.email, "N": self.number,
                       "C": self.account, "U": lambda: self.r.choice(G.ORG_UNITS)}[base]())
        b.add(template[pos:])

    def _suffix(self, value: str, suffix: str) -> str:
        r = self.r
        if suffix == "*":
            x = r.random()
            if x < 0.45:
                return " " + r.choice(G.TITLES) if r.random() < 0.6 else r.choice(G.TITLES)
            if x < 0.8:
                return particle_for(value, r.choice(_PAIRS[:5]))
            return r.choice(_FIXED)
        for pair in _PAIRS:
            if suffix in pair:
                return particle_for(value, pair)
        return suffix

    def document(self, templates: list[str], n_lines: tuple[int, int] = (4, 12)) -> Doc:
        b = Builder()
        memo: dict[str, str] = {}
        k = self.r.randint(*n_lines)
        for i in range(k):
            if i:
                b.add(self.r.choice(["\n", "\n", "\n", " ", "\n\n"]))
            if self.r.random() < 0.35:
                memo = {}  # new cast of entities mid-document
            self.fill(b, self.r.choice(templates), memo)
        return b.doc()


# One template per line. Field-style lines (admin documents) and prose lines (news, letters, chat).
TEMPLATES = r"""
성명: {P}
신청인: {H} (주민등록번호 {R})
주소: {A}
주소지: {A}
연락처: {T} / 이메일: {E}
소속: {O} {U}
담당자: {O} {U} {P} 주무관 ({T})
{P|은} {D} {O}에 입사하여 현재 {U}에서 근무하고 있다.
{O|은} {D} {P} 대표이사를 새로 선임했다고 밝혔다.
위 사람 {P|은} {A}에 거주하며 본 건 임대차계약의 임차인이다.
임대인 {P}(이하 "갑")과 임차인 {P2}(이하 "을")은 아래 부동산에 관하여 계약을 체결한다.
소재지: {A}
수신: {O} 민원담당자
발신: {O2} {U}
{P} 님, 안녕하세요. {O} 고객지원팀입니다.
{P|이} {O}의 {U} 팀장으로 부임했다.
원고 {P}, 피고 {P2}
원고 주소 {A}
피고 {P2|은} {D} {A} 소재 건물에서 원고에게 금 {N}을 지급하기로 약정하였다.
환자명: {P} / 보호자: {P2} ({T})
진료기관: {O}
{O} 관계자는 "{P} 씨가 {D}까지 관련 서류를 제출했다"고 설명했다.
이 자리에는 {O}의 {P} 회장과 {O2}의 {P2} 사장이 참석했다.
{P|*} 지난해 {O}에서 퇴직한 뒤 {A}로 이사했다.
{P} 감독이 이끄는 {O|은} 이날 {N}의 관중 앞에서 승리했다.
계좌: {O} {C} (예금주 {P})
근무지: {O} ({A})
보내는 사람: {P} <{E}>
받는 사람: {P2} <{E}>
{P2} 과장님, {D} 회의 자료 보내드립니다. - {P} 드림
[{P}] 오늘 몇 시에 도착해요?
[{P2}] {A} 근처에서 {D} 오후에 봬요
{P} 의원은 {D} {O2}에서 {O}의 예산 문제를 지적했다.
{O} 측은 {P} 전 대표에 대한 의혹을 부인했다.
{P|과} {P2|은} {O}에서 함께 일했던 동료다.
신고인 {H}은(는) {D} {A} 앞 도로에서 발생한 사고를 신고하였다.
{P} 학생은 {O}에 재학 중이며 {A}에 거주한다.
사업장 소재지: {A} / 상호: {O} / 대표자: {P}
{A}에 위치한 {O}에서 화재가 발생해 {N}의 재산 피해가 났다.
{P} 교수({O})는 "{O2}의 발표는 의미가 크다"고 말했다.
납세자: {P} / 주소: {A} / 관할: {O}
피보험자 {P}의 보험금 청구 건은 {O}에서 심사 중이다.
{O} {U} 소속 {P} 대리가 {D} 출장을 다녀왔다.
{P|아}, 내일 {A}에서 보자!
{D} {O} 주최로 열린 행사에서 {P|이} 수상했다.
추천인: {P} ({O} {U})
{P} 씨({N}) 등 {N}이 {O}에 고발장을 접수했다.
진술인 {P|은} {D} 밤 {A} 인근에서 피해자 {P2|을} 처음 보았다고 진술하였다.
{O}에 따르면 {P} 씨는 {D}부터 연락이 두절된 상태다.
거래처: {O} ({T}) 담당 {P}
배송지: {A} / 수령인: {P} / 연락처: {T}
{P} 선수는 {O} 유니폼을 입고 {N} 경기에 출전했다.
등기부상 소유자 {P} (지분 2분의 1), 소재 {A}
발령: {P} → {O} {U}
교육생 {P}, {P2}, {P3}
{P} 기자 {E}
""".strip().splitlines()

# Entity-free everyday sentences: words that start with a surname syllable (이번, 정말, 김치, 박수, 조금 …)
# or contain 씨/님 without being names (날씨, 솜씨, 말씨, 아가씨, 햇님), so the model does not learn
# "surname syllable" or "X씨" as a name by itself. Used in training documents only.
FILLER = r"""
이번 주말에는 날씨가 흐리고 곳곳에 비가 내리겠습니다.
정말 솜씨가 좋으시네요. 김치찌개가 아주 맛있어요.
관객들은 공연이 끝나자 박수를 치며 환호했다.
조금 늦을 것 같으니 먼저 출발하세요.
이 서류는 안내 데스크에 제출하시면 됩니다.
최근 물가가 올라 장보기가 부담스럽다는 의견이 많다.
한 번 더 확인해 주시기 바랍니다.
말씨가 고운 아가씨가 길을 알려 주었다.
오전에는 맑다가 오후부터 구름이 많아지겠습니다.
신청서 작성 시 유의사항을 반드시 읽어 주십시오.
강한 바람이 불어 시설물 관리에 주의가 필요합니다.
문의 사항은 고객센터로 연락 주시기 바랍니다.
송금 전에 받는 분 정보를 다시 확인하세요.
전반적으로 서비스에 만족하지만 배송이 조금 느렸어요.
고객님께서 요청하신 자료를 첨부하여 보내드립니다.
홍보 자료는 다음 주 월요일까지 준비해 주세요.
윤리 교육은 매년 1회 의무적으로 이수해야 한다.
임시 공휴일에는 민원실을 운영하지 않습니다.
황사가 심한 날에는 외출을 자제하는 것이 좋습니다.
씨앗을 심은 지 일주일 만에 싹이 났다.
""".strip().splitlines()

TRAIN_TEMPLATES = [t for i, t in enumerate(TEMPLATES) if i % 5 != 4] + FILLER
HELDOUT_TEMPLATES = [t for i, t in enumerate(TEMPLATES) if i % 5 == 4]


def generate(n: int, seed: int, heldout: bool = False) -> list[Doc]:
    g = Generator(seed)
    templates = HELDOUT_TEMPLATES if heldout else TRAIN_TEMPLATES
    return [g.document(templates) for _ in range(n)]


def sanity(docs: list[Doc]) -> None:
    """Invariant check: spans are inside the text, non-empty, non-overlapping, and free of whitespace ends."""
    for d in docs:
        last = 0
        for s, e, lab in sorted(d.spans):
            assert 0 <= s < e <= len(d.text) and s >= last, (d.text, s, e, lab)
            assert d.text[s:e] == d.text[s:e].strip(), (d.text[s:e], lab)
            last = e
