#!/usr/bin/env bash
# Runs every fuzz target (or those named) for SECONDS each, two at a time,
# then prints executions and findings per target.
#
#   fuzz/run.sh SECONDS [TARGET...]
#
# Stable toolchain: cargo-fuzz needs nightly-only flags, so RUSTC_BOOTSTRAP=1
# lets the stable compiler accept them, and `--sanitizer none` avoids
# AddressSanitizer (not supported on stable). Seeds are copied at run time
# from the shared conformance cases and corpus (HCL_SHARED_DIR, default
# ../shared beside the repository) into fuzz/corpus/<target>/ (git-ignored).
# Findings land in fuzz/artifacts/<target>/; logs in fuzz/logs/.
set -euo pipefail

cd "$(dirname "$0")"
secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
all=(parse_body parse_expr parse_template fast_vs_pest eval_body from_slice_value from_str_typed format from_json_slice from_files edit to_string)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi
jobs=${FUZZ_JOBS:-2}

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1

# Seeds.
shared=${HCL_SHARED_DIR:-}
if [ -z "$shared" ]; then
    for d in ../../shared ../../../shared; do
        if [ -d "$d/conformance" ]; then shared=$d; break; fi
    done
fi
seed() { # seed TARGET EXT... : copy shared files ending in EXT into corpus/TARGET
    local t=$1; shift
    mkdir -p "corpus/$t"
    [ -n "$shared" ] || return 0
    for ext in "$@"; do
        find "$shared/conformance" "$shared/corpus" -type f -name "*.$ext" -size -64k 2>/dev/null |
            while read -r f; do
                cp "$f" "corpus/$t/$(printf '%s' "$f" | cksum | cut -d' ' -f1).$ext"
            done
    done
}
if [ -z "$shared" ]; then
    echo "== no shared folder found (set HCL_SHARED_DIR): fuzzing from empty corpora"
fi
for t in "${targets[@]}"; do
    case $t in
        parse_expr) seed "$t" hclexpr ;;
        parse_template) seed "$t" hcltmpl ;;
        from_json_slice)
            mkdir -p "corpus/$t"
            [ -z "$shared" ] || find "$shared/conformance-json" -type f -name '*.hcl.json' -size -64k 2>/dev/null |
                while read -r f; do
                    cp "$f" "corpus/$t/$(printf '%s' "$f" | cksum | cut -d' ' -f1).json"
                done ;;
        # Values are built from the input bytes: no text seeds.
        to_string) mkdir -p "corpus/$t" ;;
        *) seed "$t" hcl tf nomad tfvars ;;
    esac
done

echo "== building (${targets[*]})"
for t in "${targets[@]}"; do
    cargo fuzz build --sanitizer none -O "$t" >/dev/null
done

mkdir -p logs
run_one() {
    local t=$1
    mkdir -p "artifacts/$t"
    cargo fuzz run --sanitizer none -O "$t" "corpus/$t" -- \
        -max_total_time="$secs" -dict=hcl.dict -max_len=65536 \
        -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        >"logs/$t.log" 2>&1 || true
}
echo "== fuzzing ${#targets[@]} targets, ${secs}s each, $jobs at a time"
running=0
for t in "${targets[@]}"; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

echo "== results"
printf '%-18s %14s %10s  %s\n' target executions findings artifacts
found=0
for t in "${targets[@]}"; do
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' | tail -1)
    n=$(find "artifacts/$t" -type f | wc -l)
    found=$((found + n))
    printf '%-18s %14s %10s  %s\n' "$t" "${execs:-?}" "$n" "$(find "artifacts/$t" -type f | head -3 | tr '\n' ' ')"
done
[ "$found" -eq 0 ]
