//! `rochade say` and `rochade voices` (being built).
#[derive(clap::Args, Debug)]
pub struct SayArgs {}
#[derive(clap::Args, Debug)]
pub struct VoicesArgs {}
pub fn run_say(_args: SayArgs) -> super::CliResult {
    Err(super::CliError::failure("say is not available yet"))
}
pub fn run_voices(_args: VoicesArgs) -> super::CliResult {
    Err(super::CliError::failure("voices is not available yet"))
}
