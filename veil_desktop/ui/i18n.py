"""UI strings in Korean and English: a plain catalogue, ``tr(key, lang)``.

Every key has both languages (a test checks it). Placeholders use ``str.format`` names. Label names come
from ``veil_desktop.labels`` and are not repeated here.
"""
from __future__ import annotations

LANGUAGES = {"ko": "한국어", "en": "English"}

_CATALOGUE: dict[str, tuple[str, str]] = {
    # menus
    "menu.file": ("파일(&F)", "&File"),
    "menu.edit": ("편집(&E)", "&Edit"),
    "menu.review": ("검토(&R)", "&Review"),
    "menu.detect": ("탐지(&D)", "&Detect"),
    "menu.help": ("도움말(&H)", "&Help"),
    "menu.recent": ("최근 파일", "Recent files"),
    "menu.recent_empty": ("(없음)", "(none)"),
    "menu.mark_as": ("다음으로 표시", "Mark as"),
    # actions
    "action.open": ("열기…", "Open…"),
    "action.export": ("마스킹하여 내보내기…", "Export masked…"),
    "action.settings": ("설정…", "Settings…"),
    "action.quit": ("종료", "Quit"),
    "action.undo": ("실행 취소", "Undo"),
    "action.redo": ("다시 실행", "Redo"),
    "action.next_pending": ("다음 미검토 항목", "Next pending"),
    "action.prev_pending": ("이전 미검토 항목", "Previous pending"),
    "action.accept": ("승인", "Accept"),
    "action.reject": ("거부", "Reject"),
    "action.reset_pending": ("미검토로 되돌리기", "Back to pending"),
    "action.accept_all_same": ("같은 값 모두 승인", "Accept all occurrences"),
    "action.reject_all_same": ("같은 값 모두 거부", "Reject all occurrences"),
    "action.accept_above": ("점수 이상 모두 승인…", "Accept all above score…"),
    "action.mark": ("선택 영역 표시…", "Mark selection…"),
    "action.mark_person": ("선택 영역을 인명으로", "Mark selection as person"),
    "action.mark_address": ("선택 영역을 주소로", "Mark selection as address"),
    "action.mark_organization": ("선택 영역을 기관으로", "Mark selection as organization"),
    "action.adjust_to_selection": ("경계를 선택 영역으로", "Set boundaries to selection"),
    "action.grow_end": ("끝 한 글자 늘리기", "Extend end by one"),
    "action.shrink_end": ("끝 한 글자 줄이기", "Shrink end by one"),
    "action.grow_start": ("시작 한 글자 늘리기", "Extend start by one"),
    "action.shrink_start": ("시작 한 글자 줄이기", "Shrink start by one"),
    "action.run_detection": ("다시 탐지", "Run detection again"),
    "action.cancel_detection": ("탐지 취소", "Cancel detection"),
    "action.shortcuts": ("단축키 안내", "Keyboard shortcuts"),
    "action.copy": ("복사", "Copy"),
    # panel
    "panel.filter": ("필터", "Filter"),
    "panel.threshold": ("표시 기준 점수", "Show from score"),
    "panel.accept_above": ("점수 이상 승인…", "Accept above…"),
    "filter.all_labels": ("모든 유형", "All labels"),
    "filter.all_status": ("모든 상태", "All statuses"),
    "detect.cancel": ("취소", "Cancel"),
    # table
    "col.pos": ("위치", "Pos"),
    "col.text": ("텍스트", "Text"),
    "col.label": ("유형", "Label"),
    "col.score": ("점수", "Score"),
    "col.status": ("상태", "Status"),
    "col.source": ("출처", "Source"),
    "status.pending": ("미검토", "pending"),
    "status.accepted": ("승인", "accepted"),
    "status.rejected": ("거부", "rejected"),
    "source.model": ("모델", "model"),
    "source.rule": ("규칙", "rule"),
    "source.manual": ("수동", "manual"),
    # status bar
    "status.opening": ("{name} 여는 중…", "Opening {name}…"),
    "status.restored": ("저장된 검토를 복원했습니다 (결정 {n}개)", "Restored the saved review ({n} decisions)"),
    "status.detecting": ("탐지 중…", "Detecting…"),
    "status.cancelled": ("탐지를 취소했습니다", "Detection cancelled"),
    "status.detected": ("탐지 완료: 항목 {n}개", "Detection finished: {n} items"),
    "status.all_reviewed": ("미검토 항목이 없습니다", "Nothing left to review"),
    "status.exporting": ("내보내는 중…", "Exporting…"),
    "status.exported": ("내보냈습니다: {path}", "Exported: {path}"),
    "status.accepted_n": ("{n}개 승인", "Accepted {n}"),
    "status.model": ("모델: {model}", "Model: {model}"),
    "status.no_document": ("문서를 열어 주세요 (Ctrl+O 또는 끌어다 놓기)", "Open a document (Ctrl+O or drag and drop)"),
    "status.reviewed": ("검토 {pct}% · 남은 항목 {pending}", "Reviewed {pct}% · {pending} pending"),
    "title.no_document": ("문서 없음", "No document"),
    # errors
    "error.open": ("문서를 열 수 없습니다.\n\n{message}", "The document could not be opened.\n\n{message}"),
    "error.detect": ("탐지 중 오류가 발생했습니다. 지금까지의 결과는 유지됩니다.\n\n{message}",
                     "Detection failed; results so far are kept.\n\n{message}"),
    "error.overwrite": ("원본 문서를 덮어쓸 수 없습니다. 다른 이름을 선택하세요.",
                        "The original document cannot be overwritten; choose another name."),
    "error.export": ("내보내지 못했습니다. 아무 파일도 쓰지 않았습니다.\n\n{message}",
                     "Export failed; nothing was written.\n\n{message}"),
    "error.export_format": ("이 문서는 다음 형식으로만 내보낼 수 있습니다: {formats}",
                            "This document can only be exported as: {formats}"),
    "error.autosave": ("자동 저장 실패: {message}", "Autosave failed: {message}"),
    "error.pending": ("미검토 항목이 {n}개 남아 있습니다. 검토하거나 처리 방법을 선택하세요.",
                      "{n} suggestions are still pending; review them or choose how to treat them."),
    # dialogs
    "dialog.documents": ("문서", "Documents"),
    "dialog.accept_above": ("이 점수 이상인 미검토 항목을 모두 승인:", "Accept every pending item scoring at least:"),
    "export.title": ("마스킹하여 내보내기", "Export masked document"),
    "export.styles": ("유형별 마스킹 방식", "Masking style per label"),
    "export.default_style": ("기타 유형", "Other labels"),
    "export.pending": ("미검토 항목 처리", "Pending suggestions"),
    "export.pending_block": ("내보내기 막기 (먼저 모두 검토)", "Block export (review them first)"),
    "export.pending_accept": ("승인한 것으로 (마스킹)", "Treat as accepted (mask them)"),
    "export.pending_reject": ("거부한 것으로 (그대로 둠)", "Treat as rejected (leave them)"),
    "export.pending_count": ("미검토 {n}개", "{n} pending"),
    "export.preview": ("미리보기", "Preview"),
    "export.output": ("저장 위치", "Save to"),
    "export.browse": ("찾아보기…", "Browse…"),
    "export.export": ("내보내기", "Export"),
    "export.cancel": ("취소", "Cancel"),
    "copies.title": ("가려지지 않은 사본", "Unmasked copies"),
    "copies.found": ("마스킹하는 값이 문서의 다른 곳에 {n}번 더 그대로 남아 있습니다. 이대로는 내보낼 수 없습니다.",
                     "{n} more occurrence(s) of values you mask remain unmasked elsewhere in the document; "
                     "the export cannot leave them."),
    "copies.question": ("이 사본들도 마스킹할까요? (승인한 항목으로 기록되며 실행 취소할 수 있습니다)",
                        "Mask these copies too? (They are recorded as accepted items; undo reverts it.)"),
    "copies.more": ("… 외 {n}개", "… and {n} more"),
    "copies.mask": ("사본도 마스킹", "Mask the copies too"),
    "copies.cancel": ("취소하고 검토로 돌아가기", "Cancel and review"),
    "copies.cancelled": ("내보내기를 취소했습니다. 아무 파일도 쓰지 않았습니다.",
                         "Export cancelled; nothing was written."),
    "export.preview_truncated": ("… (미리보기는 앞부분만 표시)", "… (preview shows the beginning only)"),
    "style.tag": ("태그 [인명]", "Tag [PERSON]"),
    "style.stars": ("별표 ***", "Stars ***"),
    "style.partial": ("일부 유지 (김**)", "Partial (김**)"),
    "style.pseudonym": ("가명 (인물1)", "Pseudonym (인물1)"),
    "settings.title": ("설정", "Settings"),
    "settings.model_dir": ("모델 폴더", "Model folder"),
    "settings.model_default": ("(내장 기본 모델)", "(embedded default model)"),
    "settings.model_ok": ("사용 가능: {desc}", "Usable: {desc}"),
    "settings.model_checking": ("확인 중…", "Checking…"),
    "settings.threads": ("스레드 수 (0 = 자동)", "Threads (0 = automatic)"),
    "settings.language": ("화면 언어", "Language"),
    "settings.default_style": ("기본 마스킹 방식", "Default masking style"),
    "settings.reset_model": ("기본 모델 사용", "Use default model"),
    "shortcuts.title": ("단축키", "Keyboard shortcuts"),
    "shortcuts.key": ("키", "Keys"),
    "shortcuts.action": ("동작", "Action"),
}


def tr(key: str, lang: str = "ko") -> str:
    pair = _CATALOGUE.get(key)
    if pair is None:
        return key  # a missing key shows itself rather than crashing
    return pair[1] if lang == "en" else pair[0]


def keys() -> list[str]:
    return list(_CATALOGUE)
