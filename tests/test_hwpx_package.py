"""A package check for HWPX files that does not use the product's reader: ``package_problems(data)``.

What it checks (OCF/OPF as Hancom writes HWPX):
- the file is a ZIP whose every member reads back with a valid CRC;
- ``mimetype`` is the first member, stored (not compressed), and says ``application/hwp+zip``;
- every ``META-INF/manifest.xml`` file entry and every ``Contents/content.hpf`` manifest item names a
  member that is present; ``META-INF/container.xml`` root files are present;
- every part declared as XML (a media type with ``xml``, or a name ending ``.xml``/``.hpf``) is
  well-formed XML;
- ``content.hpf`` references resolve: every spine ``itemref/@idref`` names a manifest item, and every
  ``binaryItemIDRef``/``fileIDRef``/``imageIDRef`` in the content XML names a manifest item.

``no_worse(src, out)`` is the list of problems the output has that its input did not have. The benchmark
``benchmarks/bench_hwpx_samples.py`` loads this module by path. Its own tests build broken packages.
"""
from __future__ import annotations

import io
import zipfile
import zlib

from lxml import etree

_PARSER = dict(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _parse(data: bytes):
    return etree.fromstring(data, etree.XMLParser(**_PARSER))


def package_problems(data: bytes) -> list[str]:
    """Problems found in the HWPX ``data`` (empty: the package is sound). Stable strings: ``kind: name``."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        return [f"not a zip: {e}"]
    out: list[str] = []
    members: dict[str, bytes] = {}
    for info in infos:
        try:
            b = zf.read(info)          # zipfile checks the CRC on a full read
            if zlib.crc32(b) & 0xFFFFFFFF != info.CRC:
                out.append(f"bad crc: {info.filename}")
            members[info.filename] = b
        except (zipfile.BadZipFile, OSError, ValueError, zlib.error, NotImplementedError):
            out.append(f"bad crc: {info.filename}")
    if not infos or infos[0].filename != "mimetype":
        out.append("mimetype: not the first member")
    elif infos[0].compress_type != zipfile.ZIP_STORED:
        out.append("mimetype: compressed")
    if members.get("mimetype", b"").strip() != b"application/hwp+zip":
        out.append("mimetype: not application/hwp+zip")
    xml_parts = {n for n in members if n.endswith(".xml") or n.endswith(".hpf")}
    declared: dict[str, str] = {}          # name -> media type
    roots: dict[str, object] = {}

    def root_of(name: str):
        if name not in roots:
            try:
                roots[name] = _parse(members[name])
            except etree.XMLSyntaxError:
                roots[name] = None
        return roots[name]

    if "META-INF/manifest.xml" in members and root_of("META-INF/manifest.xml") is not None:
        for el in root_of("META-INF/manifest.xml").iter():
            if _local(el.tag) == "file-entry":
                p = (el.get("{urn:oasis:names:tc:opendocument:xmlns:manifest:1.0}full-path")
                     or el.get("full-path") or "")
                if p and not p.endswith("/"):
                    declared[p.lstrip("/")] = el.get("{urn:oasis:names:tc:opendocument:xmlns:manifest:1.0}"
                                                     "media-type") or el.get("media-type") or ""
                    if p.lstrip("/") not in members:
                        out.append(f"manifest entry missing: {p}")
    if "META-INF/container.xml" in members and root_of("META-INF/container.xml") is not None:
        for el in root_of("META-INF/container.xml").iter():
            if _local(el.tag) == "rootfile":
                p = (el.get("full-path") or "").lstrip("/")
                declared[p] = el.get("media-type") or ""
                if p and p not in members:
                    out.append(f"container root file missing: {p}")
    items: set[str] = set()
    hpf = "Contents/content.hpf"
    if hpf in members and root_of(hpf) is not None:
        spine = []
        for el in root_of(hpf).iter():
            name = _local(el.tag)
            if name == "item":
                items.add(el.get("id") or "")
                href = (el.get("href") or "").lstrip("/")
                declared[href] = el.get("media-type") or ""
                if href and href not in members:
                    out.append(f"content.hpf item missing: {href}")
            elif name == "itemref":
                spine.append(el.get("idref") or "")
        for ref in spine:
            if ref not in items:
                out.append(f"content.hpf spine idref unresolved: {ref}")
    elif hpf not in members:
        out.append("content.hpf missing")
    for name, mt in declared.items():
        if name in members and "xml" in mt.lower():
            xml_parts.add(name)
    for name in sorted(xml_parts):
        if name in members and root_of(name) is None:
            out.append(f"not well-formed xml: {name}")
    if items or hpf in members:
        for name in sorted(xml_parts):
            r = root_of(name) if name in members else None
            if r is None or not name.startswith("Contents/"):
                continue
            for el in r.iter():
                for attr in ("binaryItemIDRef", "fileIDRef", "imageIDRef"):
                    ref = el.get(attr) if isinstance(el.tag, str) else None
                    if ref and ref not in items:
                        out.append(f"{attr} unresolved: {name}: {ref}")
    return out


def no_worse(src: bytes, out: bytes) -> list[str]:
    """Problems of ``out`` that ``src`` did not have."""
    before = set(package_problems(src))
    return [p for p in package_problems(out) if p not in before]


# --- tests of the checker itself ----------------------------------------------------------------------

HPF = ('<?xml version="1.0" encoding="UTF-8"?><opf:package xmlns:opf="http://www.idpf.org/2007/opf/">'
       '<opf:manifest><opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/>'
       '{extra}</opf:manifest><opf:spine><opf:itemref idref="section0"/>{spine}</opf:spine></opf:package>')
SEC = ('<?xml version="1.0" encoding="UTF-8"?><hs:sec xmlns:hs="s" xmlns:hc="c"><hc:img binaryItemIDRef="{ref}"/>'
       '</hs:sec>')


def _pkg(*, first="mimetype", stored=True, hpf_extra="", spine="", sec_ref="", members=None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        entries = [("mimetype", b"application/hwp+zip"),
                   ("Contents/content.hpf", HPF.format(extra=hpf_extra, spine=spine).encode()),
                   ("Contents/section0.xml", (SEC.format(ref=sec_ref) if sec_ref else
                                              '<hs:sec xmlns:hs="s"/>').encode())]
        entries += list((members or {}).items())
        if first != "mimetype":
            entries = entries[1:] + entries[:1]
        for n, b in entries:
            z.writestr(zipfile.ZipInfo(n), b, compress_type=zipfile.ZIP_STORED if n == "mimetype" and stored
                       else zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def test_sound_package_has_no_problems():
    assert package_problems(_pkg()) == []


def test_checker_finds_each_kind_of_problem():
    assert package_problems(_pkg(first="other")) == ["mimetype: not the first member"]
    assert package_problems(_pkg(stored=False)) == ["mimetype: compressed"]
    assert package_problems(_pkg(hpf_extra='<opf:item id="i" href="BinData/a.png" media-type="image/png"/>')) \
        == ["content.hpf item missing: BinData/a.png"]
    assert package_problems(_pkg(spine='<opf:itemref idref="nope"/>')) == ["content.hpf spine idref unresolved: nope"]
    assert package_problems(_pkg(sec_ref="image9")) == ["binaryItemIDRef unresolved: Contents/section0.xml: image9"]
    bad = _pkg(members={"settings.xml": b"<a><b></a>"})
    assert package_problems(bad) == ["not well-formed xml: settings.xml"]
    # a text part declared as text is not XML, whatever it holds
    txt = _pkg(hpf_extra='<opf:item id="p" href="Preview/PrvText.txt" media-type="text/plain"/>',
               members={"Preview/PrvText.txt": "<표> 기말고사 <그림>".encode()})
    assert package_problems(txt) == []
    # a CRC that does not match the data
    good = bytearray(_pkg(members={"settings.xml": b"<a>" + b"x" * 200 + b"</a>"}))
    i = good.find(b"settings.xml") + len("settings.xml")
    with zipfile.ZipFile(io.BytesIO(bytes(good))) as z:
        info = z.getinfo("settings.xml")
    off = info.header_offset + 30 + len(info.filename) + len(info.extra)
    good[off + 2] ^= 0xFF
    assert i > 0 and any(p.startswith("bad crc: settings.xml") for p in package_problems(bytes(good)))
    assert no_worse(_pkg(), _pkg(stored=False)) == ["mimetype: compressed"]
    assert no_worse(_pkg(stored=False), _pkg(stored=False)) == []
