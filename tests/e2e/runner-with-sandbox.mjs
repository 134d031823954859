// What `./build.sh demo` runs, on the test's ports: the sandbox started as the demo
// starts it (runner/sandbox.mjs), then the runner's main in the same process. For the
// test that kills this process and checks that nothing it started survives.
//
//   node tests/e2e/runner-with-sandbox.mjs PORT_BASE RUNNER_ARGS...

import { main } from '../../runner/run.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { hopbenchBin } from './native.mjs';

const [base, ...args] = process.argv.slice(2);
const sandbox = await startSandbox(hopbenchBin(), (line) => console.log(line), ['--port-base', base]);
console.log(`sandbox pid ${sandbox.pid}`);
try {
  process.exitCode = await main(args);
} finally {
  await sandbox.stop();
}
