// Authoring by doing: where a person's recorded steps go in a task file. A task
// without a reference trajectory gets the recording as its reference; a task that has
// one keeps it and gains the recording as an alternative valid path
// (`alternative_trajectories`), which the diagnosis scores as a valid alternative
// (docs/diagnosis.md). The same path twice is not added again.

/**
 * @typedef {{ reference_trajectory?: string[], alternative_trajectories?: string[][], [field: string]: unknown }} TaskFile
 * @typedef {{ task: TaskFile, placed: 'reference' | 'alternative' | 'already there', index: number }} Placed
 */

/**
 * The task file with the recording placed in it, and where it went (`index`: the
 * alternative's position from 1, 0 for the reference).
 * @param {TaskFile} task a task file in our format
 * @param {string[]} recording the person's steps as reference steps (`reference_of`)
 * @returns {Placed}
 */
export function withRecording(task, recording) {
  const same = (/** @type {string[]} */ path) => path.length === recording.length && path.every((step, i) => step === recording[i]);
  const reference = task.reference_trajectory ?? [];
  if (reference.length === 0) return { task: { ...task, reference_trajectory: recording }, placed: 'reference', index: 0 };
  if (same(reference)) return { task, placed: 'already there', index: 0 };
  const alternatives = task.alternative_trajectories ?? [];
  const at = alternatives.findIndex(same);
  if (at >= 0) return { task, placed: 'already there', index: at + 1 };
  return {
    task: { ...task, alternative_trajectories: [...alternatives, recording] },
    placed: 'alternative',
    index: alternatives.length + 1,
  };
}

/**
 * What the runs page says after saving.
 * @param {string} name the saved file's name
 * @param {Placed} placed
 * @param {number} steps
 * @returns {string}
 */
export function savedMessage(name, placed, steps) {
  switch (placed.placed) {
    case 'reference':
      return `Saved ${name} with ${steps} reference steps.`;
    case 'alternative':
      return `Saved ${name}: the task's reference kept, your ${steps} steps added as alternative path ${placed.index}.`;
    default:
      return `Saved ${name}: your ${steps} steps are already the task's ${placed.index === 0 ? 'reference' : `alternative path ${placed.index}`}.`;
  }
}
