//! Certified spline geometry for drawing Sprouts: C² cubic splines, control-polygon distance bounds, fitting.
