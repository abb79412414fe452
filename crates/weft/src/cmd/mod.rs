//! One module per subcommand.

pub mod conform;
pub mod parse;
pub mod results;
pub mod run;
pub mod show;
pub mod sim;
pub mod tune;
pub mod verify;
