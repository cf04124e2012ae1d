"""Entities built from exact bytes: every BOM, labels of each family,
and inputs for each diagnostic code, each named for what it holds.  The
tests compare the binding's answer on each with the command line's."""

import random

BOMS = {
    "utf8": b"\xef\xbb\xbf",
    "utf16le": b"\xff\xfe",
    "utf16be": b"\xfe\xff",
    "utf32le": b"\xff\xfe\x00\x00",
    "utf32be": b"\x00\x00\xfe\xff",
    "ucs4-2143": b"\x00\x00\xff\xfe",
    "ucs4-3412": b"\xfe\xff\x00\x00",
    "utf7": b"+/v8",
    "utf-ebcdic": b"\xdd\x73\x66\x73",
    "gb18030": b"\x84\x31\x95\x33",
    "scsu": b"\x0e\xfe\xff",
    "bocu1": b"\xfb\xee\x28",
}

CODECS = {
    "utf8": "utf-8", "utf16le": "utf-16-le", "utf16be": "utf-16-be",
    "utf32le": "utf-32-le", "utf32be": "utf-32-be",
}


def decl(enc=None, version="1.0", standalone=None, q='"'):
    s = "<?xml version=%s%s%s" % (q, version, q)
    if enc is not None:
        s += " encoding=%s%s%s" % (q, enc, q)
    if standalone is not None:
        s += " standalone=%s%s%s" % (q, standalone, q)
    return s + "?>"


def _text(enc_label, body="<doc>caf\u00e9 \u20ac</doc>\n"):
    return (decl(enc_label) if enc_label else "") + "\n" + body


def entities():
    """[(file name, bytes)], the names unique and telling."""
    out = []

    def add(name, data):
        out.append((name, data))

    _bom_entities(add)
    _label_entities(add)
    _error_entities(add)
    _policy_and_size_entities(add)
    _random_entities(add)
    return out


def _bom_entities(add):
    """Each BOM, and each pattern of XML 1.0 Appendix F without one."""
    # Every BOM alone, with nothing after it, and before a document in
    # its encoding where Python has the codec.
    for k, bom in BOMS.items():
        add("bom-%s-alone.xml" % k, bom)
        add("bom-%s-ascii-doc.xml" % k, bom + b"<a/>")
        if k in CODECS:
            for label in (None, "UTF-8", "UTF-16", "UTF-32", "ISO-8859-1",
                          "UTF-16LE", "UTF-16BE"):
                t = _text(label)
                add("bom-%s-decl-%s.xml" % (k, label or "none"),
                    bom + t.encode(CODECS[k]))
    # No BOM, the declaration in each pattern of XML 1.0 Appendix F.
    for k, codec in CODECS.items():
        for label in (None, "UTF-16", "UTF-32", k.upper()):
            t = _text(label)
            add("nobom-%s-decl-%s.xml" % (k, label or "none"),
                t.encode(codec))


def _label_entities(add):
    """Single-byte and multi-byte labels, honest and not."""
    text = "<doc>na\u00efve caf\u00e9 \u00fcber r\u00e9sum\u00e9</doc>\n"
    for label, codec in (("ISO-8859-1", "latin-1"),
                         ("windows-1252", "cp1252"),
                         ("ISO-8859-15", "iso8859-15"),
                         ("KOI8-R", None), ("US-ASCII", None),
                         ("Shift_JIS", "shift_jis"),
                         ("EUC-JP", "euc_jp"), ("Big5", None),
                         ("GB18030", "gb18030"), ("x-no-such", None),
                         ("utf8", "utf-8"), ("latin1", "latin-1"),
                         ("IBM037", "cp037")):
        if codec is not None:
            body = (decl(label) + "\n" + text).encode(codec, "replace")
            add("label-%s-honest.xml" % label, body)
        add("label-%s-given-utf8.xml" % label,
            (decl(label) + "\n" + text).encode("utf-8"))
    jp = "<doc>\u65e5\u672c\u8a9e\u306e\u6587\u66f8\u3067\u3059</doc>\n"
    add("label-none-shift-jis-bytes.xml", jp.encode("shift_jis"))
    add("label-utf8-shift-jis-bytes.xml",
        (decl("UTF-8") + jp).encode("shift_jis"))
    add("label-latin1-utf8-bytes.xml",
        (decl("ISO-8859-1") + text).encode("utf-8"))


def _error_entities(add):
    """An entity for each diagnostic code and declaration form."""
    add("illegal-utf8-lone-continuation.xml",
        decl("UTF-8").encode() + b"<a>\x80</a>")
    add("illegal-utf8-overlong.xml", b"<a>\xc0\xaf</a>")
    add("illegal-utf8-surrogate.xml", b"<a>\xed\xa0\x80</a>")
    add("illegal-utf8-truncated-end.xml", b"<a>x</a>\xe2\x82")
    add("illegal-utf8-above-10ffff.xml", b"<a>\xf4\x90\x80\x80</a>")
    add("illegal-utf16le-lone-surrogate.xml",
        b"\xff\xfe" + "<a>".encode("utf-16-le") + b"\x00\xd8" +
        "</a>".encode("utf-16-le"))
    add("illegal-odd-utf16.xml", b"\xfe\xff\x00<\x00a\x00")
    add("illegal-char-c0.xml", b"<a>\x01\x02</a>")
    add("illegal-char-fffe.xml", "<a>\ufffe</a>".encode("utf-8"))
    add("decl-not-at-start.xml", b"\n" + decl("UTF-8").encode() + b"<a/>")
    add("decl-mismatch-utf16-bom-latin1.xml",
        b"\xff\xfe" + (decl("ISO-8859-1") + "<a/>").encode("utf-16-le"))
    add("bad-declaration-no-version.xml", b'<?xml encoding="UTF-8"?><a/>')
    add("bad-declaration-single-quote-mix.xml",
        b"<?xml version='1.0\" encoding='UTF-8'?><a/>")
    add("bad-declaration-unterminated.xml", b'<?xml version="1.0"')
    add("decl-version-1.1.xml", decl("UTF-8", "1.1").encode() + b"<a/>")
    add("decl-standalone-yes.xml",
        decl("UTF-8", standalone="yes").encode() + b"<a/>")
    add("decl-single-quotes.xml", decl("UTF-8", q="'").encode() + b"<a/>")
    add("bom-in-prolog.xml", "<?xml version='1.0'?>\ufeff<a/>".encode())
    add("no-declaration-utf16-nobom.xml", "<a>x</a>".encode("utf-16-le"))
    add("no-declaration-ebcdic.xml", "<a>x</a>".encode("cp037"))
    add("missing-decl-latin1-bytes.xml", "<a>\u00e9</a>".encode("latin-1"))
    add("mojibake-double-utf8.xml",
        "<a>caf\u00e9</a>".encode("utf-8").decode("latin-1").encode())
    add("mojibake-c1.xml", "<a>\u0085\u0096</a>".encode("utf-8"))
    add("not-xml-empty.xml", b"")
    add("not-xml-text.xml", b"hello, world\n")
    add("not-xml-whitespace.xml", b"  \n\t ")
    add("unsupported-encoding.xml", decl("x-martian").encode() + b"<a/>")
    add("unregistered-name.xml", decl("x-mac-roman").encode() + b"<a/>")
    add("utf8-bom-decl.xml", BOMS["utf8"] + decl("UTF-8").encode() + b"<a/>")
    add("external-entity.ent", decl("UTF-8").encode().replace(
        b'version="1.0" ', b"") + b"text &amp; more")
    add("external-dtd.dtd",
        b'<?xml encoding="ISO-8859-1"?>\n<!ELEMENT a (#PCDATA)>\n\xe9')
    add("text-decl-in-doc.xml", b'<?xml encoding="UTF-8"?><a/>')


def _policy_and_size_entities(add):
    """Policy markers, and entities far longer than a read."""
    # The entity's own policy, a comment near its top (xmlsniffrc(5)).
    add("marker-ignore-utf8-bom.xml", BOMS["utf8"] + decl("UTF-8").encode() +
        b"\n<!-- xmlsniff: ignore=utf8-bom -->\n<a/>")
    add("marker-error-mojibake.xml", decl("UTF-8").encode() +
        b"\n<!-- xmlsniff: error=mojibake -->\n<a>caf\xc3\x83\xc2\xa9</a>")
    add("marker-allow-latin1.xml", decl("UTF-8").encode() +
        b"\n<!-- xmlsniff: allow-encoding=ISO-8859-1 -->\n<a/>")
    add("long-ascii-then-bad.xml",
        b"<a>" + b"x" * 70000 + b"\xff" + b"</a>")
    add("long-utf8-valid.xml",
        ("<a>" + "\u00e9\u4e2d\U0001f600" * 30000 + "</a>").encode())


def _random_entities(add):
    """Random bytes after a few telling starts: what no one planned for."""
    rnd = random.Random(2025)
    starts = [b"", b"<", b"\xef\xbb\xbf<", b"\xff\xfe", b"\xfe\xff",
              b"<?xml ", decl("UTF-8").encode(), decl("UTF-16").encode(),
              b"\x00\x00\x00<", b"Lo\xa7\x94"]
    for i in range(40):
        head = starts[i % len(starts)]
        n = rnd.choice((1, 3, 17, 100, 1000, 5000))
        add("random-%02d.xml" % i,
            head + bytes(rnd.getrandbits(8) for _ in range(n)))


def http_responses():
    """(name, bytes) of HTTP responses for http=True."""
    body = decl("ISO-8859-1").encode() + "<a>\u00e9</a>".encode("latin-1")
    return [
        ("http-ok.txt", b"HTTP/1.1 200 OK\r\nContent-Type: text/xml; "
         b"charset=utf-8\r\n\r\n" + body),
        ("http-no-ct.txt", b"HTTP/1.1 200 OK\r\n\r\n" + body),
        ("http-two-ct.txt", b"HTTP/1.1 200 OK\r\nContent-Type: text/xml"
         b"\r\nContent-Type: application/xml\r\n\r\n" + body),
        ("http-malformed.txt", b"not http at all\r\n\r\n" + body),
        ("http-gzip.txt", b"HTTP/1.1 200 OK\r\nContent-Type: "
         b"application/xml\r\nContent-Encoding: gzip\r\n\r\n\x1f\x8b"),
    ]


def pieces(data, seed):
    """data cut at random places (and in empty pieces now and then)."""
    rnd = random.Random(seed)
    i = 0
    out = []
    while i < len(data):
        n = rnd.choice((0, 1, 2, 3, 5, 64, 4096, 65536))
        out.append(data[i:i + n])
        i += n
    out.append(b"")
    return out
