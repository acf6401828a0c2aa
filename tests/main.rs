mod common;
mod sets;
