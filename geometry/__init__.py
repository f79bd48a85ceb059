"""Pure geometry: parameters in millimetres in, shapely geometry out. No I/O, no drawing."""
