//! The `vmafx` command line.

fn main() {
    println!("vmafx {}", vmafx::VERSION);
}
