mod envelopes;
mod fit;
mod theorems;
