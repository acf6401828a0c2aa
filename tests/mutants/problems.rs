//! Mutation campaign (issue 18): tests aimed at a class of surviving mutants in `src/problems`.
