#!/usr/bin/env bash
# Builds deepgemm (release) and installs it like a system library:
#
#   PREFIX/lib/libdeepgemm.so.X.Y.Z        SONAME libdeepgemm.so.X (set by build.rs)
#   PREFIX/lib/libdeepgemm.so.X -> libdeepgemm.so.X.Y.Z
#   PREFIX/lib/libdeepgemm.so   -> libdeepgemm.so.X
#   PREFIX/lib/libdeepgemm.a
#   PREFIX/lib/libdeepgemm_preload.so      only when the LD_PRELOAD library was built
#   PREFIX/include/deepgemm.h
#   PREFIX/lib/pkgconfig/deepgemm.pc       from pkgconfig/deepgemm.pc.in
#   PREFIX/lib/cmake/deepgemm/deepgemmConfig.cmake, deepgemmConfigVersion.cmake  from cmake/
#
# The version is Cargo.toml's [package] version; nothing else states it (include/deepgemm.h
# is generated from it, and this script refuses to install a header that disagrees). The
# installed tree finds itself from its own files' locations, so it may be moved or copied.
#
# Usage: scripts/install.sh [--prefix DIR] [options]
#   --prefix DIR   install under DIR (default /usr/local)
#   --libdir NAME  library directory, relative to the prefix (default lib)
#   --from DIR     install the libraries already built in DIR (holding libdeepgemm.so and
#                  libdeepgemm.a) instead of running cargo build --release
#   --no-static    leave out libdeepgemm.a
#   --strip        strip debug information from the installed libraries
#   -h, --help     this text
# DESTDIR (environment) stages the install under DESTDIR/PREFIX, as for make install.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "install.sh: $*" >&2; exit 1; }

PREFIX=/usr/local
LIBDIR=lib
FROM=
STATIC=1
STRIP=0
while [ $# -gt 0 ]; do
    case $1 in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
    --prefix=*) PREFIX=${1#*=}; shift ;;
    --libdir) [ $# -ge 2 ] || die "--libdir needs a name"; LIBDIR=$2; shift 2 ;;
    --libdir=*) LIBDIR=${1#*=}; shift ;;
    --from) [ $# -ge 2 ] || die "--from needs a directory"; FROM=$2; shift 2 ;;
    --from=*) FROM=${1#*=}; shift ;;
    --no-static) STATIC=0; shift ;;
    --strip) STRIP=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ -n "$PREFIX" ] || die "empty --prefix"
case $LIBDIR in
/* | *..* | '') die "--libdir must be a relative path inside the prefix, not '$LIBDIR'" ;;
esac
LIBDIR=${LIBDIR%/}
# An absolute prefix: the generated files hold paths relative to themselves, but the
# messages below and DESTDIR staging want a stable spelling.
case $PREFIX in
/*) ;;
*) mkdir -p "$PREFIX" && PREFIX=$(cd "$PREFIX" && pwd) ;;
esac

# --- the version, from Cargo.toml's [package] table ---------------------------------------
VERSION=$(awk '
    /^\[/ { in_pkg = ($0 ~ /^\[package\][[:space:]]*$/) }
    in_pkg && /^version[[:space:]]*=/ { gsub(/.*=[[:space:]]*"|".*/, ""); print; exit }
' "$ROOT/Cargo.toml")
[[ $VERSION =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] ||
    die "cannot read a MAJOR.MINOR.PATCH version from Cargo.toml's [package] (got '$VERSION')"
MAJOR=${BASH_REMATCH[1]}
MINOR=${BASH_REMATCH[2]}
PATCH=${BASH_REMATCH[3]}

header_macro() { sed -n "s/^#define DEEPGEMM_VERSION_$1 \([0-9]*\)$/\1/p" "$ROOT/include/deepgemm.h"; }
h="$(header_macro MAJOR).$(header_macro MINOR).$(header_macro PATCH)"
[ "$h" = "$VERSION" ] ||
    die "include/deepgemm.h says version $h, Cargo.toml $VERSION; regenerate the header:
    DEEPGEMM_BLESS_HEADER=1 cargo test --test header"

# --- the libraries ---------------------------------------------------------------------------
if [ -z "$FROM" ]; then
    echo "== cargo build --release --workspace --lib (deepgemm $VERSION)"
    # --workspace: the LD_PRELOAD library, where the workspace has it, is built too.
    (cd "$ROOT" && cargo build --release --workspace --lib)
    FROM="${CARGO_TARGET_DIR:-$ROOT/target}/release"
fi
[ -f "$FROM/libdeepgemm.so" ] || die "no libdeepgemm.so in $FROM"
[ "$STATIC" = 0 ] || [ -f "$FROM/libdeepgemm.a" ] ||
    die "no libdeepgemm.a in $FROM (pass --no-static to install without it)"

SONAME=libdeepgemm.so.$MAJOR
if command -v readelf >/dev/null 2>&1; then
    got=$(readelf -d "$FROM/libdeepgemm.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
    [ "$got" = "$SONAME" ] ||
        die "$FROM/libdeepgemm.so has SONAME '${got:-none}', expected $SONAME (built without build.rs?)"
else
    echo "install.sh: readelf not found, SONAME of $FROM/libdeepgemm.so not checked" >&2
fi

# --- install ---------------------------------------------------------------------------------
DEST=${DESTDIR:-}$PREFIX
LIB=$DEST/$LIBDIR
echo "== installing deepgemm $VERSION into ${DESTDIR:+$DESTDIR:}$PREFIX"
install -d "$LIB" "$DEST/include" "$LIB/pkgconfig" "$LIB/cmake/deepgemm"

install -m 755 "$FROM/libdeepgemm.so" "$LIB/libdeepgemm.so.$VERSION"
ln -sfn "libdeepgemm.so.$VERSION" "$LIB/$SONAME"
ln -sfn "$SONAME" "$LIB/libdeepgemm.so"
installed=("$LIB/libdeepgemm.so.$VERSION")
if [ "$STATIC" = 1 ]; then
    install -m 644 "$FROM/libdeepgemm.a" "$LIB/libdeepgemm.a"
    installed+=("$LIB/libdeepgemm.a")
else
    rm -f "$LIB/libdeepgemm.a" # an older install's archive would not match this library
fi
if [ -f "$FROM/libdeepgemm_preload.so" ]; then
    install -m 755 "$FROM/libdeepgemm_preload.so" "$LIB/libdeepgemm_preload.so"
    installed+=("$LIB/libdeepgemm_preload.so")
fi
if [ "$STRIP" = 1 ]; then
    strip --strip-debug "${installed[@]}"
fi
install -m 644 "$ROOT/include/deepgemm.h" "$DEST/include/deepgemm.h"

# "../" once per component of $1: the way from a directory that deep back to the prefix.
up() {
    local path=$1 out=..
    while [[ $path == */* ]]; do
        path=${path#*/}
        out=$out/..
    done
    echo "$out"
}
render() { # template output to-prefix
    sed -e "s|@DEEPGEMM_VERSION@|$VERSION|g" \
        -e "s|@DEEPGEMM_VERSION_MAJOR@|$MAJOR|g" \
        -e "s|@DEEPGEMM_VERSION_MINOR@|$MINOR|g" \
        -e "s|@DEEPGEMM_VERSION_PATCH@|$PATCH|g" \
        -e "s|@LIBDIR@|$LIBDIR|g" \
        -e "s|@PC_TO_PREFIX@|$3|g" \
        -e "s|@CMAKE_TO_PREFIX@|$3|g" \
        "$1" >"$2.tmp"
    if grep -n '@[A-Z_]*@' "$2.tmp" >&2; then
        rm -f "$2.tmp"
        die "unreplaced placeholder in $1"
    fi
    chmod 644 "$2.tmp"
    mv "$2.tmp" "$2"
}
# lib/pkgconfig is two levels below the prefix, lib/cmake/deepgemm three (more for a
# deeper --libdir).
render "$ROOT/pkgconfig/deepgemm.pc.in" "$LIB/pkgconfig/deepgemm.pc" "$(up "$LIBDIR/pkgconfig")"
render "$ROOT/cmake/deepgemmConfig.cmake.in" "$LIB/cmake/deepgemm/deepgemmConfig.cmake" \
    "$(up "$LIBDIR/cmake/deepgemm")"
render "$ROOT/cmake/deepgemmConfigVersion.cmake.in" \
    "$LIB/cmake/deepgemm/deepgemmConfigVersion.cmake" "$(up "$LIBDIR/cmake/deepgemm")"

echo "   $LIBDIR/libdeepgemm.so.$VERSION (SONAME $SONAME), $LIBDIR/$SONAME, $LIBDIR/libdeepgemm.so"
if [ "$STATIC" = 1 ]; then echo "   $LIBDIR/libdeepgemm.a"; fi
if [ -f "$LIB/libdeepgemm_preload.so" ]; then echo "   $LIBDIR/libdeepgemm_preload.so"; fi
echo "   include/deepgemm.h, $LIBDIR/pkgconfig/deepgemm.pc, $LIBDIR/cmake/deepgemm/"
if [ -z "${DESTDIR:-}" ] && [ "$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1 &&
    ldconfig -p | grep -q "$PREFIX/$LIBDIR/"; then
    # A directory the loader already searches: refresh its cache for the new SONAME link.
    ldconfig
else
    echo "   use: CMAKE_PREFIX_PATH=$PREFIX or PKG_CONFIG_PATH=$PREFIX/$LIBDIR/pkgconfig;" \
        "at run time the loader must find $PREFIX/$LIBDIR (rpath, LD_LIBRARY_PATH or ldconfig)"
fi
