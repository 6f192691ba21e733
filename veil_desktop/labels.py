"""The one label catalogue: every label the product knows, in the order the UI lists them, with its
display names (Korean / English), pseudonym prefix and who emits it. No Qt here.

Everything else derives from it: ``detect.span.MODEL_LABELS`` / ``RULE_LABELS`` / ``ALL_LABELS``, the rule
stage's ``RULE_DETECTOR_LABELS``, the window's label menus (``UI_ORDER``). A new label is one line here
(plus the rule or model that emits it).

``source``: ``"model"`` (the veil model family's three BIOES entity labels), ``"rule"`` (the rule stage's
structured identifiers; ADDRESS is emitted by both: the model, and the rule stage's address grammar) or
``"manual"`` (only a reviewer assigns it).""" 
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LabelInfo:
    name: str
    ko: str
    en: str
    pseudonym: str  # stand-in prefix for the pseudonym masking style: 인물1, 인물2, ...
    source: str = "rule"        # "model", "rule" or "manual" (see the module docstring)
    rule_stage: bool = False    # a model label the rule stage also emits (ADDRESS: the address grammar)


_INFOS = [
    LabelInfo("PERSON", "인명", "Person", "인물", "model"),
    LabelInfo("ADDRESS", "주소", "Address", "주소", "model", rule_stage=True),
    LabelInfo("ORGANIZATION", "기관", "Organization", "기관", "model"),
    LabelInfo("PHONE", "전화번호", "Phone", "전화"),
    LabelInfo("RRN", "주민등록번호", "Resident reg. no.", "주민번호"),
    LabelInfo("FOREIGNER_RN", "외국인등록번호", "Foreigner reg. no.", "외국인번호"),
    LabelInfo("EMAIL", "이메일", "E-mail", "이메일"),
    LabelInfo("CARD", "카드번호", "Card number", "카드"),
    LabelInfo("ACCOUNT", "계좌번호", "Bank account", "계좌"),
    LabelInfo("BUSINESS_REG", "사업자등록번호", "Business reg. no.", "사업자번호"),
    LabelInfo("CORP_REG", "법인등록번호", "Corporate reg. no.", "법인번호"),
    LabelInfo("PASSPORT", "여권번호", "Passport", "여권"),
    LabelInfo("DRIVER_LICENSE", "운전면허번호", "Driver's licence", "면허"),
    LabelInfo("VEHICLE", "차량번호", "Vehicle plate", "차량"),
    LabelInfo("IP", "IP 주소", "IP address", "IP"),
    LabelInfo("POSTAL_CODE", "우편번호", "Postal code", "우편번호"),
    LabelInfo("URL", "URL·도메인", "URL / domain", "URL"),
    LabelInfo("HEALTH_INSURANCE", "건강보험증·보험번호", "Health insurance / policy no.", "보험번호"),
    LabelInfo("MEDICAL_ID", "진료·처방·환자번호", "Medical record / prescription no.", "진료번호"),
    LabelInfo("EMPLOYEE_ID", "사원번호", "Employee ID", "사번"),
    LabelInfo("STUDENT_ID", "학번", "Student ID", "학번"),
    LabelInfo("CASE_NUMBER", "사건번호", "Court case no.", "사건"),
    LabelInfo("DOC_NUMBER", "접수·문서번호", "Receipt / document no.", "문서"),
    LabelInfo("BIRTH_DATE", "생년월일", "Date of birth", "생년월일"),
    LabelInfo("OTHER", "기타", "Other", "기타", "manual"),
]
LABELS: dict[str, LabelInfo] = {i.name: i for i in _INFOS}

#: the veil model family's entity labels (BIOES over these three)
MODEL_LABELS: tuple[str, ...] = tuple(i.name for i in _INFOS if i.source == "model")
#: the rule stage's structured identifiers
RULE_LABELS: tuple[str, ...] = tuple(i.name for i in _INFOS if i.source == "rule")
#: every label the rule stage can emit (its identifiers, then the model labels it also finds)
RULE_DETECTOR_LABELS: tuple[str, ...] = RULE_LABELS + tuple(i.name for i in _INFOS if i.rule_stage)
#: the order of the window's label lists (change label, manual span, filters, status line)
UI_ORDER: tuple[str, ...] = tuple(i.name for i in _INFOS)


def info(label: str) -> LabelInfo:
    """Info for ``label``; unknown labels (a model folder may bring its own) get a generic entry."""
    return LABELS.get(label) or LabelInfo(label, label, label.title(), label)


def display_name(label: str, lang: str = "ko") -> str:
    i = info(label)
    return i.ko if lang == "ko" else i.en
