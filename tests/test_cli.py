"""`veil-redact detect` / `quantize` over real tiny model folders and real files."""
import json
import subprocess
import sys

import pytest

from veil_desktop import cli
from tests.fixtures.tiny_model import build_tiny_model

ENTITIES = {"김철수": "PERSON", "서울시": "ADDRESS", "한빛은행": "ORGANIZATION"}


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("cli") / "tiny", entities=ENTITIES, score=0.9)


@pytest.fixture()
def files(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("안녕하세요 김철수님, 서울시에 삽니다.\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text("한빛은행 본점\n", encoding="utf-8")
    return a, b


def test_detect_json_one_line_per_file_in_order(model, files, capsys):
    a, b = files
    rc = cli.main(["detect", "--json", "--no-rules", "--threads", "1", "--model", str(model), str(b), str(a)])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0 and len(out) == 2
    rb, ra = (json.loads(line) for line in out)
    assert rb["file"] == str(b) and ra["file"] == str(a)
    assert [(s["start"], s["end"], s["label"], s["text"]) for s in ra["spans"]] == [
        (6, 9, "PERSON", "김철수"), (12, 15, "ADDRESS", "서울시")]
    assert ra["spans"][0]["score"] == pytest.approx(0.9, abs=1e-4)
    assert [s["label"] for s in rb["spans"]] == ["ORGANIZATION"]


def test_detect_with_rules_when_available_keeps_model_spans(model, files, capsys):
    a, _ = files
    assert cli.main(["detect", "--json", "--threads", "1", "--model", str(model), str(a)]) == 0
    spans = json.loads(capsys.readouterr().out)["spans"]
    assert {(s["start"], s["end"], s["label"]) for s in spans} >= {(6, 9, "PERSON"), (12, 15, "ADDRESS")}


def test_detect_table(model, files, capsys):
    a, _ = files
    assert cli.main(["detect", "--no-rules", "--threads", "1", "--model", str(model), str(a)]) == 0
    out = capsys.readouterr().out
    assert "(2 spans)" in out and "PERSON" in out and "김철수" in out and "서울시" in out


def test_unreadable_file_is_reported_and_others_still_run(model, files, tmp_path, capsys):
    a, _ = files
    rc = cli.main(["detect", "--json", "--no-rules", "--model", str(model), str(tmp_path / "missing.txt"),
                   str(a)])
    cap = capsys.readouterr()
    lines = [json.loads(x) for x in cap.out.splitlines()]
    assert rc == 1 and "error" in lines[0] and lines[1]["file"] == str(a) and len(lines[1]["spans"]) == 2
    assert "missing.txt" in cap.err


def test_without_a_model_says_how_to_get_one(files, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("VEIL_RESOURCES_DIR", str(tmp_path / "no-resources"))
    rc = cli.main(["detect", str(files[0])])
    err = capsys.readouterr().err
    assert rc == 2
    assert "kakao1513/veil-pii-ko-small-3" in err and "--model" in err


def test_bad_model_folder(files, tmp_path, capsys):
    (tmp_path / "m").mkdir()
    rc = cli.main(["detect", "--no-rules", "--model", str(tmp_path / "m"), str(files[0])])
    assert rc == 2 and "config.json is missing" in capsys.readouterr().err


def test_progress_on_stderr_for_long_inputs(model, tmp_path, capsys):
    f = tmp_path / "long.txt"
    f.write_text("김철수 가나다라마바사 " * 3000, encoding="utf-8")
    assert cli.main(["detect", "--json", "--no-rules", "--model", str(model), str(f)]) == 0
    cap = capsys.readouterr()
    assert "characters" in cap.err and "100%" in cap.err
    assert len(json.loads(cap.out)["spans"]) == 3000


def test_quantize_writes_a_working_int8_folder(model, files, tmp_path, capsys):
    out = tmp_path / "int8"
    assert cli.main(["quantize", str(model), str(out)]) == 0
    assert (out / "model.int8.onnx").is_file() and (out / "config.json").is_file()
    assert not any(p.suffix == ".partial" for p in out.iterdir())
    capsys.readouterr()
    a, _ = files
    assert cli.main(["detect", "--json", "--no-rules", "--model", str(out), str(a)]) == 0
    spans = json.loads(capsys.readouterr().out)["spans"]
    assert [(s["text"], s["label"]) for s in spans] == [("김철수", "PERSON"), ("서울시", "ADDRESS")]
    # never overwrite an existing output folder
    assert cli.main(["quantize", str(model), str(out)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_console_entry_point_runs_in_a_fresh_process(model, files):
    a, _ = files
    r = subprocess.run([sys.executable, "-m", "veil_desktop.cli", "detect", "--json", "--no-rules", "--model",
                        str(model), str(a)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert [s["text"] for s in json.loads(r.stdout)["spans"]] == ["김철수", "서울시"]


def test_json_spans_are_written_as_soon_as_they_are_final():
    import io

    from veil_desktop.detect.events import Progress, SpansFound
    from veil_desktop.detect.span import Span

    out = io.StringIO()
    seen_before_second_batch = []

    class Streaming:
        id = "scripted"

        def stream(self, text, **_kw):
            yield Progress(0, 2)
            yield SpansFound((Span(3, 6, "PERSON", 0.9),))
            seen_before_second_batch.append(out.getvalue())  # the first span is already written
            yield SpansFound((Span(0, 2, "ADDRESS", 0.8),))
            yield Progress(2, 2)

    text = "서울 김철수 님"
    assert cli.stream_json(Streaming(), text, file="x.txt", out=out) == 2
    assert '"text": "김철수"' in seen_before_second_batch[0] and "서울" not in seen_before_second_batch[0]
    line = json.loads(out.getvalue())
    assert line["file"] == "x.txt" and line["detector"] == "scripted"
    assert [(s["text"], s["label"]) for s in line["spans"]] == [("김철수", "PERSON"), ("서울", "ADDRESS")]


def test_json_line_stays_valid_when_detection_fails_midway():
    import io

    from veil_desktop.detect.events import SpansFound
    from veil_desktop.detect.span import Span

    class Failing:
        id = "failing"

        def stream(self, text, **_kw):
            yield SpansFound((Span(0, 2, "PERSON", 0.9),))
            raise MemoryError("out of memory")

    out = io.StringIO()
    with pytest.raises(cli.CliError, match="detection failed: MemoryError"):
        cli.stream_json(Failing(), "김철 수", file="y.txt", out=out)
    line = json.loads(out.getvalue())
    assert [s["text"] for s in line["spans"]] == ["김철"] and "MemoryError" in line["error"]


def test_no_skip_ids_lets_the_model_read_identifiers(tmp_path, capsys):
    m = build_tiny_model(tmp_path / "ids", char_tags={"Q": "S-ORGANIZATION"}, entities=ENTITIES)
    f = tmp_path / "ids.txt"
    f.write_text("주문 Q1W2E3R4 김철수\n", encoding="utf-8")
    assert cli.main(["detect", "--json", "--no-rules", "--threads", "1", "--model", str(m), str(f)]) == 0
    default = [s["text"] for s in json.loads(capsys.readouterr().out)["spans"]]
    assert default == ["김철수"]  # the ID is hidden from the model by default
    assert cli.main(["detect", "--json", "--no-rules", "--no-skip-ids", "--threads", "1", "--model", str(m),
                     str(f)]) == 0
    assert [s["text"] for s in json.loads(capsys.readouterr().out)["spans"]] == ["Q", "김철수"]


def test_redact_help_names_the_hostile_input_options(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["redact", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "--overwrite" in out and "--allow-unreadable" in out and "REVIEW" in out


def test_detect_json_reads_long_texts_in_slices_with_offsets_of_the_whole_text(model, tmp_path, capsys,
                                                                                 monkeypatch):
    # slices of ~120 characters cut at line ends (as the batch redaction does): every span keeps the offset
    # of the whole file, and the spans equal one whole-text detection (no value sits on a cut)
    from veil_desktop import redact_cli as batch

    line = "안녕하세요 김철수님, 서울시에 삽니다. 한빛은행 본점입니다.\n"
    text = line * 40
    f = tmp_path / "long.txt"
    f.write_text(text, encoding="utf-8")
    from veil_desktop.detect import driver

    monkeypatch.setattr(driver, "BATCH_SLICE_CHARS", 90)
    monkeypatch.setattr(driver, "BATCH_MAX_CHARS", 120)
    assert len(driver.slice_bounds(text, 90, max_chars=120)) > 10
    assert cli.main(["detect", "--json", "--no-rules", "--threads", "1", "--model", str(model), str(f)]) == 0
    spans = json.loads(capsys.readouterr().out)["spans"]
    assert len(spans) == 3 * 40
    assert all(text[s["start"]:s["end"]] == s["text"] for s in spans)
    whole = cli.make_detector(str(model), threads=1, rules=False).detect(text)
    assert sorted((s["start"], s["end"], s["label"]) for s in spans) == sorted(
        (s.start, s.end, s.label) for s in whole)
