//! Direct: the reply is the action and nothing else.

pub const REPLY_RULE: &str = "\
Reply with the action alone, between triple backticks, e.g. ```click [1234]```, \
without any explanation.";
