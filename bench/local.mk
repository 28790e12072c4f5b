# Benchmarks and the reference check for installed builds are run by hand
# (run-all.sh, device-io.sh, device-native-sync.sh, cache-cold-warm.sh,
# compare-builds.sh, check-references.py, vs-litert.sh, fidelity-vs-litert.sh,
# quant-vs-litert.sh, quant-vs-float.sh, svdf-intermediate.py), never by make check;
# the scripts and the results they produced travel with the sources.
EXTRA_DIST += bench/run-all.sh bench/compare-builds.sh bench/check-references.py \
	bench/RESULTS.md bench/vs-litert.sh bench/vs_litert.py bench/fidelity-vs-litert.sh \
	bench/fidelity_vs_litert.py bench/pthreadpool_forkjoin.c bench/device-io.sh \
	bench/device-external-memory.sh \
	bench/cache-cold-warm.sh bench/quant-vs-litert.sh bench/device-native-sync.sh \
	bench/quant_vs_litert.py bench/quant_binary_models.c bench/sha256_speed.c \
	bench/quantized-fidelity.py bench/reference_models.py bench/quant-vs-float.sh \
	bench/mlp_twin_models.c \
	bench/svdf-intermediate.py bench/movenet-keypoints.py
