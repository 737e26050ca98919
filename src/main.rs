fn main() {
    std::process::exit(rochade::cli::main());
}
