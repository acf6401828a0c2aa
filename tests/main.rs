mod data;
mod envelopes;
mod experiment_problems;
mod fit;
mod theorems;
