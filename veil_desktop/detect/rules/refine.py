"""Rule-stage context for names, addresses and organisations: cheap fixes around the model.

Two halves, both pure ``re`` + small hand-written lists (no downloads, nothing learnt):

``refine_model_span(text, span)`` — looks at ONE model span and its few neighbouring characters and returns it
unchanged, relabelled, or *demoted*. It never drops a model span and never moves its boundaries (issue 15: the
model spans of the rules-on output are the model's own; a silent drop could leak a real name that happens to
look like one of the words below). A demoted span keeps its start, end and label; only its score is lowered to
``DEMOTED_SCORE`` (0.2), below the product's default threshold ``span.DEFAULT_MIN_SCORE`` (0.5): the window
shows it as a pending suggestion below the threshold (the export summary counts and asks about those), the
batch CLI leaves it unmasked and counts it in the report's ``pending_below_threshold``, and the evaluator (at
its default ``--min-score``) scores what users get. The one remaining change of a model span is the relabel
ORGANIZATION → PERSON of Latin-script names (same boundaries, still masked). It is *local* (a span and ±20
characters), so the streaming ``CombinedDetector`` can apply it to each model batch as it arrives, and
``detect`` to the whole list, with the same result. Fixes:

* Latin-script personal names (``NGUYEN THI HOA``, ``James Wilson``) tagged ORGANIZATION → PERSON, when a
  token is a common surname / middle name / given name of the migrant and foreign names seen in Korean
  paperwork, or a name field (``성명``, ``이름``, ``Name`` …) stands right before;
* PERSON spans that are not names (demoted): nationality words in a ``국적`` field or anywhere (``베트남``), role nouns
  of legal and administrative documents (``채권자``, ``원고``, ``임차인``), headings (``이유``, ``주문``, also
  spaced ``이   유``), common words starting with a surname syllable (``심지어``, ``권선징악``), car models,
  drug names and anything followed by a dose or dosage form (``아모크라 625mg``, ``…정``);
* ADDRESS spans that are an issuing authority, not an address (demoted): region words without a number right before
  ``공고`` / ``고시`` / ``시장`` … (``성남시 분당구 공고 제2024-12호``).

``find_context_entities(text, cx)`` — a rule-stage finder (``RuleDetector(entities=True)``, which the default
detector enables) that *adds* what the model misses:

* a Korean name as the value of a name field (``성명: 김서윤``, ``예금주: 박지훈``), not an office or company;
* one-syllable surname + title (``변 씨``, ``장 회장``, ``김씨``) → PERSON on the surname (KLUE's convention);
  ambiguous determiners (``이 회장`` = this chairman, ``전 대표`` = former CEO, ``고 회장`` = the late …) are
  only taken before ``씨``;
* a Latin-script name after a name field (``성명: NGUYEN THI HOA``), or anywhere when two of its words are
  known name tokens (``TRAN VAN DUC``, ``KIM SEO YUN``; not with a company word such as ``CORP``);
* a transliterated Western given name (two syllables or more) and the word after it (``모건 프리먼``);
* a university abbreviation before a campus role (``서강대 교수``);
* gazetteers of foreign leaders' names (``시진핑``, ``리커창``), organisation abbreviations (``기재부``, ``한전``,
  ``유엔 안보리``), sports teams (``맨유``, ``넥센``) and well-known companies, platforms and media (``구글``,
  ``트위터``, ``KBS``), each matched as a whole word (a particle may follow).

The added spans are rule spans, so ``merge.merge_spans`` lets them win over an overlapping model span (they are
precise by construction). Hook points: ``RuleDetector(entities=True)`` and ``detect/default.py`` (two calls of
``refine_model_span``: ``CombinedDetector.model_spans`` and the stream loop).
"""
from __future__ import annotations

import re
from typing import Iterator

from ..span import DEFAULT_MIN_SCORE, Span
from ..trie import literal_alternation
from .context import ContextIndex

ENTITY_LABELS: tuple[str, ...] = ("PERSON", "ORGANIZATION")

#: the score of a model span refine judges not to be an entity (kept, same boundaries and label, but below the
#: default threshold: a pending suggestion in the window, left unmasked and counted by the batch CLI)
DEMOTED_SCORE: float = 0.2
assert DEMOTED_SCORE < DEFAULT_MIN_SCORE

# ---------------------------------------------------------------------------------------------
# word lists

_NATIONALITIES = set("""
대한민국 한국 조선 북한 미국 중국 일본 베트남 필리핀 태국 캄보디아 라오스 미얀마 인도네시아 말레이시아 싱가포르
몽골 네팔 스리랑카 방글라데시 파키스탄 인도 우즈베키스탄 카자흐스탄 키르기스스탄 타지키스탄 러시아 우크라이나
캐나다 멕시코 브라질 아르헨티나 칠레 페루 콜롬비아 영국 프랑스 독일 이탈리아 스페인 포르투갈 네덜란드 벨기에
스위스 오스트리아 스웨덴 노르웨이 덴마크 핀란드 폴란드 체코 헝가리 그리스 터키 튀르키예 이란 이라크 이집트
사우디아라비아 이스라엘 호주 뉴질랜드 남아공 나이지리아 케냐 에티오피아 가나 동티모르 대만 홍콩 마카오
시리아 리비아 예멘 쿠바 베네수엘라 아프가니스탄 팔레스타인 레바논 요르단 카타르 쿠웨이트 모로코 알제리 튀니지 바티칸
로마 파리 런던 베를린 모스크바 베이징 도쿄 뉴욕 워싱턴 디트로이트 시카고 상하이 오사카
한국인 미국인 중국인 일본인 베트남인 필리핀인 태국인 외국인 내국인 재외동포 조선족 고려인 무국적
""".split())
_ROLES = set("""
채권자 채무자 원고 피고 원고들 피고들 신청인 피신청인 청구인 피청구인 항소인 피항소인 상고인 피상고인 고소인 피고소인
고발인 피고발인 피해자 가해자 피의자 피고인 진술인 참고인 증인 민원인 신고인 제보자 청원인 대리인 법정대리인 소송대리인
변호인 보호자 후견인 상속인 피상속인 유족 임대인 임차인 전대인 전차인 매도인 매수인 양도인 양수인 위임인 수임인
근로자 사용자 이용자 매수자 매도자 구매자 판매자 사업주 고용주 노동자 채용자 지원자 응시자 수험생 환자 수검자 피보험자 보험자 계약자 수익자 가입자 예금주
명의자 소유자 점유자 세대주 세입자 집주인 신청자 수급자 수령인 수취인 발신인 수신인 발신자 수신자 작성자 담당자 결재자
기안자 시행자 확인자 승인자 검토자 입회인 연대보증인 보증인 주채무자 본인 배우자 부모 자녀 장남 장녀 차남 차녀
대표이사 이사 감사 사장 회장 부장 차장 과장 대리 주임 사원 팀장 실장 국장 본부장 위원장 위원 간사 총무 반장 이장 통장
대표 의원 국회의원 교수 후보 기자 감독 선수 배우 가수 구단주 조합원 회원 직원 주민 시민 국민 학생 교사 의사 간호사 경찰관
할머니 할아버지 어머니 아버지 엄마 아빠 조카 삼촌 이모 고모 형 누나 언니 오빠 동생 아들 딸 남편 아내 부인
""".split())
_HEADINGS = set("""
이유 주문 청구취지 청구원인 신청취지 신청이유 결론 판단 사실 인정사실 기초사실 쟁점 요지 별지 붙임 첨부 비고 참고 개요 목적
배경 현황 문제점 대책 조치사항 처분 결정 판결 선고 사건 당사자 관계법령 관련법령 증거 입증방법 첨부서류 제목 수신 발신
경유 내용 끝 이상 이하 다음 아래 위 상기 별첨 담당 연락처 일시 장소 대상 기간 방법 절차 유의사항 문의 성명 주소
전화 전화번호 휴대폰 성별 소속 직위 직급 부서 부서명 서명 날인 구분 순번 번호 비고란 생년월일 이메일
""".split())
_COMMON_WORDS = set("""
심지어 권선징악 정작 한편 오히려 이른바 주로 이미 이번 이후 이전 이제 이처럼 이렇게 이런 이와 이에 이를 정말 정도 조금 조차 하지만 하여튼 하물며 전혀 전부 전체 전국 전년 전후 고작 고로
구태여 도대체 도무지 마치 마침 마침내 모두 모든 물론 방금 부디 비록 서로 설마 성큼 손수 송구 신속 안녕 아무리 양측 어차피 여전히 오직 오늘 우선 우리 원래 유독 육안 임의 장차 제발 제일
조속 주요 지금 진짜 차라리 차츰 최근 최대 최소 최초 최고 최악 한층 함께 허다 현재 홀로 황급 김치 박수 최저 최우수 신경성 변경 이동 도착 출발 사용 이용 확인 처리 접수 신청 변동 발생
입금 출금 결제 승인 강제 조치 정부 신규 안전 한국 한번 한때 한마디 공개 공식 공동 문제 문의 방문 백신 변경 변동 성공
""".split())
_CAR_MODELS = set("""
그랜저 쏘나타 아반떼 제네시스 싼타페 투싼 팰리세이드 코나 캐스퍼 스타렉스 스타리아 포터 카니발 쏘렌토 스포티지 셀토스
모닝 레이 니로 봉고 말리부 스파크 트레일블레이저 티볼리 코란도 렉스턴 토레스 아이오닉 포르테 옵티마 에쿠스 베뉴
""".split())
_DRUGS = set("""
타이레놀 아스피린 게보린 판피린 부루펜 이부프로펜 아세트아미노펜 아목시실린 아모크라 오구멘틴 세파클러 코자 노바스크 리피토
크레스토 메트포르민 다이아벡스 자누비아 란소프라졸 오메프라졸 판토프라졸 넥시움 가스모틴 무코스타 스멕타 세티리진 지르텍
로라타딘 클라리틴 낙센 세레브렉스 트라마돌 프레드니솔론 덱사메타손 레보플록사신 시프로플록사신 졸피뎀 스틸녹스 자낙스
알프라졸람 프로작 렉사프로 졸로푸트 인데놀 콩코르 아토르바스타틴 로수바스타틴 암로디핀 로사르탄 텔미사르탄 와파린 플라빅스
베타딘 후시딘 마데카솔 박트로반 훼스탈 베아제 겔포스 알마겔 개비스콘 탁센 이지엔 펜잘 사리돈 쌍화탕 판콜 코푸시럽
""".split())
#: news/web prose (issue 17, KLUE dev/train false PERSON spans and training/gazetteers.py hard negatives):
#: common nouns, role nouns of news, places, titles and review words the model took for names. Each checked
#: by hand to be no plausible Korean name or given name (지원, 재미, 종영, 장면, 조명, 이재민, 지지율, 고시원, 장화신,
#: 후쿠시마, 후쿠오카 are NOT listed: a surname + a common given name, a given name, or a person)
_NEWS_WORDS = set("""
정치 경제 사회 문화 강조 주장 조사 전망 우려 반면 남북 노력 권리 하반기 상반기 연기 연출 연속 황당 장점 단점
성적 감동 명작 마음 리메이크 슈퍼스타 중재안 호흡곤란 오염수 최종예선 퍼레이드 피아노 유치원
휴양림 크로스 운영자 제빵왕 배경음 오락성 하숙비 크리스마스 엘리베이터 공룡 드레스
차별철폐 리볼빙 골드바 마카롱 덕후 모자람 유아용 시도별
관계자 당국자 대변인 소식통 측근 유권자 관객 시청자 팬 네티즌 누리꾼 전문가 업계 목격자 운전자 탑승객 사위 며느리
시어머니 시아버지 장모 손녀 외손자 외손녀 조카딸 큰아버지 작은아버지 외삼촌 형부 처제 처남 매형 올케 새언니
줄거리 평점 총평 한줄평 K5 K8 EV6 GV80
볼케이노 매드맥스 토이스토리 클라우드아틀라스 클라이막스시리즈 킬러컨텐츠 가오카오 바레니클린
밴쿠버 마이애미 비버리힐즈 양쯔강 산시성 남양주 야스쿠니
""".split())
#: statistical breakdowns a chart or a table heads its columns with ("연도별 점검 건수": the model took 연도별
#: for a name, 0.96, in a chart title); none is a plausible name
_BREAKDOWNS = set("""
연도별 년도별 연령별 연령대별 지역별 권역별 분기별 월별 일자별 요일별 부서별 기관별 항목별 유형별 업종별 분야별 단계별
시군별 시군구별 시도별 학년별 성별 직급별 직종별 품목별 사업별 과제별 차수별 회차별
""".split())
#: a model span that is the first part of one of these words glued on ("⟦장⟧모님", "⟦베테⟧랑", "⟦레스토⟧랑",
#: "⟦오라버⟧님", "⟦덩달⟧아"): a word cut in two, not a name
_GLUED_WORDS = tuple("""
장모님 장인어른 베테랑 레스토랑 오라버니 오라버님 덩달아
""".split())
#: devices, keys and interface words written as loanwords (red team 7: "필터를 교체" 0.61, "한영키를 누르세요"
#: 0.98 as PERSON): objects, never a person alone
_DEVICE_WORDS = set("""
필터 한영키 엔터키 스페이스바 시프트키 탭키 백스페이스 키보드 마우스 모니터 프린터 복합기 스캐너 노트북 태블릿 스마트폰
휴대폰 충전기 어댑터 케이블 공유기 라우터 리모컨 이어폰 헤드셋 스피커 마이크 카메라 웹캠 배터리 메모리 하드디스크
브라우저 로그인 로그아웃 비밀번호 팝업 업데이트 드라이버 펌웨어 아이콘 커서 스크롤 클릭 더블클릭 드래그 탭 버튼 메뉴
그림 사진 차트 도표 도면 도식 삽화 로고 서명란 캡션
""".split())    # and picture captions/placeholders (red team 8 1b: a PNG fallback reading "(그림)", PERSON 0.75)
# (words that are also plausible full names — 이상인, 윤택, 배정 … — are deliberately NOT listed: dropping a real
# name would leak it; a false alarm only costs the reviewer a click)
_NOT_PERSON = (_NATIONALITIES | _ROLES | _HEADINGS | _COMMON_WORDS | _CAR_MODELS | _DRUGS | _NEWS_WORDS
               | _BREAKDOWNS | _DEVICE_WORDS)
#: a dose or a dosage form right after the span: a drug, not a person ("아모크라 625mg", "코자정")
_DOSE_AFTER = re.compile(r"[ ]?[0-9][0-9.,]*[ ]?(?:mg|㎎|mL|ml|g|mcg|μg|IU|정|캡슐|포|T|C)(?![A-Za-z가-힣])"
                         r"|(?:정|캡슐|시럽|연고|주사액|서방정|필름코팅정|과립)(?![가-힣])")  # forms: glued only

#: Latin-script name tokens frequent in Korean paperwork (migrant workers, spouses, foreign residents)
_LATIN_NAME_TOKENS = set("""
NGUYEN TRAN LE PHAM HOANG HUYNH VU VO DANG BUI DO HO NGO DUONG LY THI VAN DUC MINH THANH THU HOA LINH HUONG
LAN MAI ANH HUNG DUNG TUAN QUANG HAI LONG NAM PHUONG TRANG HANG NGOC KIM THAO YEN CHI BAO KHANH
SANTOS REYES CRUZ BAUTISTA GARCIA DELA DE LA MENDOZA RAMOS AQUINO CASTILLO VILLANUEVA FLORES GONZALES TORRES
WANG LI ZHANG LIU CHEN YANG ZHAO HUANG ZHOU WU XU SUN MA ZHU HU GUO LIN HE GAO LUO
KUMAR SINGH SHARMA KHAN ALI AHMED MOHAMMAD MOHAMMED HASSAN RAHMAN HOSSAIN ISLAM
IVANOV PETROV SMIRNOV KUZNETSOV POPOV SOKOLOV ALEXANDER DMITRY SERGEI IVAN OLGA NATALIA
TANAKA SUZUKI SATO TAKAHASHI WATANABE ITO YAMAMOTO NAKAMURA KOBAYASHI
KIM LEE PARK CHOI JUNG JEONG KANG CHO JO YOON YUN JANG CHANG LIM IM HAN OH SEO SUH SHIN KWON HWANG AHN SONG YOO RYU
HONG JEON JUN KO GO MOON YANG SON BAE BAEK PAIK HEO NAM SIM NOH NO HA KWAK SUNG CHA JOO WOO KOO MIN JIN JI CHUN
MINJUN SEOYUN SEOJUN JIHOON JIWOO HYUN JUN JUNE SEO YEON JI HOON SOO MIN YOUNG HEE JAE SUNG HO WOO YUNA
SMITH JOHNSON WILLIAMS BROWN JONES MILLER DAVIS WILSON ANDERSON TAYLOR THOMAS MOORE JACKSON MARTIN WHITE HARRIS
CLARK LEWIS WALKER HALL ALLEN YOUNG KING WRIGHT SCOTT GREEN BAKER ADAMS NELSON CARTER MITCHELL ROBERTS
JAMES JOHN ROBERT MICHAEL WILLIAM DAVID RICHARD JOSEPH CHARLES CHRISTOPHER DANIEL MATTHEW ANTHONY MARK PAUL
STEVEN ANDREW PETER GEORGE MARY PATRICIA JENNIFER LINDA ELIZABETH BARBARA SUSAN JESSICA SARAH KAREN EMILY
EMMA OLIVIA SOPHIA MARIA ANNA LUCY KATE JULIA MARIE JOSE JUAN CARLOS LUIS MARCO HANS
""".split())
_ORG_TOKENS = frozenset("""CORP CORPORATION INC CO LTD LLC PLC GMBH AG SA GROUP BANK HOLDINGS COMPANY UNIVERSITY COLLEGE
SCHOOL HOSPITAL CLINIC FOUNDATION INSTITUTE ASSOCIATION TRADING INTERNATIONAL GLOBAL SOLUTIONS SYSTEMS TECH ELECTRONICS
MOTORS AIRLINES LOGISTICS PARTNERS CAPITAL INDUSTRIES ENTERTAINMENT MEDIA NEWS TIMES""".split())
_NAME_FIELD = re.compile(r"(?:성\s?명|이\s?름|성함|본인|명의자|신청인|민원인|근로자|피보험자|수검자|환자명?|고객명|"
                         r"대표자|외국인|배우자|Name|NAME|name|Full name|영문(?:\s?성명|\s?이름)?)\s*(?:\([^)]{0,12}\))?\s*[:：]?\s*$")
_LATIN_NAME = re.compile(r"[A-Z][A-Za-z'.-]*(?:[ ][A-Z][A-Za-z'.-]*){1,4}")
#: two to four capitalised Latin words, at least two of them known name tokens: a personal name wherever it stands
_LATIN_SEQ = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])[A-Za-z'-]+(?:[ ][A-Z][A-Za-z'-]+){1,3}(?![A-Za-z0-9])")
_LATIN_AFTER_FIELD = re.compile(
    r"(?:성\s?명|이\s?름|성함|영문\s?(?:성명|이름)|Name|NAME|Full name)(?:\s*\([^)]{0,12}\))?\s*[:：]?\s*"
    r"(?P<name>[A-Z][A-Za-z'-]+(?:[ ][A-Z][A-Za-z'-]+){1,4})(?![A-Za-z0-9])")

#: file formats and technical acronyms the model takes for organisations ("PDF" 0.95, "HWP" 1.00 on the golden
#: set; a JSON/log "status": "OK" 0.96): never an organisation or a person by themselves. Acronyms that ARE organisations or people in Korean
#: text (KB, KT, LG, SK, MB, EU, UN, WHO …) are deliberately absent.
_TECH_ACRONYMS = frozenset("""
PDF HWP HWPX DOC DOCX XLS XLSX PPT PPTX ODT ODS RTF TXT CSV TSV XML JSON YAML HTML HTM XHTML CSS JS SQL DB
ZIP RAR TAR GZ EXE DLL ISO PNG JPG JPEG GIF BMP TIF TIFF SVG HEIC WEBP MP3 MP4 AVI MOV WAV MKV
URL URI HTTP HTTPS WWW FTP SSL TLS VPN LAN WAN WIFI DNS IP TCP UDP API SDK UI UX OS CPU GPU RAM SSD HDD USB
OCR QR GPS SMS MMS SNS OTP PIN ID PW PC IT AI TV CCTV LED LCD FAQ QNA FAX TEL EMAIL E-MAIL ASAP A4 A3 B4 B5
OK NG NA TBD TBA FYI ETC NULL TRUE FALSE
""".split())
#: common English words tagged ORGANIZATION / PERSON in mixed text ("Even", "Ones"): function words,
#: quantifiers and interface words, none a plausible name or organisation alone
_ENGLISH_WORDS = frozenset("""
the a an and or but nor of for with without from into onto to in on at by as is are was were be been being
this that these those it its all any each every some many much more most few less least other another such
one ones two three first second last next even only also just still yet not no yes so very too here there
then than when where which who whom whose what why how if else while since until because though although
page pages total note notes date time name address phone email home back print save file files open close
help menu edit view start end new old best good great free top high low yes ok okay please thanks thank
attached attachment copy original draft final sample example form forms table list item items
""".split())
#: right after such a span: something that makes it an organisation after all ("PDF Association", "HWP협회")
_ORG_AFTER = re.compile(r"[ ]?(?:\(주\)|㈜|Inc\b|INC\b|Corp\b|CORP\b|Co\.|Ltd|LTD|Association|Foundation|Group|Consortium"
                        r"|협회|재단|그룹|코리아|연구소|위원회|컨소시엄|주식회사|社)")
_ORG_BEFORE = re.compile(r"(?:\(주\)|㈜|주식회사)[ ]?$")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&-]*")
_BROADCAST_AFTER = re.compile(r"(?:은|는|이|가|에|의)?[ ]?(?:보도|방송|중계|뉴스|앵커|기자|에 따르면|에서 방송)")
_BROADCAST_BEFORE = re.compile(r"(?:중국|관영|국영|중앙)[ ]?(?:TV|방송)?[ ]?$")


def _acronym_or_english_word(text: str, span: Span) -> bool:
    """A single Latin token that is a file-format / tech acronym or a common English word, with no company
    word around it."""
    value = text[span.start:span.end].strip()
    if _LATIN_WORD.fullmatch(value) is None:
        return False
    # an English word only as a word is written ("Even", "ones"; not "IS", the Islamic State; not "A", A씨)
    word = len(value) >= 2 and not value.isupper() and value.lower() in _ENGLISH_WORDS
    if not (value.upper() in _TECH_ACRONYMS or word):
        return False
    if _ORG_AFTER.match(text, span.end) or _ORG_BEFORE.search(text, max(0, span.start - 8), span.start):
        return False
    if value.upper() == "CCTV" and (_BROADCAST_AFTER.match(text, span.end)
                                    or _BROADCAST_BEFORE.search(text, max(0, span.start - 8), span.start)):
        return False  # "중국 관영 CCTV는 보도했다": China Central Television, an organisation
    return True


#: issuing authority, not an address: "성남시 분당구 공고 제2024-12호", "서울특별시 고시"
_AUTHORITY_AFTER = re.compile(r"[ \t]{0,2}(?:공고|고시|훈령|예규|공시|시장|군수|구청장|도지사|시장·군수|교육감|청장)(?![가-힣])")
_DIGIT = re.compile(r"[0-9]")
_NATIONALITY_FIELD = re.compile(r"국\s?적\s*[:：]?\s*\(?\s*$")
_SPACES = re.compile(r"\s+")

# ---------------------------------------------------------------------------------------------
# gazetteers for the additive finder

_FOREIGN_PEOPLE = """
시진핑 리커창 리창 후진타오 원자바오 장쩌민 마오쩌둥 덩샤오핑 왕이 트럼프 바이든 오바마 힐러리 클린턴 부시 푸틴
메드베데프 젤렌스키 아베 스가 기시다 이시바 고이즈미 마크롱 올랑드 사르코지 메르켈 숄츠 존슨 메이 수낵 트뤼도
모디 에르도안 네타냐후 폼페이오 볼턴 틸러슨 블링컨 해리스 펠로시 오쿠보 반기문 구테흐스 김정은 김정일 김일성 김여정
""".split()
_ORG_ABBREV = """
기재부 기획재정부 국토부 산업부 산자부 복지부 보건복지부 행안부 행자부 과기부 과기정통부 문체부 농식품부 해수부 외교부 국방부
법무부 교육부 환경부 고용부 노동부 여가부 중기부 통일부 인사처 법제처 식약처 보훈처 금융위 금감원 공정위 방통위 권익위
원안위 선관위 국정원 감사원 헌재 헌법재판소 대법원 검찰 대검 대검찰청 경찰청 국세청 관세청 조달청 통계청 병무청 특허청
기상청 산림청 소방청 해경 질병청 질병관리청 질병관리본부 중수부 대검 중수부 국과수 한수원 한국수력원자력 청와대 국회 한전 한국전력 한은 한국은행 코레일 수공 수자원공사 도공 도로공사
LH 토지주택공사 가스공사 석유공사 건보공단 건강보험공단 심평원 국민연금 국민연금공단 근로복지공단 코트라 KOTRA 코이카 KOICA
무역협회 전경련 경총 대한상의 중기중앙회 민노총 민주노총 한국노총 전교조 참여연대 경실련
민주당 더불어민주당 국민의힘 새누리당 한나라당 자유한국당 미래통합당 정의당 국민의당 바른미래당 새정치민주연합 열린우리당
유엔 UN 안보리 유네스코 유니세프 WHO 세계보건기구 IMF 국제통화기금 OECD 나토 NATO IAEA 국제원자력기구 WTO
세계무역기구 EU 유럽연합 아세안 ASEAN G20 IOC 국제올림픽위원회 FIFA 피파 UEFA 백악관 국무부 국방부 펜타곤 CIA FBI
크렘린 공산당 인민해방군 조선노동당 노동당
""".split()
#: companies, brands and media that news prose names bare (KLUE marks them ORGANIZATION); platforms used as a
#: medium (트위터, 페이스북, 유튜브 "…에 올렸다") and 신세계 ("new world") are left out: measured on KLUE train/dev
_COMPANIES = """
구글 애플 마이크로소프트 넷플릭스 테슬라 아마존닷컴 네이버 카카오 쿠팡 배달의민족 삼성전자
LG전자 SK하이닉스 현대차 현대자동차 기아차 포스코 이마트 홈플러스 농심 오리온 SK텔레콤 SKT LG유플러스 대한항공
아시아나 아시아나항공 CGV 메가박스 롯데시네마 스타벅스 맥도날드 버거킹 피자헛 아웃백 벤츠 BMW 아우디 폭스바겐 도요타 혼다
포르셰 포르쉐 페라리 구찌 샤넬 루이비통 프라다 나이키 아디다스 유니클로 디즈니 월트디즈니 소니 닌텐도 화웨이 샤오미
알리바바 텐센트 JYP YG SM엔터테인먼트 하이브 빅히트 Mnet JTBC KBS MBC SBS EBS YTN OCN 연합뉴스 조선일보 중앙일보 동아일보
한겨레 경향신문 한국일보 매일경제 한국경제 뉴욕타임스 워싱턴포스트 월스트리트저널 블룸버그 로이터 AP통신 AFP 신화통신 CNN BBC
NHK 교도통신 아사히신문 요미우리신문 코스닥 코스피 빌보드 기네스북
""".split()
_TEAMS = """
맨유 맨시티 토트넘 리버풀 아스널 첼시 바르사 뮌헨 도르트문트 유벤투스 파리생제르맹 PSG 다저스 양키스 레드삭스 컵스
에인절스 블루제이스 레이커스 워리어스 넥센 키움 히어로즈 라이온즈 베어스 트윈스 타이거즈 이글스 와이번스 랜더스 다이노스
스틸러스 대구FC 강원FC 광주FC 성남FC 흥국생명 현대건설 현대캐피탈 IBK기업은행 GS칼텍스
""".split()
#: multi-word entries (matched as a whole, so "유엔 안보리" is one span, not 유엔 + a visible 안보리)
_TEAMS_MULTI = ["맨체스터 유나이티드", "맨체스터 시티", "레알 마드리드", "넥센 히어로즈", "키움 히어로즈", "삼성 라이온즈",
                "두산 베어스", "LG 트윈스", "기아 타이거즈", "KIA 타이거즈", "롯데 자이언츠", "한화 이글스", "SK 와이번스",
                "SSG 랜더스", "NC 다이노스", "KT 위즈", "kt 위즈", "울산 현대", "전북 현대", "수원 삼성", "FC 서울", "FC서울",
                "포항 스틸러스", "제주 유나이티드", "인천 유나이티드", "유엔 안보리", "유엔 안전보장이사회", "중국 공산당",
                "조선 노동당", "미국 국무부", "미 국무부", "미 국방부", "미국 국방부"]
_AMBIGUOUS_TEAM_WORDS = {"삼성", "두산", "LG", "기아", "KIA", "롯데", "한화", "SK", "SSG", "NC", "KT", "kt", "울산", "전북",
                         "수원", "FC", "포항", "제주", "인천", "현대", "서울", "맨체스터", "레알", "유엔", "중국", "메츠", "메이",
                         "존슨", "해리스", "부시", "클린턴", "스가", "아베", "왕이", "리창", "노동당", "공산당", "검찰", "국회",
                         "국방부", "UN", "EU"}
_ORG_WORDS = sorted({w for w in _ORG_ABBREV + _TEAMS + _COMPANIES if w not in _AMBIGUOUS_TEAM_WORDS} | set(_TEAMS_MULTI)
                    | {"유엔", "검찰", "국회", "국방부", "공산당", "노동당", "UN", "EU"}, key=len, reverse=True)
_PERSON_WORDS = sorted({w for w in _FOREIGN_PEOPLE if w not in _AMBIGUOUS_TEAM_WORDS}, key=len, reverse=True)

#: after a gazetteer word: end of word, or a particle / 측 / 등
_WORD_END = (r"(?=$|[^가-힣A-Za-z0-9]|(?:은|는|이|가|을|를|의|에|에서|에게|께|과|와|도|로|으로|만|측|등|까지|부터|처럼|보다|"
             r"이나|나|랑|이랑|한테|께서|에도|에는|과의|와의|로서|로부터|라는|이라는|이다|였다|이었다|다)(?![가-힣]))")
# no leading lookbehind (it would disable re's fast first-character scan): the word start is checked in Python
# (one trie over both lists, the kind looked up afterwards: two named alternatives were 4x slower)
_GAZ = re.compile(literal_alternation([*_ORG_WORDS, *_PERSON_WORDS]) + _WORD_END)
_GAZ_PERSON = frozenset(_PERSON_WORDS)
_WORDCHAR = re.compile(r"[가-힣A-Za-z0-9]")

# one-syllable surname + title
_SURNAMES = ("김이박최정강조윤장임한오서신권황안송전홍유류고문양손배백허남심노하곽성차주우구나민진지엄채원천방공현함변염"
             "여추도소석선설마길연위표명기반왕금옥육인맹제탁국어은편용예경봉사부가복태목형계피두감")
#: surnames that are also determiners / prefixes before a title: 이 (this), 전 (former), 고 (the late),
#: 현 (current), 부 (vice), 신 (new), 구 (old), 총 (general), 각 (each), 본 (this), 동 (the same), 모 (some), 당 (the),
#: 한 / 두 (one / two), 제 (my), 여 (ruling party: 여 의원), 주 (resident: 주 대표), and the particles 은 / 가 / 도
#: (``'피플'은 기자가``)
_DETERMINERS = set("이전고현부신구총각본동모당원대소한두제여주은가도")
#: titles of public figures (news prose). Office titles (팀장, 과장, 대리 …) are left out on purpose: in
#: administrative documents "김 팀장님" is not annotated as a name, and a surname alone identifies no one.
_TITLES = ("씨", "군", "양", "옹", "회장", "총괄회장", "명예회장", "사장", "부회장", "대표", "의원", "장관", "차관", "총리",
           "대통령", "위원장", "후보", "원내대표", "대변인", "감독", "코치", "선수", "교수", "기자", "변호사", "검사", "판사",
           "총장", "지사", "씨는", "전 회장", "전 대표", "전 의원", "전 장관", "전 대통령", "전회장", "할머니", "할아버지")
_TITLE = re.compile(r"(?P<sur>[" + _SURNAMES + r"])(?<![가-힣A-Za-z0-9][" + _SURNAMES + r"])(?P<sp>[ ]?)(?P<title>"
                    + "|".join(sorted(_TITLES, key=len, reverse=True)) + r")" + _WORD_END)


#: transliterated Western given names (two syllables or more: one-syllable ones — 존, 톰, 진 — are words too);
#: "first + space + last" is taken as one PERSON (애슐리 주드, 모건 프리먼, 험프리 보가트)
_FOREIGN_FIRST = set("""
애슐리 모건 에릭 르네 험프리 아만다 테드 애런 크리스 제니퍼 브래드 레오나르도 조지 로버트 마이클 데이비드 제임스 윌리엄
리처드 리차드 찰스 조셉 토머스 토마스 크리스토퍼 다니엘 대니얼 매튜 매슈 앤서니 앤드류 앤드루 스티븐 스티브 케빈 브라이언
에드워드 로널드 티모시 제이슨 제프리 라이언 제이콥 니콜라스 조나단 저스틴 스콧 브랜든 벤저민 벤자민 사무엘 새뮤얼 프랭크
그레고리 레이먼드 알렉산더 패트릭 데니스 타일러 에런 헨리 아담 더글러스 네이선 피터 카일 월터 에단 제레미 해리 로저 노아
오스틴 아서 로렌스 딜런 제시 조던 앨런 알란 빌리 브루스 가브리엘 로건 앨버트 윌리 유진 러셀 바비 메이슨 필립 해리슨
빈센트 마틴 메리 퍼트리샤 패트리샤 린다 엘리자베스 바바라 수잔 제시카 사라 카렌 낸시 리사 베티 마거릿 마가렛 샌드라
킴벌리 에밀리 도나 미셸 캐럴 도로시 멜리사 데보라 스테파니 레베카 샤론 로라 신시아 캐슬린 에이미 셜리 안젤라 헬렌 안나
브렌다 파멜라 니콜 엠마 사만다 캐서린 크리스틴 레이첼 캐롤린 재닛 마리아 헤더 다이앤 줄리 조이스 빅토리아 켈리 크리스티나
로렌 에블린 올리비아 주디 메건 셰릴 마사 안드레아 프랜시스 해나 재클린 글로리아 케이트 테일러 나탈리 스칼렛 키아누 조니
줄리아 콜린 이안 이완 마크 키이라 리암 우디 더스틴 덴젤 드류 카메론 안젤리나 기네스 할리 페넬로페 로빈 에디 잭키 블라디미르
세르게이 드미트리 알렉세이 미하일 니콜라이 안드레이 볼프강 프리드리히 장피에르 프랑수아 카를로스 후안 호세 루이스 안토니오
마리오 파울로 루카 마르코 하비에르 디에고 페르난도 알레한드로
""".split())
_FOREIGN_LAST_STOP = frozenset("""대학 대학교 공원 호텔 거리 시티 스퀘어 센터 재단 병원 극장 여왕 시대 왕조 효과 스타일 패션 감독 주연 배우
영화 시리즈 가족 씨 역 역할 팬 팬들 선수 대표 대통령 총리 장관 의원 교수 박사 기자 회장 사장 아파트 빌딩 타워 카페 식당
학원 교회 성당 마트 빌라 하우스 상가 약국 의원 치과 클리닉 스튜디오 컴퍼니 그룹 재단 협회 학교 유치원""".split())
_FOREIGN_NAME = re.compile(r"(?P<first>" + literal_alternation(_FOREIGN_FIRST)
                           + r")[ ·](?P<last>[가-힣]{2,6})(?![가-힣])")
_PARTICLES_2 = ("에게", "에서", "처럼", "까지", "부터", "이랑", "한테", "에도", "과의", "와의", "이나", "라는", "이다", "께서",
                "보다", "으로", "만의", "님의", "님이", "님은")
_PARTICLES_1 = frozenset("은는을를의과와도로랑만님")


#: a university abbreviation before a campus role: "서강대 교수", "고려대 연구팀"
_UNIV = re.compile(r"(?<![가-힣A-Za-z])[가-힣]{2,5}대(?:학교)?(?= (?:교수|명예교수|석좌교수|부교수|조교수|총장|연구팀|"
                   r"학생|학생들|졸업|강사|연구진|교수팀|병원))")
_UNIV_STOP = frozenset(("세대", "시대", "부대", "군대", "현대", "반대", "기대", "상대", "절대", "최대", "확대", "연대", "신세대",
                        "구세대", "새시대", "신시대", "청년세대", "미래세대", "강대", "특대", "초대", "역대", "교대", "근대"))


def _strip_particle(word: str) -> str:
    for p in _PARTICLES_2:
        if word.endswith(p) and len(word) - len(p) >= 2:
            return word[:-len(p)]
    if len(word) >= 3 and word[-1] in _PARTICLES_1:
        return word[:-1]
    if len(word) >= 3 and word[-1] in "이가":
        return word[:-1]
    return word


#: a Korean name as the value of a name field: "성명: 김서윤", "신청인: 박지훈 (인)". The field needs a separator,
#: role words (신청인, 예금주 …) a colon; the value is 2-4 syllables starting with a surname and standing alone
#: (a second Hangul word after it — "제임스 윌슨", "김 과장" — is left to the model)
_FIELD_NAME = re.compile(
    r"(?:(?:성\s?명|이\s?름|성\s?함|환자\s?명|고객\s?명)(?:\s*\([^)]{0,10}\))?(?:\s*[:：]\s*|\s+)"
    r"|(?:수검자|피보험자|신청인|민원인|예금주|대표자|보호자|작성자|담당자|진술인|원고|피고|임대인|임차인|근로자|사업주)"
    r"(?:\s*\([^)]{0,10}\))?\s*[:：]\s*)"
    r"(?P<name>[" + "김이박최정강조윤장임한오서신권황안송전홍유류고문양손배백허남심노하곽성차주우구나민진지엄채원천방공현함변염"
    r"여추도소석선설마길연위표명기반왕금옥육인맹제탁국어은편용예경봉사부가복태목형계피두감" + r"][가-힣]{1,3}?)"
    r"(?=$|[\n,)(/·;]|[ \t](?![가-힣])|님|씨)")
#: the same field with the name letter-spaced, ASCII or ideographic spaces between its syllables (red team 8:
#: "신청인: 탁　지　안" — the model took "탁　지" and left "안")
_FIELD_NAME_SPACED = re.compile(
    _FIELD_NAME.pattern.split("(?P<name>")[0]
    + "(?P<name>[" + _FIELD_NAME.pattern.split("(?P<name>[")[1].split("]")[0] + "](?:[ \u3000](?![님씨])[가-힣]){1,3})"
    + r"(?=$|[\n,)(/·;]|[ \t\u3000](?![가-힣])|[ \u3000][님씨])")
_FIELD_NAME_STOP = re.compile(r"(?:청|시청|구청|군청|회사|은행|공단|센터|재단|학교|병원|법인|조합|협회|위원회|부|과|팀)$")


#: a capital letter standing for a person: "A씨(37)", "B군", "K모 기자"
_LETTER_TITLE = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])(?=[ ]?(?:씨|군|양|모[ ]?(?:씨|기자|교수|의원|씨)))")
#: a last word that makes a span a phrase, not a name: "변경 시", "이동 시", "도착 후"
_PHRASE_END = frozenset("시 때 후 중 전 간 내 외 등 및".split())


def _span(a: int, b: int, label: str, score: float) -> Span:
    return Span(a, b, label, score, "rule")


# ---------------------------------------------------------------------------------------------
# model-span refinement


def _latin_name_like(value: str, before: str) -> bool:
    if _LATIN_NAME.fullmatch(value) is None:
        return False
    tokens = value.replace(".", " ").replace("-", " ").split()
    if len(tokens) < 2 or any(len(t) > 14 for t in tokens):
        return False
    if any(t.upper().rstrip(".,") in _ORG_TOKENS for t in tokens):
        return False  # "HOA BINH CORP", "Nguyen Group": a company
    if _NAME_FIELD.search(before):
        return True
    hits = sum(1 for t in tokens if t.upper() in _LATIN_NAME_TOKENS)
    return hits >= 1 and hits * 2 >= len(tokens) - 1


#: a romanised surname word right before a span ("LEE ⟦JAEHOON⟧")
_SURNAME_BEFORE = re.compile(r"(?<![A-Za-z])([A-Z][a-z]+|[A-Z]+) $")


def _given_after_surname(value: str, before: str) -> bool:
    """``value`` is one romanised Korean given name right after a romanised surname: the model tagged
    ``JAEHOON`` of ``LEE JAEHOON`` ORGANIZATION (1.0) and the name was split in two labels."""
    from .names import ROMAN_SURNAMES, _given_ok

    m = _SURNAME_BEFORE.search(before)
    return (m is not None and m.group(1).lower() in ROMAN_SURNAMES and " " not in value.strip()
            and _given_ok(value.strip()))


def demote(span: Span) -> Span:
    """``span`` with the same start, end, label and source, its score lowered to ``DEMOTED_SCORE``."""
    return Span(span.start, span.end, span.label, min(span.score, DEMOTED_SCORE), span.source)


def refine_model_span(text: str, span: Span) -> Span:
    """The span, relabelled or demoted — never dropped, never reshaped (see the module docstring). Local:
    reads ±20 characters around it."""
    label = span.label
    if label == "PERSON" or label == "ORGANIZATION":
        value = text[span.start:span.end]
        before = text[max(0, span.start - 20):span.start]
        if value[:1].isascii() and _acronym_or_english_word(text, span):
            return demote(span)  # "PDF", "HWP", "Even", "Ones": a format or a word, not an entity
        if label == "ORGANIZATION":
            if value[:1].isascii() and (_latin_name_like(value, before) or _given_after_surname(value, before)):
                return Span(span.start, span.end, "PERSON", span.score, span.source)
            if value in _DRUGS or _DOSE_AFTER.match(text, span.end):
                return demote(span)  # "아모크라 625mg" tagged as a company
            return span
        core = _SPACES.sub("", value)
        if core in _NOT_PERSON:
            return demote(span)
        words = value.split()
        if len(words) > 1 and words[-1] in _PHRASE_END:
            # "변경 시": demoted when what remains without the trailing word is no name; "김민준 등" is kept as
            # the model gave it (the boundaries are the model's: at worst 등 is masked too)
            rest = value[:value.rstrip().rfind(" ")].rstrip()
            if _SPACES.sub("", rest) in _NOT_PERSON or not rest:
                return demote(span)
            return span
        if _DOSE_AFTER.match(text, span.end):
            return demote(span)  # "아모크라 625mg", "코자정 50mg"
        if any(len(w) > len(value) and w.startswith(value) and text.startswith(w, span.start) for w in _GLUED_WORDS):
            return demote(span)  # "⟦장⟧모님", "⟦베테⟧랑": the first part of a longer ordinary word
        if _NATIONALITY_FIELD.search(before):
            return demote(span)  # "국적: 베트남", "국적(베트남)": whatever the word, a nationality field is not a name
        return span
    if label == "ADDRESS":
        if _DIGIT.search(text, span.start, span.end) is None and _AUTHORITY_AFTER.match(text, span.end):
            return demote(span)
        return span
    return span


def refine_model_spans(text: str, spans) -> list[Span]:
    """``refine_model_span`` over each span: as many spans out as in, same boundaries."""
    return [refine_model_span(text, s) for s in spans]


# ---------------------------------------------------------------------------------------------
# additive finder (rule stage)


def find_context_entities(text: str, cx: ContextIndex) -> Iterator[Span]:
    for m in _TITLE.finditer(text):
        sur, title = m.group("sur"), m.group("title")
        if sur in _DETERMINERS and title not in ("씨", "씨는"):
            continue
        if not m.group("sp") and title not in ("씨", "씨는"):
            continue  # glued "장회장", "이사장", "공사장": a word, not surname + title
        if sur == "모":
            continue  # "김 모 씨": already anonymised
        yield _span(m.start("sur"), m.end("sur"), "PERSON", 0.9)
    for m in _LETTER_TITLE.finditer(text):
        yield _span(m.start(), m.start() + 1, "PERSON", 0.85)  # "A씨", "K모 기자": KLUE marks the letter
    for m in _FIELD_NAME.finditer(text):
        name = m.group("name")
        if _FIELD_NAME_STOP.search(name) or name in _NOT_PERSON:
            continue
        yield _span(m.start("name"), m.end("name"), "PERSON", 0.9)
    for m in _FIELD_NAME_SPACED.finditer(text):
        name = _SPACES.sub("", m.group("name"))
        if _FIELD_NAME_STOP.search(name) or name in _NOT_PERSON:
            continue
        yield _span(m.start("name"), m.end("name"), "PERSON", 0.9)
    latin = set()
    for m in _LATIN_AFTER_FIELD.finditer(text):
        latin.add(m.start("name"))
        yield _span(m.start("name"), m.end("name"), "PERSON", 0.9)
    for m in _LATIN_SEQ.finditer(text):
        if m.start() in latin:
            continue
        tokens = m.group(0).split()
        if any(t.upper() in _ORG_TOKENS for t in tokens):
            continue
        known = {t.upper() for t in tokens if len(t) > 2 and t.upper() in _LATIN_NAME_TOKENS}
        if len(known) >= 2:  # two different known tokens of 3+ letters ("LA SONG", "GO GO" are not names)
            yield _span(m.start(), m.end(), "PERSON", 0.88)
    for m in _FOREIGN_NAME.finditer(text):
        if m.start() and _WORDCHAR.match(text, m.start() - 1):
            continue  # inside a word
        last = _strip_particle(m.group("last"))
        if last in _FOREIGN_LAST_STOP:
            continue
        yield _span(m.start("first"), m.start("last") + len(last), "PERSON", 0.86)
    for m in _UNIV.finditer(text):
        if m.group(0) not in _UNIV_STOP:
            yield _span(m.start(), m.end(), "ORGANIZATION", 0.86)
    for m in _GAZ.finditer(text):
        if m.start() and _WORDCHAR.match(text, m.start() - 1):
            continue  # inside a word: "한전KDN" is matched at 한, "대기재부" is not a ministry
        yield _span(m.start(), m.end(), "PERSON" if m.group(0) in _GAZ_PERSON else "ORGANIZATION", 0.88)


#: family name -> (labels, finder); only run by ``RuleDetector(entities=True)``
ENTITY_FINDERS = {
    "context_entities": (ENTITY_LABELS, find_context_entities),
}
