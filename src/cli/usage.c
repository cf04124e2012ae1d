/*
 * The command line's usage line and --help (xmlsniff(1), SYNOPSIS).
 */
#include <stdio.h>

#include <xmlsniff.h>

#include "usage.h"

void
usage(FILE *f)
{
	fputs("usage: xmlsniff [-bhiqrv] [--content-type=VALUE] [--strict] "
	    "[--json]\n"
	    "                [--encoding=ENC] [--default-encoding=ENC]\n"
	    "                [--mime-encoding] [--files0-from=F] "
	    "[--format=FMT]\n"
	    "                [--include=GLOB] [--exclude=GLOB] [--no-ignore]\n"
	    "                [--list-files [-0]] [--config=FILE | "
	    "--no-config]\n"
	    "                [--transcode-to=ENC [-o FILE | --in-place]\n"
	    "                [--fallback=error|ncr] [--utf8-bom] "
	    "[--byte-order=be|le]]\n"
	    "                [--fix [--dry-run]] [--allow-encoding=LIST]\n"
	    "                [--error=CODES] [--ignore=CODES] [--http]\n"
	    "                [--stdin-name=NAME] [--browser] [--excerpt=WHEN]\n"
	    "                [--color=WHEN] [--all] [--max-errors=N] [-j N] "
	    "[--mmap]\n"
	    "                [FILE ...]\n"
	    "       xmlsniff --list-codes | --list-encodings | --explain=CODE\n",
	    f);
}

/* --help: what comes before --error. */
static void
help_first(void)
{
	usage(stdout);
	fputs("\n"
	    "Tell which encoding each XML entity is in, where that answer\n"
	    "comes from (BOM, charset, declaration, default), whether the\n"
	    "labels agree and whether every byte is legal.\n"
	    "No FILE, or FILE -, reads standard input (no FILE at a terminal\n"
	    "is a usage error); -r with no FILE checks the current directory.\n\n"
	    "  --content-type=VALUE  the external Content-Type; its charset\n"
	    "                        takes part in the determination\n"
	    "      --encoding=ENC    the same as --content-type with charset=ENC\n"
	    "      --default-encoding=ENC  the encoding of inputs that have no\n"
	    "                        BOM, charset or declaration (not UTF-8)\n"
	    "  --strict              exit 1 when any input has an error\n"
	    "  -b, --brief           no file name before each line\n"
	    "  -i, --mime            print the Content-Type to serve it with\n"
	    "      --mime-encoding   print only the charset label\n"
	    "      --json            one JSON object per input (JSON Lines)\n"
	    "      --format=FMT      text (default), json, github (workflow\n"
	    "                        commands), sarif (SARIF 2.1.0), gitlab\n"
	    "                        (Code Quality) or checkstyle (XML); these\n"
	    "                        four name files from the repository root\n"
	    "      --browser         also the encoding a web browser would read\n"
	    "                        it in (WHATWG), and browser-differs\n"
	    "      --list-codes      list the diagnostic codes\n"
	    "      --list-encodings  list the encoding names iconv knows here\n"
	    "      --explain=CODE    what a code means, and the fix\n"
	    "      --files0-from=F   read NUL-separated names from F (- = stdin)\n"
	    "  -r, --recursive       descend into directories (no symlinks)\n"
	    "      --include=GLOB    -r checks the files GLOB matches instead\n"
	    "                        of the XML extensions (repeatable)\n"
	    "      --exclude=GLOB    -r passes over what GLOB matches\n"
	    "      --no-ignore       -r checks files git ignores as well\n"
	    "  -j, --jobs=N          analyse the inputs in N processes at\n"
	    "                        once (default: one a processor online\n"
	    "                        when there are several inputs)\n"
	    "      --mmap            map big regular files instead of reading\n"
	    "                        them, and search each ahead on a second\n"
	    "                        thread (faster where page faults are cheap)\n"
	    "      --list-files      print the names of the files that\n"
	    "                        would be checked, and nothing else\n"
	    "  -0, --print0          --list-files ends each name with a NUL\n"
	    "      --config=FILE     read options from FILE, not .xmlsniffrc\n"
	    "      --no-config       read no configuration file\n"
	    "  -q, --quiet           no per-input line; diagnostics only\n"
	    "  -v, --verbose         say which files -r passes over as not XML\n"
	    "      --transcode-to=ENC  write the entity re-encoded in ENC with\n"
	    "                        the BOM and declaration RFC 7303 requires\n"
	    "  -o, --output=FILE     where the transcoded entity goes\n"
	    "      --in-place        transcode each FILE into itself\n"
	    "      --fallback=MODE   error (default), or ncr: &#xHHHH; for\n"
	    "                        characters the target cannot represent\n"
	    "      --utf8-bom        write a BOM when transcoding to UTF-8\n"
	    "      --byte-order=be|le  byte order of a UTF-16/UTF-32 target\n"
	    "                        that carries a BOM (default be)\n"
	    "      --allow-encoding=LIST  the encodings inputs may be in\n"
	    "                        (comma-separated; else encoding-not-allowed)\n"
	    , stdout);
}

/* --help: the usage line and what each option does. */
void
help(void)
{
	help_first();
	fputs("      --error=CODES     report these codes (or all) as errors\n"
	    "      --ignore=CODES    do not report or count these codes\n"
	    "      --all             list every occurrence of each code, not\n"
	    "                        only the first (up to 1000 an input)\n"
	    "      --max-errors=N    with --all (which it implies): list up\n"
	    "                        to N occurrences an input (1-100000)\n"
	    "      --fix             repair each FILE in place: BOM, declaration,\n"
	    "                        or the first --allow-encoding; exit 1 when\n"
	    "                        a file was changed or could not be fixed\n"
	    "      --dry-run         with --fix: say what would change, write\n"
	    "                        nothing\n"
	    "      --http            each input is an HTTP response (curl -si):\n"
	    "                        its Content-Type counts, its body is the\n"
	    "                        entity\n"
	    "      --stdin-name=NAME  the name of standard input in every\n"
	    "                        output format\n"
	    "      --excerpt=WHEN    auto (default: when standard error is a\n"
	    "                        terminal), always or never: show the line,\n"
	    "                        a caret and the bytes under each diagnostic\n"
	    "      --color=WHEN      auto (default: a terminal, and NO_COLOR\n"
	    "                        unset or empty), always or never: colour\n"
	    "                        the diagnostics\n"
	    "  -h, --help            this help\n"
	    "      --version         the version\n\n"
	    "An option nested under another in the usage line (-o under\n"
	    "--transcode-to, -0 under --list-files, ...) is a usage error\n"
	    "without it, whatever its value.\n\n"
	    "Examples:\n"
	    "  xmlsniff doc.xml              the encoding of doc.xml, and why\n"
	    "  xmlsniff -r --strict          check the XML files below ., exit 1\n"
	    "                                on an error\n"
	    "  xmlsniff -r --format=github --allow-encoding=UTF-8 src\n"
	    "  xmlsniff --fix --allow-encoding=UTF-8 a.xml b.xml\n"
	    "  xmlsniff --transcode-to=UTF-8 -o out.xml in.xml\n"
	    "  xmlsniff --explain=decl-mismatch\n\n"
	    "Exit status: 0 all inputs analysed; 1 --strict and an error was\n"
	    "found, or a transcode could not be done faithfully; 2 usage\n"
	    "error, unreadable input or unwritable output.\n", stdout);
	fputs("A file's own --ignore, --error and --allow-encoding: sections\n"
	    "[GLOB] of .xmlsniffrc, and a comment <!-- xmlsniff: ... -->\n"
	    "after its XML declaration; the command line wins over both.\n",
	    stdout);
	printf("Guesses of the real encoding: %s.\n", xmlsniff_about("guess"));
	printf("--http bodies decoded: %s.\n", xmlsniff_about("http-codings"));
	fputs("See xmlsniff(1).\n", stdout);
}
