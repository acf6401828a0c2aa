
mod data;
