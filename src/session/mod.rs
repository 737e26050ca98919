//! The session core: one `Event` in, a list of `Effect`s out.

mod effect;

pub use effect::{Earcon, Priority, Speech};
