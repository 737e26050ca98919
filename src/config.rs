//! Settings (being built)
