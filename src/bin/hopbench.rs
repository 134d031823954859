//! Native command-line entry point (build.sh calls it).
fn main() {
    println!("hopbench");
}
