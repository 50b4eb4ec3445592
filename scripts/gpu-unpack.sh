# Sourced on the GPU machine by gpu-env.sh and gpu-run.sh (repo root, .gpu carried), after
# DEEPGEMM_CACHE_DIR is set: the kernel caches scripts/gpu-cubins.sh carried, unpacked once a
# machine: .gpu/cubins.txz into $DEEPGEMM_CACHE_DIR, .gpu/DIR/cubins.txz (an earlier build's,
# gpu-pack-old.sh) into /tmp/deepgemm-DIR-cache, the cache gpu-env.sh's OLD_CACHE names.
unpack_cubins() {
    local txz=$1 dir=$2 mark
    [ -f "$txz" ] || return 0
    mark="$dir/.carried-$(cksum <"$txz" | cut -d' ' -f1)"
    [ -e "$mark" ] && return 0
    mkdir -p "$dir"
    # python3's tarfile where the image has no xz.
    if tar xJf "$txz" -C "$dir" 2>/dev/null ||
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$txz" "$dir"; then
        touch "$mark"
        echo "unpacked $txz into $dir ($(find "$dir" -name '*.cubin' | wc -l) kernels there)"
    else
        echo "could not unpack $txz: its kernels compile here" >&2
    fi
}
unpack_cubins .gpu/cubins.txz "$DEEPGEMM_CACHE_DIR"
for _txz in .gpu/*/cubins.txz; do
    [ -f "$_txz" ] && unpack_cubins "$_txz" "/tmp/deepgemm-$(basename "$(dirname "$_txz")")-cache"
done
unset _txz
