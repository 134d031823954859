// The encyclopedia content both real sites serve: the Kiwix ZIM renders it as HTML
// articles, the MediaWiki imports it as wikitext. A few cities with a tower each, so
// tasks can ask MMInA-style questions ("Which city has a red tower, Tokyo or Paris?")
// whose answer is on one article and whose next hop is another site.

/**
 * @typedef {{ title: string, tower: string, colour: [number, number, number], summary: string,
 *   history: string, landmarks: string }} City
 */

/** @type {readonly City[]} */
export const CITIES = Object.freeze([
  {
    title: 'Tokyo',
    tower: 'Tokyo Tower',
    colour: [205, 40, 30],
    summary: 'Tokyo is the capital of Japan and its largest city.',
    history: 'Tokyo was a fishing village named Edo until it became the seat of the shogunate in 1603.',
    landmarks: 'Tokyo Tower, painted red and white, rises 333 metres over Minato.',
  },
  {
    title: 'Paris',
    tower: 'Eiffel Tower',
    colour: [110, 90, 70],
    summary: 'Paris is the capital of France, on the river Seine.',
    history: 'Paris grew from a settlement of the Parisii on the Île de la Cité.',
    landmarks: 'The Eiffel Tower, of brown wrought iron, rises 330 metres over the Champ de Mars.',
  },
  {
    title: 'San Francisco',
    tower: 'Coit Tower',
    colour: [235, 235, 225],
    summary: 'San Francisco is a city in California on the tip of a peninsula.',
    history: 'San Francisco grew quickly during the gold rush of 1849.',
    landmarks: 'Coit Tower, a white concrete column, stands on Telegraph Hill.',
  },
]);

/** The article path of a title in both sites: spaces become underscores. */
export const articlePath = (/** @type {string} */ title) => title.replaceAll(' ', '_');

/** The encyclopedia's sections of a city, in order, with their anchor ids. */
export const sections = (/** @type {{ history: string, landmarks: string }} */ city) => [
  { id: 'History', heading: 'History', text: city.history },
  { id: 'Landmarks', heading: 'Landmarks', text: city.landmarks },
];
