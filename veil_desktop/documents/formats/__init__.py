"""The format registry: one declaration module per format (``documents/formats/<name>.py``, each a
:class:`~.base.Format`), and everything else derived from it — the suffixes ``open_document`` accepts, the
reader of a suffix, the writers and default output of a source format, the leak-check kind of an output, the
output-naming rule, the CLI's and the file dialog's format lists.

Adding a format = one module that builds a ``Format`` and calls :func:`register` (built-in ones are listed in
``_BUILTIN``), plus its tests; nothing else names suffixes. Readers/writers load lazily.

Suffix vs format: ``Document.format`` and the public tables are keyed by *suffix* ("jpg", "tif"), as the
user sees them; a format may own several suffixes (JPEG: jpg, jpeg) and an output keeps the source's own
suffix when it is written back in the same format (``scan.jpeg`` -> ``scan.masked.jpeg``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ..errors import UnsupportedFormat
from .base import Format, Reader, Writer
from .plain import plain_text_export

_BY_NAME: dict[str, Format] = {}
_BY_SUFFIX: dict[str, Format] = {}

#: what the suffix-keyed tables below are derived from; ``register`` refreshes them in place
SUPPORTED_FORMATS: dict[str, str] = {}
EXPORTS: dict[str, tuple[str, ...]] = {}
CHECK_KIND: dict[str, str] = {"txt": "text"}


def register(fmt: Format, *, replace: bool = False) -> Format:
    """Add ``fmt`` to the registry (``replace``: a format of that name or suffix may be replaced; tests
    use it to register a toy format and :func:`unregister` it afterwards)."""
    clash = [s for s in fmt.suffixes if s in _BY_SUFFIX and _BY_SUFFIX[s].name != fmt.name]
    if (fmt.name in _BY_NAME or clash) and not replace:
        raise ValueError(f"format {fmt.name!r} (suffixes {fmt.suffixes}) is already registered")
    if fmt.name in _BY_NAME:
        unregister(fmt.name)
    for s in clash:
        unregister(_BY_SUFFIX[s].name)
    if any(s != s.lower() or s.startswith(".") for s in fmt.suffixes) or not fmt.suffixes:
        raise ValueError("suffixes are lower case, without the dot")
    if not fmt.writers:
        raise ValueError(f"format {fmt.name!r} declares no writer")
    _BY_NAME[fmt.name] = fmt
    for s in fmt.suffixes:
        _BY_SUFFIX[s] = fmt
    _refresh()
    return fmt


def unregister(name: str) -> None:
    fmt = _BY_NAME.pop(name, None)
    if fmt is not None:
        for s in fmt.suffixes:
            _BY_SUFFIX.pop(s, None)
        _refresh()


def _refresh() -> None:
    SUPPORTED_FORMATS.clear()
    EXPORTS.clear()
    CHECK_KIND.clear()
    CHECK_KIND["txt"] = "text"
    for s, f in _BY_SUFFIX.items():
        SUPPORTED_FORMATS[s] = f.description
        EXPORTS[s] = tuple(output_suffix(s, out) for out in f.writers)
        CHECK_KIND[s] = f.leak_check


def formats() -> Iterator[Format]:
    """Registered formats, in registration order."""
    return iter(list(_BY_NAME.values()))


def spec(suffix_or_name: str) -> Format:
    """The format of a suffix ("jpg") or name ("jpeg"); ``UnsupportedFormat`` if none."""
    key = suffix_or_name.lower().lstrip(".")
    f = _BY_SUFFIX.get(key) or _BY_NAME.get(key)
    if f is None:
        raise UnsupportedFormat(f"no format {suffix_or_name!r}")
    return f


def output_suffix(source_suffix: str, out: str) -> str:
    """Suffix of an output of format ``out`` (a name or suffix) from a ``source_suffix`` document: the
    source's own suffix when written back in its own format, else the output format's canonical one."""
    src = _BY_SUFFIX[source_suffix]
    if out == src.name or out in src.suffixes:
        return source_suffix
    f = _BY_NAME.get(out) or _BY_SUFFIX.get(out)
    return f.suffix if f is not None else out   # "txt", or a format registered later under that name


def supported_suffixes() -> tuple[str, ...]:
    """Suffixes ``open_document`` accepts, with the dot: ``(".txt", ".csv", ...)``."""
    return tuple("." + s for s in _BY_SUFFIX)


def format_of(path: Path) -> str:
    """The (lower-case) suffix of ``path`` if it is a registered format, else ``UnsupportedFormat``."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in _BY_SUFFIX:
        raise UnsupportedFormat(
            f"'{path.suffix or path.name}' files are not supported; supported: "
            + ", ".join(supported_suffixes()) + ".")
    return fmt


def sniff_mismatch(fmt: str, data: bytes) -> bool:
    """True when the content clearly is not a ``fmt`` file (its format declares a sniffer that refuses
    the first bytes): a renamed or damaged file, refused with a message instead of half-read."""
    f = spec(fmt)
    return f.sniff is not None and len(data) > 0 and not f.sniff(data[:1024])


def reader_for(fmt: str) -> Reader:
    return spec(fmt).read


def writer_for(src: str, out: str) -> Writer:
    """The writer of a ``src``-suffix document into an ``out``-suffix output, or ``UnsupportedFormat``
    naming the outputs that format has."""
    f = spec(src)
    choices = EXPORTS.get(src, ())
    if out not in choices:
        raise UnsupportedFormat(
            f"A .{src} document cannot be exported as .{out}; choose one of: "
            + ", ".join("." + s for s in choices) + ".")
    name = f.name if out in f.suffixes else ("txt" if out == "txt" and "txt" in f.writers else spec(out).name)
    return f.writers[name]


def default_output(src: str) -> str:
    """The default output suffix of a ``src`` document (its own where it can be written back)."""
    return EXPORTS[src][0]


def output_name(source: Path, out: str | None = None, *, beside_source: bool = False) -> Path:
    """The one output-naming rule (window, export all, ``veil-redact redact``).

    ``source``: the source's path, or its path relative to an input folder; ``out``: the output suffix
    (``None`` = the format's default). Written back in its own format an output keeps the name
    (``a.docx``); in another format the new suffix is added (``a.hwp`` -> ``a.hwp.txt``), so two sources
    that differ only in suffix never collide. ``beside_source``: the output goes into the source's own
    folder (the window's suggestion), so ``.masked`` is inserted: ``a.docx`` -> ``a.masked.docx``,
    ``a.hwp`` -> ``a.masked.hwp.txt``."""
    src = source.suffix.lower().lstrip(".")
    out = out or default_output(src)
    if beside_source:
        stem = source.name[: -len(source.suffix)] if source.suffix else source.name
        base = source.with_name(f"{stem}.masked{source.suffix}")
    else:
        base = source
    if out == src:
        return base
    return base.with_name(f"{base.name}.{out}")


#: files the tool writes beside an output (the report, the redaction log): never a document to queue
SIDECAR_SUFFIXES = (".report.json", ".redaction-log.csv", ".redaction-log.pdf")


def is_sidecar(path: Path) -> bool:
    return path.name.lower().endswith(SIDECAR_SUFFIXES)


def _register_builtin() -> None:
    from . import docx, eml, hwp, hwpx, image, pdf, text

    for module in (text, docx, hwpx, pdf, hwp, image, eml):
        for f in module.FORMATS:
            register(f)


_register_builtin()

__all__ = ["CHECK_KIND", "EXPORTS", "Format", "Reader", "SUPPORTED_FORMATS", "Writer", "default_output",
           "format_of", "formats", "is_sidecar", "output_name", "output_suffix", "plain_text_export",
           "reader_for", "register", "sniff_mismatch", "spec", "supported_suffixes", "unregister", "writer_for"]
