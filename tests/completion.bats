#!/usr/bin/env bats
# Shell completions (completions/): make install puts them where bash,
# zsh and fish look; each shell completes options, their values,
# diagnostic codes, encodings and files; the options they know are those
# of xmlsniff --help and the manual page, so that they cannot drift.
# The slow tier: a test of the project around the program (doc/TESTING.md).
# bats file_tags=slow
load helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p home
	# xmlsniff on the PATH, as the completions call it by its name.
	mkdir bin
	ln -s "$XMLSNIFF" bin/xmlsniff
	PATH="$BATS_TEST_TMPDIR/bin:$PATH"
}

# install_to ROOT: make install with DESTDIR=ROOT, PREFIX=/usr/local.
install_to() {
	make -s --no-print-directory -C "$TOP" install DESTDIR="$1" \
	    PREFIX=/usr/local > /dev/null 2>&1
}

# bash_complete LINE: the completions bash offers at the end of LINE,
# one a line, with bash-completion loading the installed script from
# where it looks (XDG_DATA_DIRS) as it does in a shell.
bash_complete() {
	local share="$BATS_TEST_TMPDIR/root/usr/local/share"
	[ -f /usr/share/bash-completion/bash_completion ] ||
	    skip "bash-completion is not installed"
	[ -d "$share" ] || install_to "$BATS_TEST_TMPDIR/root" || return
	XDG_DATA_DIRS="$share" BASH_COMPLETION_USER_DIR=/nonexistent \
	    run bash --norc --noprofile -c '
source /usr/share/bash-completion/bash_completion
compopt() { :; }	# there is no readline to tell
_completion_loader xmlsniff
COMP_LINE=$1 COMP_POINT=${#1}
read -ra COMP_WORDS <<< "$1"
[[ $1 == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
$(complete -p xmlsniff | sed "s/.*-F \([^ ]*\) .*/\1/") xmlsniff \
    "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf "%s\n" "${COMPREPLY[@]}"' bash "$1"
}

# The long options of a list of words, sorted and unique.
longopts() {
	grep -o -e '--[a-z0-9][a-z0-9-]*' | sed 's/^--//' | sort -u
}

@test "make install puts the completions where each shell looks, make uninstall removes them" {
	install_to "$BATS_TEST_TMPDIR/root"
	local s="$BATS_TEST_TMPDIR/root/usr/local/share"
	[ -f "$s/bash-completion/completions/xmlsniff" ]
	[ -f "$s/zsh/site-functions/_xmlsniff" ]
	[ -f "$s/fish/vendor_completions.d/xmlsniff.fish" ]
	# Where zsh looks by default for that prefix.
	if command -v zsh > /dev/null; then
		run zsh -fc 'print -l $fpath'
		assert_line /usr/local/share/zsh/site-functions
	fi
	# BASHCOMPDIR and the others name other places.
	make -s --no-print-directory -C "$TOP" install DESTDIR="$BATS_TEST_TMPDIR/r2" \
	    PREFIX=/usr BASHCOMPDIR=/etc/bash_completion.d > /dev/null 2>&1
	[ -f "$BATS_TEST_TMPDIR/r2/etc/bash_completion.d/xmlsniff" ]
	run make -s --no-print-directory -C "$TOP" uninstall \
	    DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr/local
	assert_success
	run find "$BATS_TEST_TMPDIR/root" -type f
	assert_output ""
}

@test "bash: options, and --format, --color and --excerpt values" {
	bash_complete 'xmlsniff --form'
	assert_success
	assert_output '--format='
	bash_complete 'xmlsniff --format=gi'
	assert_output 'github
gitlab'
	bash_complete 'xmlsniff --format '
	assert_output 'text
json
github
sarif
gitlab
checkstyle'
	bash_complete 'xmlsniff --excerpt=a'
	assert_output 'auto
always'
	bash_complete 'xmlsniff --color='
	assert_output 'auto
always
never'
}

@test "bash: diagnostic codes, one or the last of a list, and encodings" {
	bash_complete 'xmlsniff --explain=bom-c'
	assert_output 'bom-charset-conflict'
	bash_complete 'xmlsniff --ignore=utf8-bom,mo'
	assert_output 'utf8-bom,mojibake'
	bash_complete 'xmlsniff --error=a'
	assert_output 'all'
	bash_complete 'xmlsniff --transcode-to=windows-125'
	assert_equal "$(printf '%s\n' "${lines[@]}" | wc -l)" 9
	assert_line windows-1252
	bash_complete 'xmlsniff --allow-encoding=UTF-8,ISO-8859-1'
	assert_line 'UTF-8,ISO-8859-15'
	refute_line --partial 'UTF-8,UTF'
}

@test "bash: files, after options and after --config" {
	mkdir d
	: > d/a.xml
	: > d/b.svg
	bash_complete 'xmlsniff -r d/'
	run sort <<< "$output"
	assert_output 'd/a.xml
d/b.svg'
	bash_complete 'xmlsniff --config=d/b'
	assert_output 'd/b.svg'
}

@test "zsh and fish: the scripts parse" {
	command -v zsh > /dev/null || skip "zsh is not installed"
	command -v fish > /dev/null || skip "fish is not installed"
	run zsh -n "$TOP/completions/_xmlsniff"
	assert_success
	run fish -n "$TOP/completions/xmlsniff.fish"
	assert_success
}

@test "fish: loaded from vendor_completions.d, it completes values, codes and encodings" {
	command -v fish > /dev/null || skip "fish is not installed"
	install_to "$BATS_TEST_TMPDIR/root"
	# Not -N: fish's own configuration makes its completion path.
	XDG_DATA_DIRS="$BATS_TEST_TMPDIR/root/usr/local/share" run fish -c '
complete -C "xmlsniff --format=gi"
complete -C "xmlsniff --ignore=utf8-bom,moj"
complete -C "xmlsniff --transcode-to=windows-1252"'
	assert_success
	assert_output "--format=github	The report format
--format=gitlab	The report format
--ignore=utf8-bom,mojibake	warning: text encoded twice, or C1 controls
--transcode-to=windows-1252	Write the entity re-encoded"
}

@test "zsh: loaded from site-functions, it completes values and codes" {
	command -v zsh > /dev/null || skip "zsh is not installed"
	zsh -fc 'zmodload zsh/zpty' 2> /dev/null || skip "zsh has no zpty"
	install_to "$BATS_TEST_TMPDIR/root"
	# An interactive zsh on a pseudo-terminal: a tab after each line,
	# then what the line became.
	cat > t.zsh <<'EOF'
zmodload zsh/zpty
setopt extendedglob
zpty z zsh -f -i
zpty -w z "PROMPT='> '; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; print ready"
drain() { local l; out=; sleep 0.7; while zpty -r -t z l; do out+=$l; done; }
# compinit is done when "ready" is printed.
zpty -r -m z l '*ready*'
drain
# The first completion loads _xmlsniff: let it, and wipe the line.
zpty -w -n z $'xmlsniff --vers\t'
sleep 1
drain
zpty -w -n z $'\C-u'
drain
for line in 'xmlsniff --format=s' 'xmlsniff --explain=utf8' 'xmlsniff --col'; do
	zpty -w -n z "$line"$'\t'
	drain
	print -r -- "${${out//$'\e'\[[0-9;?]#[a-zA-Z]/}//[$'\r\b']/}" | tail -n 1
	zpty -w -n z $'\C-u'
	drain
done
zpty -d z
EOF
	run timeout 30 zsh -f t.zsh "$BATS_TEST_TMPDIR/root/usr/local/share/zsh/site-functions"
	assert_success
	assert_line --regexp 'xmlsniff --format=sarif *$'
	assert_line --regexp 'xmlsniff --explain=utf8-bom *$'
	assert_line --regexp 'xmlsniff --color= *$'
}

@test "the completions know exactly the options of --help and the manual page" {
	"$XMLSNIFF" --help | grep -E '^ +-' | longopts > help
	[ "$(wc -l < help)" -ge 40 ]
	grep '^\.It Fl' "$TOP/man/xmlsniff.1" | grep -o 'Fl -[a-z0-9-]*' |
	    sed 's/^Fl /-/' | longopts > man
	run diff help man
	assert_success
	# bash: the words offered for "-"; zsh: the specs; fish: -l NAME.
	sed -n '/compgen -W .--content-type/,/-- "\$cur"/p' \
	    "$TOP/completions/xmlsniff.bash" | longopts > bash
	run diff help bash
	assert_success
	grep -o -e "'--[a-z0-9-]*" -e "[{,*]--[a-z0-9-]*" -e ")--[a-z0-9-]*" \
	    -e '"--[a-z0-9-]*' "$TOP/completions/_xmlsniff" |
	    sed 's/^[^-]*//' | longopts > zsh
	run diff help zsh
	assert_success
	sed -n 's/^complete -c xmlsniff .*-l \([a-z0-9-]*\).*/--\1/p' \
	    "$TOP/completions/xmlsniff.fish" | longopts > fish
	run diff help fish
	assert_success
}

@test "the completions' fixed values are what xmlsniff takes" {
	for f in text json github sarif gitlab checkstyle; do
		grep -q "'text json github sarif gitlab checkstyle'" \
		    "$TOP/completions/xmlsniff.bash"
		"$XMLSNIFF" --format=$f --list-codes > /dev/null ||
		    fail "--format=$f is refused"
	done
	"$XMLSNIFF" --help | tr -s ' \n' ' ' | grep -q \
	    'text (default), json, github (workflow commands), sarif (SARIF 2.1.0), gitlab (Code Quality) or checkstyle (XML)'
	for w in auto always never; do
		"$XMLSNIFF" --color=$w --excerpt=$w --list-codes > /dev/null ||
		    fail "--color=$w is refused"
	done
	run "$XMLSNIFF" --format=xml --list-codes
	assert_failure 2
}

@test "--list-encodings: registered names that --transcode-to takes, and no inputs" {
	xs --list-encodings
	assert_success
	assert_line UTF-8
	assert_line UTF-16LE
	assert_line ISO-8859-1
	assert_line windows-1252
	[ "${#lines[@]}" -ge 20 ]
	first=${lines[0]} last=${lines[${#lines[@]} - 1]}
	printf '<a/>' > a.xml
	xs --transcode-to="$last" a.xml
	assert_success
	xs --allow-encoding="$first,$last" a.xml
	assert_success
	xs --list-encodings a.xml
	assert_failure 2
	assert_output ""
	stderr_has 'xmlsniff: --list-codes, --list-encodings and --explain read no inputs'
}
