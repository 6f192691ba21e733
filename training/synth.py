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
_NEWS_LABELLED = ("F", "FT", "FX", "G", "GT", "GM", "S")
_FIXED = ["의", "에게", "도", "께서", "한테", "에게서", "만", "부터", "까지", "에 대해"]


def _reading_proxy(word: str) -> str:
    """``word`` itself when it ends in Hangul; otherwise a syllable with/without 받침 as the last Latin letter
    or digit is read (CNN/tvN/UN → 엔/은, KBS/LG → 는; 1, 3, 6, 7, 8, 0 end in a consonant)."""
    last = word[-1]
    if "가" <= last <= "힣":
        return word
    if last in "LMNlmn013678":
        return "각"
    return "가"


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


    # --- news / web prose values (issue 17) ----------------------------------------------------
    def surname(self) -> str:
        return self.r.choices(self._surnames, self._sweights)[0]

    def east_asian_name(self) -> str:
        r = self.r
        x = r.random()
        if x < 0.35:  # generated Chinese reading: family + 1-2 given syllables (시진핑, 왕이, 리커창 shapes)
            return r.choice(G.CN_FAMILY) + "".join(r.choice(G.CN_GIVEN) for _ in range(r.choice([1, 2, 2, 2])))
        if x < 0.55:
            return r.choice(G.CN_NAMES)
        if x < 0.85:  # Japanese family + space + given (아베 신조)
            return r.choice(G.JP_FAMILY) + " " + r.choice(G.JP_GIVEN)
        return r.choice(G.JP_FAMILY)

    def western_name(self) -> str:
        r = self.r
        given = r.choice(G.WESTERN_GIVEN + G.FOREIGN_GIVEN)
        family = r.choice(G.WESTERN_FAMILY + G.FOREIGN_FAMILY)
        x = r.random()
        if x < 0.4:
            return given + " " + family
        if x < 0.5:
            return given + family
        if x < 0.6:
            return given
        return family

    def news_person(self) -> str:
        """A person as news prose names one: Korean full name, transliterated East-Asian or Western name,
        a given / stage name alone, or a bare one-syllable surname (the template or ``fill`` adds the title)."""
        r = self.r
        x = r.random()
        if x < 0.45:
            return self.korean_name()
        if x < 0.65:
            return self.east_asian_name()
        if x < 0.80:
            return self.western_name()
        if x < 0.90:
            return r.choice(G.STAGE_NAMES) if r.random() < 0.6 else r.choice(G.GIVEN_NAMES)
        return self.surname()

    def news_org(self) -> str:
        """An organisation as news prose names one: full names, abbreviations, teams, media, org + sub-unit."""
        r = self.r
        x = r.random()
        if x < 0.25:
            return self.org()
        if x < 0.5:
            return r.choice(G.ORG_ABBREVS)
        if x < 0.7:
            long, shorts = r.choice(G.SPORTS_TEAMS)
            return long if r.random() < 0.45 else r.choice(shorts)
        if x < 0.85:
            return r.choice(G.MEDIA)
        bases, units = r.choice(G.ORG_WITH_SUBUNIT)
        return r.choice(bases) + " " + r.choice(units)

    def foreign_news_name(self) -> str:
        return self.east_asian_name() if self.r.random() < 0.5 else self.western_name()

    def team(self) -> str:
        long, shorts = self.r.choice(G.SPORTS_TEAMS)
        return long if self.r.random() < 0.45 else self.r.choice(shorts)

    def surname_title(self) -> str:
        """Title after a bare surname produced by ``news_person`` (with or without a space)."""
        r = self.r
        t = r.choice(G.SURNAME_TITLES)
        if t in ("씨", "모씨", "군", "양", "옹"):
            return t if r.random() < 0.5 else " " + t
        return " " + t

    def score(self) -> str:
        a, b = self.r.randint(0, 9), self.r.randint(0, 9)
        return f"{a}-{b}" if self.r.random() < 0.5 else f"{a}대{b}"

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
            if base in _NEWS_LABELLED:
                self._fill_news(b, key, base, suffix, memo)
            elif base in ("P", "A", "O", "H"):
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
                plain = {"D": self.date, "T": self.phone, "R": self.rrn, "E": self.email, "N": self.number,
                         "C": self.account, "U": lambda: self.r.choice(G.ORG_UNITS), **self._news_filler()}[base]()
                b.add(plain)
                if suffix:  # only news templates put a particle on an unlabelled slot ({M|이}, {X|은})
                    b.add(self._suffix(plain, suffix))
        b.add(template[pos:])


    def _news_filler(self) -> dict:
        """Unlabelled news slots: hard negatives (W surname-initial word, X role noun, Y nationality, Z drug,
        K car model, M movie title, HD heading), AGE, SC score, PCT percentage, SM small number, WON amount."""
        r = self.r
        return {"W": lambda: r.choice(G.SURNAME_INITIAL_WORDS), "X": lambda: r.choice(G.ROLE_NOUNS),
                "Y": lambda: r.choice(G.NATIONALITIES), "Z": lambda: r.choice(G.DRUG_NAMES),
                "K": lambda: r.choice(G.CAR_MODELS), "M": lambda: r.choice(G.MOVIE_TITLES),
                "HD": lambda: r.choice(G.HEADINGS), "AGE": lambda: str(r.randint(19, 88)), "SC": self.score,
                "PCT": lambda: f"{r.randint(0, 30)}.{r.randint(0, 9)}%", "SM": lambda: str(r.randint(1, 10)),
                "WON": lambda: f"{r.randint(1, 999):,}{r.choice(['만 원', '억 원', '만원'])}"}

    def _fill_news(self, b: Builder, key: str, base: str, suffix: str | None, memo: dict[str, str]) -> None:
        """{F} news person, {FT} news person in front of a title the template writes ({FT} 대표: a bare surname
        then reads 장 대표), {FX} foreign name, {G} news organisation, {GT} sports team, {GM} media,
        {S} one-syllable surname (PERSON; the template writes the title: ``{S} 회장``, ``{S}모({AGE})씨``).
        A bare surname drawn for {F} gets a title outside the span.
        The particle agrees with the last word written (the title when there is one)."""
        if key not in memo:
            memo[key] = {"F": self.news_person, "FT": self.news_person, "FX": self.foreign_news_name,
                         "G": self.news_org, "GT": self.team, "GM": lambda: self.r.choice(G.MEDIA),
                         "S": self.surname}[base]()
        value = memo[key]
        b.add(value, "ORGANIZATION" if base.startswith("G") else "PERSON")
        last = value
        if base == "F" and len(value) == 1:
            title = self.surname_title()
            b.add(title)
            last = title
        if suffix:
            b.add(self._suffix(_reading_proxy(last), suffix))

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


# --- news / web / movie-review prose (issue 17) -------------------------------------------------------
# KLUE-style sentences (wikitree news, nsmc reviews, Wikipedia-like). Labelled slots: {F} news person,
# {FT} news person before a title the template writes, {FX} foreign name, {G} news organisation, {GT} team,
# {GM} media, {S} bare one-syllable surname tagged PERSON (the title, written by the template, stays outside
# the span). Unlabelled: {W} surname-initial word, {X} role noun, {Y} nationality, {Z} drug, {K} car model,
# {M} movie title, {HD} heading, {AGE} age, {SC} score, {PCT} percentage, {SM} small number, {WON} amount.
# Training only: the held-out synthetic evaluation keeps using HELDOUT_TEMPLATES above, unchanged (no news
# template is held out).
NEWS_TEMPLATES = r"""
{F|은} {D} 기자회견에서 "{G}의 결정을 존중한다"고 밝혔다.
{G} 관계자는 "{FT} 대표가 직접 사과했다"고 전했다.
{S} 회장은 이날 {G} 임원들과 만찬을 가졌다.
{S}모({AGE})씨는 {D} 오후 경찰에 자수했다.
경찰에 따르면 {S}씨는 {D} 새벽 귀가하던 중 변을 당했다.
{S} 씨의 변호인은 "{S2} 씨가 당시 현장에 없었다"고 주장했다.
{S} 의원은 {G} 회의에서 정부 대응을 강하게 비판했다.
{S} 감독이 이끄는 {GT|은} {SC} 승리를 거뒀다.
{GT|은} {D} 열린 경기에서 {GT2|을} 상대로 {SC} 승리를 거뒀다.
{GT}의 {F|은} 이날 멀티골을 터뜨리며 팀 승리를 이끌었다.
{F|은} {GT2}와의 원정 경기에서 시즌 {SM}호 홈런을 기록했다.
{GT} 유니폼을 입은 {F|은} "팬들에게 감사하다"고 소감을 밝혔다.
{FX} 중국 국가주석은 {D} {FX2} 미국 대통령과 정상회담을 가졌다.
{FX} 일본 총리는 {G}와의 인터뷰에서 개헌 의지를 드러냈다.
{FX} 국무장관은 {G} 회의에 참석해 대북 제재를 논의했다.
{FX} 외교부장은 "{G}의 결의를 지지한다"고 말했다.
{G} 대변인은 {F|의} 발언에 대해 유감을 표명했다.
{G} 소속 {FT} 의원은 {D} 대표 발의한 법안을 철회했다.
{G|은} {D} 최고위원회의를 열고 {F|을} 비대위원장으로 선출했다.
{FT} {G} 원내대표는 "{G2|과} 협상을 계속하겠다"고 말했다.
{G|은} 올해 경제성장률 전망치를 {PCT}로 하향 조정했다.
{G}에 따르면 지난달 수출은 전년 동월 대비 {PCT} 증가했다.
{G|은} {D} {G2|과} 업무협약을 체결했다고 밝혔다.
{FT} {G} 부회장은 {D} 이사회에서 신사업 계획을 발표했다.
{G} 주가는 이날 {PCT} 오른 채 장을 마감했다.
{G|은} 금리 인상 여부를 두고 {G2|과} 이견을 보였다.
{F|이} 주연을 맡은 영화 {M|이} {SM}00만 관객을 돌파했다.
배우 {F|은} {D} {GM} 예능 프로그램에 출연해 근황을 전했다.
가수 {F|은} {G|과} 전속계약을 맺었다고 소속사가 밝혔다.
{F|과} {F2|은} {G} 드라마에서 연인 호흡을 맞춘다.
{F} 진짜 연기 미쳤다 ㅋㅋㅋ 다시 봐도 명작
{F|이} 나와서 봤는데 스토리가 너무 뻔함;; {SM}점
{F2|의} 연기력 하나로 끝까지 봤다. {F|은} 좀 아쉬웠음
{FT} 감독 영화는 항상 기대 이상이다
{F|은} 대한민국의 배우이자 가수이다. {G} 소속이다.
{P}({D} ~ )는 {G} 출신의 정치인이다.
{F|은} {G}에서 활동한 축구 선수로, 현재 {G2}의 코치를 맡고 있다.
{G|은} {D} 설립된 기업으로 본사는 서울에 있다.
{FT} 씨가 {GM}에 올린 글이 누리꾼들 사이에서 화제가 됐다.
{GM} 보도에 따르면 {F|은} 최근 {G2} 측과 결별했다.
{F} {GM} 기자 = {FT2} 전 장관이 검찰에 출석했다.
{S} 전 대표는 {G}의 수사를 받고 있다.
{S} 할머니({AGE})는 "{F|이} 자주 찾아와 준다"며 웃었다.
{S} 판사는 {X} {F}에게 징역형의 집행유예를 선고했다.
{X} {F|은} {D} {G}에 소장을 제출했다.
{G} 사무총장은 {G2|의} 결의안 채택을 환영했다.
{F} 팬이라면 꼭 봐야 할 영화. {GM} 배급이라 걱정했는데 괜찮았다
{FT} 선수는 {GT} 입단 기자회견에서 "{S} 감독님께 감사드린다"고 말했다.
{F}·{F2}·{F3} 등 {G} 관계자 {SM}명이 참석했다.
{GT|과} {GT2}의 경기는 {SC} 무승부로 끝났다.
{GT|은} {GT2}에 {SC}로 패하며 {SM}연패에 빠졌다.
{F|은} {F2}에게 "{FT3} 선배처럼 되고 싶다"고 말했다.
심지어 {F|은} 그 사실을 몰랐다고 주장했다.
한편 {G|은} 이번 사안에 대해 공식 입장을 내지 않았다.
정말 {F} 나오는 장면마다 웃겼다
오히려 {G}의 대응이 사태를 키웠다는 지적이 나온다.
이상인 경우에는 {G}에 신고해야 한다.
{W} 이번 결과는 {W} 예상 밖이었다.
심지어 관객들도 결말에 대해 의견이 갈렸다.
권선징악 구조가 너무 뻔해서 지루했다. 평점 {SM}점
정말 오랜만에 본 좋은 영화. 조금 길긴 했지만 추천합니다
한편 이번 조사는 전국 성인 {SM},000명을 대상으로 실시됐다.
신청은 다음 달 말까지 온라인으로 할 수 있다.
안전 관리에 소홀했다는 비판이 제기됐다.
오히려 가격이 오르면서 수요가 줄었다는 분석이다.
조금만 더 기다려 주시면 안내해 드리겠습니다.
이상 기후로 농작물 피해가 잇따르고 있다.
최근 {W} 관련 문의가 늘고 있다.
국적: {Y}
국적 : {Y} / 체류자격: 비전문취업(E-9)
{Y} 국적의 {X|은} {D} 입국했다.
{X} 및 {X} 사이의 분쟁은 조정 절차를 거친다.
채권자는 채무자에게 {WON}을 청구한다.
원고의 청구를 기각한다. 소송비용은 원고가 부담한다.
피고인은 무죄. 검사의 항소를 기각한다.
{HD}
주문
이유
{HD}: 별지 기재와 같다.
{X|은} {D}까지 관련 서류를 제출해야 한다.
{Z} 500mg을 하루 두 번 복용하세요.
{Z|은} 식후 30분에 복용하고, {Z} 복용 중에는 음주를 피하세요.
처방: {Z} 1정, {Z} 2정 (3일분)
{K} 신형 모델이 {D} 출시된다.
중고 {K} 시세가 작년보다 {PCT} 떨어졌다.
{K} 하이브리드 연비가 생각보다 좋네요.
영화 {M|은} {D} 개봉 이후 꾸준히 관객을 모으고 있다.
{M} 보고 왔는데 정말 최고였음 ㅠㅠ
이번 주 날씨는 전국이 대체로 맑겠습니다.
정부는 {D} 부동산 대책을 발표했다.
전문가들은 경기 침체 우려가 커지고 있다고 진단했다.
관계자는 "사실관계를 확인 중"이라고 말했다.
누리꾼들은 "황당하다"는 반응을 보였다.
시청자 게시판에는 항의 글이 {SM}00건 넘게 올라왔다.
당국자는 익명을 전제로 "협상이 진전됐다"고 전했다.
{S}모 씨는 {D} {G}에 고소장을 냈다.
{S} 모 교수는 "{W} 학계에서도 논란이 있다"고 말했다.
{S}군({AGE})과 {S2}양({AGE})은 {G} 장학생으로 선발됐다.
{S} 장관은 {G} 국정감사에서 "{W} 사실이 아니다"라고 답했다.
{S}씨와 {S2}씨는 {D} 나란히 법정에 섰다.
피고인 {S}씨는 최후진술에서 선처를 호소했다.
{G} {FT} 위원장은 {G2} 측에 재협상을 요구했다.
{FT} 대표는 "{G|은} 정말 변한 게 없다"고 꼬집었다.
{F|은} 한편 {GM}와의 인터뷰에서 은퇴를 시사했다.
오히려 {F|이} 더 잘 어울렸을 듯. {M} 보다 낫다
{X} {F}, {X2} {F2}
이상인 수치가 나오면 {Z} 복용을 중단해야 한다.
{W} {W2} 관련 민원이 늘고 있다고 {G|은} 밝혔다.
정말 재밌어요 ㅋㅋ 심지어 두 번 봤음
조금 지루했지만 마지막 반전은 신선했다
한편 이날 증시는 외국인 매도세에 하락 마감했다.
신청 기간은 {D}부터 {D}까지다.
""".strip().splitlines()


def generate_news(n: int, seed: int) -> list[Doc]:
    """``n`` news / web / review documents of 1–6 lines from NEWS_TEMPLATES (training only)."""
    g = Generator(seed)
    return [g.document(NEWS_TEMPLATES, n_lines=(1, 6)) for _ in range(n)]
