import type { CompareViewState } from '../../../src/protocol/comparePanel';
import { registerToolkit } from '../components/toolkit';
import { acquireHost } from '../host';
import { HostIpc } from '../ipc';
import { CompareApp } from './app';

// Entry of the Compare webview: register the toolkit's elements, listen, then tell the host we are
// ready (with the folder restored from the saved state, if any).
registerToolkit();
const app = document.getElementById('app') ?? document.body;
const host = acquireHost<CompareViewState>();
new CompareApp(app, new HostIpc(host, window), host).start();
