// A fake model that plays the agent of the 3-hop task (run-helpers.mjs threeHopTask):
// the fake server calls it with each request's record and sends back its text.

/** The links of the 3-hop task, the furthest one first: the agent follows the first it sees. */
export const ROUTE = ['Events in Tokyo', 'the events site', 'Tokyo Tower'];

/**
 * The user turn's observation: the last `OBSERVATION:` of the request (the system prompt's examples come first).
 * @param {{ text: string }} request a fake provider's request record
 */
export function observationOf(request) {
  return request.text.slice(request.text.lastIndexOf('OBSERVATION:')).split('\nURL:')[0];
}

/**
 * A chain of thought ending in a click on the link of ROUTE that the prompt's
 * observation shows, or a stop when none is there.
 * @param {{ text: string }} request a fake provider's request record
 */
export function playAgent(request) {
  const observation = observationOf(request);
  for (const name of ROUTE) {
    const line = observation.split('\n').find((l) => l.includes(`link '${name}'`));
    const id = line?.match(/\[(\d+)\]/)?.[1];
    if (id) {
      return `Let's think step-by-step. The page shows the link '${name}', which leads to the next site. In summary, the next action I will perform is \`\`\`click [${id}]\`\`\``;
    }
  }
  return "Let's think step-by-step. Nothing here leads on. In summary, the next action I will perform is ```stop [no route]```";
}
