#!/usr/bin/env python3
"""Generate src/enctab.h from data/iana-character-sets.csv (the IANA
"Character Sets" registry).

For every registry entry this records the name to report (the preferred MIME
name where the registry gives one, else the registry name), every label that
names it (name, preferred name, aliases), its family for the XML encoding
checks, and the first of its labels that the build machine's iconv(3) accepts.
The family of an 8-bit encoding is found by asking iconv how it encodes
"<?xml": the ASCII bytes 3C 3F 78 6D 6C, or the EBCDIC bytes 4C 6F A7 94 93.
The Unicode encoding forms are classified by name, since XML treats them
specially (XML 1.0 section 4.3.3, Appendix F).

Usage: tools/gen-enctab.py data/iana-character-sets.csv > src/enctab.h
"""
import csv
import ctypes
import ctypes.util
import glob
import os
import re
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.iconv_open.restype = ctypes.c_void_p
libc.iconv_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.iconv.restype = ctypes.c_size_t
libc.iconv.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p),
                       ctypes.POINTER(ctypes.c_size_t),
                       ctypes.POINTER(ctypes.c_char_p),
                       ctypes.POINTER(ctypes.c_size_t)]
libc.iconv_close.argtypes = [ctypes.c_void_p]
BAD = ctypes.c_void_p(-1).value


def iconv_encode(name, text):
    """Return text encoded by iconv into name, or None."""
    cd = libc.iconv_open(name.encode(), b"UTF-8")
    if cd is None or cd == BAD:
        return None
    src = ctypes.create_string_buffer(text, len(text))
    dst = ctypes.create_string_buffer(64)
    inp = ctypes.c_char_p(ctypes.addressof(src))
    outp = ctypes.c_char_p(ctypes.addressof(dst))
    inleft = ctypes.c_size_t(len(text))
    outleft = ctypes.c_size_t(64)
    r = libc.iconv(cd, ctypes.byref(inp), ctypes.byref(inleft),
                   ctypes.byref(outp), ctypes.byref(outleft))
    libc.iconv_close(cd)
    if r == BAD or inleft.value:
        return None
    return dst.raw[:64 - outleft.value]


def accepted(name):
    cd = libc.iconv_open(name.encode(), b"UTF-8")
    if cd is None or cd == BAD:
        return False
    libc.iconv_close(cd)
    return True


# The Unicode forms, by registry name: (family, iconv name).  The bare
# UTF-16/UTF-32/UCS names get their byte order at run time (never handed to
# iconv bare: glibc would use host order and pass a BOM through).
UNICODE = {
    "UTF-8": ("ENC_F_UTF8", "UTF-8"),
    "UTF-16": ("ENC_F_16", "UTF-16"),
    "UTF-16BE": ("ENC_F_16BE", "UTF-16BE"),
    "UTF-16LE": ("ENC_F_16LE", "UTF-16LE"),
    "UTF-32": ("ENC_F_32", "UTF-32"),
    "UTF-32BE": ("ENC_F_32BE", "UTF-32BE"),
    "UTF-32LE": ("ENC_F_32LE", "UTF-32LE"),
    # glibc rejects these two XML names; UCS-2/UCS-4 are what it accepts.
    # They are not UTF-16/UTF-32: XML 1.0 Appendix F finds them by their
    # declaration, and the BOM rule of section 4.3.3 is UTF-16's alone.
    "ISO-10646-UCS-2": ("ENC_F_UCS2", "UCS-2"),
    "ISO-10646-UCS-4": ("ENC_F_UCS4", "UCS-4"),
}

# The aliases of glibc's built-in converters (gconv_builtin.h), which no
# gconv-modules file lists, by the registry name they mean.  glibc's bare
# UCS-2 is host order: as a label it names the byte-order-free form.  (Its
# UNICODE, UCS-2 with a BOM, is csUnicode in gconv-modules, which the
# registry lists under ISO-10646-UCS-2.  glibc's ISO-10646 is UCS-4, the
# registry's a subset: left out.)
BUILTIN = {
    "US-ASCII": ["ANSI_X3.4-1968", "ANSI_X3.4-1986", "ANSI_X3.4", "ASCII",
                 "ISO646-US", "ISO-IR-6", "ISO_646.IRV:1991", "US",
                 "IBM367", "CP367", "CSASCII", "OSF00010020"],
    "UTF-8": ["UTF8", "ISO-10646/UTF8", "ISO-10646/UTF-8", "ISO-IR-193",
              "OSF05010001"],
    "ISO-10646-UCS-2": ["UCS-2", "UCS2", "ISO-10646/UCS2", "OSF00010100",
                        "OSF00010101", "OSF00010102"],
    "ISO-10646-UCS-4": ["UCS-4", "UCS4", "ISO-10646/UCS4", "10646-1:1993",
                        "10646-1:1993/UCS4", "OSF00010104", "OSF00010105",
                        "OSF00010106"],
}

GCONV_FILES = ["/usr/lib/*/gconv/gconv-modules",
               "/usr/lib/*/gconv/gconv-modules.d/*.conf",
               "/usr/lib*/gconv/gconv-modules",
               "/usr/lib*/gconv/gconv-modules.d/*.conf"]


def gconv_groups():
    """Return the names of each glibc converter: {module: {names}}, from
    the "alias NAME// MODULE//" and "module FROM// TO// ..." lines of the
    gconv-modules files, plus the built-in aliases."""
    groups = {}
    seen = set()
    for pat in GCONV_FILES:
        for path in sorted(glob.glob(pat)):
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            for line in open(path, encoding="latin-1"):
                f = line.split("#", 1)[0].split()
                if len(f) >= 3 and f[0] == "alias":
                    mod = f[2].rstrip("/").upper()
                    groups.setdefault(mod, {mod}).add(f[1].rstrip("/"))
                elif len(f) >= 3 and f[0] == "module":
                    for n in f[1:3]:
                        n = n.rstrip("/").upper()
                        if n != "INTERNAL":
                            groups.setdefault(n, {n})
    for reg, names in BUILTIN.items():
        groups.setdefault("builtin " + reg, set()).update(names + [reg])
    return groups

ASCII_XML = b"<?xml"
EBCDIC_XML = bytes([0x4C, 0x6F, 0xA7, 0x94, 0x93])


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    rows = list(csv.DictReader(open(sys.argv[1], newline="")))
    entries = []
    labels = {}
    for row in rows:
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
        names = [report, name] + alias
        if name.upper() in UNICODE:
            fam, iconv = UNICODE[name.upper()]
        else:
            # glibc spells IBM01141 as IBM1141: try without padding zeros.
            cands = names + [re.sub(r"(?<=[A-Za-z])0+(?=[1-9])", "", n)
                             for n in names]
            iconv = next((n for n in cands if accepted(n)), "")
            enc = iconv_encode(iconv, ASCII_XML) if iconv else None
            if enc == ASCII_XML:
                fam = "ENC_F_ASCII"
            elif enc == EBCDIC_XML:
                fam = "ENC_F_EBCDIC"
            else:
                fam = "ENC_F_OTHER"
        idx = len(entries)
        entries.append((report, iconv, fam))
        for n in names:
            key = n.lower()
            if key not in labels:
                labels[key] = idx
    # Loose keys: lower case, letters and digits only, no leading zeros in a
    # number, so "IBM-1141" finds IBM01141 and "utf8" finds UTF-8.  A loose
    # key that would name two encodings is dropped.
    loose = {}
    for key, idx in labels.items():
        lk = loose_key(key)
        if lk in loose and loose[lk] != idx:
            loose[lk] = -1
        else:
            loose[lk] = idx
    # iconv's own spellings ("cp1252", "sjis", "UCS-2"): every name of a
    # glibc converter that one registry entry's labels name too means that
    # entry (RFC 7303 wants registered names on the wire).  They are not
    # registered labels, so they go among the loose keys, never in place
    # of one.
    extra = {}
    for names in gconv_groups().values():
        idxs = {labels[n.lower()] for n in names if n.lower() in labels}
        if len(idxs) != 1:
            continue
        idx = idxs.pop()
        for n in names:
            if accepted(n):
                lk = loose_key(n)
                if lk in extra and extra[lk] != idx:
                    extra[lk] = -1
                else:
                    extra[lk] = idx
    for lk, idx in extra.items():
        if lk not in loose and idx >= 0:
            loose[lk] = idx
    out = sys.stdout
    out.write("/* Generated by tools/gen-enctab.py from data/iana-character-sets.csv;\n"
              " * do not edit. */\n\n")
    out.write("static const struct enc_entry enc_table[] = {\n")
    for report, iconv, fam in entries:
        out.write("\t{ %s, %s, %s },\n" % (c_str(report), c_str(iconv), fam))
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


def loose_key(s):
    s = re.sub(r"[^a-z0-9]", "", s.lower())
    return re.sub(r"(?<![0-9])0+(?=[0-9])", "", s)


if __name__ == "__main__":
    main()
