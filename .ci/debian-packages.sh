#!/usr/bin/env bash
# Builds the Debian packages out of the release tarball (so nothing of the
# in-tree build can leak in), checks them with lintian, installs them with
# apt, runs the installed /usr/bin/tflaccel on a real model from a clean
# environment outside the tree, then purges them and checks that nothing is
# left. Run from the top of a configured tree (it makes the tarball with
# `make dist` when there is none). CI passes DEB_BUILD_OPTIONS=nocheck: its
# tests already ran; a plain package build runs `make check`.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

version=$(sed -n '1s/^tflaccel (\([^-)]*\)-[^)]*).*/\1/p' debian/changelog)
tarball="tflaccel-$version.tar.xz"
[ -f "$tarball" ] || make dist
work=$(mktemp -d /tmp/tflaccel-deb.XXXXXX)
packages="libtflaccel0 libtflaccel-dev tflaccel-tools tflaccel-plugin-cpu-xnnpack
  tflaccel-plugin-gpu-cl tflaccel-plugin-gpu-vk tflaccel-plugin-gpu-gl python3-tflaccel"
cleanup() {
  # shellcheck disable=SC2086
  $SUDO apt-get purge -y -qq $packages tflaccel-build-deps >/dev/null 2>&1 || true
  if [ -n "${TFLACCEL_DEB_KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
die() { echo "debian-packages: $*" >&2; exit 1; }
# One plugin's lines of `tflaccel plugins` (stdin). Checks grep captured text,
# never `producer | grep -q`: grep -q stops reading at the first match, and
# under pipefail the producer's SIGPIPE would fail the pipeline.
plugin_section() { awk -v name="$1" '$0 == name {on = 1; print; next} /^$/ {on = 0} on'; }
trap cleanup EXIT

step() { printf '\n=== %s (%ss)\n' "$1" "$SECONDS"; }

step "source package from $tarball"
cp "$tarball" "$work/tflaccel_$version.orig.tar.xz"
tar -xJf "$tarball" -C "$work"
cp -a debian "$work/tflaccel-$version/"

step "build dependencies (mk-build-deps)"
(cd "$work" && $SUDO mk-build-deps -i -r -t 'apt-get -y -qq --no-install-recommends' \
  "tflaccel-$version/debian/control" >/dev/null)

step "dpkg-buildpackage (DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-})"
(cd "$work/tflaccel-$version" && dpkg-buildpackage -us -uc >"$work/build.log" 2>&1) ||
  { tail -n 100 "$work/build.log"; exit 1; }

step "lintian (errors and unexplained warnings fail)"
changes=$(ls "$work"/tflaccel_"$version"-*_"$(dpkg --print-architecture)".changes)
lintian --fail-on error,warning "$changes" ||
  { echo "lintian found problems (see above)"; exit 1; }

step "apt-get install ./*.deb"
debs=()
for package in $packages; do debs+=("$(ls "$work/${package}_"*.deb)"); done
$SUDO apt-get install -y -qq --no-install-recommends "${debs[@]}" >/dev/null

step "installed tflaccel, outside the tree, clean environment"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugindir="/usr/lib/$multiarch/tflaccel/plugins"
run_dir="$work/run"
mkdir -p "$run_dir/home"
cp tests/data/face_detection_short_range.tflite "$run_dir/"
cp tests/data/ref/face_detection_short_range/input_0.bin "$run_dir/"
for k in 0 1; do
  cp "tests/data/ref/face_detection_short_range/output_$k.bin" "$run_dir/reference_$k.bin"
done
cd "$run_dir"
clean() { env -i PATH=/usr/bin:/bin HOME="$run_dir/home" "$@"; }
test "$(clean sh -c 'command -v tflaccel')" = /usr/bin/tflaccel || die "tflaccel is not /usr/bin/tflaccel"
# (/lib is /usr/lib on a merged-/usr system)
libraries=$(ldd /usr/bin/tflaccel)
grep -Eq "libtflaccel.so.0 => (/usr)?/lib/$multiarch/libtflaccel.so.0 " <<<"$libraries" ||
  die "/usr/bin/tflaccel does not use the installed libtflaccel: $libraries"
test "$(pkg-config --variable=plugindir tflaccel)" = "$plugindir" ||
  die "tflaccel.pc's plugindir is not $plugindir"
clean /usr/bin/tflaccel plugins | tee plugins.txt
grep -q "^config: /etc/tflaccel/tflaccel.ini$" plugins.txt || die "not the installed config"
for plugin in cpu_ref cpu_xnnpack gpu_cl gpu_vk gpu_gl; do
  grep -q "library:  $plugindir/lib$plugin.so" <<<"$(plugin_section "$plugin" <plugins.txt)" ||
    die "$plugin was not found in $plugindir"
done
# Each available plugin runs the model; its outputs must match the TFLite
# interpreter's (expected.json: rtol 1e-4 of max(1, max|ref|) in fp32).
check_outputs() {
  python3 - "$1" <<'PY'
import array, sys
out = sys.argv[1]
for k in (0, 1):
    ref, got = array.array("f"), array.array("f")
    ref.frombytes(open(f"reference_{k}.bin", "rb").read())
    got.frombytes(open(f"{out}/output_{k}.bin", "rb").read())
    assert len(ref) == len(got), f"output {k}: {len(got)} values, expected {len(ref)}"
    scale = max(1.0, max(abs(v) for v in ref))
    worst = max(abs(a - b) for a, b in zip(ref, got)) / scale
    assert worst <= 1e-4, f"output {k}: error {worst:.3g} > 1e-4"
    print(f"  output {k}: {len(got)} values, max error {worst:.2g} (of scale)")
PY
}
ran=0
for plugin in cpu_ref cpu_xnnpack gpu_cl gpu_vk gpu_gl; do
  if ! grep -q "status:   available" <<<"$(plugin_section "$plugin" <plugins.txt)"; then
    echo "$plugin: not available on this machine, not run"; continue
  fi
  mkdir -p "out-$plugin"
  clean /usr/bin/tflaccel run face_detection_short_range.tflite --accelerator "$plugin" \
    --input input_0.bin --output-dir "out-$plugin" | tail -n 3
  check_outputs "out-$plugin"
  ran=$((ran + 1))
done
[ "$ran" -ge 1 ] || die "no plugin ran the model"
# libtflaccel-dev: an application builds against the installed headers and .pc.
cat > app.c <<'C'
#include <stdio.h>
#include <tflaccel/tflaccel.h>
int main(void) {
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(NULL, &environment);
  if (status != NULL) { fprintf(stderr, "%s\n", tflaccel_status_message(status)); return 1; }
  printf("%u plugins configured\n", tflaccel_environment_plugin_count(environment));
  tflaccel_environment_destroy(environment);
  return 0;
}
C
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror app.c -o app $(pkg-config --cflags --libs tflaccel)
clean ./app

# tflaccel-tools' manual pages and python3-tflaccel, from the installed paths.
for page in man1/tflaccel.1 man5/tflaccel.ini.5; do
  test -f "/usr/share/man/$page.gz" || die "/usr/share/man/$page.gz is not installed"
done
clean /usr/bin/python3 - <<'PY'
import numpy as np
import tflaccel
assert tflaccel.__file__.startswith("/usr/lib/python3/dist-packages/"), tflaccel.__file__
print("python3-tflaccel", tflaccel.version(), "plugins:", [p["name"] if isinstance(p, dict) else p for p in tflaccel.plugins()])
interpreter = tflaccel.Interpreter(model_path="face_detection_short_range.tflite")
interpreter.allocate_tensors()
inp = interpreter.get_input_details()[0]
interpreter.set_tensor(inp["index"], np.fromfile("input_0.bin", inp["dtype"]).reshape(inp["shape"]))
interpreter.invoke()
for k, out in enumerate(interpreter.get_output_details()):
    got = interpreter.get_tensor(out["index"]).ravel()
    ref = np.fromfile(f"reference_{k}.bin", np.float32)
    error = np.max(np.abs(got - ref)) / max(1.0, np.max(np.abs(ref)))
    assert error <= 1e-4, f"output {k}: error {error:.3g}"
    print(f"  python output {k}: max error {error:.2g} (of scale)")
PY

step "a plugin package removed: reported as not installed, runs go on"
$SUDO apt-get remove -y -qq tflaccel-plugin-gpu-gl >/dev/null
grep -q "status:   not installed: libgpu_gl.so" <<<"$(clean /usr/bin/tflaccel plugins | plugin_section gpu_gl)" ||
  die "a removed plugin is not reported as not installed"
mkdir -p out-default
clean /usr/bin/tflaccel run face_detection_short_range.tflite --input input_0.bin \
  --output-dir out-default >/dev/null
check_outputs out-default

step "a drop-in in /etc/tflaccel/plugins.d adds a plugin section"
printf '[plugin.gpu_dropin_ci]\nlibrary = libgpu_dropin_ci.so\n' |
  $SUDO tee /etc/tflaccel/plugins.d/zz-ci.ini >/dev/null
grep -q "status:   not installed" <<<"$(clean /usr/bin/tflaccel plugins | plugin_section gpu_dropin_ci)" ||
  die "the drop-in's plugin is not listed"
clean /usr/bin/tflaccel run face_detection_short_range.tflite --accelerator gpu >/dev/null
$SUDO rm /etc/tflaccel/plugins.d/zz-ci.ini
cd "$top"

step "apt-get purge: nothing left"
# shellcheck disable=SC2086
$SUDO apt-get purge -y -qq $packages tflaccel-build-deps >/dev/null
left=$(ls -d /usr/lib/*/tflaccel /usr/lib/*/libtflaccel* /usr/lib/*/pkgconfig/tflaccel.pc \
  /usr/include/tflaccel /etc/tflaccel /usr/bin/tflaccel /usr/share/doc/*tflaccel* \
  /usr/share/man/man1/tflaccel.1.gz /usr/share/man/man5/tflaccel.ini.5.gz \
  /usr/lib/python3*/dist-packages/tflaccel 2>/dev/null || true)
[ -z "$left" ] || die "left after purge: $left"
echo "Debian packages: built, lintian-clean, installed, ran, purged (${SECONDS}s)"
