"""How many ordinary files the encoded-text rule would hold (issue 26: false alarms): every DOCX/HWPX/
HWP/PDF/TXT/CSV file under the folders given is opened as the app opens it and its reviewable text is
scanned by ``encoded.encoded_text`` (base64 that decodes to personal-looking text). Prints the count and
the files flagged.

    nice .venv/bin/python benchmarks/scan_encoded_samples.py ../shared/data/hwpx-samples ../shared/data/hwp-samples
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from veil_desktop.documents import DocumentError, open_document  # noqa: E402
from veil_desktop.documents.encoded import encoded_text  # noqa: E402

SUFFIXES = {".hwpx", ".hwp", ".docx", ".pdf", ".txt", ".csv"}


def main(folders: list[str]) -> int:
    opened, refused, flagged = 0, 0, []
    for folder in folders:
        for p in sorted(Path(folder).rglob("*")):
            if not p.is_file() or p.suffix.lower() not in SUFFIXES:
                continue
            try:
                doc = open_document(p)
            except DocumentError:
                refused += 1
                continue
            opened += 1
            if encoded_text(doc.text, doc.parts):
                flagged.append(p.name)
    print(f"{opened} opened, {refused} refused by the reader, {len(flagged)} flagged for encoded text"
          + (": " + ", ".join(flagged) if flagged else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
