#compdef turnstile

__turnstile_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__turnstile_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __turnstile_complete "${completions[@]:0:-1}"
    fi
}

__turnstile_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_turnstile() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'filter:Let clean records through and hold back spam.'
            'match:Print the records a pattern matches, as grep does (or the matches, with -o).'
            'grep:Search inputs for lines that match patterns, as GNU grep does.'
            'compile:Build the automaton for the rules: save it (-o), print it as DOT (--dot) or print its statistics (--stats).'
            'eval:Measure a spam list on labelled records: confusion matrix, precision, recall, F1, accuracy.'
            'train:Learn a weighted word list (a --rules file) and a threshold from labelled records.'
            'rules:Print a rule list in the rules-file format: the built-in spam list by default.'
            'serve:Judge mail for spamc and other spamd clients (SpamAssassin'\''s spamd protocol).'
            'learn:Learn messages as spam or ham (or forget them) in a database that filter and serve use.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        filter|match|grep|compile|eval|train|rules|serve|learn|help)
            "_turnstile_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_turnstile_filter() {
    local -i ret=1
    local -ar ___delimiter=('line' 'nul' 'blank' 'none' 'mbox')
    local -ar ___color=('auto' 'always' 'never')
    local -ar ___format=('lines' 'mbox' 'eml' 'maildir')
    local -ar arg_specs=(
        '*'{-e,--regexp}'[A pattern (repeatable). --regexp=PATTERN accepts a pattern that starts with '\''-'\''.]:pattern:'
        '*'{-f,--file}'[Read patterns from a file, one per line, verbatim (an empty line is an empty pattern; a UTF-8 BOM and a CR before LF are dropped).]:file:'
        '*--rules[A rule file\: '\''pattern<TAB>weight'\'' per line (weight optional, default 1); '\''#'\'' comments and blank lines ignored.]:file:'
        '*--add-rules[Add the rules of this file ('\''pattern<TAB>weight'\'' lines) to the list in use — the built-in one, --rules FILE or --automaton — read with that list'\''s flags and judged at its threshold (repeatable).]:file:'
        '(-F --fixed-strings)'{-F,--fixed-strings}'[Patterns are literal words (KMP for one, Aho-Corasick for several).]'
        '(-i --ignore-case)'{-i,--ignore-case}'[Case-insensitive matching\: Unicode simple case folding in UTF-8 text (grep in the C locale\: ASCII).]'
        '--no-ignore-case[Case-sensitive matching (the default; undoes an earlier -i).]'
        '(-w --word-regexp)'{-w,--word-regexp}'[Match whole words only.]'
        '--bytes[Regex bytes mode ('\''.'\'' matches any byte) instead of UTF-8.]'
        '--ucp[Unicode \\d \\s \\w and POSIX classes in regexes (PCRE2_UCP, as a leading (*UCP))\: \\w is \[\\p{L}\\p{N}_\].]'
        '--debug-strategy[Print the search strategy chosen for the patterns (its name, wrapper and prefilter kernel) on standard error.]'
        '--max-pattern-file-bytes[The most bytes a -f or --rules file may hold (default 16 MiB).]:n:'
        '--automaton[Load an automaton saved with '\''turnstile compile -o'\'' (its rules, options and threshold).]:file:'
        '--max-automaton-bytes[The most bytes an --automaton file may hold (default 32 MiB; the built-in list takes 1.7 MB).]:n:'
        '--max-states[The most states the automaton may have (default\: 4,000,000 for word lists; for regexes 10,000, past which the full DFA gives way to a lazy one and the NFA fails).]:n:'
        '--max-table-bytes[The most bytes its transition table may take (default\: 256 MiB for word lists, 4 MiB for a regex'\''s full DFA).]:n:'
        '--delimiter[Records are lines (line), NUL-terminated (nul), blank-line separated paragraphs (blank) or the whole input (none).]:line|nul|blank|none:{__turnstile_complete "${___delimiter[@]}"}'
        '--color[Highlight matches\: auto (on a terminal, unless NO_COLOR is set), always or never.]:auto|always|never:{__turnstile_complete "${___color[@]}"}'
        '--max-record-bytes[Records are kept in memory up to N bytes (default 16 MiB). filter judges a longer record on its first N bytes and passes it through (or holds it back) whole; match and grep read it in pieces and judge it whole (up to 4 GiB in memory when -o, --color, --json, --offsets or --count-matches list matches).]:n:'
        '(-j --threads)'{-j,--threads}'[Search with at most N threads, where they pay\: several inputs are searched side by side, a compute-bound search of one input in chunks of whole records; output is always in input order (default\: the number of cores).]:n:'
        '*:file:'
        '(-n --line-number)'{-n,--line-number}'[Prefix each printed record with its number (1-based).]'
        '-c[Print the number of records that would be printed, per input (grep'\''s -c; --count prints both verdicts).]'
        '(-H --with-filename)'{-H,--with-filename}'[Prefix each printed record with the input'\''s name.]'
        '(-q --quiet --silent)'{-q,--quiet,--silent}'[Print nothing; stop at the first spam record (exit 0 then).]'
        '(-s --no-messages)'{-s,--no-messages}'[Leave out messages about missing or unreadable inputs.]'
        '(-r --recursive)'{-r,--recursive}'[Read the files under each folder (hidden ones too; links inside are not followed); no input\: the current folder.]'
        '--format[Inputs are records cut by --delimiter (lines, the default), an mbox file, e-mail files (eml\: each file is one message; folders are walked) or Maildir folders (maildir\: the files under cur/ and new/).]:lines|mbox|eml|maildir:{__turnstile_complete "${___format[@]}"}'
        '--spam-to[With --format mbox|eml|maildir\: also write each spam message, byte for byte, to this mbox file (mbox\: appended under a dotlock and an fcntl lock once every input was read, never truncated) or folder (eml\: one file per message; maildir\: a Maildir).]:path:'
        '--move-spam-to[With --format maildir\: move each spam message out of its Maildir into this one by rename(2), keeping its cur/ or new/ and its file name with the \:2,FLAGS info (a taken name gets a fresh unique one). Safe to rerun.]:folder:'
        '--tag[With --format mbox|eml|maildir\: write every message, spam or not, with '\''X-Spam-Status\: Yes|No, score=S required=T tests=…'\'' (and '\''X-Spam-Flag\: YES'\'' for spam) added before the end of its header; earlier X-Spam-* fields are replaced. A message that cannot be judged is written unchanged with a warning. Exit status 0 whenever the messages were written.]'
        '--tag-prefix[With --tag\: the field-name prefix (default X-Spam\: X-Spam-Status, X-Spam-Flag).]:name:'
        '--exit-verdict[With --tag\: exit as bogofilter does\: 0 when a message was spam, 1 when none was, 2 after an error.]'
        '*--allow-from[With --format mbox|eml|maildir\: a message whose sender is in this file (one address or @domain per line, exact, case-insensitive; '\''#'\'' comments) is clean. Repeatable.]:file:'
        '*--deny-from[A message whose sender is in this file is spam (as --allow-from; an allowed address wins over a denied one, an address over a domain). Repeatable.]:file:'
        '--sender-fields[The fields whose addresses --allow-from and --deny-from look up, comma-separated among from, sender and return-path (default\: from).]:list:'
        '--threshold[A record is spam when its score reaches this (default\: the built-in list'\''s own threshold with no rule option, else 1).]:threshold:'
        '--db[Judge mail with the list a '\''turnstile learn'\'' database gives (mail formats).]:path:'
        '--spam[Print only the spam records.]'
        '--mask[Print every record with each character matched by a rule of positive weight replaced by '\''*'\''.]'
        '--count[Print '\''clean N spam M'\'' instead of records.]'
        '--json[Print one JSON object per record\: {"record"\:n,"spam"\:bool,"unsure"\:bool,"score"\:x,"threshold"\:t,"rules"\:\[...\],"matches"\:\[...\]}; "unsure" only for a chi-square list (the built-in mail list is one); mail has "problems"\:{...} in place of "matches".]'
        '--explain[Print each record'\''s verdict\: '\''record N\: spam|unsure|clean, score S, threshold T'\'' (a chi-square list adds '\'', unsure from C'\''), then each rule that fired as '\''  WEIGHT  START\:END  PATTERN'\''.]'
        '--stats[Print records, bytes, spam and throughput to standard error.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_match() {
    local -i ret=1
    local -ar ___binary_files=('binary' 'text' 'without-match')
    local -ar ___directories=('read' 'skip' 'recurse')
    local -ar ___devices=('read' 'skip')
    local -ar ___delimiter=('line' 'nul' 'blank' 'none' 'mbox')
    local -ar ___color=('auto' 'always' 'never')
    local -ar ___format=('lines' 'mbox' 'eml' 'maildir')
    local -ar ___match_kind=('overlapping' 'leftmost-first' 'leftmost-longest')
    local -ar arg_specs=(
        '*'{-e,--regexp}'[A pattern (repeatable). --regexp=PATTERN accepts a pattern that starts with '\''-'\''.]:pattern:'
        '*'{-f,--file}'[Read patterns from a file, one per line, verbatim (an empty line is an empty pattern; a UTF-8 BOM and a CR before LF are dropped).]:file:'
        '*--rules[A rule file\: '\''pattern<TAB>weight'\'' per line (weight optional, default 1); '\''#'\'' comments and blank lines ignored.]:file:'
        '*--add-rules[Add the rules of this file ('\''pattern<TAB>weight'\'' lines) to the list in use — the built-in one, --rules FILE or --automaton — read with that list'\''s flags and judged at its threshold (repeatable).]:file:'
        '(-F --fixed-strings)'{-F,--fixed-strings}'[Patterns are literal words (KMP for one, Aho-Corasick for several).]'
        '(-i --ignore-case)'{-i,--ignore-case}'[Case-insensitive matching\: Unicode simple case folding in UTF-8 text (grep in the C locale\: ASCII).]'
        '--no-ignore-case[Case-sensitive matching (the default; undoes an earlier -i).]'
        '(-w --word-regexp)'{-w,--word-regexp}'[Match whole words only.]'
        '--bytes[Regex bytes mode ('\''.'\'' matches any byte) instead of UTF-8.]'
        '--ucp[Unicode \\d \\s \\w and POSIX classes in regexes (PCRE2_UCP, as a leading (*UCP))\: \\w is \[\\p{L}\\p{N}_\].]'
        '--debug-strategy[Print the search strategy chosen for the patterns (its name, wrapper and prefilter kernel) on standard error.]'
        '--max-pattern-file-bytes[The most bytes a -f or --rules file may hold (default 16 MiB).]:n:'
        '--automaton[Load an automaton saved with '\''turnstile compile -o'\'' (its rules, options and threshold).]:file:'
        '--max-automaton-bytes[The most bytes an --automaton file may hold (default 32 MiB; the built-in list takes 1.7 MB).]:n:'
        '--max-states[The most states the automaton may have (default\: 4,000,000 for word lists; for regexes 10,000, past which the full DFA gives way to a lazy one and the NFA fails).]:n:'
        '--max-table-bytes[The most bytes its transition table may take (default\: 256 MiB for word lists, 4 MiB for a regex'\''s full DFA).]:n:'
        '--builtin[Search with the built-in spam list (whole words, ASCII case-insensitive).]'
        '(-o --only-matching)'{-o,--only-matching}'[Print only the matched text, one match per line.]'
        '(-b --byte-offset)'{-b,--byte-offset}'[Prefix each line with its byte offset in the input (with -o, the match'\''s).]'
        '(-n --line-number)'{-n,--line-number}'[Prefix each line with its record number (1-based).]'
        '(-v --invert-match)'{-v,--invert-match}'[Select the records without a match.]'
        '(-c --count)'{-c,--count}'[Print the number of selected records per input.]'
        '--count-matches[Print the number of matches per input (ripgrep'\''s --count-matches).]'
        '(-l --files-with-matches)'{-l,--files-with-matches}'[Print the name of each input with a selected record.]'
        '(-L --files-without-match)'{-L,--files-without-match}'[Print the name of each input without one.]'
        '(-q --quiet --silent)'{-q,--quiet,--silent}'[Print nothing; stop at the first selected record (exit 0 then, even after an error).]'
        '(-s --no-messages)'{-s,--no-messages}'[Leave out messages about missing or unreadable inputs.]'
        '(-m --max-count)'{-m,--max-count}'[Stop reading an input after this many selected records (a negative number\: no limit).]:num:'
        '(-A --after-context)'{-A,--after-context}'[Print this many records after each selected one.]:num:'
        '(-B --before-context)'{-B,--before-context}'[Print this many records before each selected one.]:num:'
        '(-C --context)'{-C,--context}'[Print this many records before and after (also -NUM).]:num:'
        '(-H --with-filename)'{-H,--with-filename}'[Prefix each line with the input'\''s name (the default with several inputs).]'
        '--no-filename[Never prefix the input'\''s name (also -h, as grep).]'
        '(-x --line-regexp)'{-x,--line-regexp}'[Select only matches that span the whole record.]'
        '(-z --null-data)'{-z,--null-data}'[Records end with NUL, not newline (--delimiter nul).]'
        '(-Z --null)'{-Z,--null}'[Print a NUL after each input'\''s name instead of '\''\:'\'' or a newline.]'
        '(-a --text)'{-a,--text}'[Search binary inputs as text (--binary-files=text).]'
        '-I[Skip binary inputs (--binary-files=without-match).]'
        '--binary-files[An input with a NUL byte is binary from the 96 KiB block that holds it on, as in GNU grep\: '\''binary'\'' (the default) prints '\''binary file matches'\'' on standard error instead of its records, '\''text'\'' searches it as text, '\''without-match'\'' skips it.]:binary|text|without-match:{__turnstile_complete "${___binary_files[@]}"}'
        '(-E --extended-regexp)'{-E,--extended-regexp}'[Patterns are extended regexes (match'\''s default; grep'\''s is -G).]'
        '(-G --basic-regexp)'{-G,--basic-regexp}'[Patterns are GNU basic regexes (grep'\''s default; match'\''s is -E).]'
        '(-P --perl-regexp)'{-P,--perl-regexp}'[One pattern in PCRE2'\''s syntax; look-around, back-references and the other constructs a finite automaton cannot run are refused.]'
        '(-R --dereference-recursive)'{-R,--dereference-recursive}'[As -r, following symbolic links to folders and files everywhere.]'
        '(-d --directories)'{-d,--directories}'[What a folder named as an input gets\: read (an error, as grep), skip, or recurse (-r).]:read|skip|recurse:{__turnstile_complete "${___directories[@]}"}'
        '(-D --devices)'{-D,--devices}'[What a device, FIFO or socket gets\: read (the default) or skip.]:read|skip:{__turnstile_complete "${___devices[@]}"}'
        '*--exclude-from[Skip files whose name matches a glob read from FILE, one per line (repeatable).]:file:'
        '--group-separator[Print SEP between groups of context lines instead of '\''--'\''.]:sep:'
        '--no-group-separator[Print nothing between groups of context lines.]'
        '(-T --initial-tab)'{-T,--initial-tab}'[Put a tab before each line'\''s text and align the numbers before it, as grep -T.]'
        '(-U --binary)'{-U,--binary}'[Accepted for grep'\''s sake\: input is always read as bytes.]'
        '*--include[With -r, search only files whose name matches GLOB (fnmatch; repeatable).]:glob:'
        '*--exclude[Skip files whose name matches GLOB (fnmatch; repeatable).]:glob:'
        '*--exclude-dir[With -r, skip folders whose name matches GLOB (repeatable).]:glob:'
        '--label[The name shown for standard input.]:label:'
        '--line-buffered[Write out each output line at once.]'
        '(-r --recursive)'{-r,--recursive}'[Search the files under each folder, sorted by path (hidden ones too; links inside are not followed); no input\: the current folder.]'
        '--delimiter[Records are lines (line), NUL-terminated (nul), blank-line separated paragraphs (blank) or the whole input (none).]:line|nul|blank|none:{__turnstile_complete "${___delimiter[@]}"}'
        '--color[Highlight matches\: auto (on a terminal, unless NO_COLOR is set), always or never.]:auto|always|never:{__turnstile_complete "${___color[@]}"}'
        '--max-record-bytes[Records are kept in memory up to N bytes (default 16 MiB). filter judges a longer record on its first N bytes and passes it through (or holds it back) whole; match and grep read it in pieces and judge it whole (up to 4 GiB in memory when -o, --color, --json, --offsets or --count-matches list matches).]:n:'
        '(-j --threads)'{-j,--threads}'[Search with at most N threads, where they pay\: several inputs are searched side by side, a compute-bound search of one input in chunks of whole records; output is always in input order (default\: the number of cores).]:n:'
        '*:file:'
        '--format[Inputs are records cut by --delimiter (lines, the default), an mbox file, e-mail files (eml\: each file is one message; folders are walked) or Maildir folders (maildir\: the files under cur/ and new/).]:lines|mbox|eml|maildir:{__turnstile_complete "${___format[@]}"}'
        '--match-kind[leftmost-first (the default; with -F -o leftmost-longest, as grep), leftmost-longest or overlapping (the last two with -F).]:kind:{__turnstile_complete "${___match_kind[@]}"}'
        '--offsets[Print every match as '\''start\:end\:pattern\:text'\'' (absolute byte offsets).]'
        '--json[Print ripgrep'\''s JSON Lines messages\: begin, one match per record with its submatches, end, summary.]'
        '--version[Show the version.]'
        '--help[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_grep() {
    local -i ret=1
    local -ar ___binary_files=('binary' 'text' 'without-match')
    local -ar ___directories=('read' 'skip' 'recurse')
    local -ar ___devices=('read' 'skip')
    local -ar ___delimiter=('line' 'nul' 'blank' 'none' 'mbox')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*'{-e,--regexp}'[A pattern (repeatable). --regexp=PATTERN accepts a pattern that starts with '\''-'\''.]:pattern:'
        '*'{-f,--file}'[Read patterns from a file, one per line, verbatim (an empty line is an empty pattern; a UTF-8 BOM and a CR before LF are dropped).]:file:'
        '*--rules[A rule file\: '\''pattern<TAB>weight'\'' per line (weight optional, default 1); '\''#'\'' comments and blank lines ignored.]:file:'
        '*--add-rules[Add the rules of this file ('\''pattern<TAB>weight'\'' lines) to the list in use — the built-in one, --rules FILE or --automaton — read with that list'\''s flags and judged at its threshold (repeatable).]:file:'
        '(-F --fixed-strings)'{-F,--fixed-strings}'[Patterns are literal words (KMP for one, Aho-Corasick for several).]'
        '(-i --ignore-case)'{-i,--ignore-case}'[Case-insensitive matching\: Unicode simple case folding in UTF-8 text (grep in the C locale\: ASCII).]'
        '--no-ignore-case[Case-sensitive matching (the default; undoes an earlier -i).]'
        '(-w --word-regexp)'{-w,--word-regexp}'[Match whole words only.]'
        '--bytes[Regex bytes mode ('\''.'\'' matches any byte) instead of UTF-8.]'
        '--ucp[Unicode \\d \\s \\w and POSIX classes in regexes (PCRE2_UCP, as a leading (*UCP))\: \\w is \[\\p{L}\\p{N}_\].]'
        '--debug-strategy[Print the search strategy chosen for the patterns (its name, wrapper and prefilter kernel) on standard error.]'
        '--max-pattern-file-bytes[The most bytes a -f or --rules file may hold (default 16 MiB).]:n:'
        '--automaton[Load an automaton saved with '\''turnstile compile -o'\'' (its rules, options and threshold).]:file:'
        '--max-automaton-bytes[The most bytes an --automaton file may hold (default 32 MiB; the built-in list takes 1.7 MB).]:n:'
        '--max-states[The most states the automaton may have (default\: 4,000,000 for word lists; for regexes 10,000, past which the full DFA gives way to a lazy one and the NFA fails).]:n:'
        '--max-table-bytes[The most bytes its transition table may take (default\: 256 MiB for word lists, 4 MiB for a regex'\''s full DFA).]:n:'
        '(-o --only-matching)'{-o,--only-matching}'[Print only the matched text, one match per line.]'
        '(-b --byte-offset)'{-b,--byte-offset}'[Prefix each line with its byte offset in the input (with -o, the match'\''s).]'
        '(-n --line-number)'{-n,--line-number}'[Prefix each line with its record number (1-based).]'
        '(-v --invert-match)'{-v,--invert-match}'[Select the records without a match.]'
        '(-c --count)'{-c,--count}'[Print the number of selected records per input.]'
        '--count-matches[Print the number of matches per input (ripgrep'\''s --count-matches).]'
        '(-l --files-with-matches)'{-l,--files-with-matches}'[Print the name of each input with a selected record.]'
        '(-L --files-without-match)'{-L,--files-without-match}'[Print the name of each input without one.]'
        '(-q --quiet --silent)'{-q,--quiet,--silent}'[Print nothing; stop at the first selected record (exit 0 then, even after an error).]'
        '(-s --no-messages)'{-s,--no-messages}'[Leave out messages about missing or unreadable inputs.]'
        '(-m --max-count)'{-m,--max-count}'[Stop reading an input after this many selected records (a negative number\: no limit).]:num:'
        '(-A --after-context)'{-A,--after-context}'[Print this many records after each selected one.]:num:'
        '(-B --before-context)'{-B,--before-context}'[Print this many records before each selected one.]:num:'
        '(-C --context)'{-C,--context}'[Print this many records before and after (also -NUM).]:num:'
        '(-H --with-filename)'{-H,--with-filename}'[Prefix each line with the input'\''s name (the default with several inputs).]'
        '--no-filename[Never prefix the input'\''s name (also -h, as grep).]'
        '(-x --line-regexp)'{-x,--line-regexp}'[Select only matches that span the whole record.]'
        '(-z --null-data)'{-z,--null-data}'[Records end with NUL, not newline (--delimiter nul).]'
        '(-Z --null)'{-Z,--null}'[Print a NUL after each input'\''s name instead of '\''\:'\'' or a newline.]'
        '(-a --text)'{-a,--text}'[Search binary inputs as text (--binary-files=text).]'
        '-I[Skip binary inputs (--binary-files=without-match).]'
        '--binary-files[An input with a NUL byte is binary from the 96 KiB block that holds it on, as in GNU grep\: '\''binary'\'' (the default) prints '\''binary file matches'\'' on standard error instead of its records, '\''text'\'' searches it as text, '\''without-match'\'' skips it.]:binary|text|without-match:{__turnstile_complete "${___binary_files[@]}"}'
        '(-E --extended-regexp)'{-E,--extended-regexp}'[Patterns are extended regexes (match'\''s default; grep'\''s is -G).]'
        '(-G --basic-regexp)'{-G,--basic-regexp}'[Patterns are GNU basic regexes (grep'\''s default; match'\''s is -E).]'
        '(-P --perl-regexp)'{-P,--perl-regexp}'[One pattern in PCRE2'\''s syntax; look-around, back-references and the other constructs a finite automaton cannot run are refused.]'
        '(-R --dereference-recursive)'{-R,--dereference-recursive}'[As -r, following symbolic links to folders and files everywhere.]'
        '(-d --directories)'{-d,--directories}'[What a folder named as an input gets\: read (an error, as grep), skip, or recurse (-r).]:read|skip|recurse:{__turnstile_complete "${___directories[@]}"}'
        '(-D --devices)'{-D,--devices}'[What a device, FIFO or socket gets\: read (the default) or skip.]:read|skip:{__turnstile_complete "${___devices[@]}"}'
        '*--exclude-from[Skip files whose name matches a glob read from FILE, one per line (repeatable).]:file:'
        '--group-separator[Print SEP between groups of context lines instead of '\''--'\''.]:sep:'
        '--no-group-separator[Print nothing between groups of context lines.]'
        '(-T --initial-tab)'{-T,--initial-tab}'[Put a tab before each line'\''s text and align the numbers before it, as grep -T.]'
        '(-U --binary)'{-U,--binary}'[Accepted for grep'\''s sake\: input is always read as bytes.]'
        '*--include[With -r, search only files whose name matches GLOB (fnmatch; repeatable).]:glob:'
        '*--exclude[Skip files whose name matches GLOB (fnmatch; repeatable).]:glob:'
        '*--exclude-dir[With -r, skip folders whose name matches GLOB (repeatable).]:glob:'
        '--label[The name shown for standard input.]:label:'
        '--line-buffered[Write out each output line at once.]'
        '(-r --recursive)'{-r,--recursive}'[Search the files under each folder, sorted by path (hidden ones too; links inside are not followed); no input\: the current folder.]'
        '--delimiter[Records are lines (line), NUL-terminated (nul), blank-line separated paragraphs (blank) or the whole input (none).]:line|nul|blank|none:{__turnstile_complete "${___delimiter[@]}"}'
        '--color[Highlight matches\: auto (on a terminal, unless NO_COLOR is set), always or never.]:auto|always|never:{__turnstile_complete "${___color[@]}"}'
        '--max-record-bytes[Records are kept in memory up to N bytes (default 16 MiB). filter judges a longer record on its first N bytes and passes it through (or holds it back) whole; match and grep read it in pieces and judge it whole (up to 4 GiB in memory when -o, --color, --json, --offsets or --count-matches list matches).]:n:'
        '(-j --threads)'{-j,--threads}'[Search with at most N threads, where they pay\: several inputs are searched side by side, a compute-bound search of one input in chunks of whole records; output is always in input order (default\: the number of cores).]:n:'
        '*:file:'
        '(-V --version)'{-V,--version}'[Print the version and exit.]'
        '--version[Show the version.]'
        '--help[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_compile() {
    local -i ret=1
    local -ar arg_specs=(
        '*'{-e,--regexp}'[A pattern (repeatable). --regexp=PATTERN accepts a pattern that starts with '\''-'\''.]:pattern:'
        '*'{-f,--file}'[Read patterns from a file, one per line, verbatim (an empty line is an empty pattern; a UTF-8 BOM and a CR before LF are dropped).]:file:'
        '*--rules[A rule file\: '\''pattern<TAB>weight'\'' per line (weight optional, default 1); '\''#'\'' comments and blank lines ignored.]:file:'
        '*--add-rules[Add the rules of this file ('\''pattern<TAB>weight'\'' lines) to the list in use — the built-in one, --rules FILE or --automaton — read with that list'\''s flags and judged at its threshold (repeatable).]:file:'
        '(-F --fixed-strings)'{-F,--fixed-strings}'[Patterns are literal words (KMP for one, Aho-Corasick for several).]'
        '(-i --ignore-case)'{-i,--ignore-case}'[Case-insensitive matching\: Unicode simple case folding in UTF-8 text (grep in the C locale\: ASCII).]'
        '--no-ignore-case[Case-sensitive matching (the default; undoes an earlier -i).]'
        '(-w --word-regexp)'{-w,--word-regexp}'[Match whole words only.]'
        '--bytes[Regex bytes mode ('\''.'\'' matches any byte) instead of UTF-8.]'
        '--ucp[Unicode \\d \\s \\w and POSIX classes in regexes (PCRE2_UCP, as a leading (*UCP))\: \\w is \[\\p{L}\\p{N}_\].]'
        '--debug-strategy[Print the search strategy chosen for the patterns (its name, wrapper and prefilter kernel) on standard error.]'
        '--max-pattern-file-bytes[The most bytes a -f or --rules file may hold (default 16 MiB).]:n:'
        '--automaton[Load an automaton saved with '\''turnstile compile -o'\'' (its rules, options and threshold).]:file:'
        '--max-automaton-bytes[The most bytes an --automaton file may hold (default 32 MiB; the built-in list takes 1.7 MB).]:n:'
        '--max-states[The most states the automaton may have (default\: 4,000,000 for word lists; for regexes 10,000, past which the full DFA gives way to a lazy one and the NFA fails).]:n:'
        '--max-table-bytes[The most bytes its transition table may take (default\: 256 MiB for word lists, 4 MiB for a regex'\''s full DFA).]:n:'
        '-o[Save the automaton to this file.]:file:'
        '--dot[Print the automaton as Graphviz DOT.]'
        '--stats[Print the search strategy, states, byte classes, the representation, memory and build time.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_eval() {
    local -i ret=1
    local -ar ___delimiter=('line' 'nul' 'blank' 'none' 'mbox')
    local -ar ___format=('lines' 'mbox' 'eml' 'maildir')
    local -ar arg_specs=(
        '*'{-e,--regexp}'[A pattern (repeatable). --regexp=PATTERN accepts a pattern that starts with '\''-'\''.]:pattern:'
        '*'{-f,--file}'[Read patterns from a file, one per line, verbatim (an empty line is an empty pattern; a UTF-8 BOM and a CR before LF are dropped).]:file:'
        '*--rules[A rule file\: '\''pattern<TAB>weight'\'' per line (weight optional, default 1); '\''#'\'' comments and blank lines ignored.]:file:'
        '*--add-rules[Add the rules of this file ('\''pattern<TAB>weight'\'' lines) to the list in use — the built-in one, --rules FILE or --automaton — read with that list'\''s flags and judged at its threshold (repeatable).]:file:'
        '(-F --fixed-strings)'{-F,--fixed-strings}'[Patterns are literal words (KMP for one, Aho-Corasick for several).]'
        '(-i --ignore-case)'{-i,--ignore-case}'[Case-insensitive matching\: Unicode simple case folding in UTF-8 text (grep in the C locale\: ASCII).]'
        '--no-ignore-case[Case-sensitive matching (the default; undoes an earlier -i).]'
        '(-w --word-regexp)'{-w,--word-regexp}'[Match whole words only.]'
        '--bytes[Regex bytes mode ('\''.'\'' matches any byte) instead of UTF-8.]'
        '--ucp[Unicode \\d \\s \\w and POSIX classes in regexes (PCRE2_UCP, as a leading (*UCP))\: \\w is \[\\p{L}\\p{N}_\].]'
        '--debug-strategy[Print the search strategy chosen for the patterns (its name, wrapper and prefilter kernel) on standard error.]'
        '--max-pattern-file-bytes[The most bytes a -f or --rules file may hold (default 16 MiB).]:n:'
        '--automaton[Load an automaton saved with '\''turnstile compile -o'\'' (its rules, options and threshold).]:file:'
        '--max-automaton-bytes[The most bytes an --automaton file may hold (default 32 MiB; the built-in list takes 1.7 MB).]:n:'
        '--max-states[The most states the automaton may have (default\: 4,000,000 for word lists; for regexes 10,000, past which the full DFA gives way to a lazy one and the NFA fails).]:n:'
        '--max-table-bytes[The most bytes its transition table may take (default\: 256 MiB for word lists, 4 MiB for a regex'\''s full DFA).]:n:'
        '*--spam[A file, or a folder of files, of spam records (no labels; repeatable).]:file:'
        '*--ham[A file, or a folder of files, of ham records (no labels; repeatable).]:file:'
        '--delimiter[Records are lines (line), NUL-terminated (nul), blank-line separated (blank) or whole files (none).]:line|nul|blank|none:{__turnstile_complete "${___delimiter[@]}"}'
        '--max-record-bytes[A longer record (or message) is used only in its first N bytes, as filter judges it; memory stays bounded by N.]:n:'
        '--format[Inputs are records cut by --delimiter (lines, the default), an mbox file, e-mail files (eml\: each file is one message; folders are walked) or Maildir folders (maildir\: the files under cur/ and new/).]:lines|mbox|eml|maildir:{__turnstile_complete "${___format[@]}"}'
        '*:file:'
        '--threshold[A record is spam when its score reaches this (default\: the built-in list'\''s own threshold with no rule option, else 1).]:t:'
        '--json[Print one JSON object whose first keys are tp, fp, tn, fn, precision, recall, f1, accuracy.]'
        '--top[How many rules to list for ham and for spam.]:n:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_train() {
    local -i ret=1
    local -ar ___delimiter=('line' 'nul' 'blank' 'none' 'mbox')
    local -ar ___format=('lines' 'mbox' 'eml' 'maildir')
    local -ar arg_specs=(
        '*--spam[A file, or a folder of files, of spam records (no labels; repeatable).]:file:'
        '*--ham[A file, or a folder of files, of ham records (no labels; repeatable).]:file:'
        '--delimiter[Records are lines (line), NUL-terminated (nul), blank-line separated (blank) or whole files (none).]:line|nul|blank|none:{__turnstile_complete "${___delimiter[@]}"}'
        '--max-record-bytes[A longer record (or message) is used only in its first N bytes, as filter judges it; memory stays bounded by N.]:n:'
        '--format[Inputs are records cut by --delimiter (lines, the default), an mbox file, e-mail files (eml\: each file is one message; folders are walked) or Maildir folders (maildir\: the files under cur/ and new/).]:lines|mbox|eml|maildir:{__turnstile_complete "${___format[@]}"}'
        '*:file:'
        '-o[Write the rules file here (default\: standard output).]:file:'
        '--top[Keep this many words (highest |weight| first; default 2000, mail 10000).]:k:'
        '--min-count[A word must occur in at least this many records (default 2).]:n:'
        '--smoothing[Pseudo-records shrinking each word towards the base rate (> 0; default 5, mail 1).]:a:'
        '--positive-only[Keep only words with positive weights (evidence of spam).]'
        '--min-precision[Propose the lowest threshold keeping training precision at or above this (0...1; default 0.99 for lines).]:p:'
        '--best-f1[Propose the threshold with the best training F1.]'
        '--bigrams[Also learn pairs of words separated by one space ('\''cash prize'\''), matched as -F -w -i phrases.]'
        '--threshold-above[Consider only thresholds above this (0, the default for mail\: a record in which no word is found is never spam).]:t:'
        '--max-weight[Clamp every weight to -w...w, so no one word carries more evidence than this.]:w:'
        '--min-rules[Propose only thresholds above (n-1) x the heaviest positive weight\: at least n rules must fire for spam.]:n:'
        '--fp-cost[Propose the threshold minimizing c x false positives + false negatives (a ham judged spam costs c missed spam).]:c:'
        '--threshold-folds[Choose the threshold on held-out scores\: each of k folds of the records scored by a list trained on the others.]:k:'
        '--model[How weights combine\: '\''sum'\'' (a sum against the threshold) or '\''chi-square'\'' (Robinson'\''s chi-square combining, score 0...1).]:model:'
        '--max-spam-weight[Clamp positive weights (evidence of spam) to at most this.]:w:'
        '--exclude-numbers[Leave out tokens made only of digits (dates and times of the corpus'\''s era).]'
        '--fixed-threshold[Write this threshold instead of choosing one (learning never moves it).]:t:'
        '*--include[Curated phrases to weigh and include (repeatable).]:file:'
        '*--exclude[Words never to keep, one per line (repeatable; e.g. offensive words).]:file:'
        '--phrase-prior[Extra spam pseudo-records for each curated phrase.]:b:'
        '--prior[Start every weight from this list'\''s evidence\: '\''builtin'\'' (the built-in mail list, the default for mail; the file then ends with its present-day rules) or '\''none'\''.]:builtin|none:'
        '--prior-strength[How many messages the prior is worth before any is learned (default 30; it fades as the smaller class grows).]:k:'
        '--min-deviation[Keep only tokens whose spam probability lies at least d from 0.5 (0...0.5; default 0).]:d:'
        '--title[The title on the file'\''s second line.]:text:'
        '--folds[Also cross-validate with this many folds (2 or more).]:k:'
        '--seed[The seed of the cross-validation'\''s fold assignment.]:n:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_rules() {
    local -i ret=1
    local -ar arg_specs=(
        '*'{-e,--regexp}'[A pattern (repeatable). --regexp=PATTERN accepts a pattern that starts with '\''-'\''.]:pattern:'
        '*'{-f,--file}'[Read patterns from a file, one per line, verbatim (an empty line is an empty pattern; a UTF-8 BOM and a CR before LF are dropped).]:file:'
        '*--rules[A rule file\: '\''pattern<TAB>weight'\'' per line (weight optional, default 1); '\''#'\'' comments and blank lines ignored.]:file:'
        '*--add-rules[Add the rules of this file ('\''pattern<TAB>weight'\'' lines) to the list in use — the built-in one, --rules FILE or --automaton — read with that list'\''s flags and judged at its threshold (repeatable).]:file:'
        '(-F --fixed-strings)'{-F,--fixed-strings}'[Patterns are literal words (KMP for one, Aho-Corasick for several).]'
        '(-i --ignore-case)'{-i,--ignore-case}'[Case-insensitive matching\: Unicode simple case folding in UTF-8 text (grep in the C locale\: ASCII).]'
        '--no-ignore-case[Case-sensitive matching (the default; undoes an earlier -i).]'
        '(-w --word-regexp)'{-w,--word-regexp}'[Match whole words only.]'
        '--bytes[Regex bytes mode ('\''.'\'' matches any byte) instead of UTF-8.]'
        '--ucp[Unicode \\d \\s \\w and POSIX classes in regexes (PCRE2_UCP, as a leading (*UCP))\: \\w is \[\\p{L}\\p{N}_\].]'
        '--debug-strategy[Print the search strategy chosen for the patterns (its name, wrapper and prefilter kernel) on standard error.]'
        '--max-pattern-file-bytes[The most bytes a -f or --rules file may hold (default 16 MiB).]:n:'
        '--automaton[Load an automaton saved with '\''turnstile compile -o'\'' (its rules, options and threshold).]:file:'
        '--max-automaton-bytes[The most bytes an --automaton file may hold (default 32 MiB; the built-in list takes 1.7 MB).]:n:'
        '--max-states[The most states the automaton may have (default\: 4,000,000 for word lists; for regexes 10,000, past which the full DFA gives way to a lazy one and the NFA fails).]:n:'
        '--max-table-bytes[The most bytes its transition table may take (default\: 256 MiB for word lists, 4 MiB for a regex'\''s full DFA).]:n:'
        '--mail[Print the built-in mail list (the default with --format mbox|eml|maildir).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_serve() {
    local -i ret=1
    local -ar arg_specs=(
        '*'{-e,--regexp}'[A pattern (repeatable). --regexp=PATTERN accepts a pattern that starts with '\''-'\''.]:pattern:'
        '*'{-f,--file}'[Read patterns from a file, one per line, verbatim (an empty line is an empty pattern; a UTF-8 BOM and a CR before LF are dropped).]:file:'
        '*--rules[A rule file\: '\''pattern<TAB>weight'\'' per line (weight optional, default 1); '\''#'\'' comments and blank lines ignored.]:file:'
        '*--add-rules[Add the rules of this file ('\''pattern<TAB>weight'\'' lines) to the list in use — the built-in one, --rules FILE or --automaton — read with that list'\''s flags and judged at its threshold (repeatable).]:file:'
        '(-F --fixed-strings)'{-F,--fixed-strings}'[Patterns are literal words (KMP for one, Aho-Corasick for several).]'
        '(-i --ignore-case)'{-i,--ignore-case}'[Case-insensitive matching\: Unicode simple case folding in UTF-8 text (grep in the C locale\: ASCII).]'
        '--no-ignore-case[Case-sensitive matching (the default; undoes an earlier -i).]'
        '(-w --word-regexp)'{-w,--word-regexp}'[Match whole words only.]'
        '--bytes[Regex bytes mode ('\''.'\'' matches any byte) instead of UTF-8.]'
        '--ucp[Unicode \\d \\s \\w and POSIX classes in regexes (PCRE2_UCP, as a leading (*UCP))\: \\w is \[\\p{L}\\p{N}_\].]'
        '--debug-strategy[Print the search strategy chosen for the patterns (its name, wrapper and prefilter kernel) on standard error.]'
        '--max-pattern-file-bytes[The most bytes a -f or --rules file may hold (default 16 MiB).]:n:'
        '--automaton[Load an automaton saved with '\''turnstile compile -o'\'' (its rules, options and threshold).]:file:'
        '--max-automaton-bytes[The most bytes an --automaton file may hold (default 32 MiB; the built-in list takes 1.7 MB).]:n:'
        '--max-states[The most states the automaton may have (default\: 4,000,000 for word lists; for regexes 10,000, past which the full DFA gives way to a lazy one and the NFA fails).]:n:'
        '--max-table-bytes[The most bytes its transition table may take (default\: 256 MiB for word lists, 4 MiB for a regex'\''s full DFA).]:n:'
        '--threshold[A message is spam when its score reaches this (default\: the list'\''s own threshold).]:threshold:'
        '--listen[Where to listen\: HOST\:PORT or unix\:/path.]:address:'
        '*--allow-from[Serve TCP clients from this network only (repeatable; default\: 127.0.0.0/8 and \:\:1).]:cidr:'
        '--threads[Threads that serve connections (default\: the number of cores).]:threads:'
        '--max-size[Judge at most this many bytes of a message (PROCESS still returns the whole message).]:max-size:'
        '--max-request-bytes[Refuse a message longer than this many bytes (default\: no limit, as spamd; spamc'\''s -s limits what it sends).]:max-request-bytes:'
        '--max-connections[Connections served at once; more wait to be accepted.]:max-connections:'
        '--read-timeout[Seconds a client has to send its whole request.]:read-timeout:'
        '--idle-timeout[Seconds a new connection may stay silent before it is closed (at --max-connections the one silent longest is closed at once to make room).]:idle-timeout:'
        '--drain[On SIGTERM or SIGINT, wait at most this long for requests under way (5s, 500ms, 0).]:time:'
        '--max-header-bytes[The most bytes of a request'\''s line and headers.]:max-header-bytes:'
        '--db[Judge with the list a '\''turnstile learn'\'' database gives, and learn into it on TELL.]:path:'
        '--db-dir[One learning database per user\: a request of user U (spamc -u U) is judged with DIR/U.db and its TELL learns into it.]:dir:'
        '--socket-mode[A Unix socket'\''s mode, in octal (default\: 0666 less the umask).]:mode:'
        '--socket-owner[A Unix socket'\''s owner, as chown writes it\: USER, USER\:GROUP or \:GROUP (root only).]:owner:'
        '--user[Once listening, run as this user (and its group) instead of root, as spamd'\''s -u.]:user:'
        '--group[Once listening, run as this group (with --user\: instead of the user'\''s own).]:group:'
        '--pidfile[Write the process id to this file once listening; removed on exit.]:path:'
        '--headers[The fields PROCESS and HEADERS add\: spamassassin (spamd'\''s X-Spam-Flag, X-Spam-Level and X-Spam-Status, scores on SpamAssassin'\''s 5.0 scale, and X-Spam-Turnstile with the list'\''s own) or turnstile (filter --tag'\''s).]:style:'
        '--no-request-log[Do not log a line per request on standard error (client, user, verdict, score, time, size).]'
        '*--tell-user[With --allow-tell, only this account may TELL\: on the Unix socket the sender'\''s own (its uid, whatever spamc -u claims), over TCP the spamc -u of a --tell-from client (repeatable; default\: any).]:user:'
        '*--tell-from[With --allow-tell, TCP clients from this network may TELL, trusted to name the user (repeatable; default\: none, as a TCP client'\''s account is unknown; Unix-socket clients are known by their uid).]:cidr:'
        '--tell-rate[With --allow-tell, the most TELLs per minute from one sender\: one uid on the Unix socket, one address over TCP (0\: no limit).]:count:'
        '--allow-tell[Learn from TELL requests (spamc -L) into the --db database; without it TELL is refused, as spamd'\''s --allow-tell.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_learn() {
    local -i ret=1
    local -ar ___format=('lines' 'mbox' 'eml' 'maildir')
    local -ar arg_specs=(
        '--db[The SQLite database to learn into.]:path:'
        '--db-dir[The folder of per-user databases ('\''serve --db-dir'\'')\: with --user U, learn into DIR/U.db.]:dir:'
        '--user[With --db-dir\: the user whose database to learn into (spamc -u'\''s name).]:name:'
        '--spam[Learn the messages as spam.]'
        '--ham[Learn the messages as ham.]'
        '--forget[Forget the messages (take back what learning them added).]'
        '--list[Print the weighted list the database gives (a --rules file, as train writes it).]'
        '--format[The files are e-mail files (eml, the default; folders are walked), mbox files or Maildir folders.]:eml|mbox|maildir:{__turnstile_complete "${___format[@]}"}'
        '--max-record-bytes[A longer message is learned from its first N bytes, as filter judges it.]:n:'
        '*:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_turnstile_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _turnstile ]]; then
    _turnstile "${@}"
else
    compdef _turnstile turnstile
fi
