mod cli;
mod data;
mod envelopes;
mod experiment_problems;
mod fit;
mod report;
mod solvers;
mod theorems;
