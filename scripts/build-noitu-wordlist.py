#!/usr/bin/env python3
"""Build the Nối từ word lists in shared/noitu/data from the pyvi and underthesea wheels.

Normally run through scripts/build-noitu-wordlist.sh, which downloads the pinned
wheels (hash-checked) and calls this script as

    python build-noitu-wordlist.py --pyvi PATH/pyvi-0.1.1-py2.py3-none-any.whl \
        --underthesea PATH/underthesea-9.5.0-py3-none-any.whl \
        --genz PATH/genz_tokenize-1.2.7-py3-none-any.whl --visonorm PATH/visonorm-0.1.4.tar.gz --out DIR

Edition 3 (noi-tu-3.txt.gz, noi-tu-3-familiarity.txt.gz, noi-tu-3-aliases.txt.gz) is built by
edition3() below: the syllable check, the variant-spelling aliases, the project's EVERYDAY
phrases and the recomputed familiarity, all described in shared/noitu/data/SOURCE.md.

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
import json
import os
import re
import sys
import tarfile
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

# ---------------------------------------------------------------------------------------------
# Edition 3 (shared/noitu/data/SOURCE.md, "noi-tu-3.txt.gz").

VLSP_MEMBER = "underthesea/pipeline/pos_tag/models/pos_crf_vlsp2013_20230303/test_output.txt"
VLSP_NEWLINES = 68464
VISONORM_MEMBER = "visonorm-0.1.4/visonorm/dictionary/dictionary.json"
VISONORM_BYTES = 2109772

# The syllable check: a syllable (lower case, NFC) is valid when it carries at most one tone
# mark and, without it, is an onset (the longest match among ONSETS, or none) and a rhyme,
# under the rules of valid_syllable.
ONSETS = "ngh ng gh gi kh nh ph qu th tr ch b c d đ g h k l m n p r s t v x".split()
RHYMES = frozenset("""
a ac ach ai am an ang anh ao ap at au ay ăc ăm ăn ăng ăp ăt âc âm ân âng âp ât âu ây
e ec em en eng eo ep et ê êch êm ên ênh êp êt êu
i ia ich iêc iêm iên iêng iêp iêt iêu im in inh ip it iu
o oa oac oach oai oam oan oang oanh oao oap oat oay oăc oăm oăn oăng oăp oăt oc oe oen oeo oet
oi om on ong ooc oong op ot ô ôc ôi ôm ôn ông ôp ôt ơ ơi ơm ơn ơp ơt
u ua uân uâng uât uây uc uê uêch uên uênh uêt ui um un ung uơ uôc uôi uôm uôn uông uôt up ut
uy uya uych uyên uyêt uynh uyt uyu ư ưa ưc ưi ưm ưn ưng ưt ưu ươc ươi ươm ươn ương ươp ươt ươu
y yêm yên yêt yêu
""".split())
SAC, NANG = "\u0301", "\u0323"


def valid_syllable(syllable):
    """The syllable check of edition 3 (SOURCE.md states the same rule)."""
    if sum(1 for c in unicodedata.normalize("NFD", syllable) if c in TONES) > 1:
        return False
    letters, tone = parse(syllable)
    bare = "".join(letters)
    onset = next((o for o in ONSETS if bare.startswith(o)), "")
    rhyme = bare[len(onset):]
    if onset == "qu":
        ok = rhyme != "" and ("u" + rhyme in RHYMES or (rhyme[0] in "aăe" and "o" + rhyme in RHYMES))
    elif onset == "gi":
        ok = rhyme == "" or rhyme in RHYMES or "i" + rhyme in RHYMES
    else:
        ok = rhyme in RHYMES
    if not ok:
        return False
    if onset in ("k", "gh", "ngh") and rhyme[:1] not in ("i", "e", "ê", "y"):
        return False
    if onset in ("c", "g", "ng") and rhyme[:1] in ("e", "ê", "i"):
        return False
    if bare.endswith(("p", "t", "c", "ch")) and tone not in (SAC, NANG):
        return False
    return True


def valid_word(word):
    return all(valid_syllable(s) for s in word.split(" "))


# Entries that pass the syllable check but are typos of another entry.
TYPOS = {"kính đên"}  # kính đen

# Regional variant syllables and the standard one. A word spelled with the variant becomes an
# alias of the word spelled with the standard syllable when that is a word of the list. Every
# pair has words listed in both spellings by the sources: pháp lịnh/pháp lệnh, chẩn bịnh/chẩn
# bệnh, hành chánh/hành chính, danh tánh/danh tính, thống nhứt/thống nhất, phước đức/phúc đức,
# kiếng mát/kính mát, đờn cò/đàn cò, thiệt thà/thật thà, bất nhơn/bất nhân, giựt mình/giật mình,
# nhựt trình/nhật trình, mần ăn/làm ăn.
VARIANTS = {"lịnh": "lệnh", "bịnh": "bệnh", "chánh": "chính", "tánh": "tính", "nhứt": "nhất",
            "phước": "phúc", "kiếng": "kính", "đờn": "đàn", "thiệt": "thật", "nhơn": "nhân",
            "giựt": "giật", "nhựt": "nhật", "mần": "làm"}
# Words whose spelling with such a syllable is the standard one (dictionaries head them so).
NOT_VARIANTS = {"gia chánh", "bá tánh"}

# Everyday phrases people play, listed by this project (its own list, under the code's MIT
# licence): the known gaps, everyday words that no source lists or that the sources
# score low, and words that begin with the syllables players expect to continue (xiếc, giâm,
# vã, dịp, quẻ, suất, tấu, thuở, đạt, đọc). Comma-separated.
EVERYDAY = """
thịt bò, thịt gà, thịt lợn, thịt heo, thịt vịt, thịt nướng, thịt kho, cá kho, cá rán, cá nướng,
bữa sáng, bữa trưa, bữa tối, bữa cơm, bữa ăn, bữa tiệc, ăn sáng, ăn trưa, ăn tối, ăn cơm,
làng quê, dòng sông, bờ sông, con sông, bến sông, dòng suối, con đường, góc phố,
chạy bộ, đi bộ, đi chợ, đi học, đi làm, đi ngủ, đi chơi, đi dạo, tập thể dục, đạp xe,
canh chua, canh cá, canh rau, canh cua, mì tôm, mì gói, mì xào, phở bò, phở gà, bún bò, bún chả,
trời mưa, trời nắng, trời lạnh, trời nóng, trời tối, trời sáng, mưa to, mưa rào, nắng nóng,
đọc sách, đọc báo, đọc truyện, đọc thơ, viết thư, viết bài, xem phim, nghe nhạc,
món quà, món ăn, món ngon, quà tặng, quà sinh nhật, trận đấu, trận bóng, trận chung kết, đá bóng,
vẽ tranh, bức tranh, tạo ra, làm ra, nghĩ ra, nói ra, đạt được, đạt giải, đạt điểm, đoạt giải,
nải chuối, quả chuối, buồng chuối, buốt giá, rét buốt, lạnh buốt,
bảy mươi, sáu mươi, tám mươi, chín mươi, hai mươi, ba mươi, bốn mươi, năm mươi, một trăm,
lát nữa, chút nữa, lúc nãy, hồi nãy, dưới đây, trên đây, sau đây, phiếu bầu, lá phiếu, bỏ phiếu,
xiếc thú, rạp xiếc, gánh xiếc, làm xiếc, giâm cành, giâm cây, vã mồ hôi,
dịp lễ, dịp tết, dịp hè, nhân dịp, quẻ bói, gieo quẻ, xin quẻ, suất ăn, suất cơm, suất học bổng,
tấu hài, song tấu, độc tấu, thuở nhỏ, thuở bé, thuở xưa, thuở ấy, thuở trước,
cốc nước, ly nước, chai nước, uống nước, uống trà, uống cà phê, pha trà, nấu cơm, nấu ăn,
rửa bát, quét nhà, giặt đồ, phơi đồ, dọn nhà, lau nhà, tắm rửa, đánh răng, rửa mặt,
sân trường, lớp học, bài tập, làm bài, học bài, điểm số, bạn học, thầy giáo, cô giáo,
bố mẹ, ông bà, em gái, em trai, con gái, con trai, cháu nội, cháu ngoại,
điện thoại, nhắn tin, gọi điện, máy tính
"""


def everyday():
    words = [w.strip() for w in EVERYDAY.replace("\n", " ").split(",")]
    return [" ".join(w.split()) for w in words if w]


def vlsp_text(underthesea):
    """underthesea's VLSP 2013 test text: its words (gold segmentation) and its sentences."""
    words, sentences, sentence = [], [], []
    for line in read_member(underthesea, VLSP_MEMBER, VLSP_NEWLINES) + [""]:
        if line:
            token = line.split("\t")[0]
            words.append(token)
            sentence.append(token)
        elif sentence:
            sentences.append(" ".join(sentence))
            sentence = []
    return words, sentences


def visonorm_text(visonorm):
    """visonorm's dictionary.json: the text of its examples and definitions, each once, sorted."""
    with tarfile.open(visonorm, "r:gz") as tf:
        data = tf.extractfile(VISONORM_MEMBER).read()
    if len(data) != VISONORM_BYTES:
        sys.exit(f"{VISONORM_MEMBER} has {len(data)} bytes, {VISONORM_BYTES} expected")
    texts = set()

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if k in ("example", "definition") and isinstance(v, str):
                    texts.add(v)
                else:
                    walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(json.loads(data.decode("utf-8")))
    return sorted(texts)


def ngram_counts(texts):
    """Occurrences of each run of 2 to 4 syllables in running text, by key: lower-cased, NFC,
    cut at anything that is not a letter or a space."""
    counts = {}
    for text in texts:
        for chunk in re.split(r"[^\w ]|[\d_]", unicodedata.normalize("NFC", text.lower())):
            s = chunk.split()
            for n in (2, 3, 4):
                for i in range(len(s) - n + 1):
                    w = " ".join(s[i:i + n])
                    if ENTRY_RE.fullmatch(w):
                        k = key(w)
                        counts[k] = counts.get(k, 0) + 1
    return counts


def familiarity3(k, lists, genz, syllables, text, curated):
    """Edition 3's familiarity of the word of key k (SOURCE.md states the formula)."""
    g = min(5, 1 + int(math.log10(genz[k]))) if genz.get(k, 0) > 0 else 0
    t = min(3, 1 + int(math.log10(text[k]))) if text.get(k, 0) > 0 else 0
    if g + t > 0:
        score = min(9, max(0, sum(1 for keys in lists if k in keys) - 1) + g + t)
    else:
        common = 1 if k in lists[1] or k in lists[2] else 0
        plain = 1 if min(syllables.get(s, 0) for s in k.split(" ")) >= 300 else 0
        score = common + plain
    return max(score, 6) if k in curated else score


def syllable_counts(genz):
    """Occurrences in genz-tokenize's vocabulary of each single syllable, by key."""
    counts = {}
    for line in read_member(genz, GENZ_MEMBER, GENZ_NEWLINES):
        if line:
            token, count = line.rsplit(" ", 1)
            if "_" not in token and "@@" not in token and ENTRY_RE.fullmatch(token + " a"):
                k = key(token)
                counts[k] = counts.get(k, 0) + int(count)
    return counts


def graph(words, familiar=None):
    """Counts of the chain graph of `words` (by key): words, nodes, dead ends, syllables that
    begin 10 words or more, links."""
    keys = {key(w) for w in words} if familiar is None else {key(w) for w, f in zip(words, familiar) if f >= 2}
    first, last, links = {}, set(), set()
    for k in keys:
        s = k.split(" ")
        first[s[0]] = first.get(s[0], 0) + 1
        last.add(s[-1])
        links.add((s[0], s[-1]))
    return {"words": len(keys), "nodes": len(set(first) | last), "dead ends": len(last - set(first)),
            "begin 10+": sum(1 for n in first.values() if n >= 10), "links": len(links)}


# The recipe is defined together with these counts.
EXPECTED_3 = {"words": 59529, 2: 45664, 3: 5199, 4: 6912, "longer": 1754}
EXPECTED_COUNTS_3 = {
    "familiarity": [8326, 27354, 7140, 1936, 2760, 3362, 3413, 2933, 1222, 1083],
    "aliases": 54, "removed by the syllable check": 272,
    "edition 2": {"words": 59590, "nodes": 6883, "dead ends": 1458, "begin 10+": 1598, "links": 56430},
    "edition 2 familiar": {"words": 26975, "nodes": 5610, "dead ends": 1371, "begin 10+": 768, "links": 26587},
    "edition 3": {"words": 59529, "nodes": 6803, "dead ends": 1413, "begin 10+": 1604, "links": 56378},
    "edition 3 familiar": {"words": 23849, "nodes": 4621, "dead ends": 1093, "begin 10+": 707, "links": 23583},
}


def edition3(pyvi, lists, common, genz_counts, syllables, underthesea, visonorm):
    _, vlsp_sentences = vlsp_text(underthesea)
    curated = everyday()
    bad = [w for w in curated if not (ENTRY_RE.fullmatch(w) and valid_word(w))]
    if bad:
        sys.exit(f"everyday phrases fail the syllable check: {bad}")
    sources = pyvi.union(*lists.values(), curated)
    typos = {w for w in sources if key(w) in {key(t) for t in TYPOS}}
    invalid = sorted(w for w in sources if not valid_word(w))
    kept = {w for w in sources if valid_word(w) and w not in typos}
    words = {display(w, common) for w in kept}
    if len({key(w) for w in words}) != len(words):
        sys.exit("two entries of edition 3 share a canonical key")
    # Aliases: a word with a variant syllable whose standard spelling is a word too.
    keys = {key(w): w for w in words}
    variants = {key(v): key(s) for v, s in VARIANTS.items()}
    not_variants = {key(w) for w in NOT_VARIANTS}
    aliases = {}
    for w in sorted(words):
        k = key(w)
        s = k.split(" ")
        if k in not_variants or not any(x in variants for x in s):
            continue
        standard = " ".join(variants.get(x, x) for x in s)
        if standard in keys:
            aliases[w] = keys[standard]
    edition = sorted(words - set(aliases))
    text = ngram_counts(vlsp_sentences + visonorm_text(visonorm))
    listed = [{key(w) for w in ws} for ws in [pyvi, *lists.values()]]
    curated_keys = {key(w) for w in curated}
    familiar = [familiarity3(key(w), listed, genz_counts, syllables, text, curated_keys) for w in edition]
    return {"words": edition, "familiar": familiar, "aliases": sorted(aliases.items()),
            "invalid": invalid, "typos": sorted(typos), "curated": curated,
            "text": text}



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pyvi", required=True, help="path to pyvi-0.1.1-py2.py3-none-any.whl")
    ap.add_argument("--underthesea", required=True, help="path to underthesea-9.5.0-py3-none-any.whl")
    ap.add_argument("--genz", required=True, help="path to genz_tokenize-1.2.7-py3-none-any.whl")
    ap.add_argument("--visonorm", required=True, help="path to visonorm-0.1.4.tar.gz")
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

    e3 = edition3(pyvi, lists, common, counts, syllable_counts(args.genz), args.underthesea, args.visonorm)
    edition3_words, familiar3, aliases = e3["words"], e3["familiar"], e3["aliases"]
    check("noi-tu-3.txt.gz", edition3_words, EXPECTED_3)
    by_score3 = [familiar3.count(n) for n in range(10)]
    got = {"familiarity": by_score3, "aliases": len(aliases), "removed by the syllable check": len(e3["invalid"]),
           "edition 2": graph(edition2), "edition 2 familiar": graph(edition2, familiar),
           "edition 3": graph(edition3_words), "edition 3 familiar": graph(edition3_words, familiar3)}
    for name, value in got.items():
        print(f"{name}: {value}", file=sys.stderr)
    if got != EXPECTED_COUNTS_3:
        sys.exit(f"edition 3 counts are {got}, {EXPECTED_COUNTS_3} expected")

    write_gz(os.path.join(args.out, "noi-tu.txt.gz"), edition1)
    write_gz(os.path.join(args.out, "noi-tu-2.txt.gz"), edition2)
    write_gz(os.path.join(args.out, "noi-tu-2-familiarity.txt.gz"), [str(n) for n in familiar])
    write_gz(os.path.join(args.out, "noi-tu-3.txt.gz"), edition3_words)
    write_gz(os.path.join(args.out, "noi-tu-3-familiarity.txt.gz"), [str(n) for n in familiar3])
    write_gz(os.path.join(args.out, "noi-tu-3-aliases.txt.gz"), [f"{v}\t{w}" for v, w in aliases])


if __name__ == "__main__":
    main()
