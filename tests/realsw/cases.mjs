// The real-software tier's tasks: MMInA task files under tasks/ (in MMInA's folder
// layout, so their ids are mmina/<domain>/<task_id>), the scripted agent's steps for
// each, and the outcome MMInA's hop counting gives that trajectory (docs: mmina.md,
// "How the released counting loop credits hops"), with the reason.
//
// `{{kiwix}}` is the Kiwix root (http://127.0.0.1:<port>/kiwix) and `{{wiki}}` the
// MediaWiki origin (http://127.0.0.1:<port>); tasks and steps are filled in at run time.
//
// `needs` names the branches whose behaviour a case's expectation depends on, so a
// failure before they are merged says why:
//   i9core  the `kiwix` hop is credited only on leaving Kiwix for a page whose URL holds
//           the next checkpoint's keyword (its tokens are the next hop's business), and
//           that page is checked against the next hop too; `wiki` needs the city like
//           every checkpoint but `kiwix`
//   i9web   hops credited from URL changes without a page load (#fragment, pushState)

export const CASES = Object.freeze([
  {
    file: 'normal/1.json',
    id: 'mmina/normal/1',
    key: 'a red tower, Tokyo or Paris? Open its article on Citywiki',
    steps: [
      "click link 'Tokyo'",
      'goto [{{wiki}}/wiki/Main_Page]',
      "click searchbox 'Search Citywiki'",
      "type searchbox 'Search Citywiki' [Tokyo] [1]",
      'stop [{{wiki}}/wiki/Tokyo]',
    ],
    expect: { verdict: 'PASS', hops_completed: 2, hop_steps: [2, 4], steps: 5, answer_score: 1 },
    why: 'Kiwix pages (start, Tokyo article) never credit the kiwix hop; the wiki Main_Page (step 2) leaves Kiwix ' +
      'for a page with "wiki", the next checkpoint, which is all the kiwix hop asks; the wiki hop also needs ' +
      '"tokyo": "Tokyo" + Enter in the search box (clicked first, so its script is loaded: ' +
      'mediawiki-typing.test.mjs) lands on /wiki/Tokyo (step 4)',
    needs: ['i9core'],
  },
  {
    file: 'normal/2.json',
    id: 'mmina/normal/2',
    key: 'a brown iron tower, Tokyo or Paris? Open its article on Citywiki',
    steps: [
      `type textbox "Search 'Cities of the world'" [Paris] [1]`,
      "click link 'Paris'",
      "click link 'Paris on Citywiki'",
      'stop [{{wiki}}/wiki/Paris]',
    ],
    expect: { verdict: 'PASS', hops_completed: 2, hop_steps: [3, 3], steps: 4, answer_score: 1 },
    why: "Kiwix's full-text results and the Paris article stay on Kiwix; the article's external link to " +
      '/wiki/Paris (step 3) leaves Kiwix for a page with "wiki" and "paris": both hops on that navigation',
    needs: ['i9core'],
  },
  {
    file: 'normal/3.json',
    id: 'mmina/normal/3',
    key: 'a white tower, Tokyo or San Francisco? Open its article on Citywiki',
    steps: ['scroll [down]', 'scroll [up]', 'stop [N/A]'],
    expect: { verdict: 'FAIL', hops_completed: 0, hop_steps: [null, null], steps: 3, answer_score: 0 },
    why: 'an agent that never leaves the Kiwix start page completes no hop: being on Kiwix never credits the kiwix hop',
    needs: ['i9core'],
  },
  {
    file: 'wikipedia/1.json',
    id: 'mmina/wikipedia/1',
    key: 'In which city does a red and white tower rise 333 metres?',
    steps: ["click link 'Tokyo'", 'stop [Tokyo]'],
    expect: { verdict: 'PASS', hops_completed: 1, hop_steps: [2], steps: 2, answer_score: null },
    why: 'a 1-hop task whose hop is the answer: "Tokyo" includes the reference "Tokyo"',
    needs: [],
  },
  {
    file: 'wikipedia/2.json',
    id: 'mmina/wikipedia/2',
    key: 'Which is taller, Tokyo Tower or the Eiffel Tower?',
    steps: [
      `type textbox "Search 'Cities of the world'" [Eiffel] [1]`,
      "click link 'Paris'",
      'stop [The Eiffel Tower]',
    ],
    expect: { verdict: 'FAIL', hops_completed: 0, hop_steps: [null], steps: 3, answer_score: null },
    why: 'the answer "The Eiffel Tower" does not include the reference "Tokyo Tower" (333 m against 330 m)',
    needs: [],
  },
  {
    file: 'wikipedia/3.json',
    id: 'mmina/wikipedia/3',
    key: 'Open the History section of the article about Tokyo.',
    steps: ["click link 'History'", 'stop [{{kiwix}}/cities/A/Tokyo#History]'],
    expect: { verdict: 'PASS', hops_completed: 1, hop_steps: [1], steps: 1, answer_score: null },
    why: 'the contents link changes the URL to …/Tokyo#History without a page load (step 1), which holds the ' +
      'reference URL; the task has no answer check, so the run ends there',
    needs: ['i9web'],
  },
]);
