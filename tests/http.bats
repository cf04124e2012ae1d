#!/usr/bin/env bats
# --http (xmlsniff(1), Over HTTP): an input is a response as curl -si or
# curl -s -D - writes it; the last head's Content-Type counts as
# --content-type does, and the body is the entity.  --stdin-name: the name
# standard input has in every output format.
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

HEAD='HTTP/1.1 200 OK\r\nDate: Tue, 24 Nov 2026 02:00:00 GMT\r\n'

# --- the head -----------------------------------------------------------------

@test "--http: curl -si with CRLF; the charset of the Content-Type counts" {
	put r.txt "${HEAD}Content-Type: application/xml; charset=iso-8859-1\r\n\r\n<a>\351</a>"
	xs --http r.txt
	assert_success
	assert_output 'r.txt: ISO-8859-1 (charset), no declaration, charset "iso-8859-1", 1 warning'
	assert_equal "$stderr" 'r.txt:1:1: warning: no encoding declaration: the entity relies on the charset parameter alone, which a saved copy loses (XML 1.0 section 4.3.3: an entity in another encoding than UTF-8 or UTF-16 must declare it); add encoding="ISO-8859-1" to the declaration [missing-decl]'
}

@test "--http: a head with LF alone" {
	put r.txt 'HTTP/1.1 200 OK\nContent-Type: application/xml; charset=utf-8\n\n<a/>'
	xs --http r.txt
	assert_success
	assert_output 'r.txt: UTF-8 (charset), no declaration, charset "utf-8"'
	[ -z "$stderr" ]
}

@test "--http: a 301 then a 200: the last head counts" {
	put r.txt 'HTTP/1.1 301 Moved Permanently\r\nLocation: https://example.org/feed.xml\r\nContent-Type: text/html; charset=iso-8859-1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/xml; charset=utf-8\r\n\r\n<a>\303\251</a>'
	xs --http --json r.txt
	assert_success
	assert_output '{"file":"r.txt","encoding":"UTF-8","source":"charset","bom":null,"declaration":null,"charset":"utf-8","mime":"application/xml; charset=utf-8","http":{"status":200,"content_type":"application/xml; charset=utf-8"},"errors":0,"warnings":0,"diagnostics":[]}'
	[ -z "$stderr" ]
}

@test "--http: 100 Continue, then the 200" {
	put r.txt 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\n\r\n<a/>'
	xs --http r.txt
	assert_success
	assert_output 'r.txt: UTF-8 (charset), no declaration, charset "utf-8"'
	[ -z "$stderr" ]
}

@test "--http: HTTP/2 with lower-case field names" {
	put r.txt 'HTTP/2 200 \r\ncontent-type: application/xml; charset=ISO-8859-1\r\nserver: x\r\n\r\n<?xml version="1.0" encoding="iso-8859-1"?><a>\351</a>'
	xs --http r.txt
	assert_success
	assert_output 'r.txt: ISO-8859-1 (charset), declared "iso-8859-1", charset "ISO-8859-1"'
	[ -z "$stderr" ]
}

@test "--http: a Content-Type folded over two lines (obs-fold)" {
	put r.txt 'HTTP/1.0 200 OK\r\nContent-Type: application/xml;\r\n\tcharset=utf-8\r\n\r\n<a/>'
	xs --http --json r.txt
	assert_success
	assert_output --partial '"http":{"status":200,"content_type":"application/xml; charset=utf-8"}'
}

@test "--http: the charset contradicts the declaration: charset-decl-conflict, as with --content-type" {
	put r.txt "${HEAD}Content-Type: application/xml; charset=iso-8859-1\r\n\r\n<?xml version=\"1.0\" encoding=\"utf-8\"?><a/>"
	xs --http r.txt
	assert_success
	assert_output 'r.txt: ISO-8859-1 (charset), declared "utf-8", charset "iso-8859-1", 1 warning'
	assert_equal "$stderr" 'r.txt:1:31: warning: the charset parameter "iso-8859-1" overrides the declaration "utf-8" (RFC 7303 section 3.2); make them agree [charset-decl-conflict]'
}

@test "--http: text/xml without a charset: RFC 7303 leaves it to the entity" {
	put r.txt "${HEAD}Content-Type: text/xml\r\n\r\n<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\351</a>"
	xs --http -i r.txt
	assert_success
	assert_output 'r.txt: text/xml; charset=iso-8859-1'
	[ -z "$stderr" ]
}

@test "--http: offsets, lines and columns are counted in the body" {
	put r.txt "${HEAD}Content-Type: application/xml; charset=utf-8\r\n\r\n<a>\n\303\251\377</a>"
	xs --http --json r.txt
	assert_success
	assert_output --partial '"code":"illegal-sequence","offset":6,"line":2,"column":2,'
}

@test "--http: Transfer-Encoding: chunked is not looked at (curl has removed the chunks)" {
	put r.txt "${HEAD}Transfer-Encoding: chunked\r\nContent-Type: application/xml\r\n\r\n<a/>"
	xs --http r.txt
	assert_success
	assert_output 'r.txt: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

# --- what is wrong with a head ------------------------------------------------

@test "http-no-content-type: a warning; the entity decides" {
	put r.txt "${HEAD}\r\n<a/>"
	xs --http r.txt
	assert_success
	assert_output 'r.txt: UTF-8 (default), no declaration, 1 warning'
	assert_equal "$stderr" 'r.txt:1:1: warning: the response (status 200) has no Content-Type field (RFC 9110 section 8.3), so nothing outside the entity labels it; serve it as application/xml with a charset [http-no-content-type]'
}

@test "http-content-type: two Content-Type fields; neither is used" {
	put r.txt "${HEAD}Content-Type: application/xml; charset=iso-8859-1\r\ncontent-type: application/xml; charset=utf-8\r\n\r\n<a/>"
	xs --http --json r.txt
	assert_success
	assert_output '{"file":"r.txt","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","http":{"status":200,"content_type":null},"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"http-content-type","offset":0,"line":1,"column":1,"count":1,"message":"the response has 2 Content-Type fields; Content-Type is one value, not a list (RFC 9110 section 5.3), so none of them is used; send one"}]}'
}

@test "http-content-type: a malformed Content-Type is not used" {
	put r.txt "${HEAD}Content-Type: xml; charset=iso-8859-1\r\n\r\n<a/>"
	xs --http r.txt
	assert_success
	assert_output 'r.txt: UTF-8 (default), no declaration, 1 error'
	assert_equal "$stderr" 'r.txt:1:1: error: the Content-Type "xml; charset=iso-8859-1" is malformed (expected type/subtype, as in "application/xml"; RFC 9110 section 8.3), so it is not used; send a media type such as application/xml; charset=utf-8 [http-content-type]'
}

# need_coding NAME: skip unless this build decodes the content coding NAME.
need_coding() {
	"$XMLSNIFF" --help | grep -q "^--http bodies decoded: .*$1" ||
	    skip "built without the library that decodes $1"
}

# The body of the coding tests: ISO-8859-1, declared, with E9.
BODY='<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\351</a>'
DECODED='r.txt: ISO-8859-1 (declaration), declared "ISO-8859-1"'

@test "http-encoded: a gzip body cut short is not examined, nor transcoded" {
	need_coding gzip
	put r.txt "${HEAD}Content-Type: application/xml\r\nContent-Encoding: gzip\r\n\r\n\037\213\010\000\000\000\000\000\000\003"
	xs --http r.txt
	assert_success
	assert_output 'r.txt: unknown (none), no declaration, 1 error'
	assert_equal "$stderr" 'r.txt:1:1: error: the body has the content coding "gzip" (RFC 9110 section 8.4), which does not decode (the gzip stream is cut short at byte 10): its bytes are not the entity and are not examined; fetch it with curl --compressed, which decodes it [http-encoded]'
	xs --http --transcode-to=UTF-8 r.txt
	assert_failure 1
	[ -z "$output" ]
	stderr_has '[http-encoded]'
}

@test "http-encoded: --ignore holds for every input of the run, the body still not examined" {
	need_coding gzip
	put r.txt "${HEAD}Content-Type: application/xml\r\nContent-Encoding: gzip\r\n\r\n\037\213\010\000\000\000\000\000\000\003"
	cp r.txt s.txt
	xs --http --ignore=http-encoded r.txt s.txt
	assert_success
	assert_output "$(printf 'r.txt: unknown (none), no declaration\ns.txt: unknown (none), no declaration')"
	[ -z "$stderr" ]
	xs --http --ignore=http-encoded --json s.txt
	assert_output --partial '"content_encoding":"gzip"},"errors":0,"warnings":0,"diagnostics":[]}'
}

@test "http-encoded: --browser's answer for a body not examined is its own, not the input's before" {
	need_coding gzip
	put a.txt "${HEAD}Content-Type: text/xml; charset=windows-1252\r\n\r\n<a>\351</a>"
	put r.txt "${HEAD}Content-Type: application/xml\r\nContent-Encoding: gzip\r\n\r\n\037\213\010\000\000\000\000\000\000\003"
	xs --http --browser r.txt
	assert_output 'r.txt: unknown (none), no declaration, 1 error; browser: UTF-8'
	xs --http --browser a.txt r.txt
	assert_line --index 1 'r.txt: unknown (none), no declaration, 1 error; browser: UTF-8'
}

@test "--http: a gzip body is decoded and examined; offsets are the decoded body's" {
	need_coding gzip
	put r.txt "${HEAD}Content-Type: text/xml; charset=utf-8\r\nContent-Encoding: gzip\r\n\r\n"
	printf '<a>\n\377</a>' | gzip -c >> r.txt
	xs --http --json r.txt
	assert_output --partial '"http":{"status":200,"content_type":"text/xml; charset=utf-8","content_encoding":"gzip"},"errors":1,'
	assert_output --partial '"code":"illegal-sequence","offset":4,"line":2,"column":1,'
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: x-gzip\r\n\r\n"
	printf "$BODY" | gzip -c >> r.txt
	xs --http r.txt
	assert_success
	assert_output "$DECODED"
	[ -z "$stderr" ]
	xs --http --transcode-to=UTF-8 r.txt
	assert_success
	assert_output "$(printf '<?xml version="1.0" encoding="UTF-8"?><a>caf\303\251</a>')"
}

@test "--http: deflate (zlib, and a bare deflate stream) and br bodies are decoded" {
	need_coding deflate
	need_coding br
	# Python's zlib.compress(BODY), and [2:-4] of it, a bare deflate stream.
	z='\170\234\263\261\257\310\315\121\050\113\055\052\316\314\317\263\125\062\324\063\120\122\110\315\113\316\117\311\314\113\267\125\362\014\366\327\265\260\060\265\324\065\124\262\267\263\111\264\113\116\114\173\151\243\237\150\007\000\324\173\020\264'
	raw='\263\261\257\310\315\121\050\113\055\052\316\314\317\263\125\062\324\063\120\122\110\315\113\316\117\311\314\113\267\125\362\014\366\327\265\260\060\265\324\065\124\262\267\263\111\264\113\116\114\173\151\243\237\150\007\000'
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: deflate\r\n\r\n$z"
	xs --http r.txt
	assert_output "$DECODED"
	[ -z "$stderr" ]
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: deflate\r\n\r\n$raw"
	xs --http r.txt
	assert_output "$DECODED"
	# BrotliEncoderCompress(11, 22, TEXT) of BODY.
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: br\r\n\r\n\033\065\000\220\214\323\005\365\142\132\236\222\214\120\351\311\343\023\326\077\143\146\351\300\041\007\354\337\236\205\022\125\077\103\035\204\324\024\250\204\055\105\146\277\370\254\045\347\135\000"
	xs --http r.txt
	assert_output "$DECODED"
	[ -z "$stderr" ]
}

@test "--http: zlib and libbrotli are loaded when a body first needs them, each alone; a run with none loads neither" {
	[ -z "${XMLSNIFF_WRAP:-}" ] || skip "under XMLSNIFF_WRAP the loader's report is the tool's"
	need_coding gzip
	need_coding br
	put plain.txt "${HEAD}Content-Type: text/xml\r\n\r\n$BODY"
	put gz.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: gzip\r\n\r\n"
	printf "$BODY" | gzip -c >> gz.txt
	put br.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: br\r\n\r\n\033\065\000\220\214\323\005\365\142\132\236\222\214\120\351\311\343\023\326\077\143\146\351\300\041\007\354\337\236\205\022\125\077\103\035\204\324\024\250\204\055\105\146\277\370\254\045\347\135\000"
	# the loader's report of each object it loads (glibc's LD_DEBUG)
	run env LD_DEBUG=files "$XMLSNIFF" --http plain.txt
	assert_success
	[[ "$output" == *"file=libc.so"* ]] ||
	    skip "this C library's loader does not report what it loads"
	[[ "$output" != *libz.so* && "$output" != *libbrotli* ]] ||
	    fail "$output"
	run env LD_DEBUG=files "$XMLSNIFF" --http gz.txt
	assert_success
	[[ "$output" == *"file=libz.so"* && "$output" != *libbrotli* ]] ||
	    fail "$output"
	run env LD_DEBUG=files "$XMLSNIFF" --http br.txt
	assert_success
	[[ "$output" != *libz.so* && "$output" == *"file=libbrotlidec.so"* ]] ||
	    fail "$output"
}

@test "http-encoded: where zlib and libbrotli do not load, a coded body is not examined, saying so, and --help says none decode" {
	need_coding gzip
	need_coding br
	export XMLSNIFF_TEST_CODING=no
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: gzip\r\n\r\n"
	printf "$BODY" | gzip -c >> r.txt
	xs --http r.txt
	assert_success
	assert_output 'r.txt: unknown (none), no declaration, 1 error'
	assert_equal "$stderr" 'r.txt:1:1: error: the body has the content coding "gzip" (RFC 9110 section 8.4), which this xmlsniff cannot decode (zlib did not load): its bytes are not the entity and are not examined; fetch it with curl --compressed, which decodes it [http-encoded]'
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: br\r\n\r\n\033\065\000\220"
	xs --http r.txt
	assert_output 'r.txt: unknown (none), no declaration, 1 error'
	stderr_has 'which this xmlsniff cannot decode (libbrotli did not load): its bytes'
	# a body plain already is still taken as it is
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: gzip\r\n\r\n$BODY"
	xs --http r.txt
	assert_success
	assert_output "$DECODED"
	xs --help
	assert_success
	assert_line -- '--http bodies decoded: none (zlib and libbrotli did not load).'
}

@test "--http: a body already plain under the field (curl --compressed keeps it) is taken as it is" {
	for c in gzip deflate br; do
		put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: $c\r\n\r\n$BODY"
		xs --http r.txt
		assert_success
		assert_output "$DECODED"
		[ -z "$stderr" ]
	done
}

@test "http-encoded: a coding xmlsniff does not decode, and more than one, say how to get the body plain" {
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: compress\r\n\r\n\037\235\220"
	xs --http --json r.txt
	assert_output --partial '"encoding":null,"source":"none",'
	assert_output --partial '"content_encoding":"compress"},"errors":1,'
	assert_output --partial '"message":"the body has the content coding \"compress\" (RFC 9110 section 8.4), which xmlsniff does not decode: its bytes are not the entity and are not examined; fetch it with curl --compressed, which decodes it"'
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: gzip, br\r\n\r\n\037\213\010"
	xs --http r.txt
	assert_output 'r.txt: unknown (none), no declaration, 1 error'
	stderr_has '"gzip" (RFC 9110 section 8.4), one of 2, which xmlsniff does not undo together:'
}

@test "http-encoded: a damaged br body" {
	need_coding br
	put r.txt "${HEAD}Content-Type: text/xml\r\nContent-Encoding: br\r\n\r\n\377\377\377\377"
	xs --http r.txt
	assert_output 'r.txt: unknown (none), no declaration, 1 error'
	stderr_has 'r.txt:1:1: error: the body has the content coding "br" (RFC 9110 section 8.4), which does not decode ('
	stderr_has '[http-encoded]'
}

@test "http-encoded: identity is no coding" {
	put r.txt "${HEAD}Content-Type: application/xml\r\nContent-Encoding: identity\r\n\r\n<a/>"
	xs --http r.txt
	assert_success
	assert_output 'r.txt: UTF-8 (default), no declaration'
	[ -z "$stderr" ]
}

@test "http-malformed: not an HTTP response; the whole input is the entity" {
	put r.txt '<?xml version="1.0" encoding="utf-8"?><a/>'
	xs --http --json r.txt
	assert_success
	assert_output '{"file":"r.txt","encoding":"UTF-8","source":"declaration","bom":null,"declaration":{"kind":"xml","version":"1.0","encoding":"utf-8","standalone":null},"charset":null,"mime":"application/xml; charset=utf-8","http":{"status":null,"content_type":null},"errors":1,"warnings":0,"diagnostics":[{"severity":"error","code":"http-malformed","offset":0,"line":1,"column":1,"count":1,"message":"not an HTTP response: it does not begin with a status line such as \"HTTP/1.1 200 OK\"; the whole input is read as the entity, without a Content-Type"}]}'
}

@test "http-malformed: a head without its empty line" {
	put r.txt "${HEAD}Content-Type: application/xml\r\n"
	xs --http --strict r.txt
	assert_failure 1
	assert_output 'r.txt: UTF-8 (default), no declaration, 1 error, 1 warning'
	# The whole input, read as the entity, begins with "HTTP/": not XML.
	assert_equal "$stderr" "r.txt:1:1: error: the response head never ends: no empty line before the end of the input; the whole input is read as the entity, without a Content-Type [http-malformed]
r.txt:1:1: warning: the first character (after any BOM and white space) is 'H', not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
}

@test "http-malformed: a line that is not a field line" {
	put r.txt "${HEAD}Content-Type application/xml\r\n\r\n<a/>"
	xs --http r.txt
	assert_success
	assert_equal "$stderr" "r.txt:1:1: error: line 3 of the response head is not a field line (name: value); the whole input is read as the entity, without a Content-Type [http-malformed]
r.txt:1:1: warning: the first character (after any BOM and white space) is 'H', not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
}

@test "http-malformed: a head longer than 65536 bytes" {
	{ printf 'HTTP/1.1 200 OK\r\n'
	  rep 700 "X-Pad: $(printf '%0100d' 0)\\r\\n"
	  printf 'Content-Type: application/xml\r\n\r\n<a/>'; } > r.txt
	xs --http r.txt
	assert_success
	assert_equal "$stderr" "r.txt:1:1: error: the response head is longer than 65536 bytes; the whole input is read as the entity, without a Content-Type [http-malformed]
r.txt:1:1: warning: the first character (after any BOM and white space) is 'H', not '<': this is not XML (XML 1.0 [1], [22]) [not-xml]"
}

# --- with the other options ---------------------------------------------------

@test "--http --transcode-to writes the body alone" {
	put r.txt "${HEAD}Content-Type: application/xml; charset=iso-8859-1\r\n\r\n<a>\351</a>"
	xs --http --transcode-to=UTF-8 r.txt
	assert_success
	assert_equal "$(printf '%s' "$output" | od -An -tx1 | tr -d ' \n')" "$(printf '<a>\303\251</a>' | od -An -tx1 | tr -d ' \n')"
}

@test "--http with --content-type is a usage error" {
	xs --http --content-type=text/xml r.txt
	assert_failure 2
	[ -z "$output" ]
	stderr_has 'xmlsniff: --http takes the Content-Type of each response; it excludes --content-type'
}

@test "--http with --fix or --in-place is a usage error" {
	xs --http --fix r.txt
	assert_failure 2
	stderr_has 'xmlsniff: --http excludes --fix and --in-place: the response'"'"'s head would be lost'
	xs --http --transcode-to=UTF-8 --in-place r.txt
	assert_failure 2
	stderr_has 'xmlsniff: --http excludes --fix and --in-place'
}

@test "--http reads standard input as well, each input its own response" {
	put a.txt "${HEAD}Content-Type: application/xml; charset=utf-8\r\n\r\n<a/>"
	printf 'HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=us-ascii\r\n\r\n<a/>' |
	    { run_apart "$XMLSNIFF" --http a.txt -; 
	      assert_success
	      assert_line -n 0 'a.txt: UTF-8 (charset), no declaration, charset "utf-8"'
	      assert_line -n 1 '-: US-ASCII (charset), no declaration, charset "us-ascii", 1 warning'; }
}

# --- --stdin-name ---------------------------------------------------------------

@test "--stdin-name: the text line and the diagnostics" {
	printf '<a>\377</a>' | { xs --stdin-name=feed.xml
	    assert_success
	    assert_output 'feed.xml: UTF-8 (default), no declaration, 1 error'
	    assert_equal "$stderr" 'feed.xml:1:4: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'; }
}

@test "--stdin-name: -i, --mime-encoding and --json" {
	printf '<a/>' | { xs --stdin-name=feed.xml - -i; assert_output 'feed.xml: application/xml; charset=utf-8'; }
	printf '<a/>' | { xs --stdin-name=feed.xml --mime-encoding; assert_output 'feed.xml: utf-8'; }
	printf '<a/>' | { xs --stdin-name=feed.xml --json; assert_output '{"file":"feed.xml","encoding":"UTF-8","source":"default","bom":null,"declaration":null,"charset":null,"mime":"application/xml; charset=utf-8","errors":0,"warnings":0,"diagnostics":[]}'; }
}

@test "--stdin-name: github, gitlab and checkstyle" {
	printf '<a>\377</a>' | { xs --stdin-name='my feed.xml' --format=github
	    assert_output '::error file=my feed.xml,line=1,col=4,title=illegal-sequence::bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it'; }
	printf '<a>\377</a>' | { xs --stdin-name='my feed.xml' --format=gitlab
	    assert_output --partial '"location":{"path":"my feed.xml","lines":{"begin":1}}'; }
	printf '<a>\377</a>' | { xs --stdin-name='my feed.xml' --format=checkstyle
	    assert_line '<file name="my feed.xml">'; }
}

@test "--stdin-name: SARIF gives the name as a URI, not \"standard input\"" {
	printf '<a>\377</a>' | { xs --stdin-name='my feed.xml' --format=sarif
	    assert_output --partial '"artifactLocation":{"uri":"my%20feed.xml","uriBaseId":"SRCROOT"}'
	    refute_output --partial 'standard input'; }
}

@test "--stdin-name: the name's extension gives the role, as a file's would" {
	printf '<!ENTITY x "y">' | { xs --stdin-name=defs.dtd -i
	    assert_output 'defs.dtd: application/xml-dtd; charset=utf-8'; }
}

@test "--stdin-name: with --http, for curl | xmlsniff" {
	printf 'HTTP/2 200\r\ncontent-type: application/atom+xml; charset=utf-8\r\n\r\n<feed/>' |
	    { xs --http --stdin-name=feed.xml --json
	      assert_success
	      assert_output '{"file":"feed.xml","encoding":"UTF-8","source":"charset","bom":null,"declaration":null,"charset":"utf-8","mime":"application/atom+xml; charset=utf-8","http":{"status":200,"content_type":"application/atom+xml; charset=utf-8"},"errors":0,"warnings":0,"diagnostics":[]}'; }
}

@test "--stdin-name: names only standard input, not files" {
	put a.xml '<a/>'
	printf '<a/>' | { xs --stdin-name=feed.xml a.xml -
	    assert_line -n 0 'a.xml: UTF-8 (default), no declaration'
	    assert_line -n 1 'feed.xml: UTF-8 (default), no declaration'; }
}

@test "--stdin-name with an empty name is a usage error" {
	xs --stdin-name= a.xml
	assert_failure 2
	[ -z "$output" ]
	stderr_has 'xmlsniff: --stdin-name needs a name'
}

# --- the documented example, and a body beyond the first read ---------------

@test "--http: examples/http-response.txt gives what README and doc/GUIDE.md show" {
	cd "$TOP"
	xs --http examples/http-response.txt
	assert_success
	assert_output 'examples/http-response.txt: ISO-8859-1 (charset), declared "utf-8", charset "iso-8859-1", 2 warnings'
	assert_equal "$stderr" 'examples/http-response.txt:1:31: warning: the charset parameter "iso-8859-1" overrides the declaration "utf-8" (RFC 7303 section 3.2); make them agree [charset-decl-conflict]
examples/http-response.txt:3:49: warning: labelled ISO-8859-1 but the content is valid UTF-8 (1 multi-byte sequence); it is probably UTF-8: declare encoding="UTF-8" [suspicious-label]'
}

@test "--http: a long head and a body longer than one read: offsets as in the body alone" {
	{ printf '<a>'; head -c 600000 /dev/zero | tr '\0' x; printf '\n\377</a>'; } > body.xml
	{ printf 'HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\n'
	  rep 300 "X-Pad: $(printf '%0100d' 0)\\r\\n"
	  printf '\r\n'; cat body.xml; } > r.txt
	xs --http r.txt
	assert_success
	assert_equal "$stderr" 'r.txt:2:1: error: bytes FF are not valid in UTF-8 (a byte never used in UTF-8); the entity is not in this encoding: declare the encoding it is in, or re-encode it [illegal-sequence]'
	xs --http --json - < r.txt
	assert_output --partial '"offset":600004,"line":2,"column":1,'
}
