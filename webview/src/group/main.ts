import type { GroupViewState } from '../../../src/protocol/groupPanel';
import { registerToolkit } from '../components/toolkit';
import { acquireHost } from '../host';
import { HostIpc } from '../ipc';
import { GroupApp } from './app';

// Entry of the group webview: register the toolkit's elements, listen, then tell the host we are
// ready (with the group restored from the saved state, if any).
registerToolkit();
const app = document.getElementById('app') ?? document.body;
const host = acquireHost<GroupViewState>();
new GroupApp(app, new HostIpc(host, window), host).start();
