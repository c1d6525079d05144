#!/usr/bin/env bash
# bench/kits_sha.sh KITGEN OUTDIR: builds a set of kits (every game, edition and print option that changes bytes)
# with the kitgen command KITGEN into OUTDIR, and writes OUTDIR/sums.txt: the SHA-256 of every file but
# manifest.json (which records the tool's version) and the logs. Build once before a change and once after, then
#   diff <(grep -v sums.txt BEFORE/sums.txt) <(grep -v sums.txt AFTER/sums.txt)
# prints nothing when every kit is byte-identical. A build that fails is listed in OUTDIR/failures.txt.
set -u
K=$(command -v "$1" || echo "$1"); O=$(realpath -m "$2"); rm -rf "$O"; mkdir -p "$O"; cd "$O"
run() { local d=$1; shift; mkdir -p "$d"; (cd "$d" && "$K" "$@" >log.txt 2>&1) || echo "FAILED $d: $*" >> "$O/failures.txt"; }
run words build
run pictures build --edition pictures
run duet build --edition duet --campaign
run ru build --lang ru --paper letter
run fa build --edition duet --lang fa
run rupics build --edition pictures --lang ru --ink saver --duplex fold
run shortbox build --duplex short --box
run extras build --per-card --png 72 --pod tgc --slug --cut-lines --verify-url https://example.org/v.html
run cmyk build --color cmyk --pdfx
run game game --count 2
run gameduet game --edition duet --count 2
run gamemd game --format markdown --count 2 --seed s3
run gamehtml game --format html --count 1 --seed s3
run keys keys --count 50 --volume-pages 10 --jobs 1
run keysduet keys --count 20 --edition duet --duplex fold --jobs 1
run web web
run calib calibrate --paper letter --duplex short
run box box --edition pictures --sleeved
run proof proof
run proofduet proof --edition duet
run ded build --game deduction
run ded2 build --game deduction --players 2 --ink saver --duplex none --box
run dedru build --game deduction --lang ru --paper letter --board-paper a3
run dedproof proof --game deduction --players 3
run dedbox box --game deduction --players 5
run dedcmyk build --game deduction --color cmyk --pdfx --pod tgc
run decknew deck new "My deck"
find . -type f ! -name manifest.json ! -name log.txt ! -name sums.txt -print0 | sort -z | xargs -0 sha256sum > sums.txt
# the logs apart: they show what the commands said, which may change on purpose
find . -name log.txt -print0 | sort -z | xargs -0 sha256sum > logs.txt
