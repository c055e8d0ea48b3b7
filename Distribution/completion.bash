#!/bin/bash

__turnstile_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__turnstile_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__turnstile_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__turnstile_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_turnstile() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __turnstile_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    filter|match|grep|compile|eval|train|rules|serve|learn|help)
        # Offer subcommand argument completions
        "_turnstile_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'filter match grep compile eval train rules serve learn help' -- "${cur}"))
        ;;
    esac
}

_turnstile_filter() {
    repeating_flags=()
    non_repeating_flags=(-F --fixed-strings -i --ignore-case --no-ignore-case -w --word-regexp --bytes --ucp --debug-strategy -n --line-number -c -H --with-filename -q --quiet --silent -s --no-messages -r --recursive --tag --exit-verdict --spam --mask --count --json --explain --stats --version -h --help)
    repeating_options=(-e --regexp -f --file --rules --add-rules --allow-from --deny-from)
    non_repeating_options=(--max-pattern-file-bytes --automaton --max-automaton-bytes --max-states --max-table-bytes --delimiter --color --max-record-bytes -j --threads --format --spam-to --move-spam-to --tag-prefix --sender-fields --threshold --db)
    __turnstile_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '-e'|'--regexp')
        return
        ;;
    '-f'|'--file')
        return
        ;;
    '--rules')
        return
        ;;
    '--add-rules')
        return
        ;;
    '--max-pattern-file-bytes')
        return
        ;;
    '--automaton')
        return
        ;;
    '--max-automaton-bytes')
        return
        ;;
    '--max-states')
        return
        ;;
    '--max-table-bytes')
        return
        ;;
    '--delimiter')
        __turnstile_add_completions -W 'line'$'\n''nul'$'\n''blank'$'\n''none'$'\n''mbox'
        return
        ;;
    '--color')
        __turnstile_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--max-record-bytes')
        return
        ;;
    '-j'|'--threads')
        return
        ;;
    '--format')
        __turnstile_add_completions -W 'lines'$'\n''mbox'$'\n''eml'$'\n''maildir'
        return
        ;;
    '--spam-to')
        return
        ;;
    '--move-spam-to')
        return
        ;;
    '--tag-prefix')
        return
        ;;
    '--allow-from')
        return
        ;;
    '--deny-from')
        return
        ;;
    '--sender-fields')
        return
        ;;
    '--threshold')
        return
        ;;
    '--db')
        return
        ;;
    esac
}

_turnstile_match() {
    repeating_flags=()
    non_repeating_flags=(-F --fixed-strings -i --ignore-case --no-ignore-case -w --word-regexp --bytes --ucp --debug-strategy --builtin -o --only-matching -b --byte-offset -n --line-number -v --invert-match -c --count --count-matches -l --files-with-matches -L --files-without-match -q --quiet --silent -s --no-messages -H --with-filename --no-filename -x --line-regexp -z --null-data -Z --null -a --text -I -E --extended-regexp -G --basic-regexp -P --perl-regexp -R --dereference-recursive --no-group-separator -T --initial-tab -U --binary --line-buffered -r --recursive --offsets --json --version --help)
    repeating_options=(-e --regexp -f --file --rules --add-rules --exclude-from --include --exclude --exclude-dir)
    non_repeating_options=(--max-pattern-file-bytes --automaton --max-automaton-bytes --max-states --max-table-bytes -m --max-count -A --after-context -B --before-context -C --context --binary-files -d --directories -D --devices --group-separator --label --delimiter --color --max-record-bytes -j --threads --format --match-kind)
    __turnstile_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '-e'|'--regexp')
        return
        ;;
    '-f'|'--file')
        return
        ;;
    '--rules')
        return
        ;;
    '--add-rules')
        return
        ;;
    '--max-pattern-file-bytes')
        return
        ;;
    '--automaton')
        return
        ;;
    '--max-automaton-bytes')
        return
        ;;
    '--max-states')
        return
        ;;
    '--max-table-bytes')
        return
        ;;
    '-m'|'--max-count')
        return
        ;;
    '-A'|'--after-context')
        return
        ;;
    '-B'|'--before-context')
        return
        ;;
    '-C'|'--context')
        return
        ;;
    '--binary-files')
        __turnstile_add_completions -W 'binary'$'\n''text'$'\n''without-match'
        return
        ;;
    '-d'|'--directories')
        __turnstile_add_completions -W 'read'$'\n''skip'$'\n''recurse'
        return
        ;;
    '-D'|'--devices')
        __turnstile_add_completions -W 'read'$'\n''skip'
        return
        ;;
    '--exclude-from')
        return
        ;;
    '--group-separator')
        return
        ;;
    '--include')
        return
        ;;
    '--exclude')
        return
        ;;
    '--exclude-dir')
        return
        ;;
    '--label')
        return
        ;;
    '--delimiter')
        __turnstile_add_completions -W 'line'$'\n''nul'$'\n''blank'$'\n''none'$'\n''mbox'
        return
        ;;
    '--color')
        __turnstile_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--max-record-bytes')
        return
        ;;
    '-j'|'--threads')
        return
        ;;
    '--format')
        __turnstile_add_completions -W 'lines'$'\n''mbox'$'\n''eml'$'\n''maildir'
        return
        ;;
    '--match-kind')
        __turnstile_add_completions -W 'overlapping'$'\n''leftmost-first'$'\n''leftmost-longest'
        return
        ;;
    esac
}

_turnstile_grep() {
    repeating_flags=()
    non_repeating_flags=(-F --fixed-strings -i --ignore-case --no-ignore-case -w --word-regexp --bytes --ucp --debug-strategy -o --only-matching -b --byte-offset -n --line-number -v --invert-match -c --count --count-matches -l --files-with-matches -L --files-without-match -q --quiet --silent -s --no-messages -H --with-filename --no-filename -x --line-regexp -z --null-data -Z --null -a --text -I -E --extended-regexp -G --basic-regexp -P --perl-regexp -R --dereference-recursive --no-group-separator -T --initial-tab -U --binary --line-buffered -r --recursive -V --version --version --help)
    repeating_options=(-e --regexp -f --file --rules --add-rules --exclude-from --include --exclude --exclude-dir)
    non_repeating_options=(--max-pattern-file-bytes --automaton --max-automaton-bytes --max-states --max-table-bytes -m --max-count -A --after-context -B --before-context -C --context --binary-files -d --directories -D --devices --group-separator --label --delimiter --color --max-record-bytes -j --threads)
    __turnstile_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '-e'|'--regexp')
        return
        ;;
    '-f'|'--file')
        return
        ;;
    '--rules')
        return
        ;;
    '--add-rules')
        return
        ;;
    '--max-pattern-file-bytes')
        return
        ;;
    '--automaton')
        return
        ;;
    '--max-automaton-bytes')
        return
        ;;
    '--max-states')
        return
        ;;
    '--max-table-bytes')
        return
        ;;
    '-m'|'--max-count')
        return
        ;;
    '-A'|'--after-context')
        return
        ;;
    '-B'|'--before-context')
        return
        ;;
    '-C'|'--context')
        return
        ;;
    '--binary-files')
        __turnstile_add_completions -W 'binary'$'\n''text'$'\n''without-match'
        return
        ;;
    '-d'|'--directories')
        __turnstile_add_completions -W 'read'$'\n''skip'$'\n''recurse'
        return
        ;;
    '-D'|'--devices')
        __turnstile_add_completions -W 'read'$'\n''skip'
        return
        ;;
    '--exclude-from')
        return
        ;;
    '--group-separator')
        return
        ;;
    '--include')
        return
        ;;
    '--exclude')
        return
        ;;
    '--exclude-dir')
        return
        ;;
    '--label')
        return
        ;;
    '--delimiter')
        __turnstile_add_completions -W 'line'$'\n''nul'$'\n''blank'$'\n''none'$'\n''mbox'
        return
        ;;
    '--color')
        __turnstile_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--max-record-bytes')
        return
        ;;
    '-j'|'--threads')
        return
        ;;
    esac
}

_turnstile_compile() {
    repeating_flags=()
    non_repeating_flags=(-F --fixed-strings -i --ignore-case --no-ignore-case -w --word-regexp --bytes --ucp --debug-strategy --dot --stats --version -h --help)
    repeating_options=(-e --regexp -f --file --rules --add-rules)
    non_repeating_options=(--max-pattern-file-bytes --automaton --max-automaton-bytes --max-states --max-table-bytes -o)
    __turnstile_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '-e'|'--regexp')
        return
        ;;
    '-f'|'--file')
        return
        ;;
    '--rules')
        return
        ;;
    '--add-rules')
        return
        ;;
    '--max-pattern-file-bytes')
        return
        ;;
    '--automaton')
        return
        ;;
    '--max-automaton-bytes')
        return
        ;;
    '--max-states')
        return
        ;;
    '--max-table-bytes')
        return
        ;;
    '-o')
        return
        ;;
    esac
}

_turnstile_eval() {
    repeating_flags=()
    non_repeating_flags=(-F --fixed-strings -i --ignore-case --no-ignore-case -w --word-regexp --bytes --ucp --debug-strategy --json --version -h --help)
    repeating_options=(-e --regexp -f --file --rules --add-rules --spam --ham)
    non_repeating_options=(--max-pattern-file-bytes --automaton --max-automaton-bytes --max-states --max-table-bytes --delimiter --max-record-bytes --format --threshold --top)
    __turnstile_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '-e'|'--regexp')
        return
        ;;
    '-f'|'--file')
        return
        ;;
    '--rules')
        return
        ;;
    '--add-rules')
        return
        ;;
    '--max-pattern-file-bytes')
        return
        ;;
    '--automaton')
        return
        ;;
    '--max-automaton-bytes')
        return
        ;;
    '--max-states')
        return
        ;;
    '--max-table-bytes')
        return
        ;;
    '--spam')
        return
        ;;
    '--ham')
        return
        ;;
    '--delimiter')
        __turnstile_add_completions -W 'line'$'\n''nul'$'\n''blank'$'\n''none'$'\n''mbox'
        return
        ;;
    '--max-record-bytes')
        return
        ;;
    '--format')
        __turnstile_add_completions -W 'lines'$'\n''mbox'$'\n''eml'$'\n''maildir'
        return
        ;;
    '--threshold')
        return
        ;;
    '--top')
        return
        ;;
    esac
}

_turnstile_train() {
    repeating_flags=()
    non_repeating_flags=(--positive-only --best-f1 --bigrams --exclude-numbers --version -h --help)
    repeating_options=(--spam --ham --include --exclude)
    non_repeating_options=(--delimiter --max-record-bytes --format -o --top --min-count --smoothing --min-precision --threshold-above --max-weight --min-rules --fp-cost --threshold-folds --model --max-spam-weight --fixed-threshold --phrase-prior --prior --prior-strength --min-deviation --title --folds --seed)
    __turnstile_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--spam')
        return
        ;;
    '--ham')
        return
        ;;
    '--delimiter')
        __turnstile_add_completions -W 'line'$'\n''nul'$'\n''blank'$'\n''none'$'\n''mbox'
        return
        ;;
    '--max-record-bytes')
        return
        ;;
    '--format')
        __turnstile_add_completions -W 'lines'$'\n''mbox'$'\n''eml'$'\n''maildir'
        return
        ;;
    '-o')
        return
        ;;
    '--top')
        return
        ;;
    '--min-count')
        return
        ;;
    '--smoothing')
        return
        ;;
    '--min-precision')
        return
        ;;
    '--threshold-above')
        return
        ;;
    '--max-weight')
        return
        ;;
    '--min-rules')
        return
        ;;
    '--fp-cost')
        return
        ;;
    '--threshold-folds')
        return
        ;;
    '--model')
        return
        ;;
    '--max-spam-weight')
        return
        ;;
    '--fixed-threshold')
        return
        ;;
    '--include')
        return
        ;;
    '--exclude')
        return
        ;;
    '--phrase-prior')
        return
        ;;
    '--prior')
        return
        ;;
    '--prior-strength')
        return
        ;;
    '--min-deviation')
        return
        ;;
    '--title')
        return
        ;;
    '--folds')
        return
        ;;
    '--seed')
        return
        ;;
    esac
}

_turnstile_rules() {
    repeating_flags=()
    non_repeating_flags=(-F --fixed-strings -i --ignore-case --no-ignore-case -w --word-regexp --bytes --ucp --debug-strategy --mail --version -h --help)
    repeating_options=(-e --regexp -f --file --rules --add-rules)
    non_repeating_options=(--max-pattern-file-bytes --automaton --max-automaton-bytes --max-states --max-table-bytes)
    __turnstile_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '-e'|'--regexp')
        return
        ;;
    '-f'|'--file')
        return
        ;;
    '--rules')
        return
        ;;
    '--add-rules')
        return
        ;;
    '--max-pattern-file-bytes')
        return
        ;;
    '--automaton')
        return
        ;;
    '--max-automaton-bytes')
        return
        ;;
    '--max-states')
        return
        ;;
    '--max-table-bytes')
        return
        ;;
    esac
}

_turnstile_serve() {
    repeating_flags=()
    non_repeating_flags=(-F --fixed-strings -i --ignore-case --no-ignore-case -w --word-regexp --bytes --ucp --debug-strategy --no-request-log --allow-tell --version -h --help)
    repeating_options=(-e --regexp -f --file --rules --add-rules --allow-from --tell-user --tell-from)
    non_repeating_options=(--max-pattern-file-bytes --automaton --max-automaton-bytes --max-states --max-table-bytes --threshold --listen --threads --max-size --max-request-bytes --max-connections --read-timeout --idle-timeout --drain --max-header-bytes --db --db-dir --socket-mode --socket-owner --user --group --pidfile --headers --tell-rate)
    __turnstile_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '-e'|'--regexp')
        return
        ;;
    '-f'|'--file')
        return
        ;;
    '--rules')
        return
        ;;
    '--add-rules')
        return
        ;;
    '--max-pattern-file-bytes')
        return
        ;;
    '--automaton')
        return
        ;;
    '--max-automaton-bytes')
        return
        ;;
    '--max-states')
        return
        ;;
    '--max-table-bytes')
        return
        ;;
    '--threshold')
        return
        ;;
    '--listen')
        return
        ;;
    '--allow-from')
        return
        ;;
    '--threads')
        return
        ;;
    '--max-size')
        return
        ;;
    '--max-request-bytes')
        return
        ;;
    '--max-connections')
        return
        ;;
    '--read-timeout')
        return
        ;;
    '--idle-timeout')
        return
        ;;
    '--drain')
        return
        ;;
    '--max-header-bytes')
        return
        ;;
    '--db')
        return
        ;;
    '--db-dir')
        return
        ;;
    '--socket-mode')
        return
        ;;
    '--socket-owner')
        return
        ;;
    '--user')
        return
        ;;
    '--group')
        return
        ;;
    '--pidfile')
        return
        ;;
    '--headers')
        return
        ;;
    '--tell-user')
        return
        ;;
    '--tell-from')
        return
        ;;
    '--tell-rate')
        return
        ;;
    esac
}

_turnstile_learn() {
    repeating_flags=()
    non_repeating_flags=(--spam --ham --forget --list --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --db-dir --user --format --max-record-bytes)
    __turnstile_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--db-dir')
        return
        ;;
    '--user')
        return
        ;;
    '--format')
        __turnstile_add_completions -W 'lines'$'\n''mbox'$'\n''eml'$'\n''maildir'
        return
        ;;
    '--max-record-bytes')
        return
        ;;
    esac
}

_turnstile_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __turnstile_offer_flags_options -1
}

complete -o filenames -F _turnstile turnstile
