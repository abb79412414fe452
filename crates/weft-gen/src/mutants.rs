//! MC-Mutants (paper 001 §3.1).
