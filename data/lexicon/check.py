#!/usr/bin/env python3
"""Validate insurance-concepts.tsv.

Checks
  * every non-comment, non-blank line has 3 tab-separated fields, or 4 with broader concept ids
  * concept_id is a lower-case ASCII slug and unique
  * each language column has at least one entry; entries separated by " | "
  * no empty entries, no stray whitespace, no duplicate entry inside a concept
  * English entries contain no Persian letters; Persian entries contain
    Persian letters and no Latin letters
  * UNIQUENESS: no entry (lower-cased) appears in two concepts of the same
    language.  A stricter pass also compares entries after the normalisation
    a matcher is likely to apply (Arabic ي/ك -> Persian ی/ک, ZWNJ -> space,
    whitespace collapsed, hyphen kept) and reports clashes as errors too.
Prints counts per section (sections start with a comment line "# ==").
Exit status 0 if the file passes, 1 otherwise.
"""
import re
import sys
import unicodedata
from collections import defaultdict, OrderedDict

PATH = sys.argv[1] if len(sys.argv) > 1 else __file__.rsplit("/", 1)[0] + "/insurance-concepts.tsv"

SLUG = re.compile(r"^[a-z][a-z0-9_]*$")
PERSIAN = re.compile(r"[\u0600-\u06FF\uFB50-\uFDFF\uFE70-\uFEFF]")
LATIN = re.compile(r"[A-Za-z]")
ZWNJ = "\u200c"


def norm(s: str) -> str:
    s = unicodedata.normalize("NFC", s).lower()
    s = s.replace("\u064a", "\u06cc").replace("\u0643", "\u06a9")  # ي ك
    s = s.replace("\u0649", "\u06cc")                               # ى
    s = s.replace(ZWNJ, " ").replace("\u200d", "")
    s = re.sub(r"\s+", " ", s).strip()
    return s


def main() -> int:
    errors, warnings = [], []
    ids = {}
    exact = {"en": defaultdict(list), "fa": defaultdict(list)}
    loose = {"en": defaultdict(list), "fa": defaultdict(list)}
    sections = OrderedDict()
    section = "(no section)"
    n_terms = {"en": 0, "fa": 0}

    with open(PATH, encoding="utf-8") as f:
        raw = f.read()
    if raw.startswith("\ufeff"):
        errors.append("file starts with a BOM")
    for lineno, line in enumerate(raw.split("\n"), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            m = re.match(r"^#\s*==+\s*(.*?)\s*=*\s*$", line)
            if m and m.group(1):
                section = m.group(1)
                sections.setdefault(section, 0)
            continue
        if line != line.rstrip() and not line.endswith("\t"):
            warnings.append(f"{lineno}: trailing whitespace")
        parts = line.rstrip("\r").split("\t")
        if len(parts) == 4:
            parts = parts[:3]  # the broader concept ids: checked by frontdesk's parser
        if len(parts) != 3:
            errors.append(f"{lineno}: expected 3 or 4 tab-separated fields, got {len(parts)}")
            continue
        cid, en, fa = parts
        if not SLUG.match(cid):
            errors.append(f"{lineno}: bad concept_id {cid!r}")
        if cid in ids:
            errors.append(f"{lineno}: concept_id {cid!r} already used on line {ids[cid]}")
        ids[cid] = lineno
        sections[section] = sections.get(section, 0) + 1
        for lang, col in (("en", en), ("fa", fa)):
            if not col.strip():
                errors.append(f"{lineno} {cid}: empty {lang} column")
                continue
            items = col.split(" | ")
            seen_here = set()
            for it in items:
                if it != it.strip() or "  " in it or not it or "|" in it:
                    errors.append(f"{lineno} {cid}: malformed {lang} entry {it!r}")
                    continue
                if it.startswith(ZWNJ) or it.endswith(ZWNJ):
                    errors.append(f"{lineno} {cid}: {lang} entry {it!r} starts/ends with ZWNJ")
                if lang == "en":
                    if PERSIAN.search(it):
                        errors.append(f"{lineno} {cid}: Persian letters in English entry {it!r}")
                else:
                    if not PERSIAN.search(it):
                        errors.append(f"{lineno} {cid}: no Persian letters in Persian entry {it!r}")
                    if LATIN.search(it):
                        errors.append(f"{lineno} {cid}: Latin letters in Persian entry {it!r}")
                    if "\u064a" in it or "\u0643" in it:
                        warnings.append(f"{lineno} {cid}: Arabic ي/ك in {it!r} (normalised by the system anyway)")
                key = it.lower()
                if key in seen_here:
                    errors.append(f"{lineno} {cid}: duplicate {lang} entry {it!r} inside concept")
                    continue
                seen_here.add(key)
                exact[lang][key].append(cid)
                loose[lang][norm(it)].append(cid)
                n_terms[lang] += 1

    for lang in ("en", "fa"):
        for key, cids in exact[lang].items():
            if len(set(cids)) > 1:
                errors.append(f"[{lang}] {key!r} appears in several concepts: {sorted(set(cids))}")
        for key, cids in loose[lang].items():
            if len(set(cids)) > 1 and not any(len(set(exact[lang].get(k, []))) > 1 for k in [key]):
                errors.append(f"[{lang}] after normalisation {key!r} appears in several concepts: {sorted(set(cids))}")

    print(f"file: {PATH}")
    print("concepts per section:")
    for s, n in sections.items():
        print(f"  {n:4d}  {s}")
    print(f"concepts total: {len(ids)}")
    print(f"English entries: {n_terms['en']}   Persian entries: {n_terms['fa']}")
    for w in warnings:
        print("WARNING", w)
    for e in errors:
        print("ERROR", e)
    if errors:
        print(f"FAILED with {len(errors)} error(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
