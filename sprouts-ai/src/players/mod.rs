//! The computer players (spec section 5).
