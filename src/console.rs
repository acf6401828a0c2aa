//! The commands' stdout and stderr: writes that never panic on a closed pipe (the `out!` and
//! `outln!` macros of the crate go through [`write_stdout`]). Crate-private: the closed pipe is
//! tested through the binary (`tests/cli_errors.rs`).

/// Writes a command's output to stdout. A failed write (the reader of a pipe went away, as in
/// `saddlefw list | head -1`, or a full disk) is not an error of the command: the output is
/// dropped and the command still finishes its work, writes its files and returns its exit code,
/// so `saddlefw verify | head -1` gates exactly like `saddlefw verify`. (`println!` would panic.)
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_fmt(args);
}

/// Writes an error line to stderr; a closed stderr drops it (the exit code still tells).
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_fmt(args);
}
