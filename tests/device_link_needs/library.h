/* The header of a library the program is linked with (no file of the program defines it). */
double from_a_library(double x);
