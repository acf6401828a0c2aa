mod common;
mod measures;
mod problems;
mod sets;
