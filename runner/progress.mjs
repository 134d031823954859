// What the runner prints while it works: one line when a task starts, one whenever its
// hop or step changes, one when it ends. Lines, not a redrawn screen, so logs of
// parallel and non-interactive runs read the same.

export function makeProgress({ total, write = (line) => process.stdout.write(`${line}\n`), redact }) {
  const width = String(total).length;
  const head = (index, task) => `task ${String(index).padStart(width)}/${total} ${task.id}`;
  return {
    started(index, task) {
      write(`${head(index, task)}  started (${task.hops} hop${task.hops === 1 ? '' : 's'})`);
    },
    step(index, task, { hop, hops, step }) {
      write(`${head(index, task)}  hop ${hop}/${hops || task.hops}  step ${step}`);
    },
    finished(index, task, line) {
      const seconds = (line.time_ms / 1000).toFixed(1);
      const error = line.error ? `  ${redact(line.error)}` : '';
      write(
        `${head(index, task)}  ${line.verdict}  hops ${line.hops_completed}/${line.hops_total}  ` +
          `steps ${line.steps}  ${seconds} s${error}`,
      );
    },
    note(text) {
      write(redact(text));
    },
  };
}

/**
 * Runs `work(item, index, lane)` over `items` on `lanes` lanes (0..lanes-1), each lane
 * taking the next item when it is free, so items start in order.
 */
export async function runPool(items, lanes, work, shouldStop = () => false) {
  let next = 0;
  const lane = async (laneIndex) => {
    while (next < items.length && !shouldStop()) {
      const index = next;
      next += 1;
      await work(items[index], index, laneIndex);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, (_, i) => lane(i)));
}
