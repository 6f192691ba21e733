"""UI strings of the reviewer's tools (find bar, term lists, workspace, page view), Korean and English.

Registered into the one catalogue (``ui/i18n.py``) on import, so ``tr(key, lang)`` finds them and the
catalogue test sees them; kept in their own module so the tools do not edit the shared catalogue's lines.
"""
from __future__ import annotations

from . import i18n

STRINGS: dict[str, tuple[str, str]] = {
    # find bar
    "find.placeholder": ("찾을 텍스트 또는 정규식", "Text or regular expression to find"),
    "find.regex": ("정규식", "Regex"),
    "find.case": ("대소문자 구분", "Match case"),
    "find.width": ("전각/반각 무시", "Ignore full/half width"),
    "find.spacing": ("띄어쓰기 무시", "Ignore spacing"),
    "find.prev": ("이전", "Previous"),
    "find.next": ("다음", "Next"),
    "find.mark_all": ("모두 표시", "Mark all"),
    "find.mark_as": ("다음으로 모두 표시:", "Mark all as:"),
    "find.close": ("닫기", "Close"),
    "find.count": ("{i} / {n}", "{i} of {n}"),
    "find.count_searching": ("{n}개 이상 (찾는 중…)", "{n}+ (searching…)"),
    "find.none": ("찾지 못함", "No matches"),
    "find.marked": ("{n}곳을 {label}(으)로 표시했습니다 (실행 취소 한 번으로 되돌림)",
                    "Marked {n} as {label} (one undo step)"),
    "find.undo": ("찾아서 표시: {label} {n}곳", "find and mark: {label} ×{n}"),
    "action.find": ("찾기 및 표시…", "Find and mark…"),
    # term lists
    "action.terms": ("용어 목록…", "Term lists…"),
    "terms.title": ("용어 목록", "Term lists"),
    "terms.intro": ("항상 가릴 용어(마스킹)와 제안하지 않을 용어(유지). 띄어쓰기와 전각/반각 차이는 무시합니다.",
                    "Terms always masked (mask) and terms never suggested (keep). Spacing and full/half-width "
                    "differences are ignored."),
    "terms.col.term": ("용어", "Term"),
    "terms.col.action": ("동작", "Action"),
    "terms.col.label": ("유형", "Label"),
    "terms.mask": ("마스킹", "mask"),
    "terms.keep": ("유지", "keep"),
    "terms.add": ("추가", "Add"),
    "terms.remove": ("삭제", "Remove"),
    "terms.import": ("CSV 가져오기…", "Import CSV…"),
    "terms.export": ("CSV 내보내기…", "Export CSV…"),
    "terms.save": ("저장", "Save"),
    "terms.cancel": ("취소", "Cancel"),
    "terms.csv_filter": ("CSV 파일 (*.csv)", "CSV files (*.csv)"),
    "terms.errors": ("용어 목록을 읽을 수 없습니다:", "The term list could not be read:"),
    "terms.imported": ("{n}개 용어를 가져왔습니다", "Imported {n} terms"),
    "terms.applied": ("용어 목록: 마스킹 {mask}곳 추가, 유지 {keep}곳 제외",
                      "Term lists: {mask} masked, {keep} suggestions left"),
    "source.list": ("목록", "list"),
    # workspace
    "ws.title": ("문서 목록", "Documents"),
    "ws.queued": ("대기", "queued"),
    "ws.detecting": ("탐지 중", "detecting"),
    "ws.pending": ("미검토 {n}", "{n} pending"),
    "ws.reviewed": ("검토 완료", "reviewed"),
    "ws.exported": ("내보냄", "exported"),
    "ws.failed": ("실패", "failed"),
    "action.open_files": ("여러 파일 열기…", "Open files…"),
    "action.open_folder": ("폴더 열기…", "Open folder…"),
    "action.next_doc": ("다음 문서", "Next document"),
    "action.prev_doc": ("이전 문서", "Previous document"),
    "action.export_all": ("검토 완료 문서 모두 내보내기…", "Export all reviewed…"),
    "ws.export_folder": ("내보낼 폴더 선택", "Choose the output folder"),
    "ws.export_none": ("검토를 마친 문서가 없습니다.", "No document is reviewed yet."),
    "ws.export_done_title": ("모두 내보내기", "Export all reviewed"),
    "ws.export_done": ("내보냄 {ok}개, 실패 {failed}개, 내보내지 않음(미검토) {pending}개.\n요약: {path}",
                       "Exported {ok}, failed {failed}, not exported (not reviewed) {pending}.\nSummary: {path}"),
    "ws.export_below": ("기준 점수 미만이라 마스킹하지 않은 제안: {n}개 (문서별 보고서와 요약에 기록됨)",
                        "Suggestions below the threshold left unmasked: {n} (recorded in each report and the summary)"),
    "ws.export_confirm": ("검토를 마친 문서 {n}개를 {folder}에 내보냅니다. 기준 점수 미만의 제안은 마스킹하지 않습니다. "
                          "미검토 문서 {pending}개는 내보내지 않고 목록에만 적습니다.",
                          "Export {n} reviewed document(s) to {folder}. Suggestions below the threshold stay "
                          "unmasked. {pending} document(s) not reviewed are listed, not exported."),
    "ws.problems": ("추가하지 못한 항목:", "Not added:"),
    # PDF page view
    "pdf.pages": ("쪽 보기", "Pages"),
    "action.pdf_pages": ("쪽 보기", "Pages"),
    "pdf.text": ("텍스트 보기", "Text"),
    "pdf.page_n": ("{i} / {n}쪽", "Page {i} of {n}"),
    "pdf.not_pdf": ("쪽 보기는 PDF와 이미지 문서에서만 쓸 수 있습니다.",
                    "The page view is for PDF and image documents only."),
}

i18n._CATALOGUE.update(STRINGS)  # noqa: SLF001 - one catalogue; see the module docstring


def tr(key: str, lang: str = "ko") -> str:
    return i18n.tr(key, lang)
