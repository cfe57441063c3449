#!/usr/bin/env python3
"""Build the Nối từ word lists in shared/noitu/data from the pyvi and underthesea wheels.

Normally run through scripts/build-noitu-wordlist.sh, which downloads the pinned
wheels (hash-checked) and calls this script as

    python build-noitu-wordlist.py --pyvi PATH/pyvi-0.1.1-py2.py3-none-any.whl \
        --underthesea PATH/underthesea-9.5.0-py3-none-any.whl \
        --genz PATH/genz_tokenize-1.2.7-py3-none-any.whl --out DIR

The wheels are read as zips (nothing is installed or imported). Three files are written
to DIR, each one entry per line, each followed by '\\n', UTF-8, gzip level 9 with mtime 0
and no file name (see shared/noitu/data/SOURCE.md):

noi-tu.txt.gz, edition 1 (games created before the merged list pin it): pyvi 0.1.1's
  pyvi/models/words.txt, its entries that are all lower case and two or more syllables
  of Vietnamese letters separated by single spaces, spellings as the source has them.

noi-tu-2.txt.gz, edition 2 (the everyday dictionary): the same selection from pyvi and
  from underthesea's corpus/data/Viet11K.txt, Viet22K.txt, Viet39K.txt and Viet74K.txt,
  less any entry with a syllable that is not shaped like a Vietnamese one (typos such as
  "hội trưởnc", letters standing alone such as "tia x", Latin spellings such as
  "acid sulfuric"); then every spelling of one word (the crate's canonical key:
  tone placement and a lone i/y folded) written once, in the spelling most writers use:
  the old tone placement ("hòa", "thủy", "khỏe") and a lone i or y after a consonant as
  Viet11K writes that word (it follows common usage: "công ty", "hy vọng", "kỷ niệm",
  "bác sĩ"), else y after qu always, after k always, after l with a tone mark and in
  "mỹ", else i. Sorted by code point.

noi-tu-2-familiarity.txt.gz: one digit a line, the familiarity of noi-tu-2.txt.gz's word on
  the same line: how many of the five lists list the word, less one (0 to 4), plus how often
  it occurs in the corpus counts of genz-tokenize's vocabulary (genz_tokenize/data/vocab.txt,
  a BPE vocabulary of word-segmented Vietnamese with counts: words joined by '_'): 0 when it
  is not there, else 1 + floor(log10(count)), at most 5. So 0 (one list, not in the corpus)
  to 9.
"""

import math

import argparse
import gzip
import os
import re
import sys
import unicodedata
import zipfile

PYVI_MEMBER = "pyvi/models/words.txt"
PYVI_NEWLINES = 31157
UT_MEMBERS = {n: f"underthesea/corpus/data/{n}.txt" for n in ("Viet11K", "Viet22K", "Viet39K", "Viet74K")}
UT_NEWLINES = {"Viet11K": 11373, "Viet22K": 22426, "Viet39K": 39071, "Viet74K": 73901}
GENZ_MEMBER = "genz_tokenize/data/vocab.txt"
GENZ_NEWLINES = 48418
# The recipe is defined together with these counts: a mismatch means the input or the
# recipe changed and the output must not be trusted.
EXPECTED_1 = {"words": 25297, 2: 22632, 3: 1873, 4: 755, "longer": 37}
EXPECTED_2 = {"words": 59590, 2: 45706, 3: 5199, 4: 6929, "longer": 1756}
# Words of edition 2 by familiarity, 0 to 9.
EXPECTED_FAMILIARITY = [19152, 13463, 7146, 4877, 3522, 3495, 3541, 3322, 1013, 59]

VOWELS = "aăâeêioôơuưy"
TONES = "\u0300\u0301\u0309\u0303\u0323"  # huyền, sắc, hỏi, ngã, nặng
LETTERS = set("abcdefghijklmnopqrstuvwxyzđăâêôơư")
LETTERS |= {unicodedata.normalize("NFC", v + t) for v in VOWELS for t in TONES}
SYLLABLE = "[" + "".join(sorted(LETTERS)) + "]+"
ENTRY_RE = re.compile(SYLLABLE + "(?: " + SYLLABLE + ")+")
# A Vietnamese syllable without its tone: onset, one to three vowels, coda.
ONSET = "(?:ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdđghklmnprstvx])?"
SHAPE_RE = re.compile(ONSET + "[aăâeêioôơuưy]{1,3}(?:ch|ng|nh|[cmnpt])?")
QUALITY = {("a", "\u0302"): "â", ("a", "\u0306"): "ă", ("e", "\u0302"): "ê",
           ("o", "\u0302"): "ô", ("o", "\u031b"): "ơ", ("u", "\u031b"): "ư"}


def read_member(wheel, member, newlines):
    with zipfile.ZipFile(wheel) as zf:
        text = zf.read(member).decode("utf-8")
    if text.count("\n") != newlines:
        sys.exit(f"{member} has {text.count(chr(10))} newlines, {newlines} expected")
    return text.split("\n")


def selected(lines):
    """The lower-case entries of two or more syllables of Vietnamese letters."""
    return {w for w in lines if w == w.lower() and ENTRY_RE.fullmatch(w)}


def parse(syllable):
    """A syllable's letters (quality marks composed, tone removed) and its tone mark."""
    letters, tone = [], None
    for c in unicodedata.normalize("NFD", syllable):
        if c in TONES:
            tone = c
        elif letters and (letters[-1], c) in QUALITY:
            letters[-1] = QUALITY[(letters[-1], c)]
        else:
            letters.append(c)
    return letters, tone


def split(letters):
    """Where the onset and the vowel run end (as the crate's spelling::split)."""
    onset = next((i for i, c in enumerate(letters) if c in VOWELS), len(letters))
    if onset == 1 and letters[:2] in (["q", "u"], ["g", "i"]) and len(letters) > 2 and letters[2] in VOWELS:
        onset = 2
    nucleus = onset
    while nucleus < len(letters) and letters[nucleus] in VOWELS:
        nucleus += 1
    return onset, nucleus


def lone_i(letters):
    """The index of a syllable's rhyme when it is a lone i or y after a consonant, else None."""
    onset, nucleus = split(letters)
    if onset > 0 and nucleus == onset + 1 == len(letters) and letters[onset] in "iy":
        return onset
    return None


def tone_at(letters, modern):
    """The letter that carries the tone: by the modern rule (the crate's key) or the old one."""
    onset, nucleus = split(letters)
    vowels = letters[onset:nucleus]
    if len(vowels) == 1:
        return onset
    marked = [i for i, c in enumerate(vowels) if c in "ăâêôơư"]
    if marked:
        return onset + marked[-1]
    if nucleus < len(letters):
        return nucleus - 1
    if vowels in (["o", "a"], ["o", "e"], ["u", "y"]):
        return onset + (1 if modern else 0)
    return onset + (0 if len(vowels) == 2 else 1)


def write(letters, tone, at):
    out = "".join(c + (tone if tone and i == at else "") for i, c in enumerate(letters))
    return unicodedata.normalize("NFC", out)


def key(word):
    """The crate's canonical spelling of an entry already lower case and NFC."""
    out = []
    for s in word.split(" "):
        letters, tone = parse(s)
        i = lone_i(letters)
        if i is not None:
            letters[i] = "i"
        out.append(write(letters, tone, tone_at(letters, modern=True)))
    return " ".join(out)


def display(word, common):
    """The spelling most writers use of `word` (any spelling), given Viet11K's spellings by key."""
    k = key(word)
    usual = common.get(k)
    out = []
    for n, s in enumerate(k.split(" ")):
        letters, tone = parse(s)
        i = lone_i(letters)
        if i is not None:
            onset = "".join(letters[:i])
            if onset == "qu":
                y = True
            elif usual is not None:
                # Same key, same letters: Viet11K's spelling differs at most in this i or y.
                y = parse(usual.split(" ")[n])[0][i] == "y"
            else:
                y = onset == "k" or (onset == "l" and tone is not None) or (onset == "m" and tone == "\u0303")
            letters[i] = "y" if y else "i"
        out.append(write(letters, tone, tone_at(letters, modern=False)))
    return " ".join(out)


def shaped(word):
    return all(SHAPE_RE.fullmatch("".join(parse(s)[0])) for s in word.split(" "))


def counts(entries):
    by_len = {}
    for w in entries:
        n = w.count(" ") + 1
        by_len[n] = by_len.get(n, 0) + 1
    return {"words": len(entries), 2: by_len.get(2, 0), 3: by_len.get(3, 0), 4: by_len.get(4, 0),
            "longer": sum(c for n, c in by_len.items() if n > 4)}


def check(name, entries, expected):
    got = counts(entries)
    for k, want in expected.items():
        if got[k] != want:
            sys.exit(f"{name}: count {k!r} is {got[k]}, {want} expected")
    print(f"{name}: {got['words']} entries ({got[2]} of two syllables, {got[3]} of three, "
          f"{got[4]} of four, {got['longer']} longer)", file=sys.stderr)


def corpus_counts(genz):
    """Occurrences in genz-tokenize's vocabulary of each word of two or more syllables, by key."""
    counts = {}
    for line in read_member(genz, GENZ_MEMBER, GENZ_NEWLINES):
        if not line:
            continue
        token, count = line.rsplit(" ", 1)
        word = token.replace("_", " ")
        if "_" in token and "@@" not in token and ENTRY_RE.fullmatch(word):
            k = key(word)
            counts[k] = counts.get(k, 0) + int(count)
    return counts


def familiarity(word, lists, counts):
    k = key(word)
    listed = sum(1 for keys in lists if k in keys)
    corpus = min(5, 1 + int(math.log10(counts[k]))) if counts.get(k, 0) > 0 else 0
    return listed - 1 + corpus


def write_gz(path, entries):
    data = "".join(w + "\n" for w in entries).encode("utf-8")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=f, mtime=0) as gz:
            gz.write(data)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pyvi", required=True, help="path to pyvi-0.1.1-py2.py3-none-any.whl")
    ap.add_argument("--underthesea", required=True, help="path to underthesea-9.5.0-py3-none-any.whl")
    ap.add_argument("--genz", required=True, help="path to genz_tokenize-1.2.7-py3-none-any.whl")
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    pyvi = selected(read_member(args.pyvi, PYVI_MEMBER, PYVI_NEWLINES))
    edition1 = sorted(pyvi)
    check("noi-tu.txt.gz", edition1, EXPECTED_1)

    lists = {n: selected(read_member(args.underthesea, m, UT_NEWLINES[n])) for n, m in UT_MEMBERS.items()}
    common = {}
    for w in sorted(lists["Viet11K"]):
        common.setdefault(key(w), w)
    merged = {w for w in pyvi.union(*lists.values()) if shaped(w)}
    edition2 = sorted({display(w, common) for w in merged})
    if len({key(w) for w in edition2}) != len(edition2):
        sys.exit("two entries of edition 2 share a canonical key")
    check("noi-tu-2.txt.gz", edition2, EXPECTED_2)

    keyed = [{key(w) for w in ws} for ws in [pyvi, *lists.values()]]
    counts = corpus_counts(args.genz)
    familiar = [familiarity(w, keyed, counts) for w in edition2]
    by_score = [familiar.count(n) for n in range(10)]
    if by_score != EXPECTED_FAMILIARITY:
        sys.exit(f"familiarity counts are {by_score}, {EXPECTED_FAMILIARITY} expected")
    print(f"noi-tu-2-familiarity.txt.gz: words by familiarity 0-9: {by_score}", file=sys.stderr)

    write_gz(os.path.join(args.out, "noi-tu.txt.gz"), edition1)
    write_gz(os.path.join(args.out, "noi-tu-2.txt.gz"), edition2)
    write_gz(os.path.join(args.out, "noi-tu-2-familiarity.txt.gz"), [str(n) for n in familiar])


if __name__ == "__main__":
    main()
