mod data;
mod experiment_problems;
