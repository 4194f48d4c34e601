// Imported by toolkit.ts before the toolkit itself. At load, FAST (the toolkit's base) probes `:focus-visible`
// support by appending an empty <style> to <head> (fast-web-utilities canUseFocusVisible). The
// panel's CSP has no inline styles, so Chromium blocks that element and logs a CSP violation; the
// probe then fails and FAST uses `:focus`. This guard keeps the empty probe element out of the
// document while the toolkit loads: same outcome, no blocked insertion. Nothing else is touched,
// and releaseFocusProbeGuard() restores <head> once the toolkit is registered.

type Insert = <T extends Node>(node: T) => T;

const head = document.head as HTMLHeadElement & { appendChild: Insert; removeChild: Insert };
const originalAppend = head.appendChild.bind(head);
const originalRemove = head.removeChild.bind(head);
const probes = new WeakSet<Node>();

function isProbe(node: Node): boolean {
  return node instanceof HTMLStyleElement && node.textContent === '';
}

head.appendChild = function <T extends Node>(node: T): T {
  if (!isProbe(node)) return originalAppend(node);
  probes.add(node);
  return node;
};
head.removeChild = function <T extends Node>(node: T): T {
  return probes.has(node) ? node : originalRemove(node);
};

/** Restores <head>'s own appendChild / removeChild. */
export function releaseFocusProbeGuard(): void {
  Reflect.deleteProperty(head, 'appendChild');
  Reflect.deleteProperty(head, 'removeChild');
}
