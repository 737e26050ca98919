//! `rochade track` (being built).
#[derive(clap::Args, Debug)]
pub struct Args {}
pub fn run(_args: Args) -> super::CliResult {
    Err(super::CliError::failure("track is not available yet"))
}
