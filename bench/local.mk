# Benchmarks are run by hand (bench/run-all.sh, bench/compare-builds.sh),
# never by make check; the scripts and the results they produced travel
# with the sources.
EXTRA_DIST += bench/run-all.sh bench/compare-builds.sh bench/RESULTS.md
