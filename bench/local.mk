# Benchmarks and the reference check for installed builds are run by hand
# (bench/run-all.sh, compare-builds.sh, check-references.py), never by make
# check; the scripts and the results they produced travel
# with the sources.
EXTRA_DIST += bench/run-all.sh bench/compare-builds.sh bench/check-references.py bench/RESULTS.md \
	bench/cache-cold-warm.sh
