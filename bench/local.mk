# Benchmarks are run by hand (bench/run-all.sh), never by make check.
