"""UI strings in Korean and English: a plain catalogue, ``tr(key, lang)``.

The one catalogue of the UI (the reviewer's tools' strings included; they used to live in a second
module, ``i18n_tools.py``, that patched this table on import). Every key has both languages (a test checks
it). Placeholders use ``str.format`` names. Label names come from ``veil_desktop.labels`` and are not
repeated here.
"""
from __future__ import annotations

import re

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
    "action.about": ("veil-desktop 정보 (라이선스)…", "About veil-desktop (licences)…"),
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
    "status.ocr": ("스캔 읽는 중(OCR): {page}/{total}쪽… (Esc: 취소)", "Reading the scan (OCR): page {page} of {total}… (Esc: cancel)"),
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
    "status.reviewed_hidden": ("검토 {pct}% · 남은 항목 {pending} (숨김 {hidden})",
                               "Reviewed {pct}% · {pending} pending ({hidden} hidden)"),
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
    "error.span_exists": ("같은 범위에 같은 유형의 항목이 이미 있습니다.",
                          "Another item already covers exactly this text with this label."),
    "error.empty_selection": ("선택한 부분에 표시할 글자가 없습니다.", "The selection holds no text to mark."),
    "error.autosave": ("자동 저장 실패: {message}", "Autosave failed: {message}"),
    "error.settings_reset": ("설정 파일을 읽을 수 없어 기본 설정으로 시작했습니다 (원래 파일은 {name}(으)로 보관).",
                             "The settings could not be read; started with the default settings (the file was "
                             "kept as {name})."),
    "error.pending": ("미검토 항목이 {n}개 남아 있습니다. 검토하거나 처리 방법을 선택하세요.",
                      "{n} suggestions are still pending; review them or choose how to treat them."),
    # dialogs
    "dialog.documents": ("문서", "Documents"),
    "dialog.mail": ("메일", "Mail"),
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
    "settings.default_threshold": ("새 문서의 표시 기준 점수", "Threshold for new documents"),
    "settings.skip_ids": ("영문·숫자 식별자(코드, 계정명 등)는 모델에 보이지 않기",
                          "Hide ASCII identifiers (codes, account names) from the model"),
    # masking styles per label (the example after the arrow is computed by the real Masker)
    "style.tag.name": ("태그", "Tag"),
    "style.stars.name": ("별표", "Stars"),
    "style.partial.name": ("일부 유지", "Partial"),
    "style.pseudonym.name": ("가명", "Pseudonym"),
    "style.example": ("{name} → {example}", "{name} → {example}"),
    "export.tag_lang": ("태그 언어", "Tag language"),
    "export.tag_lang_ko": ("한국어 [주민등록번호]", "Korean [주민등록번호]"),
    "export.tag_lang_en": ("영어 [RRN]", "English [RRN]"),
    "export.next": ("요약 보기…", "Review summary…"),
    # export summary (before writing)
    "summary.title": ("내보내기 전 요약", "Before exporting: summary"),
    "summary.intro": ("다음 내용으로 {name} 파일을 씁니다. 확인한 뒤 결정하세요.",
                      "This is what will be written to {name}. Check it, then decide."),
    "summary.col.label": ("유형", "Label"),
    "summary.col.accepted": ("승인 (마스킹)", "Accepted (masked)"),
    "summary.col.rejected": ("거부 (그대로)", "Rejected (kept)"),
    "summary.col.pending": ("미검토", "Pending"),
    "summary.col.hidden": ("기준 점수 미만", "Below threshold"),
    "summary.col.manual": ("수동", "Manual"),
    "summary.total": ("합계", "Total"),
    "summary.policy": ("미검토 항목 처리: {policy}", "Pending suggestions: {policy}"),
    "summary.removed": ("내보낼 때 제거되는 부분: {parts}", "Parts removed from the output: {parts}"),
    "summary.unreadable": ("읽을 수 없는 쪽 (검토되지 않음): {pages}", "Unreadable pages (not reviewed): {pages}"),
    "summary.unverifiable": ("너무 짧아 결과 파일에서 다시 확인할 수 없는 값: {n}개",
                             "Values too short to be re-checked in the output: {n}"),
    "summary.detection_incomplete": ("탐지가 문서 전체에 대해 끝나지 않았습니다 ({status}). 탐지되지 않은 부분의 개인정보는 그대로 남습니다.",
                                     "Detection has not finished for the whole document ({status}). Personal data in "
                                     "the part not yet detected stays in clear."),
    "summary.partial_ok": ("부분 검토인 줄 알고 내보냅니다 (보고서에 기록됨)",
                           "Export this partial review anyway (recorded in the report)"),
    "summary.below": ("기준 점수 {t} 미만의 제안 {n}개는 마스킹되지 않고 그대로 남습니다.",
                      "{n} suggestions under {t} will stay unmasked."),
    "summary.below_ok": ("기준 점수 미만 제안 {n}개를 그대로 두는 데 동의합니다 (보고서에 기록됨)",
                         "Leave the {n} suggestions under {t} unmasked (recorded in the report)"),
    "summary.pending_blocked": ("미검토 항목 {n}개: 먼저 검토하거나 내보내기 창에서 처리 방법을 고르세요.",
                                "{n} pending suggestions: review them first or choose how to treat them in "
                                "the export dialog."),
    "summary.ready": ("내보낼 준비가 되었습니다.", "Ready to export."),
    "summary.export": ("내보내기", "Export"),
    "summary.back": ("돌아가기", "Back"),
    "detection.complete": ("완료", "complete"),
    "detection.running": ("진행 중", "still running"),
    "detection.cancelled": ("취소됨", "cancelled"),
    "detection.failed": ("실패", "failed"),
    "detection.not_run": ("실행 안 됨", "not run"),
    # export result (after writing)
    "result.title": ("내보내기 완료", "Export finished"),
    "result.written": ("마스킹한 파일을 썼습니다:", "The masked file was written:"),
    "result.report": ("보고서: {path}", "Report: {path}"),
    "result.replacements": ("바꾼 곳: {n}곳", "Replacements: {n}"),
    "result.leak_clean": ("누출 검사: 깨끗함 — 마스킹한 값 {n}개를 결과 파일에서 다시 찾지 못했습니다.",
                          "Leak check: clean — none of the {n} masked values was found in the output."),
    "result.leak_other": ("누출 검사: {result}", "Leak check: {result}"),
    "result.unverifiable": ("너무 짧아 다시 확인하지 못한 값: {n}개", "Values too short to re-check: {n}"),
    "result.partial": ("부분 검토로 내보냈습니다 (탐지: {status}). 보고서에 기록되었습니다.",
                       "Exported as a partial review (detection: {status}); the report says so."),
    "result.below": ("기준 점수 미만 제안 {n}개를 마스킹하지 않았습니다 (보고서에 기록됨).",
                     "{n} suggestions below the threshold were left unmasked (recorded in the report)."),
    "result.warnings": ("경고:", "Warnings:"),
    "result.open_folder": ("폴더 열기", "Open folder"),
    "result.close": ("닫기", "Close"),
    # replacing an existing file
    "overwrite.title": ("파일 바꾸기", "Replace file"),
    "overwrite.question": ("{name} 파일이 이미 있습니다. 바꿀까요?\n\n{folder}",
                           "{name} already exists. Replace it?\n\n{folder}"),
    "overwrite.replace": ("바꾸기", "Replace"),
    "overwrite.cancel": ("취소", "Cancel"),
    # bulk-action hit lists
    "hits.accept_above.title": ("점수 {score} 이상 승인", "Accept at or above {score}"),
    "hits.accept_all_same.title": ("같은 값 모두 승인", "Accept every occurrence"),
    "hits.reject_all_same.title": ("같은 값 모두 거부", "Reject every occurrence"),
    "hits.copies.title": ("가려지지 않은 사본 마스킹", "Mask unmasked copies"),
    "hits.intro": ("{n}곳이 해당됩니다. 체크한 항목에만 적용됩니다 (한 번에 실행 취소 가능).",
                   "{n} places match. Only the checked ones are changed (one undo step)."),
    "hits.copies_intro": ("마스킹하는 값이 {n}곳에 더 그대로 남아 있습니다. 체크한 사본을 마스킹합니다. 체크하지 않은 사본이 남으면 내보내기는 막힌 채로 있습니다 (값을 거부하거나 사본을 마스킹하세요).",
                          "{n} more copies of values you mask remain in clear. The checked copies are masked; "
                          "while an unchecked copy remains the export stays blocked (reject the value or mask "
                          "the copy)."),
    "hits.col.use": ("적용", "Apply"),
    "hits.col.context": ("문맥", "Context"),
    "hits.col.label": ("유형", "Label"),
    "hits.col.score": ("점수", "Score"),
    "hits.col.where": ("구역·쪽", "Section/page"),
    "hits.in_word": ("단어 일부", "inside a word"),
    "hits.in_word_whole": ("단어 일부 → 단어 전체를 마스킹", "inside a word → whole word masked"),
    "hits.include_partial": ("단어 안에서 찾은 것도 포함", "Include matches inside words"),
    "hits.check_all": ("모두 체크", "Check all"),
    "hits.check_none": ("모두 해제", "Uncheck all"),
    "hits.checked": ("{n}/{total}개 체크됨", "{n} of {total} checked"),
    "hits.apply.accept": ("체크한 {n}개 승인", "Accept {n} checked"),
    "hits.apply.reject": ("체크한 {n}개 거부", "Reject {n} checked"),
    "hits.apply.mask": ("체크한 {n}개 마스킹", "Mask {n} checked"),
    "hits.cancel": ("취소", "Cancel"),
    "hits.none": ("해당하는 항목이 없습니다.", "Nothing matches."),
    "hits.left_blocked": ("사본 {n}개를 마스킹하지 않았습니다. 내보내기는 막혀 있습니다: 해당 값을 거부하거나 사본도 마스킹하세요.",
                          "{n} copies were left unmasked; the export stays blocked: reject the value or mask "
                          "those copies too."),
    # undo texts (the state's own descriptions are English identifiers; these are shown instead)
    "undo.accepted": ("승인 {n}개", "accept {n}"),
    "undo.rejected": ("거부 {n}개", "reject {n}"),
    "undo.pending": ("미검토로 {n}개", "back to pending {n}"),
    "undo.accept_above": ("점수 이상 승인", "accept above score"),
    "undo.mark": ("표시: {label}", "mark {label}"),
    "undo.adjust": ("경계 조정", "adjust boundaries"),
    "undo.relabel": ("유형 변경: {label}", "change label: {label}"),
    "undo.mask_copies": ("사본 마스킹 {n}개", "mask copies {n}"),
    "undo.bulk": ("일괄 {n}개", "bulk {n}"),
    "undo.other": ("{text}", "{text}"),
    "status.rejected_n": ("{n}개 거부", "Rejected {n}"),
    # banner
    "banner.incomplete": ("⚠ 탐지가 끝나지 않았습니다 ({status}): 항목 {n}개까지만 찾았습니다. 다시 탐지(F5)하기 전에는 내보낼 수 없습니다 (부분 검토로 내보내기를 직접 고르지 않는 한).",
                          "⚠ Detection has not finished ({status}): only {n} items found so far. Export is "
                          "blocked until detection is run again (F5), unless you explicitly export a partial "
                          "review."),
    "banner.unreadable": ("⚠ 읽을 수 없는 쪽: {pages} — 이 쪽의 내용은 검토되지 않았습니다.",
                          "⚠ Unreadable pages: {pages} — their content was not reviewed."),
    "banner.rerun": ("다시 탐지", "Run again"),
    # honest progress, relabel, wrap
    "status.detecting_n": ("탐지 중… 항목 {n}개", "Detecting… {n} items so far"),
    "status.model_loading": ("모델: 불러오는 중", "Model: loading"),
    "status.wrapped_end": ("문서 끝에서 처음으로 돌아왔습니다", "Wrapped to the start of the document"),
    "status.wrapped_start": ("문서 처음에서 끝으로 돌아왔습니다", "Wrapped to the end of the document"),
    "action.change_label": ("유형 바꾸기…", "Change label…"),
    "dialog.change_label": ("새 유형:", "New label:"),
    "col.where": ("구역·쪽", "Section/page"),
    "ok": ("확인", "OK"),
    "cancel": ("취소", "Cancel"),
    "close": ("닫기", "Close"),
    # About box (ui/about.py): notices and licence texts shipped with the app
    "about.title": ("veil-desktop 정보", "About veil-desktop"),
    "about.intro": ("veil-desktop {version} — 한국어 문서의 개인정보를 오프라인에서 가리는 도구. "
                    "내장 모델·글꼴·프로그램의 고지와 라이선스 전문입니다.",
                    "veil-desktop {version} — offline redaction of personal information in Korean documents. "
                    "Notices and full licence texts of the program, the embedded model and the font."),
    "about.tab.NOTICE": ("고지 (NOTICE)", "Notice (NOTICE)"),
    "about.tab.LICENSE": ("프로그램 라이선스 (Apache-2.0)", "Program licence (Apache-2.0)"),
    "about.tab.OFL.txt": ("글꼴 라이선스 (OFL 1.1)", "Font licence (OFL 1.1)"),
    "about.tab.THIRD-PARTY-LICENSES.txt": ("포함된 외부 패키지 라이선스", "Third-party licences"),
    "about.missing": ("라이선스 파일을 찾을 수 없습니다: {name}. 설치가 손상되었을 수 있습니다.",
                      "Licence file not found: {name}. The installation may be damaged."),
    "shortcuts.title": ("단축키", "Keyboard shortcuts"),
    "shortcuts.key": ("키", "Keys"),
    "shortcuts.action": ("동작", "Action"),
    # document section captions (keys of documents.model.CAPTIONS_EN; the core writes English)
    "caption.body": ("본문", "Body"),
    "caption.section": ("구역 {detail}", "Section {detail}"),
    "caption.header": ("머리글 {detail}", "Header {detail}"),
    "caption.footer": ("바닥글 {detail}", "Footer {detail}"),
    "caption.footnotes": ("각주", "Footnotes"),
    "caption.endnotes": ("미주", "Endnotes"),
    "caption.comments": ("메모", "Comments"),
    "caption.comment": ("메모 {detail}", "Comment {detail}"),
    "caption.textbox": ("글상자", "Text box"),
    "caption.footnote": ("각주", "Footnote"),
    "caption.endnote": ("미주", "Endnote"),
    "caption.memo": ("메모 {detail}", "Memo {detail}"),
    "caption.chart": ("차트·도형", "Chart / diagram"),
    "caption.glossary": ("상용구", "Building blocks"),
    "caption.settings": ("문서 설정", "Document settings"),
    "caption.styles": ("스타일·번호", "Styles and numbering"),
    "caption.customxml": ("사용자 XML", "Custom XML data"),
    "caption.other": ("기타 문서 데이터", "Other document data"),
    "caption.links": ("링크 대상", "Link targets"),
    "caption.metadata": ("문서 속성", "Document properties"),
    "caption.removed": ("내보내기에서 제거됨", "Removed from the export"),
    "caption.deleted": ("변경 추적 삭제", "Tracked deletion"),
    "caption.removed_chunk": ("삽입된 HTML/RTF (제거됨)", "Embedded HTML/RTF (removed)"),
    "caption.binary_payload": ("이진 데이터 (비움)", "Binary data (emptied)"),
    "caption.alt": ("대체 텍스트", "Alt text"),
    "caption.alt_title": ("대체 텍스트 제목", "Alt text title"),
    "caption.object_name": ("개체 이름", "Object name"),
    "caption.shape_text": ("도형 텍스트", "Shape text"),
    "caption.field": ("필드", "Field"),
    "caption.link_tip": ("링크 설명", "Link tooltip"),
    "caption.form": ("양식 필드", "Form field"),
    "caption.control": ("콘텐츠 컨트롤", "Content control"),
    "caption.bookmark": ("책갈피", "Bookmark"),
    "caption.variable": ("문서 변수", "Document variable"),
    "caption.mail_merge": ("편지 병합", "Mail merge"),
    "caption.attribute": ("속성", "Attribute"),
    "caption.scripts": ("스크립트", "Scripts"),
    "caption.meta_title": ("제목", "Title"),
    "caption.meta_subject": ("주제", "Subject"),
    "caption.meta_keywords": ("키워드", "Keywords"),
    "caption.meta_description": ("설명", "Comments"),
    "caption.meta_category": ("범주", "Category"),
    "caption.meta_status": ("상태", "Status"),
    "caption.meta_author": ("작성자", "Author"),
    "caption.meta_last_modified_by": ("마지막 수정자", "Last modified by"),
    "caption.meta_company": ("회사", "Company"),
    "caption.meta_manager": ("관리자", "Manager"),
    "caption.meta_template": ("서식 파일", "Template"),
    "caption.meta_custom": ("사용자 지정 속성", "Custom property"),
    "caption.meta_other": ("속성", "Property"),
    "caption.meta_comment_author": ("메모 작성자", "Comment author"),
    "caption.page": ("{detail}쪽", "Page {detail}"),
    "caption.picture": ("그림 {detail}", "Picture {detail}"),
    "caption.mail_headers": ("메일 헤더", "Mail headers"),
    "caption.mail_forwarded": ("전달된 메일", "Forwarded message"),
    "caption.attachment": ("첨부 {detail}", "Attachment {detail}"),
    "caption.attachment_removed": ("첨부 {detail} (제거됨)", "Attachment {detail} (removed)"),
    # -- the reviewer's tools: find bar, term lists, workspace, page view (were ui/i18n_tools.py) --
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
    # export all: one summary before writing (issue 22)
    "exportall.intro": ("목록의 문서 {n}개를 {folder}에 내보내기 전에 확인하십시오. 아직 아무것도 쓰지 않았습니다.",
                        "Check the {n} listed document(s) before they are written to {folder}. Nothing is written yet."),
    "exportall.col.doc": ("문서", "Document"),
    "exportall.col.outcome": ("처리", "Outcome"),
    "exportall.col.pending": ("미검토", "Pending"),
    "exportall.col.hidden": ("숨김", "Hidden"),
    "exportall.col.partial": ("탐지 미완료", "Partial"),
    "exportall.col.unreadable": ("읽지 못한 쪽", "Unreadable pages"),
    "exportall.partial_yes": ("예 (일부만 탐지)", "yes (partly detected)"),
    "exportall.will_export": ("내보냄", "exported"),
    "exportall.skip.hidden": ("내보내지 않음: 숨김 제안 미결정", "not exported: hidden suggestions undecided"),
    "exportall.skip.pending": ("내보내지 않음: 미검토 항목", "not exported: suggestions pending"),
    "exportall.skip.partial": ("내보내지 않음: 탐지가 끝나지 않음", "not exported: detection did not finish"),
    "exportall.skip.queued": ("내보내지 않음: 아직 탐지하지 않음", "not exported: not detected yet"),
    "exportall.skip.detecting": ("내보내지 않음: 탐지 중", "not exported: detection running"),
    "exportall.skip.failed": ("내보내지 않음: 읽지 못함", "not exported: could not be read"),
    "exportall.skip.unreadable_file": ("내보내지 않음: 읽지 못함", "not exported: could not be read"),
    "exportall.skip.no_session": ("내보내지 않음: 저장된 검토 없음", "not exported: no saved review"),
    "exportall.below_ok": ("기준 점수 미만이라 숨겨진 제안 {n}개(문서 {d}개)를 마스킹하지 않고 내보냅니다",
                           "Export leaving {n} suggestion(s) hidden below the threshold unmasked ({d} document(s))"),
    "exportall.count": ("내보낼 문서 {n}개, 내보내지 않을 문서 {skipped}개",
                        "{n} document(s) to export, {skipped} not exported"),
    "exportall.export": ("내보내기", "Export"),
    "exportall.checking": ("내보낼 문서를 확인하는 중…", "Checking the documents to export…"),
    # coverage: the share of the document detected (issue 22)
    "status.detecting_cov": ("탐지 중… 문서의 {pct}% 확인 · 항목 {n}개", "Detecting… {pct}% of the document checked · {n} items so far"),
    "summary.coverage": ("탐지한 부분: 문서 {total:,}자 중 {done:,}자 ({pct}%). 나머지 {left:,}자는 검사하지 않았습니다.",
                         "Detected: {done:,} of {total:,} characters ({pct}%). The other {left:,} characters were never checked."),
    "result.partial_unchecked": ("문서의 {pct}%만 탐지했습니다. 나머지 {left:,}자(전체 {total:,}자 중)는 개인정보를 검사하지 않았으므로 "
                                 "그대로 남아 있을 수 있습니다.",
                                 "Only {pct}% of the document was detected: the other {left:,} of {total:,} characters were never "
                                 "checked for personal information and may still hold it in clear."),
    "result.leak_partial": ("누출 검사: 마스킹한 값 {n}개는 결과 파일에 남아 있지 않습니다. 그러나 탐지하지 않은 부분은 검사하지 않았습니다.",
                            "Leak check: the {n} masked value(s) are not in the output. But the part never detected was not checked."),
    # export all: each document's outcome in the UI language (review.workspace.ExportRow.code)
    "exportall.fail.copies": ("내보내지 않음: 마스킹한 값의 사본 {n}개가 가려지지 않은 채 남아 있습니다",
                              "not exported: {n} unmasked copy/copies of masked values remain"),
    "exportall.fail.exists": ("내보내지 않음: 같은 이름의 파일이 이미 있습니다 (바꾸지 않음)",
                              "not exported: a file of that name already exists (not replaced)"),
    "exportall.fail.no_session": ("내보내지 않음: 저장된 검토 없음 (검토 뒤 파일이 바뀌었습니까?)",
                                  "not exported: no saved review (did the file change after the review?)"),
    "exportall.fail.not_finished": ("내보내지 않음: 탐지가 끝나지 않음", "not exported: detection did not finish"),
    "exportall.fail.pending": ("내보내지 않음: 미검토 항목이 남아 있음", "not exported: suggestions still pending"),
    "exportall.fail.leak": ("내보내지 않음: 누출 검사에서 가려지지 않은 값이 발견됨",
                            "not exported: the leak check found an unmasked value"),
    "exportall.fail.error": ("내보내지 않음: 쓰기 실패", "not exported: writing failed"),
    "exportall.fail.queued": ("내보내지 않음: 아직 탐지하지 않음", "not exported: not detected yet"),
    "exportall.fail.detecting": ("내보내지 않음: 탐지 중", "not exported: detection running"),
    "exportall.fail.unreadable": ("내보내지 않음: 읽지 못함", "not exported: could not be read"),
    "exportall.fail.cancelled": ("내보내지 않음: 취소됨", "not exported: cancelled"),
    "exportall.fail.same_name": ("내보내지 않음: 다른 문서와 결과 파일 이름이 같음",
                                 "not exported: same output name as another document"),
    "exportall.fail.original": ("내보내지 않음: 결과가 원본을 덮어쓰게 됨", "not exported: the output would replace the original"),
    "exportall.fix": ("사본 목록 보기…", "Show the copies…"),
    # start-up check of the Qt platform's system libraries (ui/system_libs.py)
    "startup.missing_libs": ("veil-desktop 창을 열 수 없습니다. Qt의 X11(xcb) 화면 모듈에 필요한 시스템 라이브러리가 없습니다: {libs}\n"
                             "설치 명령 (Debian/Ubuntu): {apt}\n(창 없이 확인하려면 QT_QPA_PLATFORM=offscreen)",
                             "veil-desktop cannot open its window: system libraries that Qt's X11 (xcb) platform needs are "
                             "missing: {libs}\nInstall them (Debian/Ubuntu): {apt}\n(to run without a window: "
                             "QT_QPA_PLATFORM=offscreen)"),
    # scans in review (issue 22): the OCR banner, a needs-review scan confirmed page by page
    "banner.ocr": ("🔍 OCR로 읽은 문서입니다: {pages}쪽, 평균 신뢰도 {conf}%. OCR이 잘못 읽은 숫자나 이름은 제안되지 않을 수 "
                   "있으니 쪽 보기에서 원본과 대조하십시오.",
                   "🔍 This document was read by OCR: {pages} page(s), mean confidence {conf}%. Digits or names OCR "
                   "misread may not be suggested: compare with the original in the page view."),
    "summary.held": ("검토가 필요한 부분 {n}곳: 읽지 못했거나 OCR로 확실히 읽지 못해 검사하지 않은 쪽입니다. 쪽마다 직접 확인해야 "
                     "내보낼 수 있습니다.",
                     "{n} part(s) need review: pages not read, or not read reliably by OCR, so never checked. Confirm "
                     "each one to export."),
    "summary.held_ok": ("원본에서 직접 확인했습니다: {item}", "I checked it in the original myself: {item}"),
    # find errors in the UI language (ui/find_bar.find_error_text)
    "find.err.empty": ("찾을 내용을 입력하십시오.", "Type something to find."),
    "find.err.long": ("찾을 내용이 너무 깁니다 (최대 {n}자).", "The search text is too long (at most {n} characters)."),
    "find.err.regex": ("정규식이 올바르지 않습니다.", "Not a valid regular expression."),
    "find.err.at": ("({pos}번째 글자 근처)", "(near character {pos})"),
    "find.err.complex": ("정규식이 너무 복잡합니다.", "The regular expression is too complex."),
    "find.err.empty_match": ("이 패턴은 빈 문자열과 일치합니다. 한 글자 이상과 일치하게 고치십시오.",
                             "The pattern matches empty text; make it match at least one character."),
    "find.err.other": ("찾을 수 없는 패턴입니다.", "This pattern cannot be searched."),
    "find.mark_list.title": ("모두 표시: 찾은 곳 {n}곳", "Mark all: {n} match(es)"),
    # the readers' notes after an export (ui/export_summary.note_text)
    "note.ocr_text": ("OCR로 읽은 글자입니다 ({n}쪽). OCR이 놓친 내용은 쪽 이미지에서 확인하십시오.",
                      "Text recognised by OCR ({n} page(s)); check the page image for what OCR missed."),
    "note.ocr_unreadable": ("OCR로 확실히 읽지 못한 쪽 (검토 필요): {pages}쪽", "Pages OCR could not read reliably (needs review): {pages}"),
    "note.pdf_ocr": ("{m}쪽 중 {n}쪽은 글자 층이 없어(스캔?) OCR로 읽었습니다: 쪽 이미지와 글자를 대조하십시오.",
                     "{n} of {m} page(s) have no usable text layer (scanned?) and were read by OCR: compare the page image with the text."),
    "note.pdf_no_text": ("{m}쪽 중 {n}쪽은 글자 층이 없습니다(스캔?): 그 내용은 탐지할 수 없고 그대로 내보냅니다.",
                         "{n} of {m} page(s) have no text layer (scanned?); their content cannot be detected and is exported as is."),
    "note.pdf_needs_review": ("검토 필요: {pages}쪽의 내용을 글자로 읽을 수 없었습니다 (글자 층 없음, 그림, 또는 글꼴과 맞지 않는 글자 층).",
                              "Needs review: page(s) {pages} hold content that could not be read as text."),
    "note.pdf_pictures": ("글자가 있는 쪽의 그림({n}개)을 OCR로 읽었습니다.",
                          "Pictures on pages with text ({n}) were read by OCR."),
    "note.pdf_pictures_read": ("{pages}쪽 그림에서 OCR로 읽은 글자를 검토할 수 있게 보여 줍니다: 가린 값은 쪽에 검게 "
                               "칠하고, 결과의 쪽을 OCR로 다시 읽어 확인합니다.",
                               "Text OCR read in pictures on page(s) {pages} is shown for review; masked values are "
                               "burned into the page and the output's pages are read again by OCR."),
    "note.pdf_pictures_blank": ("{pages}쪽에서 글자가 있는 그림을 흰색으로 칠했습니다 (그림 정책).",
                                "Pictures holding text on page(s) {pages} were painted white (picture policy)."),
    "note.pdf_raster": ("PDF 결과는 검은 상자를 그려 넣은 이미지 사본입니다 (글자 층 없음).",
                        "PDF export is a rasterised copy with black boxes burned in (no text layer)."),
    "ws.problems": ("추가하지 못한 항목:", "Not added:"),
    # PDF page view
    "pdf.pages": ("쪽 보기", "Pages"),
    "action.pdf_pages": ("쪽 보기", "Pages"),
    "pdf.text": ("텍스트 보기", "Text"),
    "pdf.page_n": ("{i} / {n}쪽", "Page {i} of {n}"),
    "pdf.not_pdf": ("쪽 보기는 PDF와 이미지 문서에서만 쓸 수 있습니다.",
                    "The page view is for PDF and image documents only."),
    "action.zoom_in": ("쪽 확대", "Zoom in"),
    "action.zoom_out": ("쪽 축소", "Zoom out"),
    "action.zoom_fit": ("쪽 너비에 맞춤", "Fit width"),
    "pdf.zoom": ("쪽 보기 배율 {pct}% (너비에 맞춤 = 100%)", "Page zoom {pct}% (fit width = 100%)"),
    "pdf.zoom_pages_only": ("확대·축소는 쪽 보기(F6)에서 쓸 수 있습니다.", "Zoom works in the page view (F6)."),
    # disclosure workflow (issue 24: ui/tools/disclosure.py, ui/tools/disclosure_dialogs.py)
    "action.set_reason": ("비공개 사유 지정…", "Set disclosure reason…"),
    "action.duplicates": ("중복 쪽·문단…", "Duplicate pages/paragraphs…"),
    "action.export_review": ("검토 파일 내보내기…", "Export review file…"),
    "action.import_review": ("검토 파일 가져오기…", "Import review file…"),
    "action.merge_review": ("다른 검토와 병합…", "Merge with another review…"),
    "action.export_xfdf": ("XFDF 내보내기 (PDF)…", "Export XFDF (PDF)…"),
    "action.import_xfdf": ("XFDF 가져오기 (PDF)…", "Import XFDF (PDF)…"),
    "col.reason": ("비공개 사유", "Reason"),
    "reason.default_mark": ("{code} (기본)", "{code} (default)"),
    "reason.none": ("없음", "none"),
    "reason.item": ("{n}호", "item {n}"),
    "reason.other": ("기타…", "Other…"),
    "reason.other_short": ("기타", "other"),
    "reason.clear": ("기본값으로 (유형별 기본 사유)", "Back to the label's default"),
    "reason.title": ("비공개 사유 (제9조제1항)", "Disclosure reason (Art. 9(1))"),
    "reason.other_prompt": ("기타 사유 (120자 이하):", "Other reason (at most 120 characters):"),
    "reason.applied": ("비공개 사유 {reason}: {n}개 항목", "Reason {reason}: {n} items"),
    "reason.no_items": ("사유를 지정할 항목을 선택하세요.", "Select the items to give a reason."),
    "reason.in_output": ("출력에 사유 표기", "Print the reason in the output"),
    "reason.in_output_none": ("표기 안 함", "Do not print"),
    "reason.in_output_long": ("긴 표기 [비공개 제9조제1항제6호]", "Long [withheld: Art. 9(1) item 6]"),
    "reason.in_output_short": ("짧은 표기 (6호)", "Short (item 6)"),
    "reason.log": ("가림 기록(CSV, 인쇄용 PDF)을 출력 옆에 쓰기",
                   "Write the redaction log (CSV and a printable PDF) beside the output"),
    "settings.reviewer": ("검토자 이름", "Reviewer name"),
    "settings.reasons": ("유형별 기본 비공개 사유", "Default reason per label"),
    "review_file.filter": ("veil 검토 파일 (*.veil-review.json)", "veil review files (*.veil-review.json)"),
    "review_file.exported": ("검토 파일을 저장했습니다: {path} ({n}개 항목)", "Review file saved: {path} ({n} items)"),
    "review_file.imported": ("검토 파일을 가져왔습니다 ({reviewer}): {n}개 항목 변경",
                             "Review imported ({reviewer}): {n} items changed"),
    "review_file.error": ("검토 파일 오류: {message}", "Review file error: {message}"),
    "review_file.no_conflicts": ("충돌 없이 병합했습니다: {n}개 항목 변경", "Merged without conflicts: {n} items changed"),
    "merge.title": ("검토 병합: 충돌 {n}개", "Merge reviews: {n} conflicts"),
    "merge.intro": ("두 검토가 다르게 결정한 항목입니다. 행마다 A 또는 B를 고르세요 (키 A / B). "
                    "같은 결정과 한쪽에만 있는 항목은 그대로 합쳐집니다.",
                    "The items the two reviews decided differently. Choose A or B for each row (keys A / B). "
                    "Agreed items and items only one review has are merged as they are."),
    "merge.col.pos": ("위치", "Pos"),
    "merge.col.masked": ("가림 표시", "Masked as"),
    "merge.col.a": ("A: {who}", "A: {who}"),
    "merge.col.b": ("B: {who}", "B: {who}"),
    "merge.col.choice": ("선택", "Choice"),
    "merge.absent": ("(없음)", "(none)"),
    "merge.this_review": ("이 검토", "this review"),
    "merge.apply": ("병합 적용", "Apply merge"),
    "merge.cancel": ("취소", "Cancel"),
    "merge.all_a": ("모두 A", "All A"),
    "merge.all_b": ("모두 B", "All B"),
    "merge.left": ("남은 충돌: {n}", "Conflicts left: {n}"),
    "xfdf.filter": ("XFDF 주석 (*.xfdf)", "XFDF annotations (*.xfdf)"),
    "xfdf.pdf_only": ("XFDF는 PDF 문서에서만 쓸 수 있습니다.", "XFDF is for PDF documents only."),
    "xfdf.exported": ("XFDF를 저장했습니다: {path} (가림 주석 {n}개)", "XFDF saved: {path} ({n} redaction annotations)"),
    "xfdf.imported": ("XFDF를 가져왔습니다: {n}개 항목 변경", "XFDF imported: {n} items changed"),
    "xfdf.error": ("XFDF 오류: {message}", "XFDF error: {message}"),
    "dup.title": ("중복 쪽·문단", "Duplicate pages and paragraphs"),
    "dup.intro": ("작업 공간의 문서에서 같거나 거의 같은 쪽·문단입니다. 화면의 문서에서 결정한 뒤 "
                  "\u201c모든 사본에 적용\u201d을 누르면 같은 결정이 모든 사본에 적용됩니다.",
                  "Identical or near-identical pages and paragraphs across the workspace. Decide them in the "
                  "document on screen, then 'Apply to all copies' carries the decisions to every copy."),
    "dup.col.group": ("묶음", "Group"),
    "dup.col.doc": ("문서", "Document"),
    "dup.col.where": ("쪽·문단", "Page/paragraph"),
    "dup.col.kind": ("종류", "Kind"),
    "dup.identical": ("동일", "identical"),
    "dup.near": ("유사", "near-identical"),
    "dup.page": ("{n}쪽", "page {n}"),
    "dup.paragraph": ("{n}번째 문단", "paragraph {n}"),
    "dup.apply": ("모든 사본에 적용", "Apply to all copies"),
    "dup.close": ("닫기", "Close"),
    "dup.none": ("중복된 쪽·문단이 없습니다.", "No duplicate pages or paragraphs."),
    "dup.need_source": ("화면의 문서에 있는 쪽·문단 행을 고르세요.", "Choose a row of the document on screen."),
    "dup.applied": ("중복 사본 {docs}곳에 {n}개 결정을 적용했습니다.", "Applied {n} decisions to {docs} copies."),
    "dup.unreadable": ("읽지 못한 문서: {names}", "Documents not read: {names}"),
    # model folder problems (detect/model_folder.ModelFolderError.code; English shows the loader's sentence)
    "model_error.invalid": ("모델 폴더 {folder}을(를) 쓸 수 없습니다.", "The model folder {folder} cannot be used."),
    "model_error.missing": ("모델 폴더가 없습니다: {folder}\n설정 파일, 토크나이저, ONNX 모델이 든 폴더를 고르십시오. "
                            "비워 두면 내장 소형 모델을 씁니다.",
                            "There is no model folder at {folder}."),
    "model_error.embedded_missing": ("내장 모델이 없습니다 ({folder}). 설정 ▸ 모델 폴더에서 모델 폴더를 고르십시오.",
                                     "The embedded model is missing ({folder})."),
    "model_error.not_folder": ("{folder}은(는) 폴더가 아닙니다. 설정 파일, 토크나이저, ONNX 모델이 든 폴더를 고르십시오.",
                               "{folder} is not a folder."),
    "model_error.incomplete": ("모델 폴더에 {file} 파일이 없습니다: {folder}",
                               "The model folder {folder} has no {file}."),
    "model_error.unreadable": ("모델 폴더의 {file} 파일을 읽을 수 없습니다: {folder}",
                               "{file} in the model folder {folder} cannot be read."),
    "model_error.too_large": ("모델 폴더의 {file} 파일이 너무 큽니다: {folder}",
                              "{file} in the model folder {folder} is too large."),
    "model_error.bad_json": ("모델 폴더의 {file} 파일이 올바른 JSON 설정 파일이 아닙니다: {folder}",
                             "{file} in the model folder {folder} is not a valid JSON configuration."),
    "model_error.bad_labels": ("{file}의 레이블 목록이 올바른 BIOES 레이블 집합이 아닙니다 (모델 폴더: {folder})",
                               "The labels in {file} are not a valid BIOES label set (model folder {folder})."),
    "model_error.bad_tokenizer": ("모델 폴더의 토크나이저({file})를 쓸 수 없습니다: {folder}",
                                  "The tokenizer ({file}) of the model folder {folder} cannot be used."),
    "model_error.no_tokenizer": ("모델 폴더에 토크나이저 파일이 없습니다: {folder}",
                                 "The model folder {folder} has no tokenizer file."),
    "model_error.missing_file": ("모델 폴더에 ONNX 파일 {file}이(가) 없습니다: {folder}",
                                 "The ONNX file {file} is not in the model folder {folder}."),
    "model_error.no_onnx": ("모델 폴더에 ONNX 모델 파일이 없습니다: {folder}",
                            "The model folder {folder} has no ONNX model file."),
    "model_error.several_onnx": ("모델 폴더에 ONNX 파일이 여러 개 있고 기본 파일이 없습니다. 쓸 파일 하나만 남기십시오: {folder}",
                                 "The model folder {folder} has several ONNX files and no default one."),
    "model_error.bad_onnx": ("{file}은(는) 쓸 수 있는 토큰 분류 ONNX 모델이 아닙니다 (모델 폴더: {folder})",
                             "{file} is not a usable token-classification ONNX model (model folder {folder})."),
    # term list problems (review/terms.Problem.code)
    "terms_error.line": ("{line}번째 줄: {text}", "line {line}: {text}"),
    "terms_error.duplicate": ("\u201c{term}\u201d이(가) 다른 동작이나 유형으로 두 번 있습니다",
                              "'{term}' is listed twice with different actions or labels"),
    "terms_error.too_many": ("용어가 너무 많습니다 (최대 {max}개)", "too many terms (at most {max})"),
    "terms_error.header": ("첫 줄은 머리글 \u201c{header}\u201d이어야 합니다", "the first line must be the header '{header}'"),
    "terms_error.columns": ("열이 3개(용어, 동작, 유형)여야 하는데 {found}개입니다",
                            "expected 3 columns (term, action, label), found {found}"),
    "terms_error.action": ("동작은 {mask}(마스킹) 또는 {keep}(유지)이어야 합니다 (입력: \u201c{found}\u201d)",
                           "action must be 'mask' or 'keep' (found '{found}')"),
    "terms_error.needs_label": ("마스킹할 용어에는 유형이 필요합니다 (예: 인명, 기관, 기타)",
                                "a mask term needs a label (e.g. PERSON, ORGANIZATION, OTHER)"),
    "terms_error.unknown_label": ("알 수 없는 유형 \u201c{label}\u201d", "unknown label '{label}'"),
    "terms_error.empty_term": ("빈 용어", "empty term"),
    "terms_error.too_long": ("용어가 {max}자보다 깁니다", "term longer than {max} characters"),
    "terms_error.control": ("용어에 줄바꿈이나 제어 문자가 있습니다", "term contains a line break or control character"),
    "terms_error.empty_file": ("파일이 비어 있습니다. 첫 줄은 머리글 \u201c{header}\u201d이어야 합니다",
                               "the file is empty; the first line must be the header '{header}'"),
    "terms_error.lines": ("{n}개 줄을 읽을 수 없습니다. 첫 오류: {first}", "{n} line(s) could not be read: {first}"),
    "terms_error.too_large": ("{name} 파일이 용어 목록으로 쓰기에 너무 큽니다 ({kb} KB)",
                              "{name} is too large for a term list ({kb} KB)"),
    "terms_error.missing": ("{name} 파일이 없습니다", "{name} does not exist"),
    "terms_error.folder": ("{name}은(는) 폴더입니다. CSV 파일을 고르십시오", "{name} is a folder, not a CSV file"),
    "terms_error.unreadable": ("{name} 파일을 읽을 수 없습니다", "{name} cannot be read"),
    "terms_error.not_utf8": ("{name} 파일이 UTF-8 글자가 아닙니다 ({byte}번째 바이트). UTF-8 CSV로 저장하십시오",
                             "{name} is not UTF-8 text (byte {byte}); save it as UTF-8 CSV"),
    "terms_error.write_failed": ("{name} 파일을 쓸 수 없습니다", "{name} could not be written"),
    # document problems (documents/ DocumentError messages, matched by ui/i18n.document_error_text)
    "doc_error.missing": ("{name} 파일이 없습니다.", "{name} does not exist."),
    "doc_error.not_file": ("{name}은(는) 파일이 아닙니다.", "{name} is not a file."),
    "doc_error.too_large": ("{name} 파일이 너무 큽니다 ({mb} MB).", "{name} is too large ({mb} MB)."),
    "doc_error.unreadable": ("{name} 파일을 읽을 수 없습니다.", "{name} cannot be read."),
    "doc_error.memory": ("{name} 파일을 여는 중 메모리가 부족했습니다 (너무 크거나 메모리를 고갈시키도록 만든 파일). "
                         "더 작은 파일로 나누십시오.",
                         "{name} ran out of memory while opening; split it into smaller files."),
    "doc_error.nested": ("{name} 파일은 구조가 너무 깊어 읽을 수 없습니다 (손상되었거나 악의적인 파일).",
                         "{name} is nested too deeply to be read (damaged or hostile file)."),
    "doc_error.other_kind": ("{name} 파일의 내용이 확장자와 다른 종류입니다 (이름을 바꾸었거나 손상됨). 원본 파일을 여십시오.",
                             "The content of {name} is of another kind (renamed or damaged). Open the original file."),
    "doc_error.damaged": ("{name} 파일이 손상되었거나 해당 형식의 파일이 아닙니다.",
                          "{name} is damaged or not a file of that kind."),
    "doc_error.zip": ("올바른 {what} 파일이 아닙니다 (ZIP 구조가 손상됨).", "The file is not a valid {what} (damaged ZIP container)."),
    "doc_error.encrypted": ("{what} 파일이 암호로 보호되어 있습니다. 암호를 해제한 뒤 다시 여십시오.",
                            "The {what} is encrypted; remove the password and try again."),
    "doc_error.not_word": ("워드 문서가 아닙니다 (본문 부분이 없음).", "This is not a Word document (no main document part)."),
    "doc_error.not_hwpx": ("HWPX 문서가 아닙니다.", "This is not an HWPX document."),
    "doc_error.not_hwp": ("HWP 5 문서가 아닙니다 (HWP 3 이전 형식은 지원하지 않음).", "This is not an HWP 5 document."),
    "doc_error.hwp3": ("HWP 3 문서(한글 97 이전)는 지원하지 않습니다. 한컴오피스에서 HWP 5 또는 HWPX로 저장한 뒤 여십시오.",
                       "HWP 3 documents (한글 97 or older) are not supported; save it as HWP 5 or HWPX first."),
    "doc_error.hwp_zip": ("이 HWP 파일은 사실 ZIP(아마도 HWPX)입니다. 확장자를 HWPX로 바꾸십시오.",
                          "This .hwp file is a ZIP (probably HWPX); rename it to .hwpx."),
    "doc_error.hwp_password": ("암호가 걸린 HWP 문서입니다. 암호를 해제한 뒤 다시 여십시오.",
                               "The HWP document is password-protected; remove the password first."),
    "doc_error.hwp_distribution": ("배포용 HWP 문서(암호화)는 읽을 수 없습니다. 원본 문서를 요청하십시오.",
                                   "This is an HWP distribution document (encrypted); ask for the original."),
    "doc_error.hwp_drm": ("DRM 또는 인증서로 보호된 HWP 문서는 읽을 수 없습니다.",
                          "The HWP document is DRM- or certificate-protected; it cannot be read."),
    "doc_error.hwp_damaged": ("HWP 파일이 손상되었습니다.", "The HWP file is damaged."),
    "doc_error.text_encoding": ("이 파일의 글자 인코딩을 알 수 없습니다(바이너리 파일이거나 UTF-8과 CP949가 섞여 있음). 텍스트 "
                                "편집기에서 UTF-8로 다시 저장한 뒤 여십시오.",
                                "Could not determine the text encoding of this file (binary, or UTF-8 and CP949 "
                                "mixed); save it again as UTF-8 in a text editor and try again."),
    "doc_error.bom": ("이 파일은 {enc} 바이트 순서 표시로 시작하지만 올바른 {enc}가 아닙니다. 텍스트 편집기에서 UTF-8로 다시 "
                      "저장한 뒤 여십시오.",
                      "The file starts with a {enc} byte-order mark but is not valid {enc}; save it again as UTF-8 "
                      "in a text editor and try again."),
    "doc_error.utf7": ("이 파일은 UTF-7처럼 보이지만 올바른 UTF-7이 아닙니다. 텍스트 편집기에서 UTF-8로 다시 저장한 뒤 여십시오.",
                       "The file looks like UTF-7 but is not valid UTF-7; save it again as UTF-8 in a text editor "
                       "and try again."),
    "doc_error.not_mail": ("{name} 파일은 메일이 아닙니다: 메일 헤더(보낸 사람, 받는 사람, 제목 ...)로 시작하지 않습니다. 아무것도 "
                           "읽지 않았습니다. 일반 텍스트라면 TXT 파일로 저장해 여십시오.",
                           "{name} is not an e-mail: it does not start with mail headers (From:, To:, Subject:, ...). "
                           "Nothing was read. If it is plain text, save it as .txt and open that."),
    "doc_error.mail_undecodable": ("{name} 파일은 메일 형식이지만 정확히 해독할 수 없어({reason}) 읽지 않았습니다. 원문 "
                                   "텍스트를 검토하려면 사본을 TXT 파일로 저장해 여십시오(검토 필요로 보류됨).",
                                   "{name} looks like an e-mail but cannot be decoded exactly ({reason}); it was not "
                                   "read. To review its raw text, save a copy as .txt and open that (it is held for "
                                   "review)."),
    "doc_error.image": ("{name}은(는) 읽을 수 있는 그림 파일이 아닙니다 (손상되었거나 PNG, JPEG, TIFF가 아님).",
                        "{name} is not a readable image (damaged or not PNG/JPEG/TIFF)."),
    "doc_error.changed": ("{name} 파일이 연 뒤에 바뀌었습니다. 다시 여십시오.",
                          "{name} changed on disk since it was opened; open it again."),
    "doc_error.overwrite": ("결과가 원본 문서를 덮어쓰게 됩니다. 다른 이름이나 폴더를 고르십시오.",
                            "The output would overwrite the original document; choose another name or folder."),
    "doc_error.no_folder": ("출력 폴더가 없거나 폴더가 아닙니다: {folder}", "The output folder does not exist or is not a folder: {folder}"),
    "doc_error.is_folder": ("{path}은(는) 폴더입니다. 파일 이름을 고르십시오.", "{path} is a folder; choose a file name."),
    "doc_error.cannot_write": ("폴더에 쓸 수 없습니다: {folder}", "Cannot write into the folder {folder}."),
    "doc_error.unsupported": ("{kind} 파일은 지원하지 않습니다. 지원하는 형식: {list}",
                              "{kind} files are not supported; supported: {list}"),
    "doc_error.export_as": ("{src} 문서는 {out} 형식으로 내보낼 수 없습니다. 가능한 형식: {list}",
                            "A {src} document cannot be exported as {out}; choose one of: {list}"),
    "doc_error.copies": ("마스킹한 값의 사본 {n}개가 가려지지 않은 채 남아 있습니다 (첫 위치: {where}, {at}번째 글자). "
                         "사본도 마스킹한 뒤 내보내십시오.",
                         "{n} unmasked copies of masked values remain (first: {where} at character {at}); mask them too."),
    "doc_error.leak": ("마스킹한 값이 결과 파일에 아직 남아 있어 결과를 지웠습니다 (원본은 그대로; 위치: {where}). 창에서 그 "
                       "사본도 마스킹하거나 (이스케이프·분할되었거나 메타데이터·속성 안에 있을 수 있음) 원본에서 지운 뒤 다시 "
                       "내보내십시오.",
                       "A masked value was still found in the output ({where}); the output was deleted. Mask that "
                       "copy too or remove it from the original, then export again."),
    "doc_error.second_opinion": ("검토자에게 보이지 않는 곳에 개인정보로 보이는 내용이 있어 결과를 지웠습니다 (위치: {where}). "
                                 "창에서 그 부분(문서 속성, 설정, 속성값)을 보고 마스킹하거나 지우십시오.",
                                 "The second opinion found what looks like personal information where no reviewer "
                                 "sees it ({where}); the output was deleted and the file needs review."),
    "what.word": ("워드 문서", "Word document"),
    "what.hwpx": ("HWPX 문서", "HWPX document"),
    "what.document": ("문서", "document"),
    # undo/redo menu texts for the descriptions without a count (review/state.py Command.description)
    "undo.mark_many": ("표시: {label} {n}개", "mark {n} {label}"),
    "undo.reason": ("비공개 사유 {reason}: {n}개", "reason {reason}: {n}"),
    "undo.mask_copies_all": ("사본 마스킹", "mask copies"),
    "undo.terms_keep": ("용어 목록: 유지", "term list: keep"),
    "undo.terms_mask": ("용어 목록: 마스킹", "term list: mask"),
    "undo.import_review": ("검토 파일 가져오기", "import review"),
    "undo.merge_reviews": ("검토 병합", "merge reviews"),
    "undo.import_xfdf": ("XFDF 가져오기", "import XFDF"),
}


_UNDO_PATTERNS = (
    (re.compile(r"^(accepted|rejected|pending) (\d+)$"), lambda m: ("undo." + m[1], {"n": m[2]})),
    (re.compile(r"^accept \(manual\)$"), lambda m: ("undo.accepted", {"n": "1"})),
    (re.compile(r"^accept >= ([\d.]+)$"), lambda m: ("undo.accept_above", {})),
    (re.compile(r"^mark (\w+)$"), lambda m: ("undo.mark", {"label": m[1]})),
    (re.compile(r"^adjust boundaries$"), lambda m: ("undo.adjust", {})),
    (re.compile(r"^relabel (\w+)$"), lambda m: ("undo.relabel", {"label": m[1]})),
    (re.compile(r"^mask copies (\d+)$"), lambda m: ("undo.mask_copies", {"n": m[1]})),
    (re.compile(r"^mark (\d+) (\w+)$"), lambda m: ("undo.mark_many", {"n": m[1], "label": m[2]})),
    (re.compile(r"^reason (.+) (\d+)$"), lambda m: ("undo.reason", {"reason": m[1], "n": m[2]})),
    (re.compile(r"^mask copies$"), lambda m: ("undo.mask_copies_all", {})),
    (re.compile(r"^term list: keep$"), lambda m: ("undo.terms_keep", {})),
    (re.compile(r"^term list: mask$"), lambda m: ("undo.terms_mask", {})),
    (re.compile(r"^import review$"), lambda m: ("undo.import_review", {})),
    (re.compile(r"^merge reviews$"), lambda m: ("undo.merge_reviews", {})),
    (re.compile(r"^import XFDF$"), lambda m: ("undo.import_xfdf", {})),
)


def undo_description(description: str | None, lang: str = "ko") -> str:
    """The state's command description (an English identifier such as ``accepted 3`` or ``relabel RRN``)
    in the UI language, for the Undo/Redo menu texts. Unknown descriptions are shown as they are."""
    if not description:
        return ""
    from ..labels import display_name

    for pattern, make in _UNDO_PATTERNS:
        m = pattern.match(description)
        if m:
            key, args = make(m)
            if "label" in args:
                args["label"] = display_name(args["label"], lang)
            if args.get("reason") == "-":
                args["reason"] = tr("reason.none", lang)
            elif args.get("reason", "").startswith("other:"):       # review.reasons: "other:<text>"
                args["reason"] = tr("reason.other_short", lang) + ": " + args["reason"][len("other:"):]
            return tr(key, lang).format(**args)
    return description


def model_error_text(exc: BaseException, lang: str = "ko") -> str:
    """A ``ModelFolderError`` in the UI language from its ``code`` and ``fields`` (in English the
    loader's own, more detailed sentence); any other exception as it is."""
    code = getattr(exc, "code", None)
    if lang == "en" or not isinstance(code, str):
        return str(exc)
    key = "model_error." + code if "model_error." + code in _CATALOGUE else "model_error.invalid"
    fields = {"folder": "", "file": "", **getattr(exc, "fields", {})}
    return tr(key, lang).format(**fields)


def terms_problem_text(problem, lang: str = "ko") -> str:
    """A term-list problem (``review.terms.Problem``: ``code`` + ``fields``) in the UI language; a plain
    string (an older or foreign message) as it is."""
    code = getattr(problem, "code", None)
    if not isinstance(code, str) or "terms_error." + code not in _CATALOGUE:
        return str(problem)
    fields = {"mask": "mask", "keep": "keep", **getattr(problem, "fields", {})}   # the CSV's own words
    if code == "lines":
        fields["first"] = terms_problem_text(fields.get("first", ""), lang)
    text = tr("terms_error." + code, lang).format(**fields)
    if "line" in fields:
        text = tr("terms_error.line", lang).format(line=fields["line"], text=text)
    return text


def terms_error_text(exc: BaseException, lang: str = "ko") -> str:
    """A ``TermsError`` in the UI language (its own ``Problem``), else ``str(exc)``."""
    problem = getattr(exc, "problem", None)
    return terms_problem_text(problem, lang) if problem is not None else str(exc)


_DOC_ERRORS = (    # (pattern over the core's English DocumentError message, catalogue key)
    (r"^'(?P<kind>.*)' files are not supported; supported: (?P<list>.+)\.$", "doc_error.unsupported"),
    (r"^(?P<n>\d+) unmasked cop(?:y|ies) of masked values remain in the text \(first: (?P<where>.+) at "
     r"character (?P<at>\d+)\); mask them too", "doc_error.copies"),
    (r"^A masked value was still found in the output \((?P<where>.+?)\); the output was deleted", "doc_error.leak"),
    (r"^The second opinion found what looks like personal information where no reviewer sees it "
     r"\((?P<where>.+?)\); the output was deleted", "doc_error.second_opinion"),
    (r"^A (?P<src>\.\w+) document cannot be exported as (?P<out>\.\w+); choose one of: (?P<list>.+)\.$",
     "doc_error.export_as"),
    (r"^(?P<name>.+) does not exist\.$", "doc_error.missing"),
    (r"^(?P<name>.+) is not a file\.$", "doc_error.not_file"),
    (r"^(?P<name>.+) is too large \((?P<mb>\d+) MB\)\.$", "doc_error.too_large"),
    (r"^Cannot read the original (?P<name>.+?): ", "doc_error.unreadable"),
    (r"^Cannot read (?P<name>.+?): ", "doc_error.unreadable"),
    (r"^(?P<name>.+) ran out of memory while opening", "doc_error.memory"),
    (r"^(?P<name>.+) is nested too deeply to be read", "doc_error.nested"),
    (r"^(?P<name>.+) is not an? .+ file: its content is of another kind", "doc_error.other_kind"),
    (r"^(?P<name>.+) could not be read as \.\w+: the file is damaged", "doc_error.damaged"),
    (r"^The file is not a valid (?P<what>.+) \(damaged ZIP container\)\.$", "doc_error.zip"),
    (r"^The (?P<what>.+) is encrypted; remove the password", "doc_error.encrypted"),
    (r"^This is not a Word document", "doc_error.not_word"),
    (r"^This is not an HWPX document", "doc_error.not_hwpx"),
    (r"^This \.hwp file is a ZIP", "doc_error.hwp_zip"),
    (r"^This is an HWP 3 document", "doc_error.hwp3"),
    (r"^This is not an HWP 5 document", "doc_error.not_hwp"),
    (r"^The HWP document is password-protected", "doc_error.hwp_password"),
    (r"^This is an HWP distribution document", "doc_error.hwp_distribution"),
    (r"^The HWP document is DRM", "doc_error.hwp_drm"),
    (r"^The HWP (?:file is damaged|stream .+ is damaged|section stream is truncated|record stream is truncated)",
     "doc_error.hwp_damaged"),
    (r"^Could not determine the text encoding of this file", "doc_error.text_encoding"),
    (r"^The file starts with a (?P<enc>\S+) byte-order mark but is not valid", "doc_error.bom"),
    (r"^The file looks like UTF-7 but is not valid UTF-7", "doc_error.utf7"),
    (r"^(?P<name>.+) is not an e-mail: it does not start with mail headers", "doc_error.not_mail"),
    (r"^(?P<name>.+) looks like an e-mail but cannot be decoded exactly \((?P<reason>.*)\); it was not read",
     "doc_error.mail_undecodable"),
    (r"^(?P<name>.+) is not a readable image", "doc_error.image"),
    (r"^(?P<name>.+) changed on disk since it was opened", "doc_error.changed"),
    (r"^The output would overwrite the original document", "doc_error.overwrite"),
    (r"^The output folder does not exist or is not a folder: (?P<folder>.+)$", "doc_error.no_folder"),
    (r"^(?P<path>.+) is a folder; choose a file name\.$", "doc_error.is_folder"),
    (r"^Cannot write into the folder (?P<folder>.+?): ", "doc_error.cannot_write"),
)
_WHAT = {"Word document": "what.word", "HWPX document": "what.hwpx", "document": "what.document"}


def part_name_text(name: str, lang: str = "ko") -> str:
    """A document part's name as the core wrote it (the readers' English captions, ``documents.model
    .CAPTIONS_EN``: "Body", "Header 1") in the UI language; a Korean or unknown name as it is."""
    from ..documents.model import CAPTIONS_EN

    for key, template in CAPTIONS_EN.items():
        pattern = "^" + re.escape(template).replace(re.escape("{detail}"), "(?P<detail>.*)") + "$"
        m = re.match(pattern, name)
        if m:
            return caption(key, (m.groupdict().get("detail") or "").strip(), lang)
    return name


def document_error_text(message: str, lang: str = "ko") -> str:
    """A reader's or writer's ``DocumentError`` message (English, from the Qt-free core) in the UI
    language when it is one the catalogue knows (matched like ``export_summary.note_text`` matches the
    readers' notes); in English, and for a message not known here, as written."""
    if lang == "en":
        return message
    first = message.strip()
    for pattern, key in _DOC_ERRORS:
        m = re.match(pattern, first, re.S)
        if m:
            fields = {k: (v or "").strip() for k, v in m.groupdict().items()}
            if "what" in fields:
                fields["what"] = tr(_WHAT.get(fields["what"], "what.document"), lang)
            if key == "doc_error.copies":
                fields["where"] = part_name_text(fields["where"], lang)
                fields["at"] = f"{int(fields['at']) + 1:,}"
            return tr(key, lang).format(**fields)
    return message


def caption(key: str, detail: str = "", lang: str = "ko") -> str:
    """A document section caption (``documents.model.Caption.key``) in the UI language."""
    text = tr("caption." + key, lang)
    if text == "caption." + key:
        text = key
    return text.replace("{detail}", detail).strip()


def localize_captions(text: str, captions, lang: str = "ko") -> str:
    """``text`` with the core's English captions (``Document.captions``) shown in ``lang``, *same length*
    (every offset stays valid): a shorter translation is padded with zero-width spaces (invisible), a
    longer one is cut with ``…``."""
    if lang == "en" or not captions:
        return text
    out, pos = [], 0
    for c in sorted(captions, key=lambda c: c.start):
        inline = getattr(c, "inline", False)
        a, b = (c.start - 1, c.end + 1) if inline else (c.start, c.end)
        if a < pos or b > len(text):
            continue
        if inline and not (text[a] == "[" and text[b - 1] == "]"):
            continue
        width = b - a
        t = caption(c.key, c.detail, lang)
        t = f"[{t}]" if inline else t
        if len(t) > width:
            t = t[:max(0, width - 2)] + ("…]" if inline else "…") if width >= 2 else t[:width]
        t = t + "\u200b" * (width - len(t))   # zero-width padding: invisible, keeps the length
        out.append(text[pos:a])
        out.append(t)
        pos = b
    out.append(text[pos:])
    return "".join(out)


def tr(key: str, lang: str = "ko") -> str:
    pair = _CATALOGUE.get(key)
    if pair is None:
        return key  # a missing key shows itself rather than crashing
    return pair[1] if lang == "en" else pair[0]


def keys() -> list[str]:
    return list(_CATALOGUE)
