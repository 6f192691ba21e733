"""Pictures whose text OCR reads with confidence are reviewed like scan pages (issue 26: "every frame of
every picture goes through OCR and detection"; ordinary documents with a logo or a chart are not held back):
the OCR text is a part ``Picture N`` of the document, detection runs over it, masked values are burned into
the picture's pixels, and the export's leak check reads every output picture again by OCR. Pictures OCR
reads weakly still hold the file; HWP 5 (which cannot write burned pictures back) still holds any picture
with text. Real OCR, the real default detector, real files re-read."""
from __future__ import annotations

import io
import json
import zipfile
import zlib

import pytest
from PIL import Image, ImageDraw

from tests.test_pictures_documents import docx_with, font, members, only_pictures, photo, picture_text, save
from veil_desktop.cli import main
from veil_desktop.documents import LeakDetected, export_document, leakcheck, ocr, open_document, pictures
from veil_desktop.documents.matching import ValueMatcher
from veil_desktop.masking import Replacement

pytestmark = pytest.mark.skipif(not ocr.available(), reason="OCR (tesserocr + tessdata) is a dependency")

NAME, PHONE = "김민수", "010-3456-7890"


def card(text=f"담당자 {NAME} 연락처 {PHONE}", size=(820, 110), px=34, bg="white", fg="black"):
    im = Image.new("RGB", size, bg)
    ImageDraw.Draw(im).text((20, (size[1] - px) // 2), text, font=font(px), fill=fg)
    return im


def ocr_of(data: bytes) -> str:
    return "".join(ocr.ocr_image(Image.open(io.BytesIO(data)).convert("RGB")).text.split())


def test_picture_text_is_a_reviewed_part_and_masked_values_are_burned(tmp_path):
    src = docx_with(tmp_path, {"media/image1.png": save(card(), "PNG"),
                               "media/image2.png": save(photo(), "PNG")})
    doc = open_document(src)
    assert not doc.needs_review
    text = picture_text(doc, 1)
    assert NAME in text and PHONE in text
    part = next(p for p in doc.parts if p.kind == "picture")
    assert part.source == "word/media/image1.png"
    assert any("shown for review (picture 1)" in n for n in doc.notes)
    # the OCR boxes are in the picture's own pixels (the reader enlarges small pictures to read them)
    (page,) = doc.extra["picture_pages"]["word/media/image1.png"]
    assert (page.width, page.height) == (820, 110)
    xs = [b[2] for b in page.boxes if b]
    assert 500 < max(xs) <= 820
    a, p = doc.text.index(NAME), doc.text.index(PHONE)
    plan = [Replacement(a, a + len(NAME), "[인명]", "PERSON"), Replacement(p, p + len(PHONE), "[전화번호]", "PHONE")]
    res = export_document(doc, plan, tmp_path / "o.docx")
    assert res.leak_check["result"] == "clean"
    pics = only_pictures(members(tmp_path / "o.docx"))
    burned = ocr_of(pics["word/media/image1.png"])
    assert "담당자" in burned and NAME not in burned and "3456" not in burned and "7890" not in burned
    assert Image.open(io.BytesIO(pics["word/media/image1.png"])).size == (820, 110)
    # the text-free picture is published untouched in its pixels
    a_ = Image.open(io.BytesIO(pics["word/media/image2.png"])).convert("RGB")
    assert a_.tobytes() == photo().tobytes()


def test_batch_cli_masks_what_the_default_detector_finds_in_a_picture(tmp_path):
    """The whole product path: `veil-redact redact` with the embedded default detector, no review."""
    src = docx_with(tmp_path, {"media/image1.png": save(card(), "PNG")})
    out = tmp_path / "out"
    code = main(["redact", str(src), "--out", str(out), "--quiet"])
    assert code == 0
    written = out / "a.docx"
    pics = only_pictures(members(written))
    burned = ocr_of(pics["word/media/image1.png"])
    assert NAME not in burned and "3456" not in burned and "7890" not in burned
    report = json.loads((out / "a.docx.report.json").read_text(encoding="utf-8"))
    assert report["leak_check"]["result"] == "clean"
    assert any(v.endswith("(OCR)") and v.startswith("picture 1") for v in report["leak_check"].get("scanned", [])) \
        or report["leak_check"]["views_scanned"] > 0
    assert NAME not in written.read_bytes().decode("latin-1")


def test_a_value_masked_in_the_body_is_found_again_in_a_picture(tmp_path):
    """The body names someone the picture shows too: masking the body alone leaves an unmasked copy (the
    picture's text is part of the document now) — refused, or burned as well when copies are masked."""
    from tests.fixtures.leak_builders import make_docx, para
    from tests.test_pictures_documents import drawing

    src = make_docx(tmp_path / "b.docx", para(f"결재자 {NAME}") + drawing("rP1", 1),
                    doc_rels=[("rP1", "image", "media/image1.png")],
                    parts={"word/media/image1.png": save(card(f"서명 {NAME}", (420, 110)), "PNG")})
    doc = open_document(src)
    a = doc.text.index(NAME)
    assert doc.text.count(NAME) == 2
    plan = [Replacement(a, a + 3, "[인명]", "PERSON")]
    with pytest.raises(LeakDetected):
        export_document(doc, plan, tmp_path / "o.docx")
    assert not (tmp_path / "o.docx").exists()
    export_document(doc, plan, tmp_path / "o.docx", mask_copies=True)
    (pic,) = only_pictures(members(tmp_path / "o.docx")).values()
    assert NAME not in ocr_of(pic) and "서명" in ocr_of(pic)


def test_leak_check_reads_the_output_pictures_again(tmp_path):
    """The independent check: a package whose picture still shows a masked value is a leak; burned, clean."""
    src = docx_with(tmp_path, {"media/image1.png": save(card(), "PNG")})
    data = src.read_bytes()
    m = ValueMatcher([NAME, PHONE])
    rep = leakcheck.check_package_pictures(data, m)
    assert not rep.clean and any("picture 1" in h for h in rep.hits)
    assert "picture 1 (OCR)" in rep.scanned
    doc = open_document(src)
    a = doc.text.index(NAME)
    p = doc.text.index(PHONE)
    export_document(doc, [Replacement(a, a + 3, "[인명]", "PERSON"),
                          Replacement(p, p + len(PHONE), "[전화번호]", "PHONE")], tmp_path / "o.docx")
    assert leakcheck.check_package_pictures((tmp_path / "o.docx").read_bytes(), m).clean


def test_hwp_picture_text_is_reviewed_and_burned_in_place(tmp_path):
    """HWP 5: a BinData picture (deflated, as Hancom stores it) is reviewed as part "Picture 1"; the export
    is an HWP whose BinData stream holds the burned picture (read back by olefile, inflated, OCR'd)."""
    import olefile

    from tests.test_documents_hwp import body_simple, build_hwp, deflate
    from veil_desktop.documents.cfb import read_streams, write_cfb

    src = build_hwp(tmp_path / "a.hwp", body=body_simple())
    streams = read_streams(src.read_bytes())
    streams["BinData/BIN0001.png"] = deflate(save(card(), "PNG"))
    src.write_bytes(write_cfb(streams))
    doc = open_document(src)
    assert not doc.needs_review
    assert NAME in picture_text(doc, 1) and PHONE in picture_text(doc, 1)
    part = next(p for p in doc.parts if p.kind == "picture")
    assert part.source == "BinData/BIN0001.png" and doc.text.index(NAME) < part.start   # the body names him too
    a, p = doc.text.rindex(NAME), doc.text.index(PHONE)
    res = export_document(doc, [Replacement(a, a + 3, "[인명]", "PERSON"),
                                Replacement(p, p + len(PHONE), "[전화번호]", "PHONE")], tmp_path / "o.hwp",
                          mask_copies=True)
    assert res.leak_check["result"] == "clean"
    ole = olefile.OleFileIO(str(tmp_path / "o.hwp"))
    raw = ole.openstream("BinData/BIN0001.png").read()
    ole.close()
    pic = zlib.decompress(raw, -15)
    text = ocr_of(pic)
    assert "담당자" in text and NAME not in text and "7890" not in text
    # and the body text is still there for an HWP reader, the copy in the body masked too
    again = open_document(tmp_path / "o.hwp").text
    assert "담당자 홍길동" in again and NAME not in again


def test_weakly_read_pictures_are_still_held(tmp_path):
    """Grey 9 px type on grey OCR reads unsurely: the file needs review (not a reviewed part). A reader that
    cannot write burned pictures back asks for the old rule: any picture with text holds the file."""
    faint = Image.new("RGB", (700, 40), (150, 150, 150))
    ImageDraw.Draw(faint).text((6, 14), f"담당 {NAME} {PHONE} 서울시 마포구 월드컵로 12", font=font(9),
                                 fill=(120, 120, 120))
    src = docx_with(tmp_path, {"media/image1.png": save(faint, "PNG")})
    doc = open_document(src)
    assert doc.needs_review and doc.unreadable[0].where == "picture 1"
    # no reading of it is sure (the 9 px type is read, but not surely): the file is held for that
    assert "cannot read surely enough to mask" in doc.unreadable[0].caption_en
    assert "확실히 읽지 못해 가릴 수 없습니다" in doc.unreadable[0].caption
    assert not doc.extra["picture_pages"]
    from veil_desktop.documents.safezip import Member

    held = pictures.pictures_with_text([Member("BIN0001.png", save(card(), "PNG"), 8, (2020, 1, 1, 0, 0, 0))])
    assert [u.where for u in held] == ["picture 1"] and "holds text" in held[0].caption_en


def test_a_picture_whose_readings_disagree_is_held_as_unsure(tmp_path, monkeypatch):
    """read_frame's "text" (a sure reading that the other views dispute) holds the file with its own
    message, in both languages, and leaves no reviewed part."""
    real = pictures.read_frame

    def disputed(frame, *stretches):
        verdict, page = real(frame, *stretches)
        assert verdict == "read"  # the card is read surely ...
        return "text", page        # ... and here its other views are taken to dispute it

    monkeypatch.setattr(pictures, "read_frame", disputed)
    src = docx_with(tmp_path, {"media/image1.png": save(card(), "PNG")})
    doc = open_document(src)
    assert doc.needs_review and [u.where for u in doc.unreadable] == ["picture 1"]
    assert "cannot read surely enough to mask" in doc.unreadable[0].caption_en
    assert "확실히 읽지 못해 가릴 수 없습니다" in doc.unreadable[0].caption
    assert not doc.extra["picture_pages"] and "picture" not in {p.kind for p in doc.parts}


def test_policy_blank_also_blanks_a_well_read_picture(tmp_path):
    src = docx_with(tmp_path, {"media/image1.png": save(card(), "PNG")})
    doc = open_document(src, pictures="blank")
    assert not doc.extra["picture_pages"] and "picture" not in {p.kind for p in doc.parts}
    export_document(doc, [], tmp_path / "o.docx")
    (pic,) = only_pictures(members(tmp_path / "o.docx")).values()
    assert Image.open(io.BytesIO(pic)).convert("L").getextrema() == (255, 255)


def test_a_plan_for_a_picture_that_was_not_reviewed_is_refused(tmp_path):
    """The writer burns only pictures it has the reviewed OCR of."""
    import dataclasses

    from veil_desktop.documents.errors import DocumentError
    from veil_desktop.documents.safezip import Member

    src = docx_with(tmp_path, {"media/image1.png": save(card(), "PNG")})
    doc = open_document(src)
    with zipfile.ZipFile(src) as z:
        m = Member("word/media/image1.png", z.read("word/media/image1.png"), zipfile.ZIP_DEFLATED,
                   (2020, 1, 1, 0, 0, 0))
    bare = dataclasses.replace(doc, extra={**doc.extra, "picture_pages": {}})
    with pytest.raises(DocumentError, match="does not match what was reviewed"):
        pictures.publish_member(m, bare, {0: [(0, 3, "[인명]")]})
    burned = pictures.publish_member(m, doc, {0: [(0, 3, "[인명]")]})
    assert burned.data != m.data and Image.open(io.BytesIO(burned.data)).size == (820, 110)


def test_window_shows_a_picture_part_in_korean(qtbot, tmp_path):
    from veil_desktop.review import ReviewState
    from veil_desktop.review.loading import Loaded
    from veil_desktop.ui.main_window import MainWindow
    from veil_desktop.ui.settings_store import SettingsStore

    doc = open_document(docx_with(tmp_path, {"media/image1.png": save(card(), "PNG")}))
    w = MainWindow(SettingsStore(), detector_factory=lambda d, t: None)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.lang = "ko"
    w.view.lang = "ko"
    w.show_loaded(Loaded(doc.path, doc, ReviewState(doc.text), None))
    w.view.finish_loading()
    shown = w.view.toPlainText()
    assert "── 그림 1" in shown.replace("\u200b", "") and "Picture" not in shown
    i = doc.text.index(PHONE)
    assert shown[i:i + len(PHONE)] == PHONE      # the picture's text at the offsets detection sees


def test_sixteen_bit_grey_samples_are_scaled_not_clipped():
    """Pillow's convert("L") clips 16-bit samples at 255 (a 16-bit page turns white); eight_bit scales."""
    import numpy as np

    a = (np.arange(256, dtype=np.uint32).reshape(1, 256).repeat(4, 0) * 257).astype(np.uint16)
    im = Image.fromarray(a)
    assert im.mode == "I;16"
    assert np.asarray(im.convert("L"))[0, 128] == 255      # Pillow's own conversion clips (the trap)
    got = np.asarray(ocr.eight_bit(im))
    assert got.dtype == np.uint8 and got[0, 0] == 0 and got[0, 128] == 128 and got[0, 255] == 255
    f = Image.fromarray(np.full((4, 4), 0.5, dtype=np.float32))
    assert np.asarray(ocr.eight_bit(f))[0, 0] == 128
    rgb = Image.new("RGB", (3, 3), "red")
    assert ocr.eight_bit(rgb) is rgb


def test_a_sixteen_bit_grey_picture_is_read_and_burned(tmp_path):
    """A 16-bit grey PNG (red team 2, s): read as a viewer shows it, reviewed, its masked name burned."""
    import numpy as np

    grey = np.asarray(card().convert("L"), dtype=np.uint32) * 257
    png = save(Image.fromarray(grey.astype(np.uint16)), "PNG")
    assert Image.open(io.BytesIO(png)).mode == "I;16"
    src = docx_with(tmp_path, {"media/image1.png": png})
    doc = open_document(src)
    assert not doc.needs_review
    text = picture_text(doc, 1)
    assert NAME in text and PHONE in text, text
    a = doc.text.index(NAME)
    res = export_document(doc, [Replacement(a, a + len(NAME), "[인명]", "PERSON")], tmp_path / "o.docx")
    assert res.leak_check["result"] == "clean"
    (out,) = only_pictures(members(tmp_path / "o.docx")).values()
    shown = ocr.eight_bit(Image.open(io.BytesIO(out)))
    burned = "".join(ocr.ocr_image(shown).text.split())
    assert "담당자" in burned and NAME not in burned, burned


def desk_card() -> Image.Image:
    """A business card photographed on a dark desk (lit from one side), turned a little (red team 2, u)."""
    shade = Image.linear_gradient("L").resize((900, 560)).point(lambda v: 40 + v // 6)
    desk = Image.merge("RGB", (shade, shade.point(lambda v: v * 3 // 4), shade.point(lambda v: v // 2)))
    c = Image.new("RGB", (560, 320), (246, 244, 238))
    d = ImageDraw.Draw(c)
    d.text((30, 30), "한결물산 주식회사", font=font(30), fill=(20, 20, 20))
    d.text((30, 120), NAME, font=font(40), fill=(10, 10, 10))
    d.text((30, 200), f"M. {PHONE}", font=font(28), fill=(10, 10, 10))
    c = c.rotate(3, expand=True, fillcolor=(60, 45, 30))
    desk.paste(c, (150, 100))
    return desk


def test_a_photographed_card_is_read_in_sparse_mode_and_burned(tmp_path):
    """The page reading takes the dark desk for a negative page and reads nothing; the picture's plain
    sparse-mode view reads the card: reviewed, masked values burned, leak check clean."""
    im = desk_card()
    src = docx_with(tmp_path, {"media/image1.jpg": save(im, "JPEG", quality=92)},
                    ctypes={"media/image1.jpg": "image/jpeg"})
    doc = open_document(src)
    assert not doc.needs_review
    text = picture_text(doc, 1)
    assert NAME in text and "3456" in text, text
    a, p = doc.text.index(NAME), doc.text.index("3456")
    plan = [Replacement(a, a + len(NAME), "[인명]", "PERSON"), Replacement(p - 4, p + 9, "[전화번호]", "PHONE")]
    res = export_document(doc, plan, tmp_path / "o.docx")
    assert res.leak_check["result"] == "clean"
    (out,) = only_pictures(members(tmp_path / "o.docx")).values()
    again = "".join(ocr.ocr_plain(Image.open(io.BytesIO(out))).text.split())
    assert NAME not in again and "3456" not in again and "7890" not in again, again


@pytest.mark.parametrize("orientation", [6, 8, 3])
def test_an_exif_orientation_is_applied_to_the_rebuilt_pixels(orientation):
    """Rebuilding drops all metadata, the EXIF orientation included: the pixels are turned instead, so the
    picture shows (and OCR reads it) as the original showed, not sideways (red team 2, t)."""
    import numpy as np
    from PIL import ImageOps

    upright = card()
    stored = upright.transpose({6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270,
                                3: Image.Transpose.ROTATE_180}[orientation])
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = save(stored, "JPEG", quality=95, exif=exif.tobytes())
    shown = ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")
    assert shown.size == upright.size
    rb = pictures.rebuild_picture(data)
    out = Image.open(io.BytesIO(rb.data))
    assert out.size == upright.size and 0x0112 not in out.getexif()
    diff = np.abs(np.asarray(out.convert("RGB"), dtype=int) - np.asarray(shown, dtype=int))
    assert diff.mean() < 3.0           # the same picture (JPEG re-encoded once more)
    verdict, page = pictures.read_frame(rb.frames[0])
    assert verdict == "read" and NAME in page.text


@pytest.mark.parametrize("text, shaped", [
    ("\\ y - SF “a ri |", False), ("주\nB\ni,\nPee", False), ("Fle al\n0", False),   # seen on photos
    ("김민", True), ("010", True), ("12 34", True), ("Seo Jiwoo", True), ("kim@x", True), ("", False)])
def test_extra_views_count_only_when_they_read_something_value_shaped(text, shaped):
    """A picture without a sure reading is held by the worst of its readings; of the extra views (ink,
    sparse, descreened) only readings that could hold a value count (they read fur and leaves as letters)."""
    assert pictures.value_shaped(text) is shaped


def _page(words: list[tuple[str, tuple, float]]) -> "ocr.OcrPage":
    """An OcrPage of ``words`` (text, box, confidence), one space between them."""
    text, boxes, confs = "", [], []
    for k, (w, box, c) in enumerate(words):
        if k:
            text += " "
            boxes.append(None)
            confs.append(100.0)
        x0, y0, x1, y1 = box
        step = (x1 - x0) / len(w)
        for i, ch in enumerate(w):
            text += ch
            boxes.append((x0 + i * step, y0, x0 + (i + 1) * step, y1))
            confs.append(c)
    return ocr.OcrPage(text, boxes, 90.0, 800, 200, words=len(words), line_heights=[20.0] * len(text),
                       confidences=confs)


@pytest.mark.parametrize("stray, disputes", [("zalitossr", False), ("Retnes", False), ("김민수", True),
                                             ("4482", True), ("kim1203", True)])
def test_an_unsure_word_outside_the_sure_reading_disputes_it_only_in_a_value_shape(stray, disputes):
    """merge_readings: an unsure word another view reads where the surest reading read nothing disputes it
    (a file with more than two such letters is held) when it could be part of a Korean value; Latin
    garbage over an icon or scan noise does not (an English settings dialog was held for it)."""
    base = _page([("Server", (10, 10, 90, 30), 95.0), ("port", (100, 10, 150, 30), 95.0)])
    other = _page([("Server", (10, 10, 90, 30), 90.0), (stray, (400, 120, 520, 140), 40.0)])
    merged, disputed = pictures.merge_readings(base, [other])
    assert (disputed > 0) is disputes
    assert stray not in merged.text          # unsure words are not added to the reviewed text


def test_a_value_cut_over_two_neighbouring_pictures_holds_both(tmp_path):
    """One line cut into two pictures shown side by side (red team 2, o): each reads only fragments the
    detector cannot recognise (`… 010-34` / `56-7890`), so both pictures hold the file; two whole cards of
    the same height, side by side, do not."""
    line = card(text=f"신청인 성명 {NAME} 연락처 {PHONE}", size=(900, 110))
    cut = 560                       # inside the phone number
    left, right = line.crop((0, 0, cut, 110)), line.crop((cut, 0, 900, 110))
    src = docx_with(tmp_path, {"media/image1.png": save(left, "PNG"), "media/image2.png": save(right, "PNG")},
                    name="split.docx")
    doc = open_document(src)
    assert doc.needs_review
    assert sorted(u.where for u in doc.unreadable) == ["picture 1", "picture 2"]
    assert all("runs on into the next picture" in u.caption_en for u in doc.unreadable)
    assert all("나뉘어 있을 수 있습니다" in u.caption for u in doc.unreadable)
    assert "picture" not in {p.kind for p in doc.parts}
    # control: two separate cards (white margins at the seam) are reviewed as two pictures
    a = card(text=f"담당자 {NAME}", size=(500, 110))
    b = card(text=f"연락처 {PHONE}", size=(520, 110))
    src = docx_with(tmp_path, {"media/image1.png": save(a, "PNG"), "media/image2.png": save(b, "PNG")},
                    name="two.docx")
    doc = open_document(src)
    assert not doc.needs_review and doc.unreadable == ()
    assert NAME in picture_text(doc, 1) and PHONE in picture_text(doc, 2)


def _ruled_form(value: str | None = None, speckle: bool = True):
    """A scanned blank form (red team 2, x): title, a ruled table of labels, grey scan speckle; with
    ``value``, faint grey type written in the first empty cell."""
    import random

    im = Image.new("RGB", (850, 600), "white")
    d = ImageDraw.Draw(im)
    for i, lab in enumerate(["성명", "생년월일", "주소", "연락처", "서명"]):
        y = 120 + 80 * i
        d.rectangle((60, y, 790, y + 80), outline="black", width=2)
        d.line((230, y, 230, y + 80), fill="black", width=2)
        d.text((80, y + 24), lab, font=font(28), fill="black")
    if value:
        d.text((260, 144), value, font=font(28), fill=(170, 170, 170))
    if speckle:
        rng = random.Random(3)
        px = im.load()
        for _ in range(6000):
            g = rng.randint(120, 220)
            px[rng.randrange(850), rng.randrange(600)] = (g, g, g)
    return im


def test_type_in_box_sees_strokes_not_speckle_or_rulings():
    """The test a dispute must pass (a blank scanned form was held for `106` read over speckle at a table
    corner): a box of speckle and rulings holds no type; a box over a label or faint grey type does."""
    form = pictures.type_in_box(_ruled_form("김민수"))
    assert not form((765, 80, 830, 150))            # table corner + speckle
    assert not form((300, 350, 700, 380))            # an empty cell: a ruling and speckle only
    assert form((78, 140, 140, 180))                 # the label 성명
    assert form((258, 140, 360, 178))                # faint grey value type
    blank = pictures.type_in_box(Image.new("RGB", (300, 200), "white"))
    assert blank((10, 10, 100, 50))                  # nothing to go by: the dispute stands


def test_an_unsure_word_over_speckle_does_not_dispute_but_over_type_it_does():
    base = _page([("성명", (80, 144, 136, 172), 95.0)])
    other = _page([("성명", (80, 144, 136, 172), 90.0), ("106", (765, 80, 830, 150), 40.0),
                   ("김민수", (258, 140, 360, 178), 40.0)])
    has_type = pictures.type_in_box(_ruled_form("김민수"))
    _, disputed = pictures.merge_readings(base, [other], has_type)
    assert disputed == 3                              # 김민수 only; 106 over speckle is not a dispute
    _, without = pictures.merge_readings(base, [other])
    assert without == 6


def test_a_scanned_blank_form_is_reviewed_not_held(tmp_path):
    """Red team 2's control x (a blank consent form scanned with speckle, in a DOCX) is read, not held."""
    im = _ruled_form().rotate(0.7, resample=Image.BICUBIC, fillcolor="white").convert("L")
    src = docx_with(tmp_path, {"media/image1.jpg": save(im, "JPEG", quality=75)})
    doc = open_document(src)
    assert not doc.needs_review, doc.unreadable
    assert "생년월일" in picture_text(doc, 1)


def test_an_unsure_reading_of_ink_another_reading_is_sure_of_is_no_dispute():
    """A bar chart's label (ordinary documents): one reading unsure of `72,000` where another is sure of
    `78,000` — the sure word is added to the reviewed text (masking it burns that ink): no dispute. Without
    the sure reading the unsure one disputes as before."""
    base = _page([("매출", (20, 20, 80, 44), 95.0)])
    unsure = _page([("매출", (20, 20, 80, 44), 90.0), ("72,000", (200, 300, 290, 324), 40.0)])
    sure = _page([("매출", (20, 20, 80, 44), 90.0), ("78,000", (201, 301, 291, 325), 88.0)])
    merged, disputed = pictures.merge_readings(base, [unsure, sure])
    assert disputed == 0
    assert "78,000" in merged.text and "72,000" not in merged.text
    _, alone = pictures.merge_readings(base, [unsure])
    assert alone == 5


def _building(caption: str | None = None) -> Image.Image:
    """A photo of a building (sky gradient, a wall, rows of window panes: OCR's sparse and ink views read
    the panes as `별 별 인 … 여월`); with ``caption``, bold type painted over the wall."""
    import random

    rnd = random.Random(31)
    w, h = 800, 500
    im = Image.new("RGB", (w, h))
    d = ImageDraw.Draw(im)
    for y in range(h):
        v = int(150 + 90 * y / h)
        d.line((0, y, w, y), fill=(v - 60, v - 20, v))
    d.rectangle((w // 5, h // 3, w * 4 // 5, h), fill=(170, 160, 150))
    for i in range(6):
        for j in range(3):
            x0, y0 = w // 5 + 20 + i * (w // 10), h // 3 + 20 + j * (h // 6)
            d.rectangle((x0, y0, x0 + w // 20, y0 + h // 12), fill=(90 + rnd.randint(0, 40), 110, 140))
    if caption:
        d.text((40, 40), caption, font=font(48), fill=(20, 20, 20), stroke_width=1, stroke_fill=(20, 20, 20))
    return im


def test_strokes_in_box_tells_type_from_solid_patches():
    """Type is strokes much thinner than its line; window panes are solid. Boxes measured from OCR's
    readings of the building photo (the word `여월` read over two panes) and of type."""
    panes = pictures.strokes_in_box(_building())
    assert not panes((180, 352, 395, 394))           # two window panes and the wall between them
    assert not panes((261, 270, 540, 310))
    typed = pictures.strokes_in_box(_building(f"{NAME} {PHONE}"))
    assert typed((38, 44, 260, 100))                 # bold 48 px Hangul over the sky
    assert panes((10, 10, 14, 14))                   # too small to judge: the reading stands


def test_a_photo_of_window_panes_is_clean_but_a_name_over_it_is_not(tmp_path):
    """A picture with no sure reading is held by the worst of its readings; the extra views' letters count
    only where their boxes hold strokes (the building photo of red team 5's control 6a was held for them)."""
    assert pictures.read_frame(_building())[0] == "clean"
    verdict, page = pictures.read_frame(_building(f"담당 {NAME}"))
    # read (by the locally thresholded view: the global ones merge the type with the sky) and held, as
    # the panes around it read as garbage
    assert verdict == "text" and NAME in page.text
