//! `rochade export` (being built).
#[derive(clap::Args, Debug)]
pub struct Args {}
pub fn run(_args: Args) -> super::CliResult {
    Err(super::CliError::failure("export is not available yet"))
}
