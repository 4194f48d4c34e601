// First: keeps the toolkit's load-time <style> probe out of the CSP-restricted page (see the module).
import { releaseFocusProbeGuard } from './focusProbeGuard';
import {
  provideVSCodeDesignSystem,
  vsCodeBadge,
  vsCodeButton,
  vsCodeCheckbox,
  vsCodeDivider,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeProgressRing,
  vsCodeTag,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';

// The only module that touches @vscode/webview-ui-toolkit (docs/architecture.md §4.3): it registers the few
// components the views use as custom elements (<vscode-button>, <vscode-dropdown>, …). Everything
// else creates those elements by tag name, so swapping the archived toolkit for its successor
// (@vscode-elements/elements) changes this file only.

let registered = false;

/** Registers the toolkit's custom elements once per page; later calls do nothing. */
export function registerToolkit(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(
    vsCodeBadge(),
    vsCodeButton(),
    vsCodeCheckbox(),
    vsCodeDivider(),
    vsCodeDropdown(),
    vsCodeOption(),
    vsCodeProgressRing(),
    vsCodeTag(),
    vsCodeTextField(),
  );
  releaseFocusProbeGuard();
}

// The tag names live apart so that views (and their tests) can name elements without loading the toolkit.
export { toolkitTags } from './toolkitTags';
