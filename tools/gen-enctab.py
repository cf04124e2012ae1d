#!/usr/bin/env python3
"""Generate src/lib/sniff/enctab.h, the encoding-name table of src/lib/sniff/enc.c.

Its sources, all in the repository; nothing of the machine that runs this
is asked, so the output depends on these files alone:

  data/iana-character-sets.csv  the IANA "Character Sets" registry
      (RFC 2978): for each entry the name to report (the preferred MIME
      name where there is one, else the registry name) and every label that
      names it (name, preferred name, aliases).
  tools/families.tsv  the family of each entry for the XML encoding checks
      (XML 1.0 section 4.3.3, Appendix F) where it is not the default, an
      8-bit ASCII-compatible encoding: the Unicode forms, EBCDIC, and the
      encodings whose "<?xml" follows no pattern or was never established.
  tools/iconv-names.tsv  iconv's own spellings of some entries ("cp1252"),
      which become loose keys only.

Which name iconv(3) knows an entry by is decided at run time (src/lib/sniff/enc.c,
entry_iconv): the table gives each entry a list of names to try with
iconv_open, in this order, the first accepted winning: its labels (name to
report, registry name, aliases), then the same without padding zeros in a
number ("IBM1141" for IBM01141).  A Unicode form has its one name (below).

Usage: tools/gen-enctab.py data/iana-character-sets.csv tools/families.tsv \\
           tools/iconv-names.tsv > src/lib/sniff/enctab.h
"""
import csv
import re
import sys

# The names to give iconv for the Unicode forms, by registry name.  The
# bare UTF-16/UTF-32/UCS names get their byte order at run time (never
# handed to iconv bare: glibc would use host order and pass a BOM through).
# ISO-10646-UCS-2/-4 are not UTF-16/UTF-32: XML 1.0 Appendix F finds them
# by their declaration, and the BOM rule of section 4.3.3 is UTF-16's
# alone; iconvs call them UCS-2/UCS-4.
UNICODE = {
    "UTF-8": "UTF-8",
    "UTF-16": "UTF-16",
    "UTF-16BE": "UTF-16BE",
    "UTF-16LE": "UTF-16LE",
    "UTF-32": "UTF-32",
    "UTF-32BE": "UTF-32BE",
    "UTF-32LE": "UTF-32LE",
    "ISO-10646-UCS-2": "UCS-2",
    "ISO-10646-UCS-4": "UCS-4",
}

# The families of tools/families.tsv, as src/lib/sniff/core.h names them.
FAMILIES = ["UTF8", "16", "16BE", "16LE", "32", "32BE", "32LE", "ASCII",
            "EBCDIC", "OTHER", "UCS2", "UCS4"]


def fail(path, lineno, msg):
    sys.exit("%s:%d: %s" % (path, lineno, msg))


def read_tsv(path):
    """Yield (line number, fields) of each line of a tab-separated file
    that is not blank or a "#" comment."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].rstrip()
            if line:
                yield lineno, line.split("\t")


def read_registry(path):
    """Return [(report name, registry name, labels)], in registry order."""
    entries = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = row["Name"].strip()
            pref = row["Preferred MIME Name"].strip()
            alias = []
            for line in row["Aliases"].splitlines():
                line = line.strip()
                # One entry carries a parenthesised remark, not an alias.
                if not line or line.startswith("(") or " " in line:
                    continue
                alias.append(line)
            report = pref or name
            entries.append((report, name, [report, name] + alias))
    return entries


def read_pairs(path, byname, check):
    """Return {registry name: [second field, ...]} of a two-column file
    whose first column names registry entries; check(value) says what is
    wrong with a second field, or None."""
    pairs = {}
    for lineno, f in read_tsv(path):
        if len(f) != 2:
            fail(path, lineno, "want a registry name, a tab and a value")
        if f[0] not in byname:
            fail(path, lineno, "no registry entry is named %s" % f[0])
        err = check(f[1])
        if err:
            fail(path, lineno, err)
        pairs.setdefault(f[0], []).append(f[1])
    return pairs


def candidates(name, labels):
    """The names to try with iconv_open for one entry, in order, each once
    (iconv names ignore case)."""
    if name.upper() in UNICODE:
        names = [UNICODE[name.upper()]]
    else:
        names = labels + [re.sub(r"(?<=[A-Za-z])0+(?=[1-9])", "", n)
                          for n in labels]
    seen = set()
    out = []
    for n in names:
        if n.lower() not in seen:
            seen.add(n.lower())
            out.append(n)
    return out


def loose_key(s):
    """Lower case, letters and digits only, no leading zeros in a number
    (as loose_key in src/lib/sniff/enc.c)."""
    s = re.sub(r"[^a-z0-9]", "", s.lower())
    return re.sub(r"(?<![0-9])0+(?=[0-9])", "", s)


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace(
        "\0", "\\0") + '"'


def wrap(out, items, indent, width=80):
    """Write items separated by spaces on lines of at most width columns
    (a tab counting 8), each beginning with indent."""
    col = len(indent.expandtabs(8))
    line = ""
    for it in items:
        if line and col + len(line) + 1 + len(it) > width:
            out.write(indent + line + "\n")
            line = ""
        line = line + " " + it if line else it
    if line:
        out.write(indent + line + "\n")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen-enctab.py iana-character-sets.csv "
                 "families.tsv iconv-names.tsv")
    csv_path, fam_path, names_path = sys.argv[1:]
    entries = read_registry(csv_path)
    byname = {name: i for i, (_, name, _) in enumerate(entries)}

    fams = read_pairs(fam_path, byname, lambda v: None if v in FAMILIES
                      else "unknown family %s" % v)
    for name, v in fams.items():
        if len(v) > 1:
            sys.exit("%s: %s has more than one family" % (fam_path, name))
    for name in UNICODE:
        if fams.get(name, ["ASCII"])[0] == "ASCII":
            sys.exit("%s: the Unicode form %s needs its family"
                     % (fam_path, name))
    spellings = read_pairs(names_path, byname, lambda v: None if v and
                           " " not in v else "a spelling is one word")

    labels = {}
    for idx, (_, _, names) in enumerate(entries):
        for n in names:
            labels.setdefault(n.lower(), idx)
    # Loose keys: "IBM-1141" finds IBM01141, "utf8" finds UTF-8.  A loose
    # key that would name two encodings is dropped (-1).
    loose = {}
    for key, idx in labels.items():
        lk = loose_key(key)
        loose[lk] = -1 if loose.get(lk, idx) != idx else idx
    # iconv's spellings: loose keys too, never in place of one a
    # registered label makes; one that would name two encodings is dropped.
    extra = {}
    for name, spelt in spellings.items():
        for s in spelt:
            lk = loose_key(s)
            idx = byname[name]
            extra[lk] = -1 if extra.get(lk, idx) != idx else idx
    for lk, idx in extra.items():
        if lk not in loose:
            loose[lk] = idx

    out = sys.stdout
    out.write("/* Generated by tools/gen-enctab.py from data/iana-character-sets.csv,\n"
              " * tools/families.tsv and tools/iconv-names.tsv; do not edit. */\n\n")
    out.write("/* Each entry: the name to report; the names to try with"
              " iconv_open, in\n * order, each ended by a NUL, the list by"
              " an empty name; the family. */\n")
    out.write("static const struct enc_entry enc_table[] = {\n")
    for i, (report, name, names) in enumerate(entries):
        fam = fams.get(name, ["ASCII"])[0]
        # Each name ends its literal, so that no "\0" meets a digit; the
        # literal's own NUL ends the list.
        cands = [c_str(c + "\0") for c in candidates(name, names)]
        cands[-1] += ","
        out.write("\t/* %d */\n" % i)
        out.write("\t{ %s,\n" % c_str(report))
        wrap(out, cands, "\t    ")
        out.write("\t    ENC_F_%s },\n" % fam)
    out.write("};\n\n")
    out.write("/* Every label, lower case, sorted for bsearch(3). */\n")
    out.write("static const struct enc_label enc_labels[] = {\n")
    for key in sorted(labels, key=lambda k: k.encode()):
        out.write("\t{ %s, %d },\n" % (c_str(key), labels[key]))
    out.write("};\n\n")
    out.write("/* Loose keys (see loose_key in tools/gen-enctab.py), sorted. */\n")
    out.write("static const struct enc_label enc_loose[] = {\n")
    for key in sorted(loose, key=lambda k: k.encode()):
        if loose[key] >= 0:
            out.write("\t{ %s, %d },\n" % (c_str(key), loose[key]))
    out.write("};\n")


if __name__ == "__main__":
    main()
