// The Chrome DevTools Protocol's command types, from the protocol description that
// playwright-core (a dev dependency, used by the tests) ships: type-only, nothing of
// it reaches the extension. cdp/cdp.js `send` maps a method name to its parameters and
// reply with them.
import type { Protocol } from '../../../node_modules/playwright-core/types/protocol.js';

export type CommandParameters = Protocol.CommandParameters;
export type CommandReturnValues = Protocol.CommandReturnValues;
export type AXNode = Protocol.Accessibility.AXNode;
export type FrameTree = Protocol.Page.FrameTree;
export type CaptureSnapshotReturn = Protocol.DOMSnapshot.captureSnapshotReturnValue;
export type LayoutMetrics = Protocol.Page.getLayoutMetricsReturnValue;
export type RemoteObject = Protocol.Runtime.RemoteObject;
