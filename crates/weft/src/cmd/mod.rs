//! One module per subcommand.

pub mod parse;
pub mod results;
pub mod show;
pub mod sim;
