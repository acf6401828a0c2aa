//! Embeds the stored hardest instances (`fixtures/hard/*.json`) into the binary, so that
//! `saddlefw verify` runs the hard gates from any working directory: writes
//! `$OUT_DIR/hard_fixtures.rs`, a list of `(file name, include_str!(...))` pairs.

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"))
        .join("fixtures/hard");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut code = String::from("&[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.file_name().unwrap().to_string_lossy();
        code.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            f.display().to_string()
        ));
    }
    code.push_str("]\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("hard_fixtures.rs");
    std::fs::write(out, code).expect("write hard_fixtures.rs");
}
