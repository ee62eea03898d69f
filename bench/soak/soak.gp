# Plots a soak run (bench/soak/soak.sh): throughput, latency and resident memory over time, the
# concurrency-1 phase shaded blue and the concurrency-64 phase red.
# gnuplot -e "datafile='soak.dat'; rssfile='soak-rss.dat'; outfile='soak.png'" soak.gp
set terminal pngcairo size 1100,900 font ",10"
set output outfile
phases = sprintf("%s/soak-phases.gp", system("dirname ".datafile))
load phases
set multiplot layout 3,1 title "puzzled soak: mixed puzzles + hostile requests (blue: 1 connection, red: 64)"
set grid
set xlabel "seconds"
set ylabel "requests per second"
set key top left
plot datafile using 1:2 with steps lw 2 title "answered (access log)"
set logscale y
set ylabel "server latency, ms"
plot datafile using 1:3 with lines lw 2 title "p50", \
     datafile using 1:4 with lines lw 2 title "p99"
unset logscale y
set ylabel "resident memory, MiB"
set yrange [0:*]
plot rssfile using 1:2 with lines lw 2 title "VmRSS"
unset multiplot
