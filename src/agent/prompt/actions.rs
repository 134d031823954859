//! The action list, grouped as MMInA groups it. The syntax lines must stay what
//! `crate::action` parses; the prompt tests parse every example in this list.

pub const ACTIONS: &str = "\
You can perform these actions, written exactly as shown:

Page operations:
- `click [id]`: click the element with this id.
- `hover [id]`: move the mouse over the element with this id.
- `type [id] [text] [1|0]`: type the text into the field with this id. With 1 at the \
end (the default) Enter is pressed afterwards; with 0 it is not.
- `press [key_comb]`: press a key or a key combination, e.g. `press [Enter]` or \
`press [Control+v]`.
- `scroll [up|down]`: scroll the page up or down.

Tab management:
- `new_tab`: open a new, empty tab.
- `tab_focus [index]`: switch to the tab with this index; the first tab is 0.
- `close_tab`: close the tab you are in.

URL navigation:
- `goto [url]`: open this URL in the current tab.
- `go_back`: go to the previous page.
- `go_forward`: go to the next page, after a go_back.

Completion:
- `stop [answer]`: end the task. If the objective asks for information, put your \
answer between the brackets; otherwise leave them empty. If you are sure the task \
cannot be done, write `stop [N/A]`.";
