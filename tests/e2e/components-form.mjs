// The design-system form of sites/components (a text field, a custom listbox and a
// button with an inline SVG icon, each a custom element drawing its parts in a shadow
// root, the listbox's closed) as a task, for the popup's and the runner's tests, and a
// fake model that fills and sends it by reading the ids off each observation.

import { observationOf } from './play-agent.mjs';

/**
 * The task: name Ada, city Lisbon, sent.
 * @param {(path: string) => string} url the components site's URL of a path
 */
export function componentsTask(url) {
  return {
    id: 'e2e/components-form',
    intent: 'Book a table for Ada in Lisbon with the booking form, and send it.',
    start_urls: [url('/index.html')],
    hops: [{
      condition: { kind: 'all', of: [
        { kind: 'url', part: 'path', op: 'contains', value: 'sent.html' },
        { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'Ada' },
        { kind: 'url', part: 'param', param: 'city', op: 'equals', value: 'lisbon' },
      ] },
    }],
    reference_trajectory: [
      "type {textbox 'Your name'} [Ada] [0]",
      "click {combobox 'City'}",
      "click {option 'Lisbon'}",
      "click {button 'Send'}",
    ],
  };
}

/**
 * The fake model's replies, one per step: each finds its element's id in the prompt's
 * observation, as a model would.
 * @returns {((request: { text: string }) => string)[]}
 */
export function componentsAgent() {
  /** @param {string} role @param {string} name */
  const idOf = (role, name) => (/** @type {{ text: string }} */ request) => {
    const line = observationOf(request).split('\n').find((l) => l.includes(`${role} '${name}'`));
    const id = line?.match(/\[(\d+)\]/)?.[1];
    if (!id) throw new Error(`no ${role} '${name}' in the observation:\n${observationOf(request)}`);
    return id;
  };
  /** @param {string} action */
  const say = (action) => `Let's think step-by-step. In summary, the next action I will perform is \`\`\`${action}\`\`\``;
  return [
    (request) => say(`type [${idOf('textbox', 'Your name')(request)}] [Ada] [0]`),
    (request) => say(`click [${idOf('combobox', 'City')(request)}]`),
    (request) => say(`click [${idOf('option', 'Lisbon')(request)}]`),
    // The click that sends the form completes the task's one hop: the run ends there.
    (request) => say(`click [${idOf('button', 'Send')(request)}]`),
  ];
}
