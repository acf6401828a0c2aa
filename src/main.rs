//! The `saddlefw` binary: everything lives in [`saddlefw::cli`].
fn main() {
    std::process::exit(saddlefw::cli::main());
}
