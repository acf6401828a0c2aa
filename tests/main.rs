mod cli;
mod data;
mod envelopes;
mod experiment_problems;
mod fit;
mod solvers;
mod report;
mod theorems;
