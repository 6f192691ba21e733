"""Namespace URIs the document formats define, and the grammar of a schema URI (issue 26, class 2).

A namespace declaration (``xmlns:acct="urn:x-bank:1002-738-415069"``) is text a hostile author controls
and no reader shows. Default deny: a namespace URI is kept only when it is one of ``KNOWN_NAMESPACES`` —
the namespaces of ECMA-376 / ISO/IEC 29500 (transitional and strict), the Office extensions
([MS-DOCX], [MS-ODRAWXML], [MS-OE376], [MS-OI29500]), VML, OWPML / HWPX (KS X 6101), OCF/ODF and OPF,
Dublin Core, RDF, XML Schema, XML-DSig — or the writers' own neutral stand-in (``urn:veil:ns:N``);
any other is rewritten to a stand-in by ``xmlwalk.MarkupNeutraliser``. Pure data, no parsing: the
writers, the leak check and the second opinion use it alike.
"""
from __future__ import annotations

import re

_OOXML_T = "http://schemas.openxmlformats.org/"
_STRICT = "http://purl.oclc.org/ooxml/"
_MS = "http://schemas.microsoft.com/office/"
_HNC = "http://www.hancom.co.kr/"

KNOWN_NAMESPACES = frozenset(
    # ECMA-376 transitional (Parts 1-3: markup, OPC, markup compatibility)
    [_OOXML_T + p for p in (
        "wordprocessingml/2006/main", "officeDocument/2006/relationships", "officeDocument/2006/math",
        "officeDocument/2006/bibliography", "officeDocument/2006/customXml",
        "officeDocument/2006/extended-properties", "officeDocument/2006/custom-properties",
        "officeDocument/2006/docPropsVTypes", "officeDocument/2006/characteristics",
        "officeDocument/2006/sharedTypes", "drawingml/2006/main", "drawingml/2006/wordprocessingDrawing",
        "drawingml/2006/spreadsheetDrawing", "drawingml/2006/picture", "drawingml/2006/chart",
        "drawingml/2006/chartDrawing", "drawingml/2006/diagram", "drawingml/2006/lockedCanvas",
        "drawingml/2006/compatibility", "spreadsheetml/2006/main", "presentationml/2006/main",
        "schemaLibrary/2006/main", "markup-compatibility/2006", "package/2006/relationships",
        "package/2006/content-types", "package/2006/metadata/core-properties",
        "package/2006/digital-signature")]
    # ISO/IEC 29500 strict
    + [_STRICT + p for p in (
        "wordprocessingml/main", "officeDocument/relationships", "officeDocument/math",
        "officeDocument/bibliography", "officeDocument/customXml", "officeDocument/extendedProperties",
        "officeDocument/customProperties", "officeDocument/docPropsVTypes",
        "officeDocument/characteristics", "officeDocument/sharedTypes", "drawingml/main",
        "drawingml/wordprocessingDrawing", "drawingml/spreadsheetDrawing", "drawingml/picture",
        "drawingml/chart", "drawingml/chartDrawing", "drawingml/diagram", "drawingml/lockedCanvas",
        "drawingml/compatibility", "spreadsheetml/main", "presentationml/main", "schemaLibrary/main")]
    # Office extensions (Word, DrawingML, charts, themes, ink, web extensions, SharePoint properties)
    + [_MS + p for p in (
        "word/2003/wordml", "word/2003/auxHint", "word/2003/wordml/sp2", "word/2006/wordml",
        "word/2010/wordml", "word/2010/wordprocessingDrawing", "word/2010/wordprocessingShape",
        "word/2010/wordprocessingGroup", "word/2010/wordprocessingCanvas", "word/2010/wordprocessingInk",
        "word/2012/wordml", "word/2015/wordml/symex", "word/2016/wordml/cid", "word/2018/wordml",
        "word/2018/wordml/cex", "word/2020/wordml/sdtdatahash", "word/2023/wordml/word16du",
        "word/2024/wordml/sdtformatlock", "word/2006/wordml/sp2",
        "drawing/2007/8/2/chart", "drawing/2008/diagram", "drawing/2010/main", "drawing/2010/picture",
        "drawing/2010/diagram", "drawing/2010/chartDrawing", "drawing/2010/slicer",
        "drawing/2012/main", "drawing/2012/chart", "drawing/2012/chartStyle", "drawing/2012/timeslicer",
        "drawing/2013/main/command", "drawing/2014/main", "drawing/2014/chart", "drawing/2014/chart/ac",
        "drawing/2014/chartex", "drawing/2015/9/8/chartex", "drawing/2015/10/21/chartex",
        "drawing/2015/06/chart", "drawing/2016/5/9/chartex", "drawing/2016/5/10/chartex",
        "drawing/2016/5/11/chartex", "drawing/2016/5/12/chartex", "drawing/2016/5/13/chartex",
        "drawing/2016/5/14/chartex", "drawing/2016/ink", "drawing/2016/11/main", "drawing/2016/SVG/main",
        "drawing/2016/11/diagram", "drawing/2017/decorative", "drawing/2017/model3d", "drawing/2017/03/chart",
        "drawing/2018/hyperlinkcolor", "drawing/2018/sketchyshapes", "drawing/2018/animation",
        "drawing/2018/animation/model3d", "drawing/2020/classificationShape", "drawing/2021/livefeed",
        "drawing/2021/oembed", "drawing/2021/scriptlink",
        "thememl/2012/main", "mac/office/2008/main", "powerpoint/2010/main", "powerpoint/2012/main",
        "spreadsheetml/2009/9/main", "spreadsheetml/2009/9/ac", "spreadsheetml/2010/11/main",
        "spreadsheetml/2010/11/ac", "spreadsheetml/2014/revision", "spreadsheetml/2015/revision2",
        "spreadsheetml/2016/revision3", "webextensions/webextension/2010/11",
        "webextensions/taskpanes/2010/11", "2006/metadata/properties", "2006/metadata/contentType",
        "2006/metadata/properties/metaAttributes", "2006/metadata/customXsn",
        "2006/metadata/longProperties", "2006/documentManagement/types", "2006/coverPageProps",
        "2006/customDocumentInformationPanel", "2006/digsig", "2006/digsig-setup",
        "infopath/2007/PartnerControls", "2019/extlst", "2020/mipLabelMetadata",
        "2006/keyEncryptor/password", "2006/encryption")]
    + ["http://schemas.microsoft.com/ink/2010/main", "http://schemas.microsoft.com/sharepoint/v3",
       "http://schemas.microsoft.com/sharepoint/v3/contenttype/forms",
       "http://schemas.microsoft.com/sharepoint/events", "http://schemas.microsoft.com/aml/2001/core",
       "http://schemas.microsoft.com/office/2006/01/customui",
       "http://schemas.microsoft.com/office/2009/07/customui",
       # VML and the Office 2000-2003 legacy namespaces
       "urn:schemas-microsoft-com:vml", "urn:schemas-microsoft-com:office:office",
       "urn:schemas-microsoft-com:office:word", "urn:schemas-microsoft-com:office:excel",
       "urn:schemas-microsoft-com:office:powerpoint", "urn:schemas-microsoft-com:office:smarttags",
       "urn:schemas-microsoft-com:mac:vml"]
    # OWPML / HWPX (KS X 6101) and the OCF / OPF / ODF package namespaces it uses
    + [_HNC + p for p in (
        "hwpml/2011/app", "hwpml/2011/paragraph", "hwpml/2016/paragraph", "hwpml/2011/section",
        "hwpml/2011/core", "hwpml/2011/head", "hwpml/2011/history", "hwpml/2011/master-page",
        "hwpml/2011/version", "hwpml/2016/ooxmlchart", "hwpml/2016/HwpUnitChar", "hwpml/2016/meta/pkg#",
        "hwpml/2021/extended", "schema/2011/hpf")]
    + ["http://schemas.haansoft.com/office/8.0"]        # Hancom's chart style extension (c:extLst)
    + ["urn:oasis:names:tc:opendocument:xmlns:container",
       "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0",
       "urn:oasis:names:tc:opendocument:xmlns:config:1.0",
       "urn:oasis:names:tc:opendocument:xmlns:digitalsignature:1.0",
       "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
       "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
       "http://www.idpf.org/2007/opf/", "http://www.idpf.org/2007/opf", "http://www.idpf.org/2007/ops",
       # Dublin Core / DCMI, RDF, XML, XML Schema, XHTML, SVG, MathML, XLink, XML-DSig / XAdES, InkML
       "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/terms/", "http://purl.org/dc/dcmitype/",
       "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://www.w3.org/2000/01/rdf-schema#",
       "http://www.w3.org/XML/1998/namespace", "http://www.w3.org/2001/XMLSchema",
       "http://www.w3.org/2001/XMLSchema-instance", "http://www.w3.org/1999/xhtml",
       "http://www.w3.org/2000/svg", "http://www.w3.org/1998/Math/MathML", "http://www.w3.org/1999/xlink",
       "http://www.w3.org/2000/09/xmldsig#", "http://www.w3.org/2001/04/xmlenc#",
       "http://www.w3.org/2001/04/xmldsig-more#", "http://www.w3.org/2003/InkML",
       "http://uri.etsi.org/01903/v1.3.2#", "http://uri.etsi.org/01903/v1.4.1#",
       "http://ns.adobe.com/xap/1.0/", "adobe:ns:meta/"])

NEUTRAL_PREFIX = "urn:veil:ns:"
_NEUTRAL = re.compile(r"urn:veil:ns:\d{1,6}")


def known_namespace(uri: str) -> bool:
    """A namespace URI a format specification defines (exactly), or the writers' neutral stand-in."""
    return uri in KNOWN_NAMESPACES or bool(_NEUTRAL.fullmatch(uri))


#: schema-like URIs as attribute values (``a:graphicData/@uri``, ``ds:schemaRef/@ds:uri``): on the hosts
#: of the specifications, or a URN of a registered/format namespace; in both, digits only as years and
#: small numbers (an account or phone number in a path or URN is text, not a schema)
_SCHEMA_GRAMMAR = re.compile(
    r"(?:https?://(?:schemas\.openxmlformats\.org|schemas\.microsoft\.com|purl\.org|purl\.oclc\.org|"
    r"www\.w3\.org|ns\.adobe\.com|www\.hancom\.co\.kr|www\.idpf\.org|schemas\.xmlsoap\.org|"
    r"www\.openxmlformats\.org|xml\.org)/[\w./\-#]*"
    r"|urn:(?:schemas-microsoft-com|oasis:names:tc|ietf:params|veil):[\w.:\-]+)", re.A)


def schema_uri(value: str) -> bool:
    """A known namespace URI, or a URI with the schema grammar (``_SCHEMA_GRAMMAR``) whose digit runs
    are at most four long and hold at most eight digits together."""
    v = value.strip()
    if known_namespace(v):
        return True
    if not _SCHEMA_GRAMMAR.fullmatch(v):
        return False
    runs = re.findall(r"\d+", v)
    return all(len(r) <= 4 for r in runs) and sum(map(len, runs)) <= 8
