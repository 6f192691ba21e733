"""Pictures inside DOCX/HWPX/HWP packages: default deny.

A picture is published only as bytes this module rebuilt from its pixels, and only after every frame was
read by OCR:

- **Sniffed by content** (:func:`sniff`: PNG, JPEG, GIF, BMP, TIFF, WebP; EMF/WMF and their gzip forms),
  never by the member's extension (``.jfif``, no extension, a ``.bin``). A member that claims to be a
  picture (picture extension) or sniffs as one but does not decode is never copied: it *needs review*
  and the writer puts a 1×1 white placeholder in its place (or drops it, by the picture policy).
- **Rebuilt from pixels only** (:func:`rebuild_picture`): every frame/page is decoded
  (``PIL.ImageSequence``) and re-encoded into a fresh file of the same container type from a fresh image
  that holds nothing but pixels — no PNG ancillary chunks (``tEXt``/``iCCP``/private chunks), no JPEG
  APP/COM segments beyond the JFIF header the encoder writes, nothing after the JPEG end-of-image marker
  (an appended ZIP), no GIF comment/application extensions beyond the loop count, no TIFF tags beyond those
  that describe the pixels. No input byte outside the pixels survives.
- **Every published frame of every picture of any size is OCR'd** (:func:`review_pictures`). A picture
  whose text OCR reads with confidence (:data:`READ_CONFIDENCE`, few weakly read letters) is **reviewed
  like a scan page**: its OCR text becomes a part of the document (``Picture N``, one slot per frame,
  boxes in the picture's pixels, ``Document.extra["picture_pages"]``), detection and the reviewer see it,
  and the writer burns opaque boxes over every masked value before re-encoding (:func:`publish_picture`);
  the export's leak check reads every output picture again by OCR. A frame holding ink OCR cannot read
  with confidence (or a picture that cannot be decoded or checked) makes the document *needs review*
  (``Unreadable`` with reason ``"image"``) — unless the user's :class:`PicturePolicy` says ``blank`` (the
  picture is replaced by a same-size white picture of the same kind) or ``remove`` (the picture is dropped
  from the output with the elements that reference it); with those two, *every* picture holding text is
  blanked or removed, read or not. Both are listed in the document's notes and the export report. Readers
  that cannot write burned pictures back (HWP 5) ask for the old rule: text in a picture holds the file.
- **Read as the document shows them**: the readers give, per picture, every size the document displays it
  at (DOCX ``wp:extent``/``a:ext``/VML ``style``, HWPX ``hp:sz``/``hp:curSz``/``hp:imgRect``, crops
  undone); a frame shown at another aspect than its pixels' (past ``ocr.PIXEL_ASPECT_TOLERANCE``) is
  read stretched to it as well (``ocr._squared``, boxes mapped back to its pixels), and one shown past
  ``ocr.MAX_PIXEL_ASPECT`` is held (:func:`displayed_stretches`): a name stored squashed to a quarter
  of its height and shown stretched back read as noise at the pixel grid.
- Metafiles (EMF/WMF) hold text as text records: a metafile with one (:func:`metafile_text`) is held.
  One without is rendered as it will be published (``metafile_render``: polygons, curves, paths, shapes,
  transforms, clipping, embedded bitmaps) and its frames are OCR'd like a raster picture's; it passes when
  OCR finds nothing or reads its text with confidence and detection finds nothing there
  (:func:`vector_text_hits`). A hit or unsure OCR holds it (the writer cannot mask inside a metafile), and
  so does a record that puts ink on the page and is not drawn (``undrawn``). The file is published with
  its description, comment payloads and trailing bytes zeroed or cut (:func:`rebuild_metafile`; its
  drawing records are kept as they are, not re-drawn).

Caps (``documents/limits.py``): pixels per frame, frames per picture, pixels per picture, pictures and
frames OCR'd per document. A picture over a cap is not decoded (fail closed: needs review / removed).

Where: ``picture N`` (the N-th picture in package order) — never the member name, which can carry a name.

The policy reaches the readers through :func:`picture_policy` (a per-thread context that
``open_document(..., pictures=...)`` opens); the verdicts travel to the writer in
``Document.extra["picture_actions"]`` (member name -> ``"blank"``/``"remove"``).
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import math
import posixpath
import re
import struct
import threading
import zlib
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Mapping

from . import limits
from .errors import DocumentError
from .model import Unreadable

PICTURE_EXTS = {".png", ".jpg", ".jpeg", ".jpe", ".jfif", ".gif", ".bmp", ".dib", ".tif", ".tiff", ".webp",
                ".wdp", ".jxr", ".hdp"}
#: vector pictures (Windows metafiles) hold text as text records: read their records instead of OCR
METAFILE_EXTS = {".emf", ".wmf", ".emz", ".wmz"}
_EMF_TEXT = {83, 84, 96, 97, 108}          # EMR_EXTTEXTOUTA/W, EMR_POLYTEXTOUTA/W, EMR_SMALLTEXTOUT
_EMF_COMMENT = 70
_WMF_TEXT = {0x0521, 0x0A32}               # META_TEXTOUT, META_EXTTEXTOUT
MAX_METAFILE = limits.MAX_METAFILE
#: kept for callers that import them (hwp.py): the caps live in limits.py
MAX_PICTURES = limits.MAX_PICTURES_CHECKED
MAX_PIXELS = limits.MAX_PICTURE_PIXELS
_TEXTY = re.compile(r"[가-힣0-9A-Za-z@]")
#: OCR reads a frame as text at this mean confidence or more (with 3+ letters/digits) ...
TEXT_CONFIDENCE = 30.0
#: ... and below it, this many letters/digits count as ink it cannot read with confidence
UNSURE_TEXTY = 6
#: small pictures are enlarged for OCR until their short side has this many pixels (Tesseract needs
#: ~20 px letters; a 22 px strip or a 76 px seal holds smaller ones)
OCR_MIN_SIDE = 240
OCR_MAX_SCALE = 4
#: a frame OCR reads as text is *reviewed* (its text shown, masked values burned) only when its mean word
#: confidence is at least this (scan pages need ``ocr.MIN_PAGE_CONFIDENCE``, 45: pictures are held to more)
READ_CONFIDENCE = 60.0
#: ... and at most this many of its letters/digits belong to words read with less than ``WEAK_WORD``
READ_MAX_WEAK = 2
#: a two-letter word on a plain background is read (reviewable) only at this confidence, no letter weak
SHORT_READ_CONFIDENCE = 90.0
WEAK_WORD = 60.0
#: a frame whose most common colour covers this share is "plain background" (see ``frame_verdict``)
PLAIN_BACKGROUND = 0.6
JPEG_QUALITY = 92

#: kind -> Pillow format
PIL_FORMATS = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "bmp": "BMP", "tiff": "TIFF", "webp": "WEBP"}
METAFILE_KINDS = {"emf", "wmf", "emz", "wmz"}
#: kinds a picture can sniff as that Pillow cannot decode (JPEG XR / HD Photo): fail closed
UNDECODABLE_KINDS = {"jxr"}


class PictureError(DocumentError):
    """A picture that cannot be decoded (damaged, not what it claims, over a cap)."""


class PicturePolicy(str, Enum):
    """What happens to a picture that holds text (or cannot be checked): ``review`` (the document needs
    review, as before), ``blank`` (a same-size white picture is written instead), ``remove`` (dropped)."""

    REVIEW = "review"
    BLANK = "blank"
    REMOVE = "remove"

    @classmethod
    def parse(cls, value: "PicturePolicy | str | None") -> "PicturePolicy":
        if value is None:
            return cls.REVIEW
        if isinstance(value, cls):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            raise DocumentError(f"Unknown picture policy {value!r}: use review, blank or remove.") from None


_local = threading.local()


@contextlib.contextmanager
def picture_policy(policy: "PicturePolicy | str | None"):
    """``with picture_policy("blank"):`` — readers on this thread apply ``policy`` to pictures with text."""
    old = getattr(_local, "policy", None)
    _local.policy = PicturePolicy.parse(policy)
    try:
        yield _local.policy
    finally:
        _local.policy = old


def current_policy() -> PicturePolicy:
    return getattr(_local, "policy", None) or PicturePolicy.REVIEW


# -- sniffing ---------------------------------------------------------------------------------------------
def sniff(data: bytes) -> str | None:
    """The picture kind of ``data`` by its magic bytes (``png``, ``jpeg``, ``gif``, ``bmp``, ``tiff``,
    ``webp``, ``emf``, ``wmf``, ``emz``, ``wmz``, ``jxr``), or None."""
    head = bytes(data[:64])
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if head.startswith(b"BM") and len(head) >= 18:
        return "bmp"
    if head.startswith((b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+")):
        return "tiff"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head.startswith(b"II\xbc"):
        return "jxr"
    meta = _metafile_kind(head)
    if meta:
        return meta
    if head.startswith(b"\x1f\x8b"):
        try:
            inner = zlib.decompressobj(31).decompress(bytes(data[:4096]), 64)
        except zlib.error:
            return None
        meta = _metafile_kind(inner)
        return {"emf": "emz", "wmf": "wmz"}.get(meta or "")
    return None


def _metafile_kind(head: bytes) -> str | None:
    if len(head) >= 44 and head[:4] == b"\x01\x00\x00\x00" and head[40:44] == b" EMF":
        return "emf"
    if head.startswith(b"\xd7\xcd\xc6\x9a") or head[:6] in (b"\x01\x00\x09\x00\x00\x03",
                                                            b"\x02\x00\x09\x00\x00\x03"):
        return "wmf"
    return None


def _looks_xml(data: bytes) -> bool:
    head = bytes(data[:64]).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] == b"<" or head[:2] in (b"\xff\xfe", b"\xfe\xff")


def claims_picture(name: str, data: bytes) -> bool:
    """Whether a member is a picture by content, or claims to be one by its extension (and is not XML)."""
    if sniff(data) is not None:
        return True
    ext = posixpath.splitext(name)[1].lower()
    return ext in PICTURE_EXTS | METAFILE_EXTS and not _looks_xml(data)


# -- rebuilding -------------------------------------------------------------------------------------------
@dataclass
class RebuiltPicture:
    """A picture rebuilt from its pixels: ``data`` (fresh file of ``kind``), the decoded ``frames``
    (fresh PIL images holding only pixels, the ones written and the ones to OCR)."""

    data: bytes
    frames: list = field(repr=False)
    kind: str

    @property
    def size(self) -> tuple[int, int]:
        return self.frames[0].size


def _decode(data: bytes, kind: str) -> tuple[list, dict]:
    """Every frame of ``data`` as a fresh pixel-only image, plus timing info (GIF/WebP durations)."""
    from PIL import Image, ImageSequence

    fmt = PIL_FORMATS.get(kind)
    if fmt is None:
        raise PictureError(f"a {kind} picture cannot be decoded")
    try:
        img = Image.open(io.BytesIO(data), formats=[fmt])
        n = int(getattr(img, "n_frames", 1) or 1)
        if n > limits.MAX_PICTURE_FRAMES:
            raise PictureError(f"more than {limits.MAX_PICTURE_FRAMES} frames")
        frames, durations = [], []
        total = 0
        turn = _upright(_orientation(img))
        for i, frame in enumerate(ImageSequence.Iterator(img)):
            if i >= limits.MAX_PICTURE_FRAMES:
                raise PictureError(f"more than {limits.MAX_PICTURE_FRAMES} frames")
            w, h = frame.size
            if w < 1 or h < 1 or w * h > limits.MAX_PICTURE_PIXELS:
                raise PictureError(f"frame {i + 1} is {w}×{h} pixels")
            total += w * h
            if total > limits.MAX_PICTURE_TOTAL_PIXELS:
                raise PictureError(f"more than {limits.MAX_PICTURE_TOTAL_PIXELS:,} pixels in all frames")
            frame.load()
            durations.append(int(frame.info.get("duration", 0) or 0))
            fresh = _fresh(frame, kind)
            # the EXIF orientation is metadata the rebuilt picture does not carry: applied to the pixels,
            # so it shows (and is read by OCR) as a viewer showed the original
            frames.append(fresh.transpose(turn) if turn is not None else fresh)
        if not frames:
            raise PictureError("no frames")
        return frames, {"durations": durations, "loop": "loop" in img.info}
    except PictureError:
        raise
    except (Image.DecompressionBombError, MemoryError):
        raise PictureError("too large to decode") from None
    except Exception as e:  # noqa: BLE001 - damaged / hostile picture: fail closed
        raise PictureError(f"cannot be decoded ({type(e).__name__})") from None


def _orientation(img) -> int:
    """The EXIF orientation (1-8) of an opened picture; 1 when it has none or it cannot be read."""
    try:
        v = int(img.getexif().get(0x0112, 1) or 1)
    except Exception:  # noqa: BLE001 - a damaged EXIF block: shown as stored
        return 1
    return v if 1 <= v <= 8 else 1


def _upright(orientation: int):
    """The transposition that shows pixels stored with EXIF ``orientation`` upright (as Pillow's
    ``ImageOps.exif_transpose``); None for 1 (as stored)."""
    from PIL import Image

    t = Image.Transpose
    return {2: t.FLIP_LEFT_RIGHT, 3: t.ROTATE_180, 4: t.FLIP_TOP_BOTTOM, 5: t.TRANSPOSE, 6: t.ROTATE_270,
            7: t.TRANSVERSE, 8: t.ROTATE_90}.get(orientation)


_KEEP_MODES = {
    "png": {"1", "L", "LA", "RGB", "RGBA", "I;16"},
    "jpeg": {"L", "RGB"},
    "gif": {"L", "RGB", "RGBA"},
    "bmp": {"1", "L", "RGB", "RGBA"},
    "tiff": {"1", "L", "LA", "RGB", "RGBA", "I;16"},
    "webp": {"RGB", "RGBA"},
}


def _fresh(frame, kind: str):
    """A new image holding only ``frame``'s pixels (no ``info``: no ICC profile, comments, EXIF, text)."""
    from PIL import Image

    from .ocr import eight_bit as ocr_eight_bit

    im = frame
    has_alpha = im.mode in ("RGBA", "LA", "PA") or (im.mode in ("P", "L", "RGB") and "transparency" in im.info)
    keep = _KEEP_MODES[kind]
    if im.mode not in keep or "transparency" in im.info:
        if im.mode == "I" and "I;16" in keep:
            im = im.convert("I;16")
        elif has_alpha and "RGBA" in keep:
            im = im.convert("RGBA")
        elif has_alpha:
            rgba = im.convert("RGBA")
            bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            bg.alpha_composite(rgba)
            im = bg.convert("RGB")
        elif im.mode in ("1", "L", "I", "I;16", "F") and "L" in keep:
            im = im.convert("L") if im.mode in ("1", "L") else ocr_eight_bit(im)
        else:
            im = im.convert("RGB")
    if im.mode in ("RGBA", "LA"):
        im = _clear_hidden_colour(im)
    return Image.frombytes(im.mode, im.size, im.tobytes())


#: below this alpha a pixel's colour adds at most 3 % to what a viewer shows: its colour is not published
HIDDEN_ALPHA = 8


def _clear_hidden_colour(im):
    """``im`` (RGBA or LA) with the colour of its (nearly) transparent pixels set to white: what a viewer
    shows is kept, the colour values under alpha 0 are not. An editor that saves "colour values from
    transparent pixels" (GIMP) keeps the erased text there, readable once the alpha is ignored (red team 6,
    1c); the reviewer saw the picture composited, so only that is published."""
    import numpy as np

    from PIL import Image

    a = np.array(im)
    hidden = a[..., -1] < HIDDEN_ALPHA
    if not hidden.any():
        return im
    a[..., :-1][hidden] = 255
    return Image.fromarray(a, im.mode)


def _encode(frames: list, kind: str, timing: dict | None = None) -> bytes:
    buf = io.BytesIO()
    first, rest = frames[0], frames[1:]
    kw: dict[str, Any] = {}
    if kind == "jpeg":
        kw = {"quality": JPEG_QUALITY}
    elif kind == "tiff":
        kw = {"compression": "tiff_deflate"}
        if rest:
            kw.update(save_all=True, append_images=rest)
    elif kind in ("gif", "webp"):
        if rest:
            durations = (timing or {}).get("durations") or []
            kw.update(save_all=True, append_images=rest)
            if len(durations) == len(frames) and any(durations):
                kw["duration"] = [max(d, 10) for d in durations]
            if (timing or {}).get("loop"):
                kw["loop"] = 0
        if kind == "webp":
            kw["lossless"] = True
    elif kind == "png":
        kw = {"optimize": False}
    # JPEG/BMP/PNG hold one frame: a second frame (MPO, APNG) is read for review but cannot be written
    # into the same container without its extension: only the first frame is published
    first.save(buf, PIL_FORMATS[kind], **kw)
    return buf.getvalue()


def rebuild_picture(data: bytes) -> RebuiltPicture:
    """``data`` sniffed by content, every frame decoded and re-encoded from pixels only into a fresh file of
    the same kind. Raises :class:`PictureError` if it is not a decodable raster picture."""
    kind = sniff(data)
    if kind is None:
        raise PictureError("not a picture")
    if kind in METAFILE_KINDS or kind in UNDECODABLE_KINDS:
        raise PictureError(f"a {kind} picture cannot be rebuilt from pixels")
    frames, timing = _decode(data, kind)
    published = frames if kind in ("gif", "tiff", "webp") else frames[:1]
    try:
        out = _encode(published, kind, timing)
    except Exception as e:  # noqa: BLE001
        raise PictureError(f"cannot be re-encoded ({type(e).__name__})") from None
    return RebuiltPicture(out, frames, kind)


def blank_picture(rebuilt: RebuiltPicture) -> bytes:
    """A white picture of the same kind, size and frame count as ``rebuilt``."""
    from PIL import Image

    mode = "RGB"
    frames = [Image.new(mode, f.size, "white") for f in rebuilt.frames]
    if rebuilt.kind not in ("gif", "tiff", "webp"):
        frames = frames[:1]
    if rebuilt.kind == "gif" and len(frames) > 1:
        # identical frames would be merged by the GIF encoder; one white frame shows the same
        frames = frames[:1]
    return _encode(frames, rebuilt.kind)


def placeholder_png() -> bytes:
    """A 1×1 white PNG: what is written in place of a picture that could not be decoded."""
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (1, 1), "white").save(buf, "PNG")
    return buf.getvalue()


def publish_picture(data: bytes, action: str | None = None, pages: list | None = None,
                    ranges: "dict[int, list[tuple[int, int]]] | None" = None) -> bytes:
    """The bytes to publish for a picture: rebuilt (or blanked with ``action="blank"``); a metafile as it
    is; anything undecodable becomes a 1×1 white PNG (never copied). ``pages``/``ranges``: the reviewed
    OCR of its published frames and, per frame, the ranges of that frame's text to mask — those are burned
    into the pixels (``ocr.burn_boxes``, fitted to the glyphs) before the picture is encoded."""
    kind = sniff(data)
    if kind in METAFILE_KINDS:
        clean = rebuild_metafile(data)
        return placeholder_png() if clean is None else clean
    try:
        rb = rebuild_picture(data)
    except PictureError:
        return placeholder_png()
    if action == "blank":
        return blank_picture(rb)
    if not ranges:
        return rb.data
    return burned_picture(rb, pages or [], ranges)


def published_frames(rb: RebuiltPicture) -> list:
    """The frames a rebuilt picture publishes (GIF/TIFF/WebP: all; PNG/JPEG/BMP: the first)."""
    return rb.frames if rb.kind in ("gif", "tiff", "webp") else rb.frames[:1]


def burned_picture(rb: RebuiltPicture, pages: list, ranges: "dict[int, list[tuple[int, int]]]") -> bytes:
    """``rb`` re-encoded with opaque boxes over ``ranges`` (per published frame, ranges of ``pages[i].text``)."""
    from . import ocr

    frames = published_frames(rb)
    if len(pages) != len(frames):
        raise DocumentError("A picture does not match what was reviewed; open the file again.")
    out = []
    for i, frame in enumerate(frames):
        rs = ranges.get(i) or []
        if rs:
            boxes = ocr.burn_boxes(pages[i], rs, _on_white(frame))
            frame = ocr.burn(frame, boxes)
            if frame.mode not in _KEEP_MODES[rb.kind]:
                frame = _fresh(frame, rb.kind)
        out.append(frame)
    try:
        return _encode(out, rb.kind, {"durations": [int(f.info.get("duration", 0) or 0) for f in out]})
    except Exception as e:  # noqa: BLE001
        raise DocumentError(f"A picture could not be written back ({type(e).__name__}).") from None


def publish_member(m, doc=None, edits: "dict[int, list[tuple[int, int, str]]] | None" = None):
    """Writer hook for a ZIP member (``name``/``data``/``compress_type``/``date_time``): a picture is
    returned rebuilt (or blanked, by the reader's verdict in ``doc.extra["picture_actions"]``; or with the
    masked values of its reviewed text burned in: ``edits`` are the plan's local edits per frame slot, as
    ``model.split_plan`` gives them); any other member unchanged. Members the profile removes anyway are
    not decoded."""
    extra = getattr(doc, "extra", None) or {}
    if m.name in set(extra.get("removed_members") or ()) or not claims_picture(m.name, m.data):
        return m
    action = (extra.get("picture_actions") or {}).get(m.name)
    pages = (extra.get("picture_pages") or {}).get(m.name)
    ranges = {slot: [(a, b) for a, b, _ in e] for slot, e in (edits or {}).items() if e}
    if ranges and pages is None:
        raise DocumentError("A picture does not match what was reviewed; open the file again.")
    data = publish_picture(m.data, action, pages, ranges)
    return type(m)(m.name, data, m.compress_type, m.date_time)


def dropped_pictures(doc) -> set[str]:
    """Members the picture policy ``remove`` drops (the profile removes them with their references)."""
    extra = getattr(doc, "extra", None) or {}
    return {n for n, a in (extra.get("picture_actions") or {}).items() if a == "remove"}


# -- reviewing --------------------------------------------------------------------------------------------
def _unreadable(k: int, why_ko: str, why_en: str) -> Unreadable:
    return Unreadable(where=f"picture {k}", reason="image",
                      caption=f"그림 {k}: {why_ko} — 직접 확인하세요",
                      caption_en=f"picture {k}: {why_en} — review it yourself")


_WHY = {
    "text": ("그림 속 글자는 가려지지 않습니다", "holds text that masking cannot reach"),
    "ink": ("그림 속 글씨를 확실히 읽지 못했습니다", "holds marks OCR cannot read with confidence"),
    "read": ("그림 속 글자는 가려지지 않습니다", "holds text that masking cannot reach"),
    "split": ("옆 그림으로 이어지는 글자가 있어 값이 두 그림에 나뉘어 있을 수 있습니다",
              "holds text that runs on into the next picture (a value may be split between the two)"),
    "unsure": ("그림 속 글자를 확실히 읽지 못해 가릴 수 없습니다", "holds text OCR cannot read surely enough to mask"),
    "undecodable": ("그림을 열 수 없어 글자를 확인하지 못했습니다", "could not be decoded to check for text"),
    "outlines": ("글자 모양일 수 있는 윤곽선(벡터 도형)을 그려 글자를 읽거나 가릴 수 없습니다",
                 "draws vector outlines that may be letters (glyphs drawn as shapes), which cannot be read or masked"),
    "unchecked": ("글자가 있는지 확인하지 못했습니다", "not checked for text"),
    "vector": ("벡터 그림(EMF/WMF)에 개인정보로 보이는 글자가 그려져 있는데, 벡터 그림 안의 글자는 가릴 수 없습니다",
               "draws text that looks like personal data in a vector picture (EMF/WMF), where masking cannot reach"),
    "vector_unsure": ("벡터 그림(EMF/WMF)에 그려진 글자를 확실히 읽지 못했고, 벡터 그림 안의 글자는 가릴 수 없습니다",
                      "draws text in a vector picture (EMF/WMF) that OCR cannot read surely, and masking cannot "
                      "reach inside a vector picture"),
    "undrawn": ("이 도구가 그리지 못하는 벡터 그림 기록이 있어 글자를 확인하지 못했습니다",
                "uses vector drawing records this tool cannot render, so it could not be checked for text"),
    "aspect": ("문서가 그림을 원래 가로세로 비율과 크게 다르게 표시해 글자를 확인하지 못했습니다",
               "is shown at an aspect ratio far from its pixels' and could not be checked for text"),
}


def ocr_readings(frame) -> list:
    """OCR readings of one frame, boxes in the frame's own pixels:

    1. the frame as it is (transparency on white, grey levels stretched: grey type on a grey ground reads
       as nothing otherwise) and, for a small picture (short side under :data:`OCR_MIN_SIDE`: a seal, a
       strip), the same enlarged inside a white margin;
    2. its **ink view** (:func:`ink_view`): every pixel as dark as its colour is far from the picture's
       dominant colour — a light-grey line under black text, a yellow name on white and white type on a
       dark banner all become dark type on white;
    3. when the ink holds lines of small type (under :data:`SMALL_LINE` pixels: a 9 px footer, a 22 px
       strip), the ink view enlarged until they are :data:`TARGET_LINE` pixels high (at most
       :data:`OCR_MAX_SCALE` times) inside a white margin. Tesseract misses letters under ~20 px but reads
       large type worse, so the size follows the type, not the picture;
    4. the stretched frame once more as it is (``ocr.ocr_plain``: no page clean-up) in Tesseract's *sparse
       text* mode (``ocr.PSM_SPARSE``): the page reading takes a photographed business card on a dark desk
       for a negative page with rules and finds nothing, and its mode takes a picture for one block of
       text; the sparse mode looks for text anywhere;
    5. the frame descreened (a 3×3 average turns halftone dots — a printed-and-scanned line, a dot-pattern
       type face — back into strokes), read as the frame;
    6. the stretched frame binarised by a local threshold (``ocr.ocr_plain(local_threshold=True)``,
       Sauvola): black type over a photo's sky gradient, which every global threshold above merges with
       the sky (it read nothing of `담당 김민수` in 48 px bold there).

    The first :func:`own_readings` of them read the frame itself; :func:`read_frame` merges what the others
    read and the surest one did not."""
    from PIL import ImageFilter, ImageOps

    from . import ocr

    grey = _on_white(frame).convert("L")
    im = ImageOps.autocontrast(grey, cutoff=1)
    w, h = im.size
    small = _is_small(frame)
    out = [_read(im, w, h, views=_on_white(frame))]
    if small:                       # a small picture (a seal, a strip) read enlarged as well
        out.append(_read(im, w, h, min(OCR_MAX_SCALE, OCR_MIN_SIDE / max(1, min(w, h))), margin=True))
    ink = ink_view(frame)
    if ink is not None:
        out.append(_read(ink, w, h, margin=small))
        lines = sorted(x for x in _line_heights(ink) if x < SMALL_LINE)
        if lines:
            scale = min(OCR_MAX_SCALE, max(1.5, TARGET_LINE / max(3, lines[len(lines) // 2])))
            out.append(_read(ink, w, h, scale, margin=True))
    out.append(_read(im, w, h, margin=small, psm=ocr.PSM_SPARSE))
    out.append(_read(ImageOps.autocontrast(grey.filter(ImageFilter.BoxBlur(1)), cutoff=1), w, h, margin=small))
    out.append(_read(im, w, h, margin=small, psm=ocr.PSM, local_threshold=True))
    for y0, y1 in caption_bars(frame):
        out.append(_read_band(grey, y0, y1))
    return out


#: caption bars (:func:`caption_bars`): at least this many rows, at most this share of the picture's height
BAR_MIN_ROWS = 16
BAR_MAX_SHARE = 0.34
#: a row is flat when this share of its pixels lies within BAR_FLAT levels of its median
BAR_ROW_FLAT = 0.6
BAR_FLAT = 12
#: the bar's ground stands this many grey levels off the picture's median
BAR_CONTRAST = 40
#: at most this many bars are read (the tallest first)
MAX_BARS = 3


def caption_bars(frame) -> list[tuple[int, int]]:
    """Row ranges ``[y0, y1)`` of bands across the whole frame on one flat ground that stands off the rest
    of the picture — a caption bar under a photo, a title banner — and holds marks. Tesseract's page
    layout over a photo misses the line in them: `청사 전경` white on a dark bar under a building photo
    (red team 7 control 6a) was read by no reading of the whole frame (an extra view's guesses at the
    windows held the picture), and at 96 % when the bar is read alone (:func:`ocr_readings`). A frame
    too small to hold such a bar (under 3 × :data:`BAR_MIN_ROWS` rows) has none."""
    import numpy as np

    a = np.asarray(_on_white(frame).convert("L"), dtype=np.int16)
    h, w = a.shape
    if h < 3 * BAR_MIN_ROWS or w < 64:
        return []
    med = np.median(a, axis=1)
    flat = (np.abs(a - med[:, None]) <= BAR_FLAT).mean(axis=1) >= BAR_ROW_FLAT
    overall = float(np.median(a))
    bars: list[tuple[int, int]] = []
    y = 0
    while y < h:
        if not flat[y]:
            y += 1
            continue
        y0, ref = y, med[y]
        while y < h and flat[y] and abs(med[y] - ref) <= BAR_FLAT:
            y += 1
        if not BAR_MIN_ROWS <= y - y0 <= BAR_MAX_SHARE * h:
            continue
        ground = float(np.median(med[y0:y]))
        if abs(ground - overall) < BAR_CONTRAST:
            continue
        band = a[y0:y]
        if float((np.abs(band - ground) >= 3 * BAR_FLAT).mean()) < 0.002:
            continue                     # a flat stripe with nothing on it
        bars.append((y0, y))
    bars.sort(key=lambda b: b[0] - b[1])
    return sorted(bars[:MAX_BARS])


def _read_band(grey, y0: int, y1: int):
    """The OCR reading of rows ``[y0, y1)`` of the grey frame read alone (contrast stretched), boxes mapped
    back to the frame's pixels."""
    import dataclasses

    from PIL import ImageOps

    w, h = grey.size
    band = ImageOps.autocontrast(grey.crop((0, y0, w, y1)), cutoff=1)
    page = _read(band, w, y1 - y0, margin=True)
    return dataclasses.replace(
        page, boxes=[None if b is None else (b[0], b[1] + y0, b[2], b[3] + y0) for b in page.boxes],
        width=w, height=h, views=page.views + (BAR_VIEW,))


#: the mark :func:`_read_band` leaves in a reading's ``views``: it read one caption bar only
BAR_VIEW = "caption_bar"


def _letters_outside(page, rows: list[tuple[int, int]]) -> int:
    """Letters/digits of ``page`` whose box's middle lies in none of ``rows``."""
    n = 0
    for ch, box in zip(page.text, page.boxes):
        if box is None or not _TEXTY.match(ch):
            continue
        y = (box[1] + box[3]) / 2
        if not any(a <= y < b for a, b in rows):
            n += 1
    return n


def _is_small(frame) -> bool:
    """A picture whose short side is under :data:`OCR_MIN_SIDE` (a seal, a strip)."""
    return min(frame.size) < OCR_MIN_SIDE


def own_readings(frame) -> int:
    """How many of :func:`ocr_readings`' readings (the first ones) read the frame itself, as it is and,
    for a small picture, enlarged; the rest are extra views."""
    return 2 if _is_small(frame) else 1


#: lines of ink lower than this (pixels) are small type, read again enlarged to about TARGET_LINE
SMALL_LINE = 20
TARGET_LINE = 34


def _line_heights(ink) -> list[int]:
    """Heights of the bands of rows that hold ink (dark pixels of an ink view), bands under 3 px left out."""
    import numpy as np

    a = np.asarray(ink) < 128
    rows = a.sum(axis=1) >= 2
    out, run = [], 0
    for r in list(rows) + [False]:
        if r:
            run += 1
        else:
            if run >= 3:
                out.append(run)
            run = 0
    return out


#: the ink view: a pixel's grey level is 255 minus this many times its largest channel difference from the
#: dominant colour (85 levels or more: black), so light-grey, coloured and white-on-dark type turn dark
INK_GAIN = 3


def ink_view(frame):
    """The frame as dark ink on white: each pixel as dark as its colour is far from the picture's dominant
    colour (coarse bins; largest channel difference × :data:`INK_GAIN`), antialiasing kept. None for a
    frame that is all one colour."""
    import numpy as np
    from PIL import Image

    a = np.asarray(_on_white(frame).convert("RGB")).astype(np.int16)
    q = (a // 32).reshape(-1, 3)
    vals, counts = np.unique(q, axis=0, return_counts=True)
    bg = a.reshape(-1, 3)[(q == vals[counts.argmax()]).all(1)].mean(0)
    dist = np.abs(a - bg).max(axis=2)
    if int(dist.max()) < 16:
        return None
    return Image.fromarray((255 - np.minimum(255, dist * INK_GAIN)).astype(np.uint8))


def _read(im, w: int, h: int, scale: float = 1.0, *, margin: bool = False, psm: int | None = None,
          views=None, local_threshold: bool = False):
    """OCR ``im`` (``w``×``h`` frame pixels; enlarged ``scale`` times first, inside a white margin with
    ``margin``; ``psm``: read plainly in that Tesseract mode, ``ocr.ocr_plain``), boxes mapped back to the
    frame's pixels. ``views``: the frame in its colours — read with ``ocr.read_views``' views (a seal over
    a name, dot-matrix print, comb boxes: once per frame, in this reading as it is)."""
    import dataclasses

    from PIL import Image, ImageOps

    from . import ocr

    big = im
    sx = sy = 1.0
    if scale != 1.0:
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        if nw * nh <= limits.MAX_PICTURE_PIXELS:
            big = im.resize((nw, nh), Image.LANCZOS)
            sx, sy = nw / w, nh / h
    m = max(4, min(big.size) // 8) if margin else 0
    if m:
        big = ImageOps.expand(big, m, fill=255)
    if psm is not None:
        page = ocr.ocr_plain(big, psm=psm, local_threshold=local_threshold)
    elif views is not None and big is im:
        page = ocr.ocr_image(big, colour=views)
    else:
        page = ocr.ocr_image(big, views=False)
    if sx == sy == 1.0 and not m:
        return page

    def back(b):
        if b is None:
            return None
        return (max(0.0, (b[0] - m) / sx), max(0.0, (b[1] - m) / sy),
                min(float(w), (b[2] - m) / sx), min(float(h), (b[3] - m) / sy))

    return dataclasses.replace(page, boxes=[back(b) for b in page.boxes], width=w, height=h,
                               line_heights=[v / sy for v in page.line_heights])


def _word_runs(page) -> list[tuple[int, int, tuple]]:
    """``(start, end, union box)`` of every run of non-space characters of ``page.text`` with boxes."""
    out = []
    i, n = 0, len(page.text)
    while i < n:
        if page.text[i].isspace():
            i += 1
            continue
        j = i
        while j < n and not page.text[j].isspace():
            j += 1
        bs = [b for b in page.boxes[i:j] if b]
        if bs:
            out.append((i, j, (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs),
                               max(b[3] for b in bs))))
        i = j
    return out


def _covered(box, boxes, pad: float) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    area = max(1e-6, (box[2] - box[0]) * (box[3] - box[1]))
    for b in boxes:
        if b[0] - pad <= cx <= b[2] + pad and b[1] - pad <= cy <= b[3] + pad:
            return True
        ix = min(box[2], b[2]) - max(box[0], b[0])
        iy = min(box[3], b[3]) - max(box[1], b[1])
        if ix > 0 and iy > 0 and ix * iy >= 0.3 * area:
            return True
    return False


def _squash(s: str) -> str:
    return "".join(ch for ch in s if ch.isalnum())


#: a word another reading found where the chosen reading does not agree is added to the reviewed text when
#: read with at least this confidence; read less surely, its letters are *disputed* (they hold the picture)
ALT_CONFIDENCE = 70.0


#: merge_readings: an unsure word the base reading left alone disputes it when it could be (part of) a
#: Korean value: two Hangul syllables or three digits (words are compared squashed: letters and digits only)
_DISPUTABLE = re.compile(r"[가-힣]{2,}|\d{3,}")


def merge_readings(base, others: list, has_type=None):
    """``(page, disputed)``: ``base`` with every word another reading found that ``base`` does not agree
    with — outside ``base``'s words, or over them but read differently — appended on a line per reading
    with its boxes and confidences (each word once) when it was read with :data:`ALT_CONFIDENCE`, so that
    the text a reviewer sees and detection reads holds what any reading saw and a masked alternative burns
    the pixels of the word it stands for; ``disputed``: the letters of such words read less surely.
    ``has_type`` (a box -> bool, :func:`type_in_box`), when given, must find strokes in an unsure word's
    box for it to dispute: scan speckle and a table's ruling read as ``106`` over a blank form are not."""
    import dataclasses

    text = base.text
    boxes = list(base.boxes)
    confs = list(base.confidences) + [100.0] * (len(base.text) - len(base.confidences))
    heights = list(base.line_heights) + [0.0] * (len(base.text) - len(base.line_heights))
    mine = [(box, _squash(base.text[a:b])) for a, b, box in _word_runs(base)]
    seen: list[tuple[tuple, str]] = []
    # boxes of words some reading read surely where base does not agree (they are added below): an unsure
    # reading of the same ink (`72,000` where another reading is sure of `78,000`) disputes nothing — the
    # sure word is reviewed, and masking it burns that ink
    sure: list[tuple] = []
    for other in others:
        oc = list(other.confidences) + [0.0] * (len(other.text) - len(other.confidences))
        for a, b, box in _word_runs(other):
            if len(_TEXTY.findall(_squash(other.text[a:b]))) >= 2 and min(oc[a:b] or [0.0]) >= ALT_CONFIDENCE:
                sure.append(box)
    added = disputed = 0
    for other in others:
        oc = list(other.confidences) + [0.0] * (len(other.text) - len(other.confidences))
        oh = list(other.line_heights) + [0.0] * (len(other.text) - len(other.line_heights))
        line: list[tuple[int, int]] = []
        for a, b, box in _word_runs(other):
            word = _squash(other.text[a:b])
            if len(_TEXTY.findall(word)) < 2:
                continue
            pad = 0.25 * max(1.0, box[3] - box[1])
            under = "".join(t for bx, t in mine if _covered(bx, [box], pad) or _covered(box, [bx], pad))
            if word in under:
                continue                       # base read the same there
            if any(word == t and _covered(box, [bx], pad) for bx, t in seen):
                continue                       # another reading already added it
            seen.append((box, word))
            if min(oc[a:b] or [0.0]) >= ALT_CONFIDENCE:
                line.append((a, b))
            elif (not under and _DISPUTABLE.search(word) and legible_box(box, word)
                  and (has_type is None or has_type(box))
                  and not any(_covered(box, [sb], pad) or _covered(sb, [box], pad) for sb in sure)):
                # ink the surest reading left alone, read unsurely, in a shape a Korean value takes (a
                # Hangul word, digits); unsure Latin garbage over icons and scan noise is not a dispute
                disputed += len(_TEXTY.findall(word))
        for k, (a, b) in enumerate(line):
            sep = " " if k else ("\n" if text and not text.endswith("\n") else "")
            if sep:
                text += sep
                boxes.append(None)
                confs.append(100.0)
                heights.append(0.0)
            text += other.text[a:b]
            boxes += other.boxes[a:b]
            confs += oc[a:b]
            heights += oh[a:b]
            added += b - a
    if not added:
        return base, disputed
    return dataclasses.replace(base, text=text, boxes=boxes, confidences=confs, line_heights=heights,
                               words=base.words + 1), disputed


def ocr_frame(frame):
    """The reading of one frame :func:`read_frame` decides on (boxes in the frame's pixels)."""
    return read_frame(frame)[1]


def _on_white(frame):
    from PIL import Image

    from . import ocr

    im = ocr.eight_bit(frame)        # 16-bit / integer / float samples scaled, not clipped white
    if im.mode in ("RGBA", "LA", "PA", "P"):
        rgba = im.convert("RGBA")
        bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        bg.alpha_composite(rgba)
        im = bg
    return im.convert("RGB") if im.mode != "RGB" else im


def background_share(frame) -> float:
    """Share (0..1) of the frame's most common colour (coarse bins, on a reduced copy): near 1 for a seal,
    a strip of text, a logo or a scan on plain paper; low for a photo."""
    im = _on_white(frame).copy()
    im.thumbnail((128, 128))
    q = im.point(lambda v: v // 32)
    counts = q.getcolors(maxcolors=512) or []
    total = im.width * im.height
    return max((c for c, _ in counts), default=0) / total if total else 1.0


def weak_letters(page, below: float = WEAK_WORD) -> int:
    """Letters/digits of ``page.text`` in words OCR read with less than ``below`` confidence."""
    confs = page.confidences or []
    return sum(1 for i, ch in enumerate(page.text)
               if _TEXTY.match(ch) and (confs[i] if i < len(confs) else 0.0) < below)


def frame_verdict(page, plain_background: bool = False) -> str:
    """``"read"`` (text OCR reads with confidence: reviewable), ``"text"`` (text, read less surely),
    ``"ink"`` (marks OCR reads with low confidence) or ``"clean"`` for one frame's OCR.
    On a plain background (a seal, a stamp, a strip: ``background_share`` >= :data:`PLAIN_BACKGROUND`)
    any letter or digit OCR makes out counts as ink it cannot read with confidence, unless it is read."""
    texty = len(_TEXTY.findall(page.text))
    if page.words > 0 and texty >= 3 and page.confidence >= TEXT_CONFIDENCE:
        if page.confidence >= READ_CONFIDENCE and weak_letters(page) <= READ_MAX_WEAK:
            return "read"
        return "text"
    if (plain_background and texty == 2 and page.words > 0 and page.confidence >= SHORT_READ_CONFIDENCE
            and weak_letters(page) == 0):
        # a two-letter word read surely on a plain background (a "(차트)" placeholder, a fallback label):
        # reviewed as text like any read picture (detection sees it, the output is read again) rather
        # than held as marks nobody can read
        return "read"
    if page.words > 0 and (texty >= UNSURE_TEXTY or (plain_background and texty >= 1)):
        return "ink"
    return "clean"


def check_frame(frame) -> str:
    """The verdict for one decoded frame (OCR'd as :func:`ocr_frame` does)."""
    return read_frame(frame)[0]


#: read_frame's base reading: the most confident of those with at least this share of the most letters read
BASE_LETTER_SHARE = 0.8


def displayed_stretches(size: tuple[int, int], shown: Iterable[tuple[float, float]]) -> tuple[list, bool]:
    """``(stretches, absurd)`` for a frame of ``size`` pixels that the document shows at each of ``shown``
    (width, height of the whole picture in display units; the readers undo crops): ``(sx, sy)`` to stretch
    it across and down by for each displayed aspect that differs from the pixels' by more than
    ``ocr.PIXEL_ASPECT_TOLERANCE`` (at most ``ocr.MAX_PIXEL_ASPECT``; aspects alike counted once), and
    whether one is beyond that. A name stored squashed to a quarter of its height and shown at the right
    aspect reads as noise at the pixel grid: Word and Hancom show it legible."""
    from . import ocr

    w, h = size
    out: list[tuple[float, float]] = []
    absurd = False
    for dw, dh in shown:
        try:
            dw, dh = float(dw), float(dh)
        except (TypeError, ValueError):
            continue
        if not (dw > 0 and dh > 0 and math.isfinite(dw) and math.isfinite(dh)) or w < 1 or h < 1:
            continue                      # no size (0, missing): shown at its own aspect
        r = (dw / dh) / (w / h)
        if 1 / ocr.PIXEL_ASPECT_TOLERANCE <= r <= ocr.PIXEL_ASPECT_TOLERANCE:
            continue
        if not (1 / ocr.MAX_PIXEL_ASPECT <= r <= ocr.MAX_PIXEL_ASPECT):
            absurd = True
            continue
        st = (r, 1.0) if r > 1 else (1.0, 1 / r)
        tol = ocr.PIXEL_ASPECT_TOLERANCE
        if not any(1 / tol <= (a[0] / a[1]) / (st[0] / st[1]) <= tol for a in out):
            out.append(st)
    return out, absurd


def _legible_at_any_size(frame) -> bool:
    """Whether ``frame`` could show a letter at some display size: not all one colour, and at least
    ``MIN_GLYPH_WIDTH`` pixels each way (a 1-pixel rule or spacer stretched across the page cannot)."""
    return min(frame.size) >= MIN_GLYPH_WIDTH and ink_view(frame) is not None


def _stretched_readings(frame, sx: float, sy: float) -> tuple[list, int] | None:
    """``(readings, own)``: :func:`ocr_readings` of ``frame`` stretched ``sx``×``sy`` (``ocr._squared``,
    as a scan with non-square pixels is), boxes, line heights and disputes mapped back to the frame's own
    pixels (masked values are burned there), and how many of them read the view itself
    (:func:`own_readings`); None when the stretched view would be too large to read."""
    import dataclasses

    from . import ocr

    src = ocr.eight_bit(frame)       # 16-bit grey scaled as ocr_readings reads it (LANCZOS takes 8 bits)
    view = ocr._squared(src, sx, sy)
    if view is None:
        # too large stretched up: squeeze the other way instead (the same aspect, fewer pixels)
        sx, sy = (1.0, 1 / sx) if sx > 1 else (1 / sy, 1.0)
        view = ocr._squared(src, sx, sy)
    if view is None:
        return None
    w, h = frame.size
    fx, fy = view.width / w, view.height / h

    def back(b):
        return None if b is None else (b[0] / fx, b[1] / fy, b[2] / fx, b[3] / fy)

    return [dataclasses.replace(p, boxes=[back(b) for b in p.boxes], width=w, height=h,
                                line_heights=[v / fy for v in p.line_heights],
                                disputes=tuple((back(b), n) for b, n in getattr(p, "disputes", ())))
            for p in ocr_readings(view)], own_readings(view)


def _frac(attrs: Mapping, key: str, default: float) -> float:
    """A DrawingML percentage attribute as a fraction: ``99000`` (thousandths of a percent) or ``99%``
    (strict); ``default`` in thousandths of a percent where it is missing or not a number."""
    raw = str(attrs.get(key, "")).strip()
    try:
        v = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw) / 100000
    except ValueError:
        return default / 100000
    return v if math.isfinite(v) else default / 100000


def shown_through(frame, effects: Iterable[tuple]):
    """``frame`` (a PIL image) as DrawingML shows it through ``effects`` (``(name, attributes)``, in
    order; ECMA-376 20.1.8): ``alphaModFix amt`` blends it over a white page, ``grayscl`` and ``duotone``
    keep its luminance, ``lum bright/contrast`` shifts and stretches it, ``biLevel thresh`` turns
    luminance below the threshold black and the rest white. A grey (``L``) image."""
    from PIL import Image

    im = frame.convert("RGBA")
    white = Image.new("RGBA", im.size, (255, 255, 255, 255))
    g = Image.alpha_composite(white, im).convert("L")
    for name, attrs in effects:
        if name == "alphaModFix":
            a = min(max(_frac(attrs, "amt", 100000.0), 0.0), 1.0)
            g = g.point(lambda v, a=a: round(255 - (255 - v) * a))
        elif name == "lum":
            b = min(max(_frac(attrs, "bright", 0.0), -1.0), 1.0)
            c = min(max(_frac(attrs, "contrast", 0.0), -1.0), 0.99)
            k = 1 / (1 - c) if c >= 0 else 1 + c
            g = g.point(lambda v, b=b, k=k: min(255, max(0, round(((v / 255 - 0.5) * k + 0.5 + b) * 255))))
        elif name == "biLevel":
            t = min(max(_frac(attrs, "thresh", 50000.0), 0.0), 1.0) * 255
            g = g.point(lambda v, t=t: 0 if v < t else 255)
    return g


def _worse_reading(a: tuple[str, Any], b: tuple[str, Any]) -> tuple[str, Any]:
    """Of two ``(verdict, page)`` readings of one frame (as stored, as shown): a ``clean`` one gives way,
    two ``read`` ones give the one with more letters, else the worse verdict (fail closed)."""
    if b[0] == "clean":
        return a
    if a[0] == "clean":
        return b
    if a[0] == b[0] == "read":
        return max(a, b, key=lambda r: len(_TEXTY.findall(r[1].text)))
    rank = {v: i for i, v in enumerate(_WORST)}
    return min(a, b, key=lambda r: rank.get(r[0], len(_WORST)))


def read_frame(frame, stretches: Iterable[tuple[float, float]] = ()) -> tuple[str, Any]:
    """``(verdict, page)`` for one decoded frame over its :func:`ocr_readings` — and, for each of
    ``stretches`` (:func:`displayed_stretches`: the document shows it at another aspect), over the
    readings of the frame stretched so (boxes in the frame's pixels; their own readings count as the
    frame's own): the surest reading with
    verdict ``read`` (the most confident of those that read at least :data:`BASE_LETTER_SHARE` of the most
    letters any read), with the words the other readings found and it does
    not agree with merged in (:func:`merge_readings`) — ``read`` only if the merged page still is and at
    most :data:`READ_MAX_WEAK` letters are disputed (two readings that disagree on a word neither reads
    surely: held). Without a ``read`` reading, the worst verdict of all readings (fail closed)."""
    readings = ocr_readings(frame)
    own = own_readings(frame)
    mine = list(range(own))           # indexes of the readings of the frame itself (at any aspect)
    for sx, sy in stretches:
        got = _stretched_readings(frame, sx, sy)
        if got is None:
            return "unchecked", None
        more, n = got
        mine += range(len(readings), len(readings) + n)
        readings = readings + more
    plain = background_share(frame) >= PLAIN_BACKGROUND
    judged = [(frame_verdict(p, plain), p) for p in readings]
    good = [p for v, p in judged if v == "read"]
    if good and all(BAR_VIEW in p.views for p in good):
        # a caption bar read alone stands for its rows only: it is the surest reading of the frame only
        # where the frame's own readings find no letter outside the bars (a building photo under its
        # caption; not a screen photo whose small type no reading is sure of, under a sure title bar)
        bars = caption_bars(frame)
        if not bars or any(_letters_outside(readings[i], bars) for i in mine):
            good = []
    if good:
        # the surest of the readings that found nearly as many letters as the one that found most
        most = max(len(_TEXTY.findall(p.text)) for p in good)
        near = [p for p in good if len(_TEXTY.findall(p.text)) >= BASE_LETTER_SHARE * most]
        base = max(near, key=lambda p: (p.confidence, len(_TEXTY.findall(p.text))))
        merged, disputed = merge_readings(base, [p for p in readings if p is not base], type_in_box(frame))
        disputed += view_disputes(readings)
        ok = frame_verdict(merged, plain) == "read" and disputed <= READ_MAX_WEAK
        return ("read" if ok else "text"), merged
    # no sure reading: the worst verdict decides (fail closed) — of the frame's own readings, and of the
    # extra views (ink, sparse, descreened) only where they read something shaped like a value (a Hangul
    # word, digits): on a photo those views make letters out of fur and leaves ("\\ y - SF", "Pee"), which
    # held ordinary pictures without holding anything a value could be in — and only where that word's box
    # holds strokes: window panes and shadows they read as `여월` are solid patches, type is not
    stroked = strokes_in_box(frame)
    counted = [vp for i, vp in enumerate(judged)
               if i in mine or vp[0] == "clean" or value_shaped_type(vp[1], stroked)]
    return min(counted, key=lambda vp: _WORST.index(vp[0]) if vp[0] in _WORST else len(_WORST))


def judge_shown_frame(frame, shown: Iterable[tuple[float, float]] = (),
                      fxs: Iterable[tuple] = ()) -> tuple[str, Any]:
    """``(verdict, page)`` for one decoded frame as the document shows it: at each displayed size in
    ``shown`` (:func:`displayed_stretches`; shown too distorted to read and able to hold a letter:
    ``("aspect", None)``, held) and through each of the display effects in ``fxs`` (:func:`shown_through`:
    text only an ``a:biLevel`` or ``a:lum`` brings out is found; same pixel grid, so boxes agree), the
    worse reading counting (:func:`_worse_reading`). OCR that fails on it gives ``("unchecked", None)``:
    fail closed. The one place raster pictures and rendered metafiles are judged."""
    from . import ocr

    stretches, absurd = displayed_stretches(frame.size, shown)
    if absurd and _legible_at_any_size(frame):
        return "aspect", None
    try:
        got = read_frame(frame, stretches)
        for fx in fxs:
            got = _worse_reading(got, read_frame(shown_through(frame, fx), stretches))
    except ocr.OcrCancelled:
        raise
    except Exception:  # noqa: BLE001 - OCR could not process it (or a hostile size): fail closed
        return "unchecked", None
    return got


def view_disputes(readings: list) -> int:
    """Letters/digits the first reading's views (``ocr.read_views``: a seal, dot-matrix print, comb boxes)
    read unsurely where no reading of the frame is sure of a word (a halftone line the dots view reads
    badly and the descreened reading surely disputes nothing)."""
    sure = []
    for p in readings:
        confs = list(p.confidences) + [0.0] * (len(p.text) - len(p.confidences))
        sure += [box for a, b, box in _word_runs(p)
                 if len(_TEXTY.findall(_squash(p.text[a:b]))) >= 2 and min(confs[a:b] or [0.0]) >= ALT_CONFIDENCE]
    n = 0
    for box, letters in (d for p in readings for d in getattr(p, "disputes", ())):
        pad = 0.25 * max(1.0, box[3] - box[1])
        if not any(_covered(box, [sb], pad) or _covered(sb, [box], pad) for sb in sure):
            n += letters
    return n


#: legible_box: the fewest pixels a letter or digit takes to be told apart at any display size (a 5x7 dot
#: matrix is the smallest type people read), and the narrowest a letter is against its height
MIN_GLYPH_WIDTH = 3
MIN_GLYPH_HEIGHT = 5
MIN_GLYPH_ASPECT = 0.2


def legible_box(box, word: str) -> bool:
    """Whether ``word`` could be written legibly in ``box`` (frame pixels) — at any size the document
    shows the picture: :data:`MIN_GLYPH_WIDTH` × :data:`MIN_GLYPH_HEIGHT` pixels a letter at least, and no
    letter narrower than :data:`MIN_GLYPH_ASPECT` of the box's height. OCR's sparse mode reads scan speckle
    as `257408` in a box 5 pixels wide and 25 high, or two syllables in 2×2 pixels: not type anyone reads."""
    n = max(1, len(word))
    w, h = box[2] - box[0], box[3] - box[1]
    return h >= MIN_GLYPH_HEIGHT and w >= n * max(MIN_GLYPH_WIDTH, MIN_GLYPH_ASPECT * h)


#: type_in_box: share of a word's box that must be ink (after a 3x3 average, rulings removed). OCR's word
#: boxes are tight: type fills 40-65 % of them (a loose one ~12 %), speckle and cut rulings 3-4 %
TYPE_SHARE = 0.10
#: how much darker than the paper (grey levels, after the 3x3 average) a stroke pixel is; a lone speckle
#: averages out to within ~15 of white paper, a 2 px stroke of grey-200 type stays ~40 below it
TYPE_CONTRAST = 20
#: a straight dark run at least this long (pixels; or a tenth of the frame's short side, if longer) is a
#: ruling — a table line, a frame edge — not a stroke of type
RULING_RUN = 30


def type_in_box(frame):
    """A test ``box -> bool``: does the box (frame pixels) hold strokes of type? The frame is descreened
    (3×3 average: isolated speckle fades, strokes and halftone type stay) and a pixel is ink when it is
    :data:`TYPE_CONTRAST` grey levels off the frame's paper (its median; lighter or darker), so faint grey
    type beside black rulings and white type on a dark banner count; ink on a straight run of
    :data:`RULING_RUN` (table rulings, frame edges) is not type. At least :data:`TYPE_SHARE` of the box must
    be left ink. A photo has no paper: nearly everything is ink there, and disputes stand."""
    import numpy as np
    from PIL import ImageFilter

    from . import ink

    grey = np.asarray(_on_white(frame).convert("L").filter(ImageFilter.BoxBlur(1)), dtype=np.int16)
    if grey.size == 0:
        return lambda box: True
    paper = float(np.median(grey))
    dark = np.abs(grey - paper) >= TYPE_CONTRAST    # light type on a dark banner is ink as well
    if not dark.any():                               # nothing stands out from the paper: nothing to go by
        return lambda box: True
    h, w = dark.shape
    run = max(RULING_RUN, min(h, w) // 10)
    dark &= ~(ink._runs(dark, run) | ink._runs(dark.T, run).T)

    def test(box) -> bool:
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(w, int(round(box[2])) + 1), min(h, int(round(box[3])) + 1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return True                            # a box too small to judge: the dispute stands
        return float(dark[y0:y1, x0:x1].mean()) >= TYPE_SHARE

    return test


#: strokes_in_box: type is drawn with strokes far thinner than its line — the heaviest display faces stay
#: under a sixth of the word's height — so eroding a word's ink by that much leaves almost nothing; window
#: panes, leaves and shadows that OCR's extra views make letters of are solid patches that survive it
STROKE_ERODE = 6
#: ... and a box counts as type while at most this share of its ink survives (type: 0.00-0.05 measured on
#: 36-52 px Hangul/Latin/digit words, plain and bold; photo patches: 0.30-0.50)
STROKE_SURVIVE = 0.15


def _erode(mask, r: int):
    """``mask`` eroded by a (2r+1)² square (a pixel stays where the whole square around it is set)."""
    import numpy as np
    k = 2 * r + 1
    out = np.zeros_like(mask)
    if mask.shape[0] < k or mask.shape[1] < k:
        return out
    ii = np.pad(mask.astype(np.int32), ((1, 0), (1, 0))).cumsum(0).cumsum(1)
    s = ii[k:, k:] - ii[:-k, k:] - ii[k:, :-k] + ii[:-k, :-k]
    out[r:r + s.shape[0], r:r + s.shape[1]] = s == k * k
    return out


def strokes_in_box(frame):
    """A test ``box -> bool``: is the ink in the box (frame pixels) drawn in strokes, as type is? Ink is
    what stands :data:`TYPE_CONTRAST` off the box's own median (dark type on paper and light type on a
    banner alike); the box holds type unless more than :data:`STROKE_SURVIVE` of that ink survives an
    erosion by a :data:`STROKE_ERODE`-th of the box's height (solid patches of a photo). A box too small
    to judge counts as type (the reading stands)."""
    import numpy as np
    from PIL import ImageFilter

    grey = np.asarray(_on_white(frame).convert("L").filter(ImageFilter.BoxBlur(1)), dtype=np.int16)
    h, w = grey.shape

    def test(box) -> bool:
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(w, int(round(box[2])) + 1), min(h, int(round(box[3])) + 1)
        r = (y1 - y0) // STROKE_ERODE
        if r < 2 or x1 - x0 < 2 * r + 1:
            return True
        g = grey[y0:y1, x0:x1]
        inked = np.abs(g - float(np.median(g))) >= TYPE_CONTRAST
        n = int(inked.sum())
        return n == 0 or float(_erode(inked, r).sum()) / n <= STROKE_SURVIVE

    return test


_VALUE_SHAPED = re.compile(r"[가-힣]{2,}|\d{3,}|[0-9][0-9\-. ]{3,}[0-9]|[A-Za-z]{4,}|@")


def value_shaped(text: str) -> bool:
    """Whether OCR text holds something a personal value could be (or be part of): two Hangul syllables
    in a row, three digits, a Latin word of four letters, an ``@``."""
    return bool(_VALUE_SHAPED.search(text or ""))


def value_shaped_type(page, stroked) -> bool:
    """Whether a word of ``page`` is :func:`value_shaped` and its box holds strokes (``stroked``, a
    :func:`strokes_in_box` test)."""
    return any(value_shaped(page.text[a:b]) and stroked(box) for a, b, box in _word_runs(page))


@dataclass
class PictureReview:
    """What :func:`review_pictures` found: the needs-review entries (policy ``review``), the actions for
    the writer (member -> ``blank``/``remove``), notes for the report, and per-picture verdicts."""

    unreadable: list[Unreadable] = field(default_factory=list)
    actions: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    verdicts: dict[str, str] = field(default_factory=dict)   # "picture N" -> read/text/ink/undecodable/...
    frames_ocred: int = 0
    #: pictures reviewed as text (policy ``review``): member -> (N of ``picture N``, OCR page per
    #: published frame, boxes in the frame's pixels)
    read: dict[str, tuple[int, list]] = field(default_factory=dict)


#: a picture's verdict from its frames' verdicts: the first of these that any frame has
_WORST = ("aspect", "unchecked", "ink", "text", "read")


def review_pictures(members: Iterable, removed: Iterable[str] = (),
                    policy: "PicturePolicy | str | None" = None, *, reviewable: bool = True,
                    displayed: "Mapping[str, Iterable[tuple[float, float]]] | None" = None,
                    effects: "Mapping[str, Iterable[tuple]] | None" = None) -> PictureReview:
    """Check every picture among ``members`` (objects with ``name``/``data``; members in ``removed`` are
    dropped from the output and ignored): sniffed by content, every published frame decoded and OCR'd.
    ``displayed``: member name -> every (width, height) the document shows it at (display units, the whole
    picture: crops undone by the reader); each frame is also read stretched to each of those aspects that
    differs from its pixels' (:func:`displayed_stretches`), and a picture shown at an aspect past
    ``ocr.MAX_PIXEL_ASPECT`` that could hold a letter is held for review (verdict ``aspect``).
    ``policy`` (default: :func:`current_policy`) decides what a picture with text becomes; with
    ``reviewable`` (the writer can burn masked values into pictures) a picture OCR reads with confidence
    is returned in ``read`` for review instead of holding the document. ``effects``: member -> the
    display effects each showing applies (``docx.pictures_as_shown``): every frame is also read as shown
    through them (:func:`shown_through`) and the worse verdict counts."""
    from . import ocr

    pol = PicturePolicy.parse(policy) if policy is not None else current_policy()
    gone = set(removed)
    rv = PictureReview()
    k = 0
    checked = 0
    have_ocr: bool | None = None
    seen: dict[bytes, tuple[str, list]] = {}
    side: list[tuple[str, Any]] = []      # read single-frame pictures (name, frame), in order: checked in pairs
    for m in members:
        if m.name in gone or not claims_picture(m.name, m.data):
            continue
        k += 1
        kind = sniff(m.data)
        shown = tuple(sorted({(float(w), float(h)) for w, h in (displayed or {}).get(m.name, ())}))
        fxs = tuple(tuple(fx) for fx in (effects or {}).get(m.name, ()))
        digest = (hashlib.sha256(m.data).digest(), shown, repr(fxs))   # shown otherwise: read again
        verdict, pages = seen.get(digest) or (None, [])
        if verdict is None:
            if kind in METAFILE_KINDS:
                has = metafile_text(m.data)
                if has is None or has:
                    verdict = "undecodable" if has is None else "text"
                else:
                    if have_ocr is None:
                        have_ocr = ocr.available()
                    verdict, n = _review_metafile(m.data, shown, have_ocr and checked < limits.MAX_PICTURES_CHECKED,
                                                  limits.MAX_PICTURE_FRAMES_CHECKED - rv.frames_ocred, fxs)
                    checked += 1 if n else 0
                    rv.frames_ocred += n
            else:
                try:
                    rb = rebuild_picture(m.data)
                except PictureError:
                    verdict = "undecodable"
                else:
                    frames = published_frames(rb)
                    if have_ocr is None:
                        have_ocr = ocr.available()
                    if (not have_ocr or checked >= limits.MAX_PICTURES_CHECKED
                            or rv.frames_ocred + len(frames) > limits.MAX_PICTURE_FRAMES_CHECKED):
                        verdict = "unchecked"
                    else:
                        checked += 1
                        found = set()
                        for frame in frames:
                            rv.frames_ocred += 1
                            v, page = judge_shown_frame(frame, shown, fxs)
                            found.add(v)
                            pages.append(page)
                        verdict = next((v for v in _WORST if v in found), "clean")
                        if verdict == "read" and len(frames) == 1 and len(side) < MAX_SEAM_PICTURES:
                            side.append((m.name, frames[0]))
                    del rb
            seen[digest] = (verdict, pages)
        where = f"picture {k}"
        if verdict == "read" and not (reviewable and pol is PicturePolicy.REVIEW):
            verdict = "text"
        rv.verdicts[where] = verdict
        if verdict == "clean":
            continue
        if verdict == "read":
            rv.read[m.name] = (k, pages)
            continue
        if pol is PicturePolicy.REVIEW:
            why = "unsure" if verdict == "text" and reviewable and kind not in METAFILE_KINDS else verdict
            rv.unreadable.append(_unreadable(k, *_WHY[why]))
        elif pol is PicturePolicy.BLANK and verdict not in ("undecodable",) and kind not in METAFILE_KINDS:
            rv.actions[m.name] = "blank"
        else:
            rv.actions[m.name] = "remove"
    if pol is PicturePolicy.REVIEW:
        for name in split_values(side):
            if name in rv.read:
                n = rv.read.pop(name)[0]
                rv.verdicts[f"picture {n}"] = "text"
                rv.unreadable.append(_unreadable(n, *_WHY["split"]))
        rv.unreadable.sort(key=lambda u: _num(u.where))
    blanked = sorted((w for w, n in _where_of(rv, members, gone).items() if rv.actions.get(n) == "blank"),
                     key=_num)
    dropped = sorted((w for w, n in _where_of(rv, members, gone).items() if rv.actions.get(n) == "remove"),
                     key=_num)
    if k:
        rv.notes.append(f"Pictures ({k}) are rebuilt from their pixels (metadata, comments and trailing data "
                        "removed) and every frame was checked for text by OCR.")
    if rv.read:
        nums = ", ".join(f"picture {n}" for n, _ in sorted(rv.read.values(), key=lambda t: t[0]))
        rv.notes.append(f"Text OCR read in pictures is shown for review ({nums}); masked values are burned "
                        "into the picture and the output's pictures are read again by OCR.")
    if blanked:
        rv.notes.append("Pictures holding text were replaced by blank pictures of the same size "
                        f"(picture policy: blank): {', '.join(blanked)}.")
    if dropped:
        rv.notes.append("Pictures holding text or that could not be checked were removed "
                        f"(picture policy: {pol.value}): {', '.join(dropped)}.")
    return rv


def _review_metafile(data: bytes, shown: tuple, can_ocr: bool, frames_left: int,
                     fxs: tuple = ()) -> tuple[str, int]:
    """``(verdict, frames OCR'd)`` for an EMF/WMF without text records: the metafile as it will be
    published (:func:`rebuild_metafile`) is rendered (``metafile_render``) and every rendered frame read
    as a raster frame is (:func:`judge_shown_frame`, with the document's displayed aspects and display
    effects ``fxs``: a metafile under an ``a:biLevel`` is read as Word shows it). ``clean`` when it
    draws nothing, or OCR finds nothing or reads its text with confidence and detection
    (:func:`vector_text_hits`) finds nothing in it; otherwise held: ``vector`` (detection found something
    — the writer cannot mask inside a metafile), ``vector_unsure``/``ink``/``aspect`` (OCR not sure),
    ``undrawn`` (a record that puts ink on the page is not drawn here: what OCR would read is not what a
    viewer shows), ``undecodable`` (it does not parse, or a cap is reached), ``outlines``/``unchecked``
    (no OCR, or the document's OCR caps are spent)."""
    from .metafile_render import MetafileError, render_metafile

    clean = rebuild_metafile(data)
    if clean is None:
        return "undecodable", 0
    try:
        rendering = render_metafile(clean)
    except MetafileError:
        return "undecodable", 0
    except Exception:  # noqa: BLE001 - MemoryError or a renderer bug on a hostile file: fail closed
        return "undecodable", 0
    if rendering.text:
        return "text", 0
    if rendering.unrendered:
        return "undrawn", 0
    if not rendering.inked:
        return "clean", 0
    frames = rendering.frames
    if not can_ocr or len(frames) > frames_left:
        return ("outlines" if metafile_outlines(data) else "unchecked"), 0
    found: set[str] = set()
    texts: list[str] = []
    fb = rendering.frame_boxes[0]
    for frame, box in zip(frames, rendering.frame_boxes):
        # the document shows the picture's frame at its displayed sizes; a second frame (the drawing's own
        # extent) is shown stretched alike
        kx = (box[2] - box[0]) / max(1e-9, fb[2] - fb[0])
        ky = (box[3] - box[1]) / max(1e-9, fb[3] - fb[1])
        v, page = judge_shown_frame(frame, [(w * kx, h * ky) for w, h in shown], fxs)
        found.add(v)
        if page is not None and page.text.strip():
            texts.append(page.text)
    verdict = next((v for v in _WORST if v in found), "clean")
    if verdict == "text":
        verdict = "vector_unsure"
    if verdict in ("read", "clean"):
        verdict = "vector" if any(vector_text_hits(t) for t in texts) else "clean"
    return verdict, len(frames)


_detector_lock = threading.Lock()
_detector: Any = None


def _vector_detector():
    """The default detector (embedded model + rules), built once; False when it cannot be built."""
    global _detector
    with _detector_lock:
        if _detector is None:
            try:
                from ..detect.default import build_default_detector

                _detector = build_default_detector(None, 1)
            except Exception:  # noqa: BLE001 - no model here: the caller falls back (default deny)
                _detector = False
        return _detector


def vector_text_hits(text: str) -> bool:
    """Whether detection finds a value in ``text`` (the OCR of a rendered metafile, which the writer cannot
    mask): the rule stage with entities, and the default detector (embedded model). Without a model, any
    word shaped like a value (:func:`value_shaped`) counts as a hit (default deny)."""
    from ..detect.rules import RuleDetector

    if not text.strip():
        return False
    try:
        if RuleDetector(entities=True).detect(text):
            return True
        det = _vector_detector()
        if det is False:
            return value_shaped(text)
        with _detector_lock:
            return bool(det.detect(text))
    except Exception:  # noqa: BLE001 - detection could not run: held (default deny)
        return True


#: split_values looks at most this many read pictures (in document order), pairs of neighbours only
MAX_SEAM_PICTURES = 24


def split_values(side: list) -> set[str]:
    """Names of read pictures a value may be cut across: for each two neighbours (``(name, frame)`` in
    document order) of about the same height, the two are read side by side (the first on the left, as
    a row of pictures shows them); a word whose box crosses the seam and has a Korean value's shape (two
    Hangul syllables, three digits) means text runs on from one picture into the other. Each picture alone
    reads only fragments (``주 … 010-41`` / ``아람 93-5527``) that no detector recognises."""
    from PIL import Image, ImageOps

    from . import ocr

    out: set[str] = set()
    for (na, fa), (nb, fb) in zip(side, side[1:]):
        ha, hb = fa.height, fb.height
        if abs(ha - hb) > max(2, 0.02 * max(ha, hb)):
            continue
        w = fa.width + fb.width
        if w * max(ha, hb) > limits.MAX_PICTURE_PIXELS:
            continue
        row = Image.new("RGB", (w, max(ha, hb)), "white")
        row.paste(_on_white(fa), (0, 0))
        row.paste(_on_white(fb), (fa.width, 0))
        page = ocr.ocr_image(ImageOps.autocontrast(row.convert("L"), cutoff=1), views=False)
        seam = fa.width
        for a, b, box in _word_runs(page):
            if box[0] < seam - 1 and box[2] > seam + 1 and _DISPUTABLE.search(_squash(page.text[a:b])):
                out.update((na, nb))
                break
    return out


def _num(where: str) -> int:
    return int(where.rsplit(" ", 1)[1])


def _where_of(rv: PictureReview, members: Iterable, gone: set[str]) -> dict[str, str]:
    """``picture N`` -> member name, for the members :func:`review_pictures` counted."""
    out: dict[str, str] = {}
    k = 0
    for m in members:
        if m.name in gone or not claims_picture(m.name, m.data):
            continue
        k += 1
        out[f"picture {k}"] = m.name
    return out


def pictures_with_text(members: Iterable, removed: Iterable[str] = ()) -> list[Unreadable]:
    """``Unreadable`` entries for the pictures among ``members`` that hold text or could not be checked
    (policy ``review``; used by the HWP 5 reader)."""
    return review_pictures(list(members), removed, PicturePolicy.REVIEW, reviewable=False).unreadable


def _emf_walk(data, aligned: bool) -> tuple[list[tuple[int, int, int]], bool]:
    """The records of an EMF as ``(offset, type, size)`` and whether the walk ended on its EOF record.
    MS-EMF: every record's size MUST be a multiple of 4; some writers leave a header with its description
    unpadded (154 bytes) and the next record right after it. A player may step by the size as written
    (``aligned`` False) or round it up to 4 (True): both walks are read, and a walk that stops on a record
    that does not fit ends there (what a player draws up to that record is among the records returned)."""
    n = len(data)
    out: list[tuple[int, int, int]] = []
    pos = 0
    while pos + 8 <= n:
        typ, size = struct.unpack_from("<II", data, pos)
        if size < 8 or pos + size > n:
            return out, False
        out.append((pos, typ, size))
        if typ == 14:            # EMR_EOF
            return out, True
        pos += (size + 3) & ~3 if aligned else size
    return out, False


def _is_emf(data) -> bool:
    return len(data) >= 44 and struct.unpack_from("<I", data, 0)[0] == 1 and bytes(data[40:44]) == b" EMF"


def rebuild_metafile(data: bytes) -> bytes | None:
    """An EMF/WMF (EMZ/WMZ) without the bytes no renderer draws: the EMF header's description (application
    and picture name), the payload of every comment record (``EMR_COMMENT`` other than ``EMF+`` records,
    which draw; WMF ``META_ESCAPE``) zeroed in place (sizes and offsets unchanged), everything after the
    end-of-file record cut, a gzip wrapper rewritten without its file name or time. None if it does not
    parse (then it is not published)."""
    import gzip

    if data[:2] == b"\x1f\x8b":
        try:
            d = zlib.decompressobj(31)
            inner = d.decompress(data, MAX_METAFILE)
            if d.unconsumed_tail:
                return None
        except zlib.error:
            return None
        clean = rebuild_metafile(inner) if _metafile_kind(inner[:64]) else None
        return None if clean is None else gzip.compress(clean, mtime=0)
    buf = bytearray(data)
    n = len(buf)
    if _is_emf(buf):
        records, ended = _emf_walk(buf, aligned=False)
        if not ended:
            return None
        out = bytearray()
        for pos, typ, size in records:
            rec = bytearray(buf[pos:pos + size])
            if typ == 1 and size >= 68:     # EMR_HEADER: nDescription, offDescription at 60
                n_desc, off_desc = struct.unpack_from("<II", rec, 60)
                if n_desc and 0 < off_desc and off_desc + 2 * n_desc <= size:
                    rec[off_desc:off_desc + 2 * n_desc] = bytes(2 * n_desc)
            elif typ == _EMF_COMMENT and size >= 12 and bytes(rec[12:16]) != b"EMF+":
                rec[12:] = bytes(size - 12)
            if size % 4:
                # written unpadded (against MS-EMF): rebuilt padded, so that every player reads one chain
                rec += bytes(-size % 4)
                struct.pack_into("<I", rec, 4, len(rec))
            out += rec
        if len(out) != records[-1][0] + records[-1][2]:
            struct.pack_into("<I", out, 48, len(out))     # EMR_HEADER nBytes: the file's size
        return bytes(out)
    pos = 22 if buf[:4] == b"\xd7\xcd\xc6\x9a" else 0
    if n < pos + 18 or struct.unpack_from("<H", buf, pos + 2)[0] != 9:
        return None
    pos += 18
    while pos + 6 <= n:
        size_words, func = struct.unpack_from("<IH", buf, pos)
        size = 2 * size_words
        if size_words < 3 or pos + size > n:
            return None
        if func == 0x0626 and size > 10:     # META_ESCAPE: keep the escape function and count
            buf[pos + 10:pos + size] = bytes(size - 10)
        if func == 0:            # META_EOF
            return bytes(buf[:pos + size])
        pos += size
    return None


#: EMF records that draw polylines, polygons and Béziers (32-bit EMR_POLYBEZIER..EMR_POLYPOLYGON, 2-8, and
#: their 16-bit forms, 85-91; the poly-poly ones, 7, 8, 90, 91, count their points after the polygon count)
_EMF_POLY = {2, 3, 4, 5, 6, 85, 86, 87, 88, 89}
_EMF_POLYPOLY = {7, 8, 90, 91}
#: WMF META_POLYGON, META_POLYLINE, META_POLYPOLYGON
_WMF_POLY = {0x0324, 0x0325}
_WMF_POLYPOLY = 0x0538
#: a metafile drawing more points than this in outlines may draw letters as shapes (a chart title, a name
#: turned into curves): nothing here renders a metafile to read it, so it is not published as clean
OUTLINE_POINTS = 64


def metafile_outlines(data: bytes) -> bool:
    """Whether an EMF/WMF (EMZ/WMZ) draws more than :data:`OUTLINE_POINTS` points of polylines, polygons
    and curves: glyph outlines drawn as shapes read as no text record (red team 7 1a: a name and an RRN as
    one EMR_POLYPOLYGON16 of 3,800 points; 6a: a chart title so) — nothing here renders and reads them.
    A few bars or a frame (15 points) are not."""
    if data[:2] == b"\x1f\x8b":
        try:
            d = zlib.decompressobj(31)
            data = d.decompress(data, MAX_METAFILE)
        except zlib.error:
            return True
    points = 0
    if _is_emf(data):
        for aligned in (False, True):
            points = 0
            for pos, typ, size in _emf_walk(data, aligned)[0]:
                if typ in _EMF_POLY and size >= 28:
                    points += struct.unpack_from("<I", data, pos + 24)[0]
                elif typ in _EMF_POLYPOLY and size >= 32:
                    points += struct.unpack_from("<I", data, pos + 28)[0]
                elif typ == 54:          # EMR_LINETO
                    points += 1
            if points > OUTLINE_POINTS:
                return True
        return False
    pos = 22 if data[:4] == b"\xd7\xcd\xc6\x9a" else 0
    if len(data) < pos + 18:
        return False
    pos += 18
    n = len(data)
    while pos + 6 <= n:
        size_words, func = struct.unpack_from("<IH", data, pos)
        if size_words < 3 or pos + 2 * size_words > n:
            break
        if func in _WMF_POLY and size_words >= 4:
            points += struct.unpack_from("<H", data, pos + 6)[0]
        elif func == _WMF_POLYPOLY and size_words >= 4:
            k = struct.unpack_from("<H", data, pos + 6)[0]
            if pos + 8 + 2 * k <= n:
                points += sum(struct.unpack_from(f"<{k}H", data, pos + 8))
        if func == 0:
            break
        pos += 2 * size_words
    return points > OUTLINE_POINTS


def metafile_text(data: bytes) -> bool | None:
    """Whether an EMF/WMF (or gzip-compressed EMZ/WMZ) draws text: True/False, None if it does not parse
    (then it cannot be checked). EMF: text-out records, or an EMF+ comment (``EMF+`` records may draw
    strings); WMF: TEXTOUT/EXTTEXTOUT records."""
    if data[:2] == b"\x1f\x8b":
        try:
            d = zlib.decompressobj(31)
            data = d.decompress(data, MAX_METAFILE)
            if d.unconsumed_tail:
                return None
        except zlib.error:
            return None
    n = len(data)
    if _is_emf(data):
        exact, ended = _emf_walk(data, aligned=False)
        walks = [exact]
        if any(size % 4 for _p, _t, size in exact):
            walks.append(_emf_walk(data, aligned=True)[0])   # a player that rounds sizes up reads these
        for records in walks:
            for pos, typ, size in records:
                if typ in _EMF_TEXT:
                    return True
                if typ == _EMF_COMMENT and b"EMF+" in data[pos + 8:pos + min(size, 24)]:
                    return True
        return False if ended else None
    pos = 22 if data[:4] == b"\xd7\xcd\xc6\x9a" else 0      # placeable header
    if n < pos + 18:
        return None
    hdr_words = struct.unpack_from("<H", data, pos + 2)[0]
    if hdr_words != 9:
        return None
    pos += 18
    while pos + 6 <= n:
        size_words, func = struct.unpack_from("<IH", data, pos)
        if size_words < 3 or pos + 2 * size_words > n:
            return None
        if func in _WMF_TEXT:
            return True
        if func == 0:            # META_EOF
            return False
        pos += 2 * size_words
    return None
