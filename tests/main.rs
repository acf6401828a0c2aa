mod cli;
mod solvers;
