mod data;
mod envelopes;
mod experiment_problems;
mod fit;
mod report;
mod theorems;
