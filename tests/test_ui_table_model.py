"""The table model and proxy, tested without any view (plus Qt's own model consistency checker)."""
from PySide6.QtCore import QModelIndex, Qt

from veil_desktop.detect.span import Span
from veil_desktop.review import ReviewState, Status
from veil_desktop.ui.table_model import COLUMNS, ItemIdRole, SortRole, SpanFilterProxy, SpanTableModel

TEXT = "김민준이 서울에 갔다. 김민준은 한빛에 다닌다. 이서연도 서울에 산다."


def spans():
    def at(value, label, score, nth=0):
        i = -1
        for _ in range(nth + 1):
            i = TEXT.index(value, i + 1)
        return Span(i, i + len(value), label, score)
    return [at("김민준", "PERSON", 0.95), at("서울", "ADDRESS", 0.8), at("김민준", "PERSON", 0.93, 1),
            at("한빛", "ORGANIZATION", 0.3), at("이서연", "PERSON", 0.6)]


def test_model_follows_state_inserts_changes_and_removals(qtbot, qtmodeltester):
    state = ReviewState(TEXT)
    model = SpanTableModel(state, lang="en")
    qtmodeltester.check(model)
    with qtbot.waitSignal(model.rowsInserted) as blocker:
        state.add_detected(spans())
        assert model.rowCount() == 0  # announced in a batch, by the catch-up timer
    assert blocker.args[1:] == [0, 4]
    assert model.rowCount() == 5 and model.columnCount() == len(COLUMNS)
    idx = model.index(0, COLUMNS.index("text"))
    assert model.data(idx) == "김민준"
    assert model.data(model.index(0, COLUMNS.index("score"))) == "0.95"
    assert model.data(model.index(0, COLUMNS.index("status"))) == "pending"
    assert model.data(model.index(3, COLUMNS.index("score")), SortRole) == 0.3
    assert "0.95" in model.data(idx, Qt.ItemDataRole.ToolTipRole)

    changed = []
    model.dataChanged.connect(lambda a, b: changed.append((a.row(), b.row())))
    kim = state.item_at_row(0)
    state.set_status([kim.id], Status.ACCEPTED, propagate=True)  # rows 0 and 2 -> two runs
    assert changed == [(0, 0), (2, 2)]
    assert model.data(model.index(2, COLUMNS.index("status"))) == "accepted"

    manual = state.add_manual(TEXT.index("갔다"), TEXT.index("갔다") + 2, "OTHER")
    assert model.row_of(manual.id) == -1  # in the backlog until shown
    model.ensure_shown(manual.id)
    # rows are in text order: 김민준, 서울, 갔다 (new), 김민준, ...
    assert model.rowCount() == 6 and model.row_of(manual.id) == 2
    assert model.data(model.index(2, 0), ItemIdRole) == manual.id
    assert [model.data(model.index(r, 0), SortRole) for r in range(6)] == sorted(
        model.data(model.index(r, 0), SortRole) for r in range(6))
    with qtbot.waitSignal(model.rowsRemoved):
        state.undo()
    assert model.rowCount() == 5
    qtmodeltester.check(model)


def test_inserts_are_batched_and_unshown_rows_need_no_notification(qtbot):
    state = ReviewState(TEXT)
    model = SpanTableModel(state)
    events = []
    model.rowsInserted.connect(lambda _p, a, b: events.append(("ins", a, b)))
    model.rowsRemoved.connect(lambda _p, a, b: events.append(("rem", a, b)))
    model.dataChanged.connect(lambda a, b: events.append(("chg", a.row(), b.row())))
    for s in spans():
        state.add_detected([s])  # five separate appends
    assert model.rowCount() == 0 and events == []
    state.set_status([state.item_at_row(4).id], Status.ACCEPTED)  # not shown yet: nothing to tell
    assert events == []
    qtbot.waitUntil(lambda: model.rowCount() == 5, timeout=2000)
    assert events == [("ins", 0, 4)]  # one insertion for all five
    manual = state.add_manual(0, 3, "OTHER")
    state.undo()  # removed before it was ever shown
    assert manual.id not in state and events == [("ins", 0, 4)]
    qtbot.wait(model.CATCH_UP_MS + 100)
    assert model.rowCount() == 5 and events == [("ins", 0, 4)]


def test_language_switch_changes_display_not_data():
    state = ReviewState(TEXT)
    state.add_detected(spans())
    model = SpanTableModel(state, lang="ko")  # built over existing items: all shown at once
    col = COLUMNS.index("label")
    assert model.data(model.index(0, col)) == "인명"
    assert model.headerData(col, Qt.Orientation.Horizontal) == "유형"
    model.set_language("en")
    assert model.data(model.index(0, col)) == "Person"
    assert model.headerData(col, Qt.Orientation.Horizontal) == "Label"


def test_proxy_filters_by_label_status_and_threshold_and_sorts_by_raw_value():
    state = ReviewState(TEXT)
    state.add_detected(spans())
    model = SpanTableModel(state)
    proxy = SpanFilterProxy()
    proxy.setSourceModel(model)
    assert proxy.rowCount() == 5

    proxy.sort(COLUMNS.index("score"), Qt.SortOrder.DescendingOrder)
    scores = [proxy.data(proxy.index(r, COLUMNS.index("score"))) for r in range(proxy.rowCount())]
    assert scores == ["0.95", "0.93", "0.80", "0.60", "0.30"]

    proxy.set_label_filter("PERSON")
    assert proxy.rowCount() == 3
    state.set_threshold(0.7)  # hides 이서연 (0.6) via visibilityChanged
    assert proxy.rowCount() == 2
    proxy.set_label_filter(None)
    assert proxy.rowCount() == 3  # + 서울 0.8

    first = state.item_at_row(0)
    state.set_status([first.id], Status.REJECTED)
    proxy.set_status_filter(Status.REJECTED)
    assert proxy.rowCount() == 1 and proxy.item_id(0) == first.id
    assert proxy.proxy_row_of(first.id) == 0
    proxy.set_status_filter(Status.PENDING)
    assert proxy.proxy_row_of(first.id) == -1
    # a pending item that becomes rejected below the threshold stays visible once decided
    low = state.item_at_row(3)
    proxy.set_status_filter(None)
    assert proxy.proxy_row_of(low.id) == -1
    state.set_status([low.id], Status.REJECTED)
    assert proxy.proxy_row_of(low.id) >= 0
    assert proxy.rowCount() == 4
    assert not QModelIndex().isValid()


def test_cell_role_carries_what_the_delegate_paints(qtbot):
    from PySide6.QtWidgets import QStyleOptionViewItem, QTableView

    from veil_desktop.ui.table_model import CellRole, SpanDelegate

    state = ReviewState(TEXT)
    state.add_detected(spans())
    model = SpanTableModel(state, lang="en")
    first = state.item_at_row(0)
    state.set_status([first.id], Status.REJECTED)
    text, align, fg, bg, struck = model.data(model.index(0, COLUMNS.index("text")), CellRole)
    assert (text, align, struck) == ("김민준", None, True) and fg.color().name() == "#8a8a8a"
    _, align, _, bg, struck = model.data(model.index(0, COLUMNS.index("label")), CellRole)
    assert bg is not None and not struck
    assert model.data(model.index(0, COLUMNS.index("score")), CellRole)[1] is not None  # right-aligned

    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    delegate = SpanDelegate(view)
    opt = QStyleOptionViewItem()
    delegate.initStyleOption(opt, model.index(0, COLUMNS.index("text")))
    assert opt.text == "김민준" and opt.font.strikeOut()
    opt2 = QStyleOptionViewItem()
    delegate.initStyleOption(opt2, model.index(1, COLUMNS.index("text")))
    assert opt2.text == "서울" and not opt2.font.strikeOut()


def test_where_column_names_the_part_of_each_item(qtbot):
    from veil_desktop.documents.model import Part

    state = ReviewState(TEXT)
    state.add_detected(spans())
    model = SpanTableModel(state, lang="en")
    model.catch_up()
    mid = TEXT.index("김민준은")
    model.set_parts([Part("본문", 0, mid), Part("3쪽", mid, len(TEXT), "page 3")])
    col = COLUMNS.index("where")
    assert model.headerData(col, Qt.Orientation.Horizontal) == "Section/page"
    where = [model.data(model.index(r, col)) for r in range(model.rowCount())]
    assert where == ["Body", "Body", "3쪽", "3쪽", "3쪽"]   # the Korean body name captioned (issue 22)
    # sorting by part keeps text order inside a part
    keys = [model.data(model.index(r, col), SortRole) for r in range(model.rowCount())]
    assert keys == sorted(keys)
    model.set_language("ko")
    assert model.headerData(col, Qt.Orientation.Horizontal) == "구역·쪽"


def test_catch_up_shows_lowest_positions_first_and_a_spent_budget_leaves_the_rest_for_later(qtbot):
    state = ReviewState(TEXT)
    model = SpanTableModel(state, lang="en")
    found = spans()
    for s in reversed(found):  # arrive back to front
        state.add_detected([s])
    events = []
    model.rowsInserted.connect(lambda _p, a, b: events.append((a, b)))
    model.catch_up(limit=2)  # the two earliest in the text, not the two that arrived first
    assert [model.data(model.index(r, 0), SortRole) for r in range(2)] == [found[0].start, found[1].start]
    assert events == [(0, 1)] and model.rowCount() == 2
    shown = [model.item_id_at(r) for r in range(2)]
    state.add_detected([Span(3, 4, "OTHER", 0.5)])  # lands between the two shown rows
    model.catch_up(limit=10, budget_s=0.0)  # budget spent after the first insertion: the rest waits
    assert events == [(0, 1), (1, 1)] and model.rowCount() == 3
    assert [model.item_id_at(r) for r in (0, 2)] == shown
    qtbot.waitUntil(lambda: model.rowCount() == 6, timeout=3000)  # the timer shows the rest
    assert events[2:] == [(3, 5)]
    assert [model.data(model.index(r, 0), SortRole) for r in range(6)] == sorted(it.start for it in state)
    assert all(model.row_of(it.id) >= 0 for it in state)
