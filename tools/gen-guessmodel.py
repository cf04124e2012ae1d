#!/usr/bin/env python3
"""Make src/lib/analysis/guess_lm.h, the language models of the encoding
guess (guess_model.c), from texts in many languages.

    tools/gen-guessmodel.py /usr/share/locale \
        coreutils,tar,grep,sed,wget,findutils,diffutils \
        > src/lib/analysis/guess_lm.h

DIR/LANG/*.txt are UTF-8 texts in language LANG (the codes of LANGS
below), or DIR/LANG/LC_MESSAGES/*.mo message catalogues, whose
translations (msgstr) are the texts; tools/guess-extra/LANG.txt, texts written for xmlsniff, are
counted with them, for the languages those catalogues hold too little of
(Maltese: a few hundred names of countries and languages, in which the
letters of its everyday words hardly show).  The committed table was made from the translations of program
messages that Debian installs under /usr/share/locale (the msgstr texts
of each LANG/LC_MESSAGES/*.mo, one a line), less the catalogues named in
HOLDOUT (a comma-separated list of file names without .txt), which are
kept for measuring the guess on texts the models have not seen.  Only
counts come out: what share of the characters past ASCII each one is, in
what neighbourhood, how often a letter is upper case after another, and
how often each ASCII letter is found in the words that hold a letter past
ASCII.

The character classes and the case folding below are those of
src/lib/analysis/guess_char.c, which reads the table; tests/unit_guess.c checks the two
against each other on every character of every candidate encoding.
"""
import gettext
import math
import os
import sys
import unicodedata

# Language: (script, kind).  kind "sb": an alphabet, found in single-byte
# encodings; "cjk": a large character set, found in multi-byte ones.
LANGS = {
    "af": "latin", "br": "latin", "ca": "latin", "cs": "latin",
    "cy": "latin", "da": "latin", "de": "latin", "en_GB": "latin",
    "eo": "latin", "es": "latin", "et": "latin", "eu": "latin",
    "fi": "latin", "fr": "latin", "ga": "latin", "gl": "latin",
    "hr": "latin", "hu": "latin", "is": "latin", "it": "latin",
    "lt": "latin", "lv": "latin", "mt": "latin", "nb": "latin",
    "nl": "latin", "oc": "latin", "pl": "latin", "pt": "latin",
    "pt_BR": "latin", "ro": "latin", "sk": "latin", "sl": "latin",
    "sq": "latin", "sv": "latin", "tr": "latin", "vi": "latin",
    "be": "cyrillic", "bg": "cyrillic", "mk": "cyrillic", "ru": "cyrillic",
    "sr": "cyrillic", "uk": "cyrillic",
    "el": "greek", "he": "hebrew", "ar": "arabic", "fa": "arabic",
    "ur": "arabic", "th": "thai",
    "ja": "cjk", "zh_CN": "cjk", "zh_TW": "cjk", "ko": "hangul",
}
# Languages whose texts are pooled into one model.
POOL = {"zh_HK": "zh_TW"}
# Tokens kept for an alphabet, and for a large character set.
NTOK_SB = 96
NTOK_CJK = 3000
SCALE = 100		# log probabilities in hundredths of a nat

SCRIPTS = ["none", "latin", "greek", "cyrillic", "hebrew", "arabic", "thai",
           "cjk", "hangul"]
# How many letters a script has that a text could hold: an unlisted one
# gets an equal share of the script's unlisted mass.
SCRIPT_SIZE = {"none": 1, "latin": 400, "greek": 120, "cyrillic": 250,
               "hebrew": 60, "arabic": 300, "thai": 90, "cjk": 30000,
               "hangul": 11172}
NSYM = 600		# likewise for symbols
NTOK_POOL = 400		# characters kept in each script's pool
# The word letters: a language's counts weigh against this many letters
# of the pool; one with fewer than WL_MIN is left out of the pool.
WL_PRIOR = 200.0
WL_MIN = 200


def info(c):
    """(script, letter, folded) of code point c, as guess_char.c has it:
    letter 0 for none, 1 lower, 2 upper, 3 without case or a mark."""
    if c < 0x80:
        if 0x41 <= c <= 0x5A:
            return ("latin", 2, c + 0x20)
        if 0x61 <= c <= 0x7A:
            return ("latin", 1, c)
        return ("none", 0, c)
    if c in (0xD7, 0xF7):
        return ("none", 0, c)
    if 0xC0 <= c <= 0xDE:
        return ("latin", 2, c + 0x20)
    if 0xDF <= c <= 0xFF:
        return ("latin", 1, c)
    if 0x100 <= c <= 0x17F:
        if c in (0x138, 0x149, 0x17F):
            return ("latin", 1, c)
        if c == 0x178:
            return ("latin", 2, 0xFF)
        odd_upper = 0x139 <= c <= 0x148 or 0x179 <= c <= 0x17E
        if (c % 2 == 1) == odd_upper:
            if c == 0x130:
                return ("latin", 2, 0x69)
            return ("latin", 2, c + 1)
        return ("latin", 1, c)
    if 0x218 <= c <= 0x21B:
        # Romanian s and t with a comma below are those with a cedilla
        # that ISO-8859-2 and windows-1250 write them with.
        return ("latin", 2 if c % 2 == 0 else 1, 0x15F if c < 0x21A
                else 0x163)
    if 0x180 <= c <= 0x24F:
        if c in (0x1A0, 0x1AF):
            return ("latin", 2, c + 1)
        if 0x1CD <= c <= 0x1DC and c % 2 == 1:
            return ("latin", 2, c + 1)
        return ("latin", 1 if c in (0x192, 0x1A1, 0x1B0) or
                0x1CD <= c <= 0x1DC else 3, c)
    if 0x250 <= c <= 0x2AF:
        return ("latin", 1, c)
    if 0x300 <= c <= 0x36F:
        return ("latin", 3, c)
    if 0x1E00 <= c <= 0x1EFF:
        return ("latin", 2, c + 1) if c % 2 == 0 else ("latin", 1, c)
    if 0x386 <= c <= 0x3CE and c not in (0x387, 0x3A2):
        if c == 0x386:
            return ("greek", 2, 0x3AC)
        if 0x388 <= c <= 0x38A:
            return ("greek", 2, c + 0x25)
        if c == 0x38C:
            return ("greek", 2, 0x3CC)
        if c in (0x38E, 0x38F):
            return ("greek", 2, c + 0x3F)
        if 0x391 <= c <= 0x3AB:
            return ("greek", 2, c + 0x20)
        return ("greek", 1, c)
    if 0x400 <= c <= 0x40F:
        return ("cyrillic", 2, c + 0x50)
    if 0x410 <= c <= 0x42F:
        return ("cyrillic", 2, c + 0x20)
    if 0x430 <= c <= 0x45F:
        return ("cyrillic", 1, c)
    if 0x460 <= c <= 0x481 or 0x48A <= c <= 0x4BF or 0x4D0 <= c <= 0x52F:
        return ("cyrillic", 2, c + 1) if c % 2 == 0 else ("cyrillic", 1, c)
    if 0x4C0 <= c <= 0x4CF:
        return ("cyrillic", 3, c)
    if 0x5B0 <= c <= 0x5C7 and c not in (0x5BE, 0x5C0, 0x5C3, 0x5C6):
        return ("hebrew", 3, c)
    if 0x5D0 <= c <= 0x5EA or 0x5F0 <= c <= 0x5F2:
        return ("hebrew", 3, c)
    if (0x621 <= c <= 0x65F or 0x670 <= c <= 0x6D3 or
            0xFB50 <= c <= 0xFDFF or 0xFE70 <= c <= 0xFEFC):
        return ("arabic", 3, c)
    if 0xE01 <= c <= 0xE3A or 0xE40 <= c <= 0xE4E:
        return ("thai", 3, c)
    if (0xAC00 <= c <= 0xD7A3 or 0x1100 <= c <= 0x11FF or
            0x3131 <= c <= 0x318E):
        return ("hangul", 3, c)
    if (0x3041 <= c <= 0x3096 or 0x309D <= c <= 0x309F or
            0x30A1 <= c <= 0x30FA or 0x30FC <= c <= 0x30FF or
            0xFF66 <= c <= 0xFF9F or c == 0x3005 or
            0x3400 <= c <= 0x4DBF or 0x4E00 <= c <= 0x9FFF or
            0xF900 <= c <= 0xFAFF or 0x20000 <= c <= 0x2FFFF):
        return ("cjk", 3, c)
    if 0xFF21 <= c <= 0xFF3A:
        return ("cjk", 2, c + 0x20)
    if 0xFF41 <= c <= 0xFF5A:
        return ("cjk", 1, c)
    return ("none", 0, c)


def cls(c):
    """The class of a neighbour: 0 an ASCII letter, 1 another letter or a
    mark, 2 anything else (and the start or end of a line)."""
    if c is None:
        return 2
    s, letter, _ = info(c)
    if letter == 0:
        return 2
    return 0 if c < 0x80 else 1


def lines_of(path):
    """The lines of a text, or the translations of a message catalogue
    (those that do not decode as UTF-8 are passed over)."""
    if path.endswith(".mo"):
        try:
            with open(path, "rb") as f:
                cat = gettext.GNUTranslations(f)._catalog
        except (OSError, UnicodeDecodeError, ValueError, IndexError):
            return []
        out = []
        for k, v in cat.items():
            if k != "" and not (isinstance(k, tuple) and k[0] == "") and \
                    isinstance(v, str):
                out += v.replace("\r", "").split("\n")
        return out
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")


def word_letters(cs, wl):
    """Count into wl the ASCII letters (folded) of the words of cs that
    hold a letter past ASCII: a word is a run of letters and marks."""
    word, high = [], False
    for c in cs + [0x20]:
        if info(c)[1] != 0:
            if c < 0x80:
                word.append((c | 0x20) - 0x61)
            else:
                high = True
            continue
        if high:
            for k in word:
                wl[k] += 1
        word, high = [], False


def count(lang, paths):
    tok = {}		# folded character: [n, prev[3], next[3]]
    case = [[0, 0], [0, 0], [0, 0]]	# previous lower/upper/other: [lower, upper]
    wl = [0] * 26	# ASCII letters of words with a letter past ASCII
    total = 0
    for p in paths:
        for line in lines_of(p):
            line = unicodedata.normalize("NFC", line.rstrip("\n"))
            cs = [ord(ch) for ch in line]
            word_letters(cs, wl)
            for i, c in enumerate(cs):
                if c < 0x80 or c == 0xFFFD:
                    continue
                prev = cs[i - 1] if i > 0 else None
                nxt = cs[i + 1] if i + 1 < len(cs) else None
                s, letter, fold = info(c)
                t = tok.setdefault(fold, [0, [0, 0, 0], [0, 0, 0]])
                t[0] += 1
                t[1][cls(prev)] += 1
                t[2][cls(nxt)] += 1
                total += 1
                if letter in (1, 2):
                    pl = info(prev)[1] if prev is not None else 0
                    ctx = 0 if pl == 1 else 1 if pl == 2 else 2
                    case[ctx][letter - 1] += 1
    return tok, case, total, wl


def lp(x):
    return max(-32000, int(round(SCALE * math.log(x))))


def word_model(script, wl, pool):
    """The log odds, against the pool of all alphabets' languages, of
    each ASCII letter in a word with a letter past ASCII: the evidence
    the letters around such a letter give for this language over an
    average one.  The counts are smoothed towards the pool, so that a
    language with few such words (English) says little; a large
    character set's texts say nothing."""
    if script in ("cjk", "hangul") or pool is None:
        return [0] * 26
    tot = sum(wl)
    return [lp((wl[k] + WL_PRIOR * pool[k]) / (tot + WL_PRIOR)) -
            lp(pool[k]) for k in range(26)]


def word_pool(wls):
    """Each ASCII letter's share in the words with a letter past ASCII,
    all alphabets' languages weighing alike."""
    share = [0.0] * 26
    n = 0
    for lang, wl in wls.items():
        tot = sum(wl)
        if LANGS[lang] in ("cjk", "hangul") or tot < WL_MIN:
            continue
        n += 1
        for k in range(26):
            share[k] += (wl[k] + 0.5) / (tot + 13.0)
    return [x / n for x in share] if n else None


def model(lang, script, tok, case, total, wl):
    cjk = script in ("cjk", "hangul")
    ntok = NTOK_CJK if cjk else NTOK_SB
    ranked = sorted(tok.items(), key=lambda kv: (-kv[1][0], kv[0]))
    kept = [kv for kv in ranked[:ntok] if kv[1][0] >= 3]
    n = total + 1.0
    # The mass left to the unlisted, by script: half a character for the
    # language's own script and symbols, a hundredth for the letters of
    # another script, which a text of this language hardly ever holds.
    # An unlisted character gets this share times its share in the pool
    # of its script (guess_model.c).
    own = ("cjk", "hangul") if cjk else (script,)
    rest = {s: 0.5 if s in own or s == "none" else 0.01 for s in SCRIPTS}
    for c, t in ranked[len(kept):]:
        rest[info(c)[0]] += t[0]
    # The context of letters and of symbols on the whole: the prior of a
    # rare token's, and the context of an unlisted one.
    def pool(pred):
        pr, nx = [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]
        for c, t in tok.items():
            if pred(c):
                for k in range(3):
                    pr[k] += t[1][k]
                    nx[k] += t[2][k]
        return [x / sum(pr) for x in pr], [x / sum(nx) for x in nx]
    letter_ctx = pool(lambda c: info(c)[1] != 0)
    sym_ctx = pool(lambda c: info(c)[1] == 0)
    ctxs = []

    def ctx_of(t, prior):
        k = 8.0
        pr = [(t[1][i] + k * prior[0][i]) / (t[0] + k) for i in range(3)]
        nx = [(t[2][i] + k * prior[1][i]) / (t[0] + k) for i in range(3)]
        ctxs.append(([lp(x) for x in pr], [lp(x) for x in nx]))
        return len(ctxs) - 1
    toks = []
    for c, t in kept:
        prior = letter_ctx if info(c)[1] != 0 else sym_ctx
        ctx = ctx_of(t, prior) if not cjk else None
        toks.append([c, lp(t[0] / n), ctx])
    # Context indexes for a large set: one per class of token.
    letter_i = ctx_of([0, [0] * 3, [0] * 3], letter_ctx)
    sym_i = ctx_of([0, [0] * 3, [0] * 3], sym_ctx)
    for t in toks:
        if t[2] is None:
            t[2] = letter_i if info(t[0])[1] != 0 else sym_i
    unk = [lp(rest[s] / n) for s in SCRIPTS]
    up = [lp((case[k][1] + 0.5) / (sum(case[k]) + 1.0)) for k in range(3)]
    lo = [lp((case[k][0] + 0.5) / (sum(case[k]) + 1.0)) for k in range(3)]
    return {"lang": lang, "script": script, "cjk": cjk,
            "tok": sorted(toks), "ctx": ctxs, "unk": unk, "up": up,
            "lo": lo, "letter_ctx": letter_i, "sym_ctx": sym_i,
            "total": total, "wl": wl}


def pools(counts):
    """Per script, the characters of all languages pooled, each language
    weighing alike: (code point, log share) for the NTOK_POOL commonest,
    and the log share of any other (the rest spread over the script)."""
    out = {}
    for sc in SCRIPTS:
        mass = {}
        for lang, tok in counts.items():
            tot = sum(t[0] for c, t in tok.items() if info(c)[0] == sc)
            if tot == 0:
                continue
            for c, t in tok.items():
                if info(c)[0] == sc:
                    mass[c] = mass.get(c, 0.0) + t[0] / tot
        total = sum(mass.values())
        if total == 0:
            out[sc] = ([], lp(1.0 / (NSYM if sc == "none" else
                                     SCRIPT_SIZE[sc])))
            continue
        ranked = sorted(mass.items(), key=lambda kv: (-kv[1], kv[0]))
        kept = ranked[:NTOK_POOL]
        left = (sum(m for c, m in ranked[NTOK_POOL:]) + 0.5) / (total + 0.5)
        size = NSYM if sc == "none" else SCRIPT_SIZE[sc]
        out[sc] = (sorted((c, lp(m / (total + 0.5))) for c, m in kept),
                   lp(left / max(size - len(kept), 1)))
    return out


def wrap_list(v):
    """The numbers of v, comma-separated, lines broken for the table."""
    out, line = [], ""
    for x in v:
        item = "%d," % x
        if len(line) + len(item) > 56:
            out.append(line.rstrip())
            line = ""
        line += item + " "
    out.append(line.rstrip().rstrip(","))
    return "\n\t      ".join(out)


def cname(lang):
    return lang.lower().replace("-", "_")


def class_digest():
    """FNV-1a over info() of every code point to U+2FFFF: guess_char.c
    computes the same (gch_digest), and the unit driver compares."""
    h = 1469598103934665603
    for c in range(0x30000):
        s, letter, fold = info(c)
        for v in (c, SCRIPTS.index(s), letter, fold):
            h = ((h ^ v) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def emit(models, holdout, pool):
    out = sys.stdout
    out.write("/*\n * Made by tools/gen-guessmodel.py: do not edit.  The "
              "language models of the\n * encoding guess, counted on the "
              "translations of program messages that\n * Debian installs "
              "(see the tool)\n")
    words = (", less the catalogues " + ", ".join(holdout) if holdout
             else "") + ".  Log probabilities are in hundredths of a nat."
    line = " *"
    for w in words.split(" "):
        if len(line) + len(w) > 72:
            out.write(line + "\n")
            line = " *"
        line += " " + w
    out.write(line + "\n */\n")
    out.write("\n/* The digest of the character classes the counts were made "
              "with. */\n#define LM_CLASS_DIGEST\t0x%016XULL\n" %
              class_digest())
    for m in models:
        n = cname(m["lang"])
        out.write("\n/* %s: %d characters past ASCII */\n" % (m["lang"],
                                                             m["total"]))
        out.write("static const struct lm_tok lm_tok_%s[] = {\n" % n)
        line = "\t"
        for c, l, x in m["tok"]:
            item = "{ 0x%X, %d, %d }," % (c, l, x)
            if len(line) + len(item) + 1 > 72:
                out.write(line.rstrip() + "\n")
                line = "\t"
            line += item + " "
        out.write(line.rstrip() + "\n};\n")
        out.write("static const struct lm_ctx lm_ctx_%s[] = {\n" % n)
        for pr, nx in m["ctx"]:
            out.write("\t{ { %d, %d, %d }, { %d, %d, %d } },\n" %
                      (pr[0], pr[1], pr[2], nx[0], nx[1], nx[2]))
        out.write("};\n")
    for sc in SCRIPTS:
        toks, other = pool[sc]
        out.write("\nstatic const struct lm_tok lm_pool_%s[] = {\n" % sc)
        line = "\t"
        for c, l in toks or [(0, other)]:
            item = "{ 0x%X, %d, 0 }," % (c, l)
            if len(line) + len(item) + 1 > 72:
                out.write(line.rstrip() + "\n")
                line = "\t"
            line += item + " "
        out.write(line.rstrip() + "\n};\n")
    out.write("\n/* Each script's pool, and the log share of a character "
              "it does not list. */\nstatic const struct lm_pool "
              "lm_pools[] = {\n")
    for sc in SCRIPTS:
        toks, other = pool[sc]
        out.write("\t{ %d, lm_pool_%s, %d },\n" % (len(toks), sc, other))
    out.write("};\n")
    out.write("\nstatic const struct lm lm_models[] = {\n")
    for m in models:
        n = cname(m["lang"])
        out.write("\t{ \"%s\", GS_%s, %d, %d, lm_tok_%s, lm_ctx_%s,\n"
                  "\t    { %s },\n\t    { %s }, { %s }, %d, %d,\n"
                  "\t    { %s } },\n" % (
                      m["lang"], m["script"].upper(), int(m["cjk"]),
                      len(m["tok"]), n, n, ", ".join(map(str, m["unk"])),
                      ", ".join(map(str, m["up"])),
                      ", ".join(map(str, m["lo"])), m["letter_ctx"],
                      m["sym_ctx"], wrap_list(m["wl"])))
    out.write("};\n")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: gen-guessmodel.py DIR [HOLDOUT] > src/guess_lm.h")
    top = sys.argv[1]
    holdout = sys.argv[2].split(",") if len(sys.argv) > 2 else []
    files = {}
    for d in sorted(os.listdir(top)):
        lang = POOL.get(d, d)
        if lang not in LANGS:
            continue
        sub = os.path.join(top, d, "LC_MESSAGES")
        sub = sub if os.path.isdir(sub) else os.path.join(top, d)
        for f in sorted(os.listdir(sub)):
            base, ext = os.path.splitext(f)
            # A catalogue under two names (iso_639.mo -> iso_639-2.mo)
            # is counted once.
            if ext in (".txt", ".mo") and base not in holdout and \
                    not os.path.islink(os.path.join(sub, f)):
                files.setdefault(lang, []).append(os.path.join(sub, f))
    extra = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "guess-extra")
    for f in sorted(os.listdir(extra)) if os.path.isdir(extra) else []:
        if f.endswith(".txt") and f[:-4] in LANGS:
            files.setdefault(f[:-4], []).append(os.path.join(extra, f))
    counted = {}
    for lang in sorted(files):
        counted[lang] = count(lang, files[lang])
    wpool = word_pool({lang: c[3] for lang, c in counted.items()})
    models = []
    for lang in sorted(counted):
        tok, case, total, wl = counted[lang]
        models.append(model(lang, LANGS[lang], tok, case, total,
                            word_model(LANGS[lang], wl, wpool)))
    emit(models, holdout, pools({lang: c[0] for lang, c in
                                 counted.items()}))


if __name__ == "__main__":
    main()
