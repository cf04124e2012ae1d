# fish completion for xmlsniff(1).  make install puts it in fish's
# vendor_completions.d.
#
# The options and their fixed values are listed here; tests/completion.bats
# fails when they differ from xmlsniff --help.  The diagnostic codes and the
# encoding names are asked of the xmlsniff being completed (--list-codes,
# --list-encodings), so that they are always its own.

function __xmlsniff_codes
    set -l xs (commandline -opc)[1]
    $xs --list-codes 2>/dev/null | string replace -r '^(\S+)\s+(\S+)\s+(.*)$' '$1\t$2: $3'
end

# The last item of a comma-separated list: the items before it kept.
function __xmlsniff_list
    set -l tok (commandline -ct | string replace -r '^--[a-z-]+=' '')
    set -l head (string match -r '^.*,' -- $tok)
    for w in $argv
        printf '%s%s\n' "$head" "$w"
    end
end

function __xmlsniff_encodings
    set -l xs (commandline -opc)[1]
    $xs --list-encodings 2>/dev/null
end

complete -c xmlsniff -F
complete -c xmlsniff -l content-type -x -d 'The external Content-Type'
complete -c xmlsniff -l encoding -x -a '(__xmlsniff_encodings)' -d 'The charset of the external Content-Type'
complete -c xmlsniff -l default-encoding -x -a '(__xmlsniff_encodings)' -d 'The encoding of unlabelled inputs'
complete -c xmlsniff -l strict -d 'Exit 1 when any input has an error'
complete -c xmlsniff -s b -l brief -d 'No file name before each line'
complete -c xmlsniff -s i -l mime -d 'Print the Content-Type to serve it with'
complete -c xmlsniff -l mime-encoding -d 'Print only the charset label'
complete -c xmlsniff -l json -d 'One JSON object per input'
complete -c xmlsniff -l format -x -a 'text json github sarif gitlab checkstyle' -d 'The report format'
complete -c xmlsniff -l browser -d 'Also the encoding a web browser would read'
complete -c xmlsniff -l list-codes -d 'List the diagnostic codes'
complete -c xmlsniff -l list-encodings -d 'List the encoding names iconv knows here'
complete -c xmlsniff -l explain -x -a '(__xmlsniff_codes)' -d 'What a code means, and the fix'
complete -c xmlsniff -l files0-from -r -F -d 'Read NUL-separated names from a file'
complete -c xmlsniff -s r -l recursive -d 'Descend into directories'
complete -c xmlsniff -l include -x -d 'Check the files a glob matches'
complete -c xmlsniff -l exclude -x -d 'Pass over what a glob matches'
complete -c xmlsniff -l no-ignore -d 'Check files git ignores as well'
complete -c xmlsniff -s j -l jobs -x -d 'Analyse in N processes at once'
complete -c xmlsniff -l mmap -d 'Map big files and search them ahead on a second thread'
complete -c xmlsniff -l list-files -d 'Print the names of the files that would be checked'
complete -c xmlsniff -s 0 -l print0 -d 'End each name of --list-files with a NUL'
complete -c xmlsniff -l config -r -F -d 'Read options from a file'
complete -c xmlsniff -l no-config -d 'Read no configuration file'
complete -c xmlsniff -s q -l quiet -d 'No per-input line'
complete -c xmlsniff -s v -l verbose -d 'Say which files -r passes over as not XML'
complete -c xmlsniff -l transcode-to -x -a '(__xmlsniff_encodings)' -d 'Write the entity re-encoded'
complete -c xmlsniff -s o -l output -r -F -d 'Where the transcoded entity goes'
complete -c xmlsniff -l in-place -d 'Transcode each file into itself'
complete -c xmlsniff -l fallback -x -a 'error ncr' -d 'Unrepresentable characters'
complete -c xmlsniff -l utf8-bom -d 'Write a BOM when transcoding to UTF-8'
complete -c xmlsniff -l byte-order -x -a 'be le' -d 'Byte order of a UTF-16/UTF-32 target'
complete -c xmlsniff -l allow-encoding -x -a '(__xmlsniff_list (__xmlsniff_encodings))' -d 'The encodings inputs may be in'
complete -c xmlsniff -l error -x -a '(__xmlsniff_list all (__xmlsniff_codes))' -d 'Report these codes as errors'
complete -c xmlsniff -l ignore -x -a '(__xmlsniff_list all (__xmlsniff_codes))' -d 'Do not report or count these codes'
complete -c xmlsniff -l all -d 'List every occurrence of each code'
complete -c xmlsniff -l max-errors -x -d 'List up to N occurrences an input'
complete -c xmlsniff -l fix -d 'Repair each file in place'
complete -c xmlsniff -l dry-run -d 'With --fix: say what would change'
complete -c xmlsniff -l http -d 'Each input is an HTTP response'
complete -c xmlsniff -l stdin-name -x -d 'The name of standard input'
complete -c xmlsniff -l excerpt -x -a 'auto always never' -d 'Show the line under each diagnostic'
complete -c xmlsniff -l color -x -a 'auto always never' -d 'Colour the diagnostics'
complete -c xmlsniff -s h -l help -d 'Print the help'
complete -c xmlsniff -l version -d 'Print the version'
