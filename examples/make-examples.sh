#!/bin/sh
# Regenerate the example entities in this directory, byte for byte.
# Needs only printf(1) and iconv(1).  Each file is a small catalogue in a
# different encoding or labelling; see the README for what xmlsniff says
# about each of them.
set -eu
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")"

# utf8.xml: UTF-8 without a BOM or a declaration (XML's default).
printf '%s\n' \
    '<catalogue lang="fr">' \
    '  <book id="b1"><title>Les Misérables</title><author>Victor Hugo</author></book>' \
    '  <book id="b2"><title>À la recherche du temps perdu</title><author>Marcel Proust</author></book>' \
    '  <price currency="EUR">12,50 €</price>' \
    '</catalogue>' > utf8.xml

# utf8-bom.xml: UTF-8 with a BOM (EF BB BF), which RFC 7303 advises against.
{
	printf '\357\273\277'
	printf '%s\n' \
	    '<?xml version="1.0" encoding="UTF-8"?>' \
	    '<catalogue lang="de">' \
	    '  <book id="b3"><title>Der Zauberberg</title><author>Thomas Mann</author></book>' \
	    '  <book id="b4"><title>Die Blechtrommel</title><author>Günter Grass</author></book>' \
	    '</catalogue>'
} > utf8-bom.xml

# utf16le-bom.xml: UTF-16LE with a BOM (FF FE), declared "UTF-16".
{
	printf '\377\376'
	printf '%s\n' \
	    '<?xml version="1.0" encoding="UTF-16"?>' \
	    '<catalogue lang="el">' \
	    '  <book id="b5"><title>Ὀδύσσεια</title><author>Ὅμηρος</author></book>' \
	    '</catalogue>' | iconv -f UTF-8 -t UTF-16LE
} > utf16le-bom.xml

# utf16be-decl.xml: UTF-16BE without a BOM, declared "UTF-16BE" (RFC 7303
# section 3.3: a byte-order label, so no BOM).
printf '%s\n' \
    '<?xml version="1.0" encoding="UTF-16BE"?>' \
    '<catalogue lang="ru">' \
    '  <book id="b6"><title>Война и мир</title><author>Лев Толстой</author></book>' \
    '</catalogue>' | iconv -f UTF-8 -t UTF-16BE > utf16be-decl.xml

# latin1.xml: ISO-8859-1 with a declaration.
printf '%s\n' \
    '<?xml version="1.0" encoding="ISO-8859-1"?>' \
    '<catalogue lang="es">' \
    '  <book id="b7"><title>Cien años de soledad</title><author>Gabriel García Márquez</author></book>' \
    '  <price currency="EUR">9,95</price>' \
    '</catalogue>' | iconv -f UTF-8 -t ISO-8859-1 > latin1.xml

# shift_jis.xml: Shift_JIS with a declaration.
printf '%s\n' \
    '<?xml version="1.0" encoding="Shift_JIS"?>' \
    '<catalogue lang="ja">' \
    '  <book id="b8"><title>吾輩は猫である</title><author>夏目漱石</author></book>' \
    '  <book id="b9"><title>羅生門</title><author>芥川龍之介</author></book>' \
    '</catalogue>' | iconv -f UTF-8 -t SHIFT_JIS > shift_jis.xml

# ebcdic.xml: EBCDIC code page 037 with a declaration (XML 1.0 Appendix F:
# "<?xm" is 4C 6F A7 94).
printf '%s\n' \
    '<?xml version="1.0" encoding="IBM037"?>' \
    '<catalogue lang="en">' \
    '  <book id="b10"><title>Moby-Dick</title><author>Herman Melville</author></book>' \
    '  <price currency="USD">15.00</price>' \
    '</catalogue>' | iconv -f UTF-8 -t IBM037 > ebcdic.xml

# mislabelled.xml: UTF-8 bytes declared "ISO-8859-1", the commonest
# labelling mistake: every parser that trusts the label reads "Ã©" for "é".
printf '%s\n' \
    '<?xml version="1.0" encoding="ISO-8859-1"?>' \
    '<catalogue lang="fr">' \
    '  <book id="b11"><title>Thérèse Raquin</title><author>Zola</author></book>' \
    '  <book id="b12"><title>Le Petit Prince</title><author>Antoine de Saint-Exupéry</author></book>' \
    '</catalogue>' > mislabelled.xml

# http-response.txt: a response as curl -si -L saves it (xmlsniff --http):
# a redirect, then the 200, whose charset parameter contradicts the UTF-8
# body and its declaration.
{
	printf 'HTTP/1.1 301 Moved Permanently\r\n'
	printf 'Location: https://example.org/feed.xml\r\n'
	printf 'Content-Length: 0\r\n\r\n'
	printf 'HTTP/2 200 \r\n'
	printf 'content-type: application/xml; charset=iso-8859-1\r\n'
	printf 'content-length: 150\r\n\r\n'
	printf '%s\n' \
	    '<?xml version="1.0" encoding="utf-8"?>' \
	    '<catalogue lang="fr">' \
	    '  <book id="b13"><title>Germinal</title><author>Émile Zola</author></book>' \
	    '</catalogue>'
} > http-response.txt
