//! One module per subcommand.

pub mod parse;
pub mod show;
pub mod sim;
