#!/usr/bin/env bash
# A Mastermind player in bash, speaking moocow's line protocol (docs/runner.md): it guesses the
# first code, in lexicographic order, that is consistent with every feedback so far.
set -u
COLOURS=123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ

score() {  # score GUESS CODE -> "black white"
    local guess=$1 code=$2 black=0 common=0 i c g k
    for ((i = 0; i < ${#guess}; i++)); do
        [[ ${guess:i:1} == "${code:i:1}" ]] && ((black++))
    done
    for ((k = 0; k < colours; k++)); do
        c=${COLOURS:k:1}
        g=${guess//[^$c]/}; g=${#g}
        i=${code//[^$c]/}; i=${#i}
        ((common += g < i ? g : i))
    done
    echo "$black $((common - black))"
}

all_codes() {  # every code of $length pegs over $colours colours, lexicographic
    local codes=("") next code k
    for ((p = 0; p < length; p++)); do
        next=()
        for code in "${codes[@]}"; do
            for ((k = 0; k < colours; k++)); do next+=("$code${COLOURS:k:1}"); done
        done
        codes=("${next[@]}")
    done
    candidates=("${codes[@]}")
}

read -r _hello
echo "moocow 1 bash-bot Bash Mastermind"
while read -r kind first second _rest; do
    case $kind in
        game)
            length=$first
            colours=6
            [[ $second =~ colors=([0-9]+) ]] && colours=${BASH_REMATCH[1]}
            all_codes
            ;;
        feedback)
            kept=()
            for code in "${candidates[@]}"; do
                [[ $(score "$guess" "$code") == "$first $second" ]] && kept+=("$code")
            done
            candidates=("${kept[@]}")
            ;;
        quit) exit 0 ;;
    esac
    guess=${candidates[0]}
    echo "$guess"
done
