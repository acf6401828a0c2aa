mod common;
mod problems;
mod sets;
