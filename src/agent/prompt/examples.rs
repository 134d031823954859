//! The two worked examples every prompt carries: one step in the middle of a multihop
//! task (follow a link found by a search) and the step that ends one (answer with
//! `stop`). Both styles show the same situations; only the replies differ.

use super::user::{turn_text, TurnInput};
use crate::observation::ObservationFormat;

/// One example step: what the model would be shown and a good reply.
pub struct Example {
    pub observation: &'static str,
    pub url: &'static str,
    pub objective: &'static str,
    pub previous_action: &'static str,
    /// Reasoning that ends with the summary sentence and the fenced action.
    pub cot_reply: &'static str,
    /// The fenced action alone.
    pub direct_reply: &'static str,
}

pub const EXAMPLES: [Example; 2] = [
    Example {
        observation: "Tab 0 (current): Search results - Wikipedia

[1] RootWebArea 'Search results - Wikipedia' focused: True
\t[14] searchbox 'Search Wikipedia'
\t[22] heading 'Results for: highest mountain in Japan'
\t[37] link 'Mount Fuji'
\t[38] StaticText 'Active volcano on Honshu; at 3,776 m the tallest peak of Japan.'
\t[45] link 'Mount Kita'
\t[46] StaticText 'Second-highest mountain of Japan, in the Southern Alps.'",
        url: "http://wiki.example/search?q=highest+mountain+in+Japan",
        objective: "Find the highest mountain in Japan and the large city nearest to it, \
then look for hotels in that city.
Reference websites: Hotels: http://hotels.example/",
        previous_action:
            "type [14] [highest mountain in Japan] [1] where [14] is searchbox 'Search Wikipedia'",
        cot_reply: "Let's think step by step. The results say Mount Fuji is the tallest peak of \
Japan. Which large city lies nearest should be in its article, and result [37] links to \
it. Opening that article comes before the hotel part of the task. In summary, the next \
action I will perform is ```click [37]```",
        direct_reply: "```click [37]```",
    },
    Example {
        observation: "Tab 0 (current): Hotels in Tokyo | Tab 1: Mount Fuji - Wikipedia

[2] RootWebArea 'Hotels in Tokyo' focused: True
\t[14] heading '2 hotels in Tokyo'
\t[20] link 'Shinjuku Garden Hotel'
\t[21] StaticText '$142 per night'
\t[27] link 'Asakusa River Inn'
\t[28] StaticText '$96 per night'
\t[35] button 'Sort by price'",
        url: "http://hotels.example/search?city=Tokyo",
        objective: "Look up hotels in Tokyo; this part is finished as soon as the hotel results \
are shown. Which of the hotels found costs less per night? Answer with its name.",
        previous_action: "click [19] where [19] is button 'Search'",
        cot_reply: "Let's think step by step. The hotel results for Tokyo are on the page, which \
is the point where the objective says this part ends. Shinjuku Garden Hotel costs $142 per \
night and Asakusa River Inn $96, so the cheaper one is Asakusa River Inn, and nothing is \
left to do but answer. In summary, the next action I will perform is \
```stop [Asakusa River Inn]```",
        direct_reply: "```stop [Asakusa River Inn]```",
    },
];

/// The examples as the system prompt shows them, each laid out exactly like a real
/// turn so the model sees the format it will be given.
pub fn examples_text(
    reply_of: impl Fn(&Example) -> &'static str,
    format: ObservationFormat,
) -> String {
    EXAMPLES
        .iter()
        .enumerate()
        .map(|(i, example)| {
            let observation = match format {
                ObservationFormat::Mmina => example.observation.to_string(),
                ObservationFormat::Compact => compact_example(example.observation),
            };
            let turn = turn_text(&TurnInput {
                observation: &observation,
                url: example.url,
                objective: example.objective,
                previous_action: example.previous_action,
                feedback: None,
            });
            format!(
                "Example {}\n\n{turn}\n\nREPLY:\n{}",
                i + 1,
                reply_of(example)
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// An example observation as the compact format writes it (`ObserveOptions::compact`):
/// no indentation, no root line, text without its id, role and quotes. The examples'
/// element ids stay, so their replies still fit.
fn compact_example(observation: &str) -> String {
    observation
        .lines()
        .filter_map(|line| {
            let line = line.trim_start_matches('\t');
            let Some(rest) = line.strip_prefix('[') else {
                return Some(line.to_string());
            };
            let (_, element) = rest.split_once("] ")?;
            if element.starts_with("RootWebArea ") {
                return None;
            }
            match element.strip_prefix("StaticText '") {
                Some(text) => Some(text.trim_end_matches('\'').to_string()),
                None => Some(line.to_string()),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
