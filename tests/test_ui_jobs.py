"""ui/jobs.py: the one pool-job helper (results on the GUI thread, errors as messages, stale results of a
superseded job dropped, progress, cooperative cancel, generators, the OCR page hook)."""
import threading

from PySide6.QtCore import QThreadPool

from veil_desktop.ui.jobs import Jobs




def test_result_error_and_thread(qtbot):
    jobs = Jobs()
    done, errors = [], []
    main = threading.get_ident()
    job = jobs.start(lambda: (threading.get_ident(), 6 * 7), done.append, errors.append)
    qtbot.waitUntil(lambda: bool(done), timeout=10000)
    assert done[0][1] == 42 and done[0][0] != main and not errors and job.id == 1 and not job.running

    def boom():
        raise ValueError("bad input: line 3")

    jobs.start(boom, done.append, errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=10000)
    assert errors == ["bad input: line 3"] and len(done) == 1


def test_superseded_job_on_a_channel_is_dropped(qtbot):
    jobs = Jobs()
    release, started = threading.Event(), threading.Event()
    done = []

    def slow(job):
        started.set()
        release.wait(10)
        return ("slow", job.cancelled())

    first = jobs.start(slow, done.append, channel="open")
    assert started.wait(10)
    second = jobs.start(lambda: "fast", done.append, channel="open")
    assert first.cancelled() and first.discarded and jobs.current("open") is second
    qtbot.waitUntil(lambda: done == ["fast"], timeout=10000)
    release.set()
    qtbot.waitUntil(lambda: not first.running, timeout=10000)
    assert done == ["fast"] and jobs.dropped == 1 and jobs.current("open") is None


def test_progress_generator_and_cooperative_cancel(qtbot):
    jobs = Jobs()
    progress, yielded, done = [], [], []

    def gen(job):
        for i in range(3):
            job.progress(i + 1, 3)
            yield i * 10
        return "end"

    jobs.start(gen, done.append, on_yield=yielded.append, on_progress=lambda d, t: progress.append((d, t)))
    qtbot.waitUntil(lambda: bool(done), timeout=10000)
    assert yielded == [0, 10, 20] and progress == [(1, 3), (2, 3), (3, 3)] and done == ["end"]

    gate = threading.Event()
    ended = []

    def waits(job):
        gate.wait(10)
        return "stopped" if job.cancelled() else "ran"

    jobs.start(waits, ended.append, channel="x")
    assert jobs.cancel("x") and not jobs.cancel("nothing")
    gate.set()
    qtbot.waitUntil(lambda: bool(ended), timeout=10000)
    assert ended == ["stopped"]          # a cancelled job still reports its end (the caller shows it)


def test_ocr_page_hook_reports_progress_and_cancels(qtbot):
    from veil_desktop.documents.ocr import report_page

    jobs = Jobs()
    progress, errors = [], []

    def read_pages():
        for page in range(3):
            report_page(page, 3)
        report_page(3, 3)
        return "read"

    def on_progress(d, t):
        progress.append((d, t))
        if d == 1:
            jobs.cancel("open")

    gate = threading.Event()

    def slow_pages():
        report_page(0, 3)
        gate.wait(10)
        report_page(1, 3)
        gate2.wait(10)
        report_page(2, 3)           # cancelled by now: raises OcrCancelled
        return "read"

    gate2 = threading.Event()
    jobs.start(slow_pages, None, errors.append, on_progress=on_progress, channel="open", ocr_pages=True)
    qtbot.waitUntil(lambda: progress == [(0, 3)], timeout=10000)
    gate.set()
    qtbot.waitUntil(lambda: len(progress) == 2, timeout=10000)
    gate2.set()
    qtbot.waitUntil(lambda: bool(errors), timeout=10000)
    # the page that asked was reported, then the reader stopped: the last page never came
    assert progress == [(0, 3), (1, 3), (2, 3)] and "cancelled" in errors[0].lower()

    done = []
    progress.clear()
    jobs.start(read_pages, done.append, on_progress=lambda d, t: progress.append((d, t)), ocr_pages=True)
    qtbot.waitUntil(lambda: bool(done), timeout=10000)
    assert done == ["read"] and progress == [(0, 3), (1, 3), (2, 3), (3, 3)]
    QThreadPool.globalInstance().waitForDone(5000)
