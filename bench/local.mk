# Benchmarks are run by hand (bench/run-all.sh), never by make check; the
# script and the results it produced travel with the sources.
EXTRA_DIST += bench/run-all.sh bench/RESULTS.md
