//! `rochade board-sim` (being built).
#[derive(clap::Args, Debug)]
pub struct Args {}
pub fn run(_args: Args) -> super::CliResult {
    Err(super::CliError::failure("board-sim is not available yet"))
}
