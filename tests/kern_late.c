/*
 * Kernel equivalence of the search for late declarations (late.c and the
 * late_find kernels): markup-heavy text, whose comments, CDATA sections
 * and processing instructions the fast levels take whole (late.c,
 * skip_whole) and level ref a character at a time, the bytes arriving up
 * to every offset of its trickiest part, in UTF-8 and in an 8-bit
 * encoding; every level as the reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmlsniff.h"
#include "unit.h"
#include "kern_fast.h"

/* Markup that ends where the lexer says, not where it looks to: empty and
 * odd comments, "]]]>", PIs with a '?' first, targets that begin "xml"
 * and are none, and "<?xml" inside each, which is text there. */
static const char *const tricky[] = {
	"<!---->", "<!-- a --->", "<!-->x-->", "<!--->y-->",
	"<![CDATA[a]]]>", "<![CDATA[]]>", "<![CDAT <x/>", "<?\?>", "<?xm?>",
	"<?xml-stylesheet href='s.css'?>", "<?pi <?xml version='1.0'?> ?>",
	"<!-- <?xml version=\"1.0\"?> -->",
	"<![CDATA[<?xml version=\"1.0\"?>]]>", "<!DOCTYPE d [<!-- ] -->]>",
	"<?p ?? >?>", "<!--> <?xml version=\"1.0\"?> -->",
	"<!---> <?xml version=\"1.0\"?> -->",
	"<![CDATA[]]]] ]> <?xml version=\"1.0\"?>]]>",
	"<?p ? > <?xml version=\"1.0\"?>", "<?xmlx <?xml version='1.0'?>"
};

/* A line of markup-heavy text in UTF-8 (k picks its parts). */
static void
markup_line(struct buf *b, unsigned k)
{
	bfmt(b, "<p id=\"i%u\" class=\"c\">w\303\251rd <b>\305\241</b>", k);
	switch (k % 5) {
	case 0:
		bfmt(b, "<!-- note %u -->", k);
		break;
	case 1:
		bstr(b, "<![CDATA[a < b && c]]>");
		break;
	case 2:
		bfmt(b, "<?pi %u?>", k);
		break;
	case 3:
		bstr(b, tricky[k / 5 % NELEM(tricky)]);
		break;
	default:
		bstr(b, "<i/>&amp;&#x17D;");
		break;
	}
	bstr(b, " \305\276\303\241k</p>\n");
}

/*
 * The text with a late declaration after it (or none), in UTF-8 and as
 * ISO-8859-2, with the bytes cut at every offset of a stretch holding
 * every tricky piece: the same answer at every level as the reference's,
 * the declaration found exactly when it is there.
 */
static void
late_markup(void)
{
	static const char *const encs[] = { "UTF-8", "ISO-8859-2" };
	struct buf t = { NULL, 0, 0 }, b = { NULL, 0, 0 }, r = { NULL, 0, 0 };
	size_t e, at, from, to, cut;
	unsigned k;
	int late;

	for (e = 0; e < NELEM(encs); e++)
		for (late = 0; late < 2; late++) {
			t.n = b.n = 0;
			bfmt(&t, "<?xml version=\"1.0\" encoding=\"%s\"?>\n<d>\n",
			    encs[e]);
			for (k = 0; k < 40; k++)
				markup_line(&t, k);
			from = t.n;
			for (k = 0; k < NELEM(tricky); k++)
				bfmt(&t, "%s<q>%u</q>", tricky[k], k);
			to = t.n;
			for (k = 40; k < 80; k++)
				markup_line(&t, k);
			if (late)
				bstr(&t, "<?xml version=\"1.0\"?>");
			bstr(&t, "</d>\n");
			if (e == 0)
				bput(&b, t.p, t.n);
			else if (brecode(&b, encs[e], t.p, t.n) < 0) {
				printf("unit: %s: not in this iconv, not swept\n",
				    encs[e]);
				continue;
			}
			for (at = from; at <= to; at++) {
				cut = at;
				k_same("markup-heavy text", b.p, b.n, NULL, &cut,
				    1, &r);
				if (!CHECK(has(&r, "decl-not-at-start@") == late))
					printf("  (%s, cut at %zu)\n", encs[e], at);
			}
		}
	bfree(&t);
	bfree(&b);
	bfree(&r);
}

void
kern_late(void)
{
	late_markup();
}
