// `node tests/realmodel/install.mjs`: builds the real-model tier's llama-server and
// unpacks its model under target/tools/ when missing (tests/realmodel/llama.mjs says
// from what, and how), printing each step and how long it took. Run twice, the second
// run only says what is there. Exit status 0 also when the tier cannot be installed: it
// then prints one line "realmodel: skipped: <reason>" and the tests skip with the same
// reason. build.sh's realmodel stage runs it before the tests, which never build.

import { installModelServer, duration } from './llama.mjs';

const started = Date.now();
const result = await installModelServer({ log: (line) => console.log(`realmodel: ${line}`) });
const took = duration(Date.now() - started);
if (!result.ok) {
  console.log(`realmodel: skipped: ${result.reason}`);
} else if (result.built) {
  const steps = Object.entries(result.stamp.seconds).map(([step, s]) => `${step} ${duration(s * 1000)}`).join(', ');
  console.log(`realmodel: installed ${result.server} (${result.stamp.version}) and ${result.model} in ${took}: ${steps}`);
} else {
  console.log(`realmodel: server present: ${result.server} (${result.stamp.version}), model ${result.model} (checked in ${took})`);
}
