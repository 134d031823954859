// What content/act.js puts on `globalThis.__hopbenchAct` in each frame it is injected
// into, and what each function returns: act.js is checked against it, and the worker
// (worker/act/page-script.js) types the results of its calls with it.

export type Typer = 'select' | 'toggle' | 'picked' | 'keys';

export interface Prepared {
  element: string;
  hit: boolean;
  hitElement: string | null;
  /** The element's centre in the top frame's viewport; null inside a cross-origin frame. */
  point: { x: number; y: number } | null;
  typer: Typer | null;
}

export type Typed =
  | { kind: 'select'; value: string; text: string }
  | { kind: string; checked: boolean }
  | { kind: string; value: string };

export interface FocusedField {
  field: string;
  focusedBy: 'click' | 'focus';
  focused: boolean;
  empty: boolean;
}

export interface Scrolled {
  moved: boolean;
  scroller: string | null;
  scrollable: boolean;
  before: number;
  after: number;
}

export interface ActApi {
  prepare(token: string): Prepared;
  click(token: string): boolean;
  hover(token: string): boolean;
  type(token: string, text: string): Typed;
  focusField(token: string): FocusedField;
  fieldValue(token: string): string | null | undefined;
  unmark(token: string): boolean;
  scroll(direction: 'up' | 'down'): Scrolled;
  quietFor(quietMs: number, maxMs: number): Promise<{ quiet: boolean; waitedMs: number; sawMutation: boolean }>;
}

declare global {
  var __hopbenchAct: ActApi | undefined;
}
