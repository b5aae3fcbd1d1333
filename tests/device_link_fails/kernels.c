/* Defined here, and declare target nowhere: no device version is built. */
double damp(double v, double rate) { return v * (1.0 - rate); }
