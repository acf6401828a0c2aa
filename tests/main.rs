
mod report;
