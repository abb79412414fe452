//! One module per subcommand.

pub mod analyze;
pub mod conform;
pub mod gen;
pub mod mc;
pub mod mc_repair;
pub mod mc_suite;
pub mod parse;
pub mod program;
pub mod race;
pub mod results;
pub mod run;
pub mod serve;
pub mod show;
pub mod sim;
pub mod submit;
pub mod tune;
pub mod verify;
