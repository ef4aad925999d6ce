# Run by GTKWave (-S) after it has loaded a dump and a .gtkw: writes the name of every trace it shows,
# one per line, to the file $GTKW_OUT, then quits. Signals of the save file that GTKWave could not find
# in the dump are not shown.
set out [open $::env(GTKW_OUT) w]
set n [gtkwave::getTotalNumTraces]
for {set i 0} {$i < $n} {incr i} {
    puts $out [gtkwave::getTraceNameFromIndex $i]
}
close $out
gtkwave::/File/Quit
