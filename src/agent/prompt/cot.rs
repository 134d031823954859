//! Chain of thought: reason about the page and the objective, then name the action in
//! a fixed closing sentence that `crate::action::extract_action` looks for.

pub const REPLY_RULE: &str = "\
First think it through: what the page shows, what the objective still needs, and \
which action gets you closer. Then end your reply with the sentence \"In summary, the \
next action I will perform is\" followed by the action between triple backticks, e.g. \
In summary, the next action I will perform is ```click [1234]```";
