#!/usr/bin/env bash
# copy-plot.sh: draw the nbdcopy benchmark results (the .dat files the
# copy-*.sh scripts wrote) as bench/copy-sweep.png and
# bench/copy-compare.png with gnuplot.
set -e
bench_dir="$(cd "$(dirname "$0")" && pwd)"
p="${DATA_PREFIX:-/tmp/copy-bench}"
command -v gnuplot >/dev/null || { echo "$0: needs gnuplot" >&2; exit 1; }

# The sweep, without its "default" row.
grep '^2^' "$p-sweep.dat" > "$p-sweep-only.dat"
gnuplot <<EOG
set terminal png size 800,450 noenhanced
set output "$bench_dir/copy-sweep.png"
set title "nbdcopy --request-size sweep, sparse-random 16G nbd to nbd"
set xlabel "request size"
set ylabel "seconds (median)"
set yrange [0:*]
set grid
set style data linespoints
plot "$p-sweep-only.dat" using 0:2:xtic(1) title "ours" lw 2 pt 7
EOG

# One bar group per workload: each tool's time relative to ours.
gnuplot <<EOG
set terminal png size 1000,700 noenhanced
set output "$bench_dir/copy-compare.png"
set title "time relative to our nbdcopy (median of per-round ratios; lower is faster)"
set ylabel "ratio"
set yrange [0:*]
set style data histograms
set style fill solid 0.7 border -1
set boxwidth 0.9
set grid y
set xtics rotate by -30
set multiplot layout 2,2
set title "sparse-random 16G"
plot "$p-compare.dat" using 3:xtic(1) notitle
set title "1 ms delay"
plot "$p-delay.dat" using 3:xtic(1) notitle
set title "file to file 4G"
plot "$p-files.dat" using 3:xtic(1) notitle
set title "blkhash vs sha256sum"
plot "$p-blkhash.dat" using 3:xtic(1) notitle
unset multiplot
EOG
echo "wrote $bench_dir/copy-sweep.png and $bench_dir/copy-compare.png"
