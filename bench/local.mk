# Benchmarks are run by hand (bench/run-all.sh), never by make check; the
# script and the results it produced travel with the sources.
EXTRA_DIST += bench/run-all.sh bench/RESULTS.md bench/vs-litert.sh bench/vs_litert.py \
	bench/fidelity-vs-litert.sh bench/fidelity_vs_litert.py bench/pthreadpool_forkjoin.c
