"""Issue 26 class 5 ("text the detector does not read"): 30 fresh attack files, the batch CLI, an oracle.

The files are written from the issue's list of classes (values split over CSV/TSV cells guided by Korean
spreadsheet headers, formula string concatenation, circled / parenthesised / digit-full-stop / full-width
digits, ``골뱅이`` / ``(골뱅이)`` / ``[at]`` for ``@``, Hanja-only names, HTML numeric and named entities in a
.txt, an e-mail broken over a line inside a quoted CSV cell), not from the detector's code. Every file
plants one or more values; the independent oracle ``benchmarks/leak_oracle.py`` (``leaks_in``, no OCR:
these are text files) reads each published output and applies the leak rule of KOREAN_MASKING.md (two
syllables of a name, four digits of a number, four letters of an e-mail's local part). Card and account
numbers are checked with the oracle's digit pattern (they sit in its ``PHONE`` slot).

Run (about a minute on two cores; the embedded default model)::

    nice .venv/bin/python benchmarks/attack_text_class.py /tmp/attack5

It writes ``DIR/in`` (the files), ``DIR/manifest.json``, runs ``veil-redact redact DIR/in --out DIR/out``
(default masking: tags; further arguments go to the CLI, e.g. ``--style partial``) and prints, per file,
``ok`` / ``LEAK`` / ``not published`` and the totals.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import leak_oracle  # noqa: E402

BASE = {"NAME": "김민준", "RRN": "851203-1234567", "PHONE": "010-4821-7395",
        "ADDR": "서울특별시 마포구 월드컵북로 396", "EMAIL": "minjun.kim@example.com"}


def cells(*rows, sep=","):
    return "\r\n".join(sep.join(r) for r in rows) + "\r\n"


def circled(s: str, base: int) -> str:
    """Digits 1-9 -> the code point ``base + d - 1``; 0 -> ``zero``."""
    return "".join(chr(base + int(c) - 1) if c in "123456789" else c for c in s)


def entities(s: str, hexa: bool = False) -> str:
    return "".join((f"&#x{ord(c):X};" if hexa else f"&#{ord(c)};") if not c.isspace() else c for c in s)


def fw(s: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s)


def files() -> list[tuple[str, str, dict, list[str]]]:
    """(name, text, values overriding BASE, planted keys)."""
    out = []

    def add(name, text, keys, **vals):
        out.append((name, text, vals, keys))

    # 1-3 RRN split into 앞자리/뒷자리 columns (comma, semicolon, tab)
    add("01_rrn_split.csv", cells(["번호", "성명", "주민번호 앞자리", "주민번호 뒷자리", "부서"],
                                  ["1", "김민준", "851203", "1234567", "영업팀"]), ["RRN"])
    add("02_rrn_split_semicolon.csv", cells(["no", "주민등록번호(앞)", "주민등록번호(뒤)", "비고"],
                                            ["7", "930415", "2345678", "재직"], sep=";"),
        ["RRN"], RRN="930415-2345678")
    add("03_rrn_split.tsv.csv", cells(["사번", "생년월일", "뒷자리", "입사"],
                                      ["A-17", "880722", "1456789", "신입"], sep="\t"),
        ["RRN"], RRN="880722-1456789")
    # 4-6 and 30: phones split into 국번/앞/뒤, 전화1/2/3, a leading zero dropped by the spreadsheet
    add("04_phone_split.csv", cells(["이름", "국번", "앞", "뒤"], ["김민준", "010", "4821", "7395"]), ["PHONE"])
    add("05_phone_area.csv", cells(["상호", "전화1", "전화2", "전화3"], ["한빛상사", "02", "6313", "8842"]),
        ["PHONE"], PHONE="02-6313-8842")
    add("06_phone_zero_dropped.csv", cells(["고객", "휴대폰1", "휴대폰2", "휴대폰3"],
                                           ["A", "10", "5573", "2049"]), ["PHONE"], PHONE="010-5573-2049")
    # 7, 29: card and account numbers in pieces
    add("07_card_split.csv", cells(["카드번호1", "카드번호2", "카드번호3", "카드번호4", "유효기간"],
                                   ["4563", "1789", "5521", "0932", "12/29"]),
        ["PHONE"], PHONE="4563-1789-5521-0932")
    # 8-10 formula concatenation
    add("08_formula.csv", cells(["성명", "주민번호"], ["고객A", '="851203-"&"1234567"']), ["RRN"])
    add("09_formula_quoted.csv", cells(["항목", "연락처"], ["담당", '"=""010-""&""4821""&""-7395"""']),
        ["PHONE"])
    add("10_concatenate.txt", '주민번호 셀: =CONCATENATE("851203","-","1234567")\n', ["RRN"])
    # 11-15 digits in other forms
    add("11_circled.txt", f"주민등록번호 {circled('851213', 0x2460)}-{circled('1234567', 0x2460)}\n",
        ["RRN"], RRN="851213-1234567")
    add("12_parenthesised.txt", f"연락처: {circled('0', 0)}{circled('1', 0x2474)}0-{circled('4821', 0x2474)}-"
        f"{circled('7395', 0x2474)}\n", ["PHONE"])
    add("13_digit_full_stop.txt", f"주민번호 {circled('851213', 0x2488)}-{circled('1234567', 0x2488)} 확인\n",
        ["RRN"], RRN="851213-1234567")
    add("14_fullwidth_rrn.txt", f"신청인 주민등록번호 {fw('851203-1234567')}\n", ["RRN"])
    add("15_fullwidth_phone.txt", f"휴대전화 {fw('010-4821-7395')} 로 연락 바랍니다.\n", ["PHONE"])
    # 16-19 at-words
    add("16_golbaengi.txt", "메일: minjun.kim골뱅이example.com\n", ["EMAIL"])
    add("17_golbaengi_paren.txt", "이메일 minjun.kim(골뱅이)example.com 으로 보내 주세요\n", ["EMAIL"])
    add("18_at_bracket.txt", "contact: minjun.kim [at] example [dot] com\n", ["EMAIL"])
    add("19_golbaengi_spaced.txt", "메일은 minjun.kim 골뱅이 example.com 입니다\n", ["EMAIL"])
    # 20-22 Hanja-only names
    add("20_hanja_name.txt", "성명: 金民俊\n소속: 영업부\n", ["NAME"], NAME="金民俊")
    add("21_hanja_column.csv", cells(["번호", "성명(한자)", "직위"], ["1", "李瑞妍", "과장"]),
        ["NAME"], NAME="李瑞妍")
    add("22_hanja_nim.txt", "崔志勳 님께서 신청하신 서류입니다.\n", ["NAME"], NAME="崔志勳")
    # 23-25 HTML entities in a .txt
    add("23_entity_name.txt", f"고객명: {entities('김민준')} 님\n", ["NAME"])
    add("24_entity_phone.txt", f"연락처 {entities('010-4821-7395')}\n", ["PHONE"])
    add("25_entity_email.txt", "메일 minjun.kim&#64;example.com &amp; 전화 010&#45;4821&#x2D;7395\n",
        ["EMAIL", "PHONE"])
    # 26-27 an e-mail broken over a line inside a quoted CSV cell
    add("26_email_broken_domain.csv", '이름,메일\r\n고객A,"minjun.kim@exam\r\nple.com"\r\n', ["EMAIL"])
    add("27_email_broken_local.csv", '이름,메일\r\n고객A,"minjun.\r\nkim@example.com"\r\n', ["EMAIL"])
    # 28 both in one row
    add("28_row_both.csv", cells(["성명", "주민번호 앞자리", "주민번호 뒷자리", "국번", "앞", "뒤"],
                                 ["고객A", "851203", "1234567", "010", "4821", "7395"]), ["RRN", "PHONE"])
    add("29_account_split.csv", cells(["은행", "계좌번호1", "계좌번호2", "계좌번호3"],
                                      ["신한", "110", "432", "918273"]), ["PHONE"], PHONE="110-432-918273")
    add("30_phone_split.tsv.csv", cells(["성명", "전화1", "전화2", "전화3"], ["고객B", "031", "778", "2914"],
                                        sep="\t"), ["PHONE"], PHONE="031-778-2914")
    return out


def main(argv: list[str]) -> int:
    d = Path(argv[0] if argv else "/tmp/attack5")
    if d.exists():
        shutil.rmtree(d)
    (d / "in").mkdir(parents=True)
    manifest = []
    for name, text, vals, keys in files():
        (d / "in" / name).write_text(text, encoding="utf-8", newline="")
        manifest.append({"file": name, "keys": keys, "values": {**BASE, **vals}})
    (d / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    cli = ROOT / ".venv" / "bin" / "veil-redact"
    r = subprocess.run([str(cli), "redact", str(d / "in"), "--out", str(d / "out"), "--quiet", *argv[1:]],
                       capture_output=True, text=True)
    (d / "summary.txt").write_text(r.stdout + r.stderr, encoding="utf-8")
    leaked = unpublished = 0
    for f in manifest:
        target = d / "out" / f["file"]
        if not target.exists():
            unpublished += 1
            print(f"not published  {f['file']}")
            continue
        found = leak_oracle.leaks_in(target, f["keys"], f["values"], ocr=False)
        if found:
            leaked += 1
            print(f"LEAK  {f['file']}: " + "; ".join(f"{k} …{hit}…" for k, _, hit in found))
        else:
            print(f"ok    {f['file']}")
    n = len(manifest)
    print(f"\n{n} files: published {n - unpublished}, published with a leak {leaked}, not published {unpublished}")
    return 1 if leaked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
