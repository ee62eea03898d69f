set xrange [0:80]
set object 1 rect from 3.0, graph 0 to 33.3, graph 1 behind fillcolor rgb '#4477aa' fillstyle solid 0.15 noborder
set object 2 rect from 36.3, graph 0 to 66.4, graph 1 behind fillcolor rgb '#cc6677' fillstyle solid 0.15 noborder
