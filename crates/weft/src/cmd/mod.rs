//! One module per subcommand.

pub mod conform;
pub mod mc;
pub mod parse;
pub mod results;
pub mod run;
pub mod show;
pub mod sim;
pub mod tune;
