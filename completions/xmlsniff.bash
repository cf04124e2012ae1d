# bash completion for xmlsniff(1); needs bash-completion 2.x.
# make install puts it in bash-completion's completionsdir as "xmlsniff",
# where it is loaded the first time xmlsniff is completed.
#
# The options and their fixed values are listed here; tests/completion.bats
# fails when they differ from xmlsniff --help.  The diagnostic codes and the
# encoding names are asked of the xmlsniff being completed
# (--list-codes, --list-encodings), so that they are always its own.

# _xmlsniff_list WORDS: complete the last item of a comma-separated list
# in $cur from WORDS, keeping the items before it.
_xmlsniff_list()
{
	local head=
	[[ $cur == *,* ]] && head=${cur%,*},
	COMPREPLY=($(compgen -P "$head" -W "$1" -- "${cur##*,}"))
	[[ ${#COMPREPLY[@]} -gt 0 ]] && compopt -o nospace
}

_xmlsniff()
{
	local cur prev words cword split
	_init_completion -s || return

	local xs=${words[0]}
	case $prev in
	--format)
		COMPREPLY=($(compgen -W 'text json github sarif gitlab checkstyle' \
		    -- "$cur"))
		return ;;
	--color | --excerpt)
		COMPREPLY=($(compgen -W 'auto always never' -- "$cur"))
		return ;;
	--fallback)
		COMPREPLY=($(compgen -W 'error ncr' -- "$cur"))
		return ;;
	--byte-order)
		COMPREPLY=($(compgen -W 'be le' -- "$cur"))
		return ;;
	--explain)
		COMPREPLY=($(compgen -W "$("$xs" --list-codes 2>/dev/null |
		    awk '{ print $1 }')" -- "$cur"))
		return ;;
	--error | --ignore)
		_xmlsniff_list "all $("$xs" --list-codes 2>/dev/null |
		    awk '{ print $1 }')"
		return ;;
	--allow-encoding)
		_xmlsniff_list "$("$xs" --list-encodings 2>/dev/null)"
		__ltrim_colon_completions "$cur"	# ISO_5427:1981
		return ;;
	--transcode-to | --encoding | --default-encoding)
		COMPREPLY=($(compgen -W "$("$xs" --list-encodings 2>/dev/null)" \
		    -- "$cur"))
		__ltrim_colon_completions "$cur"
		return ;;
	--config | --files0-from | --output | -o)
		_filedir
		return ;;
	--content-type | --include | --exclude | --stdin-name | --max-errors | \
	    --jobs | -j)
		return ;;
	esac
	$split && return

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '--content-type= --strict --transcode-to=
		    --output= --in-place --fallback= --utf8-bom --byte-order=
		    --brief --mime --mime-encoding --json --format= --list-codes
		    --list-encodings --explain= --files0-from= --recursive
		    --quiet --verbose --help --version --include= --exclude= --no-ignore
		    --list-files --print0 --config= --no-config --allow-encoding=
		    --error= --ignore= --fix --dry-run --http --stdin-name=
		    --browser --excerpt= --color= --all --max-errors= --encoding=
		    --default-encoding= --jobs= --mmap -0 -b -h -i -j -o -q -r -v' \
		    -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return
	fi
	_filedir
} &&
	complete -F _xmlsniff xmlsniff
