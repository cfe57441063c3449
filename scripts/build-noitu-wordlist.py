#!/usr/bin/env python3
"""Build shared/noitu/data/noi-tu.txt.gz, the Nối từ word list, from the pyvi wheel.

Normally run through scripts/build-noitu-wordlist.sh, which downloads the pinned
wheel (hash-checked) and calls this script as

    python build-noitu-wordlist.py --wheel PATH/pyvi-0.1.1-py2.py3-none-any.whl --out DIR

Input: pyvi 0.1.1, member pyvi/models/words.txt, NFC: 31,157 newlines (what `wc -l`
counts) and 31,158 entries, as the last one ("Zn") has no newline. It is read straight
out of the wheel (nothing is installed or imported).

Output in DIR: noi-tu.txt.gz, the entries that are
  * all lower case (an entry with a capital letter names a person, place or faith),
  * two or more syllables separated by single spaces,
  * made only of the letters a-z, đ and the Vietnamese vowels with their marks,
deduplicated, sorted by code point, one per line, each followed by '\\n', UTF-8, gzip
level 9 with mtime 0 and no file name. Spellings are kept as the source has them: the
crate folds tone placement and i/y variants when it loads the list (see SOURCE.md).
"""

import argparse
import gzip
import os
import re
import sys
import unicodedata
import zipfile

MEMBER = "pyvi/models/words.txt"
SOURCE_NEWLINES = 31157
# The recipe is defined together with these counts: a mismatch means the input or
# the recipe changed and the output must not be trusted.
EXPECTED = {"words": 25297, 2: 22632, 3: 1873, 4: 755, "longer": 37}

VOWELS = "aăâeêioôơuưy"
TONES = "\u0300\u0301\u0309\u0303\u0323"  # huyền, sắc, hỏi, ngã, nặng
LETTERS = set("abcdefghijklmnopqrstuvwxyzđăâêôơư")
LETTERS |= {unicodedata.normalize("NFC", v + t) for v in VOWELS for t in TONES}
SYLLABLE = "[" + "".join(sorted(LETTERS)) + "]+"
ENTRY_RE = re.compile(SYLLABLE + "(?: " + SYLLABLE + ")+")


def words(wheel_path):
    with zipfile.ZipFile(wheel_path) as zf:
        text = zf.read(MEMBER).decode("utf-8")
    if text.count("\n") != SOURCE_NEWLINES:
        sys.exit(f"{MEMBER} has {text.count(chr(10))} newlines, {SOURCE_NEWLINES} expected")
    lines = text.split("\n")
    return sorted({w for w in lines if w == w.lower() and ENTRY_RE.fullmatch(w)})


def write_gz(path, entries):
    data = "".join(w + "\n" for w in entries).encode("utf-8")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=f, mtime=0) as gz:
            gz.write(data)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheel", required=True, help="path to pyvi-0.1.1-py2.py3-none-any.whl")
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    entries = words(args.wheel)
    by_len = {}
    for w in entries:
        n = w.count(" ") + 1
        by_len[n] = by_len.get(n, 0) + 1
    counts = {
        "words": len(entries),
        2: by_len.get(2, 0),
        3: by_len.get(3, 0),
        4: by_len.get(4, 0),
        "longer": sum(c for n, c in by_len.items() if n > 4),
    }
    for k, want in EXPECTED.items():
        if counts[k] != want:
            sys.exit(f"count {k!r} is {counts[k]}, {want} expected")
    write_gz(os.path.join(args.out, "noi-tu.txt.gz"), entries)
    print(f"noi-tu.txt.gz: {counts['words']} entries "
          f"({counts[2]} of two syllables, {counts[3]} of three, {counts[4]} of four, "
          f"{counts['longer']} longer)", file=sys.stderr)


if __name__ == "__main__":
    main()
