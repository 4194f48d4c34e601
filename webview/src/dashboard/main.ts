import { registerToolkit } from '../components/toolkit';
import { acquireHost } from '../host';
import { HostIpc } from '../ipc';
import { DashboardApp } from './app';

// Entry of the Run Dashboard webview: register the toolkit's elements, build the page, listen to
// the host, then say ready (again after every reload; the saved UI state comes back with getState).
registerToolkit();
const host = acquireHost<unknown>();
const root = document.getElementById('app') ?? document.body;
new DashboardApp(new HostIpc(host, window), host, root).start();
