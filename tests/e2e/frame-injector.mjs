// The test extension that shows frames of its own in every page, as password managers'
// and translators' inline menus do (extensions/frame-injector), and the bundled tasks
// the tests run beside it: they type into fields (its menu frame appears mid-typing)
// and hop across sites.

import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

export const FRAME_INJECTOR = join(repoRoot, 'tests', 'e2e', 'extensions', 'frame-injector');
export const WITH_FRAMES = Object.freeze(['sb-01-beanie-colour', 'sb-04-london-paris-flights', 'sb-29-bondi-yoga-then-hotel']);
/** The observation's last line when frames were taken out of the page. */
export const NOT_OBSERVED = /\n\n\((\d+) frames? of (another extension|other extensions): not observed\)$/;
